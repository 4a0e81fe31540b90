"""The tournament model's own checks (bot.tournaments.model): bad settings and tables are refused with a clear
message."""

from __future__ import annotations

import pytest

from bot.tournaments.model import Entrant, Format, Schedule, Settings, Table, TableKind, game, two_player_ranks


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"format": Format.SWISS, "game": "tintas"}, "number of rounds"),
    ({"format": Format.ROUND_ROBIN, "game": "spinca", "table_size": 4}, "number of rounds"),
    ({"format": Format.ROUND_ROBIN, "game": "tintas", "table_size": 5}, "2, 3 or 4"),
    ({"format": Format.SWISS, "game": "tintas", "rounds": 0}, "at least one round"),
    ({"format": Format.SWISS, "game": "tintas", "rounds": 5, "schedule": Schedule.ALL_AT_ONCE}, "round by round"),
])
def test_settings_that_cannot_run_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Settings(**kwargs)


def test_round_robins_and_leagues_of_two_player_games_are_round_robins():
    assert Settings(Format.DOUBLE_ROUND_ROBIN, "tintas", schedule=Schedule.ALL_AT_ONCE).is_round_robin
    assert Settings(Format.LEAGUE, "roocala").is_round_robin
    assert not Settings(Format.SWISS, "tintas", rounds=5).is_round_robin
    assert not Settings(Format.ROUND_ROBIN, "rincala", table_size=3, rounds=4).is_round_robin


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Table(1, (1, 1)), "sits once"),
    (lambda: Table(1, (1,)), "two seats"),
    (lambda: Table(1, (1, 2), kind=TableKind.BYE), "one seat"),
    (lambda: Table(1, (1, 2), (1,)), "one rank per seat"),
])
def test_malformed_tables_are_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_an_entrant_plays_from_the_round_they_joined_until_the_one_they_withdrew():
    e = Entrant(1, 1500, joined_round=2, withdrawn_round=4)
    assert [e.plays(r) for r in range(1, 6)] == [False, True, True, False, False]


def test_a_table_is_finished_once_it_has_ranks_and_a_bye_always():
    assert not game(1, 1, 2).finished and game(1, 1, 2, ranks=two_player_ranks(0.5)).finished
    assert Table(1, (3,), kind=TableKind.BYE).finished
    assert two_player_ranks(1.0) == (1, 2) and two_player_ranks(0.0) == (2, 1)
