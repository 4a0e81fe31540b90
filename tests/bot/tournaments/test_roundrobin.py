"""Berger round robins (bot.tournaments.roundrobin)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from bot.tournaments import roundrobin
from bot.tournaments.model import Entrant, TableKind


@pytest.mark.parametrize("n", range(2, 13))
def test_everyone_meets_everyone_once_per_leg_and_the_second_leg_swaps_the_seats(n):
    entrants = [Entrant(i, 1000 + 37 * i % 500) for i in range(1, n + 1)]
    rounds = roundrobin.schedule(entrants, double=True)
    legs = len(rounds) // 2
    assert legs == n - 1 + n % 2
    first = [t.seats for r in rounds[:legs] for t in r if t.kind is TableKind.GAME]
    second = [t.seats for r in rounds[legs:] for t in r if t.kind is TableKind.GAME]
    assert sorted(frozenset(s) for s in first) == sorted(frozenset(s) for s in second)
    assert {frozenset(s) for s in first} == {frozenset(p) for p in combinations(range(1, n + 1), 2)}
    assert len(first) == n * (n - 1) // 2
    assert Counter(second) == Counter(tuple(reversed(s)) for s in first)
    for r, tables in enumerate(rounds, start=1):
        seated = [p for t in tables for p in t.seats]
        assert sorted(seated) == list(range(1, n + 1)) and {t.round for t in tables} == {r}


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_with_an_odd_count_each_player_sits_out_once_per_leg(n):
    rounds = roundrobin.schedule([Entrant(i, 1500) for i in range(1, n + 1)])
    out = Counter(t.seats[0] for r in rounds for t in r if t.kind is roundrobin.ODD_ONE_OUT)
    assert out == Counter(range(1, n + 1))


def test_seats_alternate_fairly_the_first_seat_is_had_at_most_one_game_more_or_less_than_half():
    rounds = roundrobin.schedule([Entrant(i, 1500) for i in range(1, 9)])
    first_seats = Counter(t.seats[0] for r in rounds for t in r)
    assert all(abs(2 * first_seats[p] - 7) <= 1 for p in range(1, 9))


def test_the_highest_rated_entrant_is_berger_number_one():
    entrants = [Entrant(1, 1200), Entrant(2, 1900), Entrant(3, 1500), Entrant(4, 1900)]
    assert [e.id for e in roundrobin.seeding(entrants)] == [2, 4, 3, 1]
