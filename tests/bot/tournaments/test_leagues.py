"""Leagues (bot.tournaments.leagues): divisions, promotion and relegation, the 30-day drop."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bot.tournaments import leagues
from bot.tournaments.model import Entrant


@pytest.mark.parametrize(("n", "sizes"), [(4, [4]), (10, [10]), (11, [6, 5]), (20, [10, 10]), (23, [8, 8, 7]),
                                          (31, [8, 8, 8, 7])])
def test_divisions_hold_at_most_ten_and_differ_by_one_at_most(n, sizes):
    entrants = [Entrant(i, 1000 + i) for i in range(1, n + 1)]
    divisions = leagues.first_edition(entrants)
    assert [len(d) for d in divisions] == sizes
    assert [p for d in divisions for p in d] == list(range(n, 0, -1))     # by rating, the best on top


def test_a_league_needs_four_entrants():
    with pytest.raises(ValueError, match="4 entrants"):
        leagues.first_edition([Entrant(i, 1500) for i in range(3)])


def test_the_top_two_move_up_and_the_bottom_two_move_down():
    top, bottom = [1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]
    ratings = {p: 1500 for p in top + bottom}
    nxt = leagues.next_edition([top, bottom], set(top + bottom), [], ratings)
    assert nxt == [[1, 2, 3, 4, 7, 8], [5, 6, 9, 10, 11, 12]]


def test_a_middle_division_sends_two_up_and_two_down():
    divisions = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]]
    nxt = leagues.next_edition(divisions, set(range(1, 16)), [], dict.fromkeys(range(1, 16), 1500))
    assert nxt == [[1, 2, 3, 6, 7], [4, 5, 8, 11, 12], [9, 10, 13, 14, 15]]


def test_newcomers_join_by_rating_and_the_dropped_are_gone():
    divisions = [[1, 2, 3, 4], [5, 6, 7, 8]]
    ratings = {1: 2000, 2: 1900, 3: 1800, 4: 1700, 5: 1600, 6: 1500, 7: 1400, 8: 1300}
    nxt = leagues.next_edition(divisions, {1, 2, 3, 4, 5, 6, 7}, [Entrant(9, 1950)], ratings)
    flat = [p for d in nxt for p in d]
    assert 8 not in flat and flat[:3] == [1, 9, 2]     # after 1 (rated higher), before 2 (rated lower)


def test_only_players_who_timed_out_and_were_unseen_for_thirty_days_are_dropped():
    now = datetime(2026, 11, 26)
    seen = {1: now - timedelta(days=31), 2: now - timedelta(days=29), 3: now - timedelta(days=60)}
    assert leagues.dropped({1, 2, 4}, seen, now) == {1, 4}


def test_a_league_grows_a_division_past_ten_a_division_and_loses_one_below_four():
    divisions = [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]
    ratings = {p: 1500 for p in range(1, 13)}
    grown = leagues.next_edition(divisions, set(range(1, 11)), [Entrant(11, 1000), Entrant(12, 1000)], ratings)
    assert [len(d) for d in grown] == [6, 6]
    shrunk = leagues.next_edition([[1, 2, 3, 4], [5, 6, 7, 8]], {1, 2, 3, 5, 6}, [], ratings)
    assert [len(d) for d in shrunk] == [5]
