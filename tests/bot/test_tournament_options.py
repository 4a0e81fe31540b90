"""The options of /tournament create read back: every game with its variants and table sizes is offered and
read back to itself, a forged value is refused; start times relative, absolute or 'when full', and the refusals
of a past, far or unreadable one — in the reader's language."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.discord.tournament import GAME_CHOICES, game_options, parse_game, parse_start, parse_tournament_id
from bot.i18n import speaking
from bot.model import BadInput
from engines import GAMES

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def test_every_game_variant_and_table_size_is_offered_and_read_back():
    offered = {(g, v, n) for g, v, n, _label in game_options()}
    assert offered == {(g.key, v, n) for g in GAMES.values() for v in (g.variants or (None,)) for n in g.player_counts}
    assert len(GAME_CHOICES) == len(offered) <= 25
    assert {parse_game(c.value) for c in GAME_CHOICES} == offered
    assert parse_game("spinca@4") == ("spinca", None, 4) and parse_game("roocala:square") == ("roocala", "square", 2)


@pytest.mark.parametrize("forged", ["chess", "tintas@3", "roocala:round", "", 7, None])
def test_a_forged_game_is_refused(forged):
    with pytest.raises(BadInput, match="not one of the games on the list"):
        parse_game(forged)


@pytest.mark.parametrize(("typed", "expected"), [
    (None, None), ("", None), ("full", None), ("When full", None),
    ("3d", "2026-01-04T12:00:00+00:00"), ("in 12 hours", "2026-01-02T00:00:00+00:00"),
    ("2026-01-10 18:30", "2026-01-10T18:30:00+00:00"), ("2026-01-10T19:30+01:00", "2026-01-10T18:30:00+00:00")])
def test_start_times_read_back(typed, expected):
    assert parse_start(typed, NOW) == expected


@pytest.mark.parametrize(("typed", "refusal"), [
    ("yesterday", "is not a start time"), ("2025-12-31 12:00", "has passed"), ("0h", "has passed"),
    ("90d", "within 60 days")])
def test_a_bad_start_time_is_refused_with_its_reason(typed, refusal):
    with pytest.raises(BadInput, match=refusal):
        parse_start(typed, NOW)


def test_a_refusal_reads_in_german_for_a_german_reader():
    with pytest.raises(BadInput) as refused:
        parse_start("morgen früh", NOW)
    with speaking("de"):
        assert str(refused.value).startswith("morgen früh ist keine Startzeit")


@pytest.mark.parametrize(("typed", "expected"), [("12", 12), ("#7", 7), (" # 3 ", 3)])
def test_tournament_numbers_read_back(typed, expected):
    assert parse_tournament_id(typed) == expected


@pytest.mark.parametrize("typed", ["", None, "x", "²", "1" * 19])
def test_a_bad_tournament_number_is_refused(typed):
    with pytest.raises(BadInput, match="not a tournament number"):
        parse_tournament_id(typed)
