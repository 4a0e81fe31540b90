"""Swiss rounds (bot.tournaments.swiss): the library's checker re-derives every round of our TRF export, and the
rules the checker does not know (forbidden pairs, byes, late entrants) hold on generated events."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from caissify_pairings.fpc import check_trf
from caissify_pairings.trf import parse_trf

from bot.tournaments import swiss, trf
from bot.tournaments.model import Entrant, Table, TableKind
from bot.tournaments.scoring import standings
from tests.bot.tournaments.simulate import play, swiss_event

CHECKED_EVENTS = 24         # here; bench/bench_tournament.py --check runs 1,000 (its output is in bench/results)


@pytest.mark.parametrize("seed", range(CHECKED_EVENTS))
def test_the_pairing_checker_re_derives_every_round_of_the_trf_export(seed):
    players, rounds = 6 + seed % 9, 3 + seed % 4
    entrants, tables = swiss_event(seed, players, rounds)
    report = check_trf(trf.export(f"event {seed}", entrants, {}, tables, rounds))
    assert report["summary"]["rounds_checked"] == rounds
    assert report["summary"]["total_discrepancies"] == 0, [r["discrepancies"] for r in report["rounds"]]


def test_the_trf_export_reads_back_with_every_result_and_score():
    entrants, tables = swiss_event(7, 9, 4)
    names = {e.id: f"Player {e.id}" for e in entrants}
    parsed = parse_trf(trf.export("Autumn Swiss", entrants, names, tables, 4))
    sn = swiss.starting_numbers(entrants)
    rows = {r.entrant: r for r in standings(entrants, tables)}
    assert parsed["tournament"]["name"] == "Autumn Swiss"
    by_number = {p["starting_number"]: p for p in parsed["players"]}
    for e in entrants:
        p = by_number[sn[e.id]]
        assert (p["name"], p["rating"], Fraction(p["score"])) == (names[e.id], e.rating, rows[e.id].points)
        for r, entry in swiss.history(entrants, tables)[sn[e.id]].items():
            assert p["results"][r]["opponent"] == entry.opponent and p["results"][r]["result"] == entry.result


def test_a_name_with_a_newline_stays_on_its_line_of_the_trf_export():
    entrants = [Entrant(1, 1500), Entrant(2, 1400)]
    text = trf.export("Cup", entrants, {1: "Evil\n001 fake line", 2: "B" * 50}, [], 1)
    assert [line[:3] for line in text.splitlines()].count("001") == 2


def _event(seed: int, players: int, rounds: int, *, forbidden=(), requests=None):
    rng = random.Random(seed)
    entrants = [Entrant(i, rng.randint(1000, 2000)) for i in range(1, players + 1)]
    ratings = {e.id: e.rating for e in entrants}
    tables: list[Table] = []
    for r in range(1, rounds + 1):
        half = (requests or {}).get(r, ())
        tables += [play(t, rng, ratings) for t in swiss.pair_round(entrants, tables, r, rounds, forbidden=forbidden,
                                                                   half_byes=half)]
    return entrants, tables


@pytest.mark.parametrize("seed", range(6))
def test_no_two_players_meet_twice_over_the_board(seed):
    _, tables = _event(seed, 9, 6)
    met = Counter(frozenset(t.seats) for t in tables if t.kind is TableKind.GAME and not t.forfeit)
    assert max(met.values()) == 1


@pytest.mark.parametrize("seed", range(6))
def test_forbidden_pairs_are_never_paired(seed):
    forbidden = [frozenset({1, 2}), frozenset({3, 4}), frozenset({1, 5})]
    _, tables = _event(seed, 8, 5, forbidden=forbidden)
    games = {frozenset(t.seats) for t in tables if t.kind is TableKind.GAME}
    assert not games & set(forbidden)


@pytest.mark.parametrize("seed", range(6))
def test_the_odd_players_bye_never_goes_twice_to_one_player(seed):
    _, tables = _event(seed, 7, 6)
    byes = Counter(t.seats[0] for t in tables if t.kind is TableKind.BYE)
    assert sum(byes.values()) == 6 and max(byes.values()) == 1


def test_a_requested_bye_pays_half_a_point_and_keeps_the_player_out_of_the_round():
    entrants, tables = _event(3, 6, 2, requests={2: {4}})
    second = [t for t in tables if t.round == 2]
    assert Table(2, (4,), kind=TableKind.HALF_BYE) in second
    assert not any(4 in t.seats for t in second if t.kind is not TableKind.HALF_BYE)
    assert sum(1 for t in second if t.kind is TableKind.BYE) == 1      # five left: one gets the pairing's bye


def test_a_late_entrant_gets_half_a_point_per_missed_round_and_is_paired_from_their_round():
    entrants = [Entrant(i, 1500 + i) for i in range(1, 5)] + [Entrant(5, 2000, joined_round=3)]
    tables = swiss.late_tables(entrants[-1])
    assert tables == [Table(1, (5,), kind=TableKind.LATE), Table(2, (5,), kind=TableKind.LATE)]
    rng = random.Random(1)
    for r in (1, 2, 3):
        paired = swiss.pair_round(entrants, tables, r, 3)
        assert any(5 in t.seats for t in paired) == (r == 3)
        tables += [play(t, rng, {e.id: e.rating for e in entrants}) for t in paired]
    assert {r.entrant: r.points for r in standings(entrants, tables)}[5] >= 1


def test_a_withdrawn_player_is_not_paired_again():
    entrants = [Entrant(i, 1500 + i) for i in range(1, 6)] + [Entrant(6, 1400, withdrawn_round=2)]
    first = swiss.pair_round(entrants, [], 1, 3)
    assert any(6 in t.seats for t in first)
    second = swiss.pair_round(entrants, [t.finish((1, 1)) if t.kind is TableKind.GAME else t for t in first], 2, 3)
    assert not any(6 in t.seats for t in second)


def test_a_round_is_paired_once():
    entrants = [Entrant(1, 1500), Entrant(2, 1400)]
    first = swiss.pair_round(entrants, [], 1, 2)
    with pytest.raises(ValueError, match="already paired"):
        swiss.pair_round(entrants, first, 1, 2)
