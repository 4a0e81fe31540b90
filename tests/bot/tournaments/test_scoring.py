"""Points, tiebreaks and standings against hand-computed tables (bot.tournaments.scoring)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from bot.tournaments import roundrobin
from bot.tournaments.model import Entrant, Format, Settings, Table, TableKind, game
from bot.tournaments.scoring import adjudicate, crosstable, figure, forfeited, standings, table_points, withdraw

# A 5-player double round robin: the first seat's score against the second in each leg, smaller id first.
LEG1 = {(1, 2): 1, (1, 3): F(1, 2), (1, 4): 1, (1, 5): 0, (2, 3): 1, (2, 4): F(1, 2), (2, 5): 1,
        (3, 4): 1, (3, 5): F(1, 2), (4, 5): 1}
LEG2 = {(1, 2): 0, (1, 3): 1, (1, 4): F(1, 2), (1, 5): 1, (2, 3): 0, (2, 4): 1, (2, 5): F(1, 2),
        (3, 4): 0, (3, 5): 1, (4, 5): F(1, 2)}
# (entrant, points, Sonneborn-Berger, Buchholz cut-1, wins), worked out by hand in the order of the standings
DOUBLE_RR_STANDINGS = [(1, 5, F(75, 4), F(55, 2), 4), (2, 5, 18, F(55, 2), 4), (3, 4, F(59, 4), F(59, 2), 3),
                       (4, F(7, 2), F(51, 4), F(61, 2), 2), (5, F(5, 2), F(45, 4), F(63, 2), 1)]


def _ranks(first_score: F | int) -> tuple[int, int]:
    return {F(1): (1, 2), F(1, 2): (1, 1), F(0): (2, 1)}[F(first_score)]


def test_five_player_double_round_robin_equals_the_hand_computed_table():
    entrants = [Entrant(i, 2100 - 100 * i) for i in range(1, 6)]
    tables = []
    for round_tables in roundrobin.schedule(entrants, double=True):
        for t in round_tables:
            if t.kind is TableKind.GAME:
                a, b = sorted(t.seats)
                score = (LEG1 if t.round <= 5 else LEG2)[(a, b)]
                ranks = _ranks(score) if t.seats[0] == a else tuple(reversed(_ranks(score)))
                t = t.finish(ranks)
            tables.append(t)
    rows = standings(entrants, tables)
    assert [(r.entrant, r.points, r.sonneborn_berger, r.buchholz_cut1, r.wins) for r in rows] == \
        DOUBLE_RR_STANDINGS
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    assert all(r.games == 8 for r in rows)


def test_small_swiss_with_byes_and_a_draw_equals_the_hand_computed_table():
    entrants = [Entrant(i, 1900 - 100 * i) for i in range(1, 6)]
    tables = [
        game(1, 1, 4, ranks=(1, 2)), game(1, 2, 5, ranks=(1, 1)), Table(1, (3,), kind=TableKind.BYE),
        game(2, 1, 3, ranks=(2, 1)), game(2, 4, 5, ranks=(1, 2)), Table(2, (2,), kind=TableKind.HALF_BYE),
        game(3, 3, 2, ranks=(1, 1)), game(3, 1, 5, ranks=(1, 2)), Table(3, (4,), kind=TableKind.BYE),
    ]
    rows = standings(entrants, tables)
    assert [(r.entrant, r.points, r.sonneborn_berger, r.buchholz_cut1, r.wins) for r in rows] == [
        (3, F(5, 2), F(11, 4), 2, 1), (1, 2, F(5, 2), F(9, 2), 2), (4, 2, F(1, 2), 2, 1),
        (2, F(3, 2), F(3, 2), F(5, 2), 0), (5, F(1, 2), F(3, 4), 4, 0)]


def test_a_cycle_of_equal_results_falls_to_rating_and_shares_the_rank_when_ratings_are_equal():
    entrants = [Entrant(1, 1500), Entrant(2, 1600), Entrant(3, 1500), Entrant(4, 1400)]
    tables = [game(1, 1, 2, ranks=(1, 2)), game(1, 3, 4, ranks=(1, 2)), game(2, 2, 3, ranks=(1, 2)),
              game(2, 4, 1, ranks=(1, 2)), game(3, 1, 3, ranks=(1, 1)), game(3, 2, 4, ranks=(1, 1))]
    rows = standings(entrants, tables)
    assert {r.points for r in rows} == {F(3, 2)} and {r.sonneborn_berger for r in rows} == {F(9, 4)}
    assert [(r.entrant, r.rank) for r in rows] == [(2, 1), (1, 2), (3, 2), (4, 4)]


def test_direct_encounter_orders_players_tied_on_points_and_both_buchholz_and_sonneborn_berger():
    # 3 and 4 both end on 1½ with Sonneborn-Berger 1¾ (3: a win over 4 and a draw with 2; 4: a win over 2 and a
    # draw with 1) and Buchholz cut-1 4 (opponents 2½, 1½, ½ less ½): 3 beat 4, so 3 is above.
    entrants = [Entrant(i, 1500) for i in range(1, 5)]
    tables = [game(1, 1, 2, ranks=(1, 2)), game(1, 3, 4, ranks=(1, 2)), game(2, 1, 3, ranks=(1, 2)),
              game(2, 2, 4, ranks=(2, 1)), game(3, 1, 4, ranks=(1, 1)), game(3, 2, 3, ranks=(1, 1))]
    rows = standings(entrants, tables)
    assert [(r.entrant, r.points, r.sonneborn_berger, r.buchholz_cut1, r.direct_encounter) for r in rows] == [
        (1, F(5, 2), F(11, 4), 3, 0), (3, F(3, 2), F(7, 4), 4, 1), (4, F(3, 2), F(7, 4), 4, 0),
        (2, F(1, 2), F(3, 4), 4, 0)]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


@pytest.mark.parametrize(("ranks", "points"), [
    ((1, 2), (1, 0)), ((1, 1), (F(1, 2), F(1, 2))),
    ((1, 2, 3), (1, F(1, 2), 0)), ((2, 1, 1), (0, F(3, 4), F(3, 4))),
    ((1, 2, 3, 4), (1, F(2, 3), F(1, 3), 0)), ((4, 3, 2, 1), (0, F(1, 3), F(2, 3), 1)),
    ((1, 1, 3, 4), (F(5, 6), F(5, 6), F(1, 3), 0)),
])
def test_placement_points_are_the_mean_of_the_duels_at_the_table(ranks, points):
    table = Table(1, tuple(range(10, 10 + len(ranks))), ranks)
    assert [table_points(table)[p] for p in table.seats] == list(points)


def test_a_team_game_pays_the_winning_team_one_point_each_and_the_losers_nothing():
    table = Table(1, (1, 2, 3, 4), (1, 2, 1, 2), teams=((0, 2), (1, 3)))
    assert table_points(table) == {1: 1, 2: 0, 3: 1, 4: 0}


def test_byes_pay_one_half_and_nothing():
    assert table_points(Table(1, (7,), kind=TableKind.BYE)) == {7: 1}
    assert table_points(Table(1, (7,), kind=TableKind.HALF_BYE)) == {7: F(1, 2)}
    assert table_points(Table(1, (7,), kind=TableKind.LATE)) == {7: F(1, 2)}
    assert table_points(Table(1, (7,), kind=TableKind.ABSENT)) == {7: 0}


def test_a_forfeit_scores_but_counts_for_no_tiebreak():
    entrants = [Entrant(1, 1500), Entrant(2, 1500)]
    rows = standings(entrants, [forfeited(game(1, 1, 2), loser=2)])
    assert [(r.entrant, r.points, r.sonneborn_berger, r.wins, r.games) for r in rows] == [(1, 1, 0, 0, 0),
                                                                                          (2, 0, 0, 0, 0)]


RR = Settings(Format.ROUND_ROBIN, "tintas")
SWISS = Settings(Format.SWISS, "tintas", rounds=5)


def test_a_round_robin_withdrawal_before_half_the_games_annuls_all_of_them():
    tables = [game(1, 1, 2, ranks=(2, 1)), game(2, 1, 3), game(1, 3, 4, ranks=(1, 1))]
    assert withdraw(RR, tables, 1, scheduled_games=3) == [game(1, 3, 4, ranks=(1, 1))]


def test_a_round_robin_withdrawal_from_half_the_games_on_forfeits_the_rest():
    tables = [game(1, 1, 2, ranks=(2, 1)), game(2, 1, 3, ranks=(1, 2)), game(3, 4, 1)]
    after = withdraw(RR, tables, 1, scheduled_games=4)
    assert after[:2] == tables[:2]
    assert after[2] == Table(3, (4, 1), (1, 2), forfeit=True)


def test_a_swiss_withdrawal_forfeits_the_unfinished_game_however_few_were_played():
    tables = [game(1, 1, 2)]
    assert withdraw(SWISS, tables, 2, scheduled_games=5) == [Table(1, (1, 2), (1, 2), forfeit=True)]


def test_adjudication_ranks_the_side_that_used_less_time_higher_and_equal_time_is_a_draw():
    assert adjudicate(game(1, 1, 2), {1: 3600.0, 2: 60.0}) == Table(1, (1, 2), (2, 1), adjudicated=True)
    assert adjudicate(game(1, 1, 2), {1: 60.0, 2: 60.0}).ranks == (1, 1)
    assert adjudicate(Table(1, (1, 2, 3), None), {1: 5.0, 2: 1.0, 3: 5.0}).ranks == (2, 1, 2)
    team = Table(1, (1, 2, 3, 4), teams=((0, 2), (1, 3)))
    assert adjudicate(team, {1: 10.0, 2: 1.0, 3: 1.0, 4: 20.0}).ranks == (1, 2, 1, 2)


@pytest.mark.parametrize(("value", "text"), [(F(0), "0"), (F(7, 2), "3½"), (F(2, 3), "⅔"), (F(49, 4), "12¼"),
                                             (F(5), "5"), (F(1, 7), "0.14")])
def test_figures_read_as_players_write_them(value, text):
    assert figure(value) == text


def test_the_crosstable_lists_both_legs_in_round_order():
    tables = [game(1, 1, 2, ranks=(1, 2)), game(2, 2, 1, ranks=(1, 1)), game(1, 3, 4)]
    assert crosstable([1, 2, 3], tables) == (("", "1 ½", ""), ("0 ½", "", ""), ("", "", ""))
