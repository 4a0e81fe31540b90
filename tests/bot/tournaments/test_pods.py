"""Pods (bot.tournaments.pods), property tests: the grouping repeats no meeting that some grouping avoids, it
seats players of similar points together when meetings allow, and each table's seating repeats the fewest
seats (all checked against brute force on small fields)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import pods
from bot.tournaments.model import Entrant, Table, TableKind

SPINCA_TEAMS = {4: ((0, 2), (1, 3))}


def _groupings(players: tuple[int, ...], sizes: list[int]):
    """Every way to split ``players`` into tables of ``sizes`` (brute force)."""
    if not sizes:
        yield []
        return
    head, rest = players[0], players[1:]
    for partners in combinations(rest, sizes[0] - 1):
        left = tuple(p for p in rest if p not in partners)
        for tail in _groupings(left, sizes[1:]):
            yield [(head, *partners), *tail]


def _finish(table: Table, rng: random.Random) -> Table:
    if table.kind is not TableKind.GAME:
        return table
    if table.teams:
        first = rng.choice((1, 2))
        return table.finish(tuple(first if s in table.teams[0] else 3 - first for s in range(4)))
    return table.finish(tuple(rng.sample(range(1, len(table.seats) + 1), len(table.seats))))


def _play(entrants, size, rounds, seed, teams=None):
    rng = random.Random(seed)
    tables: list[Table] = []
    for r in range(1, rounds + 1):
        tables += [_finish(t, rng) for t in pods.pair_pods(entrants, tables, r, size, teams=teams)]
    return tables


@pytest.mark.parametrize(("players", "size", "expected"), [
    (3, 3, [3]), (4, 3, [3]), (5, 3, [3]), (6, 3, [3, 3]), (7, 3, [3, 3]),
    (4, 4, [4]), (5, 4, [4]), (6, 4, [3, 3]), (7, 4, [4, 3]), (9, 4, [3, 3, 3]), (10, 4, [4, 3, 3]),
    (12, 4, [4, 4, 4]), (2, 3, []), (2, 4, []),
])
def test_table_sizes_seat_the_most_players_then_fill_the_most_full_tables(players, size, expected):
    assert pods.table_sizes(players, size) == expected


@settings(max_examples=60, deadline=None)
@given(n=st.integers(6, 10), size=st.sampled_from([3, 4]), rounds=st.integers(1, 4), seed=st.integers(0, 10**6))
def test_a_round_repeats_no_more_meetings_than_the_best_grouping_does(n, size, rounds, seed):
    entrants = [Entrant(i, 1500 + i) for i in range(1, n + 1)]
    earlier = _play(entrants, size, rounds - 1, seed)
    met = pods._met(earlier)
    new = [t for t in pods.pair_pods(entrants, earlier, rounds, size) if t.kind is TableKind.GAME]
    sizes = sorted((len(t.seats) for t in new), reverse=True)
    seated = tuple(sorted(p for t in new for p in t.seats))
    best = min(sum(pods.repeats(g, met) for g in grouping) for grouping in _groupings(seated, sizes))
    assert sum(pods.repeats(t.seats, met) for t in new) == best


@pytest.mark.parametrize(("n", "size"), [(9, 3), (12, 3), (15, 3), (16, 4)])
def test_everyone_meets_everyone_else_at_most_once_in_the_first_rounds_where_numbers_allow(n, size):
    # A repeat-free schedule exists for as many rounds as checked here (affine planes, Kirkman's schoolgirls), so
    # the search must not repeat a meeting in them. (Six players in threes cannot go two rounds without one.)
    first_rounds = {(9, 3): 4, (12, 3): 3, (15, 3): 4, (16, 4): 3}[(n, size)]
    entrants = [Entrant(i, 1500) for i in range(1, n + 1)]
    tables = _play(entrants, size, first_rounds, seed=n)
    met = Counter(frozenset(p) for t in tables if t.kind is TableKind.GAME for p in combinations(t.seats, 2))
    assert max(met.values()) == 1


@settings(max_examples=60, deadline=None)
@given(n=st.integers(6, 12), size=st.sampled_from([3, 4]), rounds=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_each_table_is_seated_in_the_order_that_repeats_the_fewest_seats(n, size, rounds, seed):
    entrants = [Entrant(i, 1500) for i in range(1, n + 1)]
    earlier = _play(entrants, size, rounds - 1, seed)
    counts = pods._seat_counts(earlier)
    for t in pods.pair_pods(entrants, earlier, rounds, size):
        if t.kind is TableKind.GAME:
            def repeated(order):
                return sum(counts.get((p, len(order)), Counter())[s] for s, p in enumerate(order))
            assert repeated(t.seats) == min(repeated(o) for o in permutations(t.seats))


@pytest.mark.parametrize("size", [3, 4])
def test_over_a_cycle_of_full_tables_nobody_sits_in_one_seat_more_than_twice(size):
    entrants = [Entrant(i, 1500) for i in range(1, 3 * size + 1)]
    tables = _play(entrants, size, size, seed=5)
    seats = Counter((p, s) for t in tables for s, p in enumerate(t.seats))
    assert max(seats.values()) <= 2
    assert sum(1 for v in seats.values() if v == 1) >= len(entrants) * size // 2


def test_players_of_equal_points_share_tables_when_no_meeting_is_repeated():
    entrants = [Entrant(i, 1500) for i in range(1, 10)]
    first = [Table(1, (1, 2, 3), (1, 2, 3)), Table(1, (4, 5, 6), (1, 2, 3)), Table(1, (7, 8, 9), (1, 2, 3))]
    second = pods.pair_pods(entrants, first, 2, 3)
    assert {frozenset(t.seats) for t in second} == {frozenset({1, 4, 7}), frozenset({2, 5, 8}), frozenset({3, 6, 9})}


def test_the_byes_go_to_players_without_one_first_and_then_the_lowest_score():
    entrants = [Entrant(i, 1500) for i in range(1, 5)]
    tables = _play(entrants, 3, 4, seed=2)
    assert sorted(t.seats[0] for t in tables if t.kind is TableKind.BYE) == [1, 2, 3, 4]


@pytest.mark.parametrize("seed", range(4))
def test_spinca_tables_of_four_play_as_teams_and_seatings_repeat_the_fewest_seats_then_partners(seed):
    entrants = [Entrant(i, 1500) for i in range(1, 9)]
    earlier = _play(entrants, 4, 3, seed=seed, teams=SPINCA_TEAMS)
    counts, partnered = pods._seat_counts(earlier), pods._partnered(earlier)
    for t in pods.pair_pods(entrants, earlier, 4, 4, teams=SPINCA_TEAMS):
        assert t.teams == SPINCA_TEAMS[4]

        def cost(order):
            seats = sum(counts.get((p, 4), Counter())[s] for s, p in enumerate(order))
            return seats, sum(partnered.get(frozenset(order[s] for s in team), 0) for team in SPINCA_TEAMS[4])
        assert cost(t.seats) == min(cost(o) for o in permutations(t.seats))
    assert len(partnered) > 4       # partners changed: eight players, three rounds, more than four pairs of partners


def test_pods_refuse_a_size_they_do_not_seat():
    with pytest.raises(ValueError, match="3 or 4"):
        pods.pair_pods([Entrant(1, 1500)], [], 1, 2)


def test_a_pod_round_is_paired_once():
    entrants = [Entrant(i, 1500) for i in range(1, 4)]
    first = pods.pair_pods(entrants, [], 1, 3)
    with pytest.raises(ValueError, match="already paired"):
        pods.pair_pods(entrants, first, 1, 3)
