"""Quincala's policy: the evaluation (sizes each winning dot still misses, the quincala dot worth more), the leg cap."""

from __future__ import annotations

import dataclasses
import random

import pytest

from ai.policies import POLICIES, policy_for
from ai.policies.quincala import BOT_MAX_LEGS, QUINCALA_LEVELS, quincala_evaluate, stop_after_max_legs
from ai.search import choose_turn, iterations_for
from engines import GAMES

QUINCALA = GAMES["quincala"]


def gathered(variant: str, colour: str, sizes: range, dot: str) -> str:
    """The start position of ``variant`` with one ``colour`` piece of each of ``sizes`` moved onto ``dot``."""
    fields = QUINCALA.new(2, variant=variant).encode().split(" ")
    dots = fields[1].split(",")
    for size in sizes:
        dots[dots.index(f"{colour}{size}")] = "."
    dots["abcdefghij".index(dot[0]) + 10 * (int(dot[1:]) - 1)] = "".join(f"{colour}{s}" for s in sizes)
    fields[1] = ",".join(dots)
    return " ".join(fields)


def evaluate(code: str) -> tuple[float, float]:
    return quincala_evaluate(QUINCALA.decode(code))


def test_the_start_is_even():
    assert evaluate(QUINCALA.new(2).encode()) == (0.5, 0.5)


def test_a_tower_one_size_short_favours_the_player_it_wins_for():
    white, black = evaluate(gathered("5", "w", range(1, 5), "f5"))   # f5: White's quincala dot
    assert white > 0.9 > 0.1 > black
    assert white + black == pytest.approx(1.0)


def test_the_sizes_count_for_the_dots_owner_whatever_their_colour():
    # Black's pieces on White's quincala dot help White just as much (R-W1: whoever built it).
    assert evaluate(gathered("5", "b", range(1, 5), "f5")) == evaluate(gathered("5", "w", range(1, 5), "f5"))


def test_the_opponents_home_dot_is_worth_less_than_the_own_quincala_dot():
    on_quincala = evaluate(gathered("5", "w", range(1, 5), "f5"))[0]
    on_black_home = evaluate(gathered("5", "w", range(1, 5), "f6"))[0]   # f6 wins for White too, but Black can sweep it
    assert 0.5 < on_black_home < on_quincala


def test_more_sizes_are_worth_more():
    values = [evaluate(gathered("5", "w", range(1, n + 1), "f5"))[0] for n in range(1, 5)]
    assert values == sorted(values) and len(set(values)) == 4


def test_black_is_judged_as_white_is():
    white, black = evaluate(gathered("5", "w", range(1, 4), "f5"))
    assert evaluate(gathered("5", "b", range(1, 4), "e6")) == pytest.approx((black, white))   # e6: Black's quincala


@pytest.mark.parametrize("variant", ["3", "4"])
def test_one_size_short_is_worth_the_same_in_every_variant(variant):
    k = int(variant)
    assert evaluate(gathered(variant, "w", range(1, k), "f5")) == evaluate(gathered("5", "w", range(1, 5), "f5"))


def moved(code: str, piece: str, dot: str, under: str = "") -> str:
    """``code`` with one ``piece`` taken from the first dot holding it alone and put on ``dot`` (above ``under``)."""
    fields = code.split(" ")
    dots = fields[1].split(",")
    dots[dots.index(piece)] = "."
    dots["abcdefghij".index(dot[0]) + 10 * (int(dot[1:]) - 1)] = under + piece
    fields[1] = ",".join(dots)
    return " ".join(fields)


def to_move(code: str, colour: str) -> str:
    fields = code.split(" ")
    fields[6] = colour
    return " ".join(fields)


ONE_SHORT = gathered("5", "w", range(1, 5), "f5")   # White's quincala dot f5 misses only a 5


def test_a_piece_that_can_step_onto_the_quincala_dot_is_a_threat_worth_most_to_the_player_to_move():
    threat = moved(ONE_SHORT, "w5", "g4")   # g4 touches f5: the lone w5 can land there next turn and win
    now = evaluate(to_move(threat, "w"))[0]
    later = evaluate(to_move(threat, "b"))[0]   # Black moves first and may knock it away
    assert now > later > evaluate(ONE_SHORT)[0]


THREE_THERE = gathered("5", "w", range(1, 4), "f5")


def test_the_lowest_level_plays_the_leg_that_wins():
    state = QUINCALA.decode(to_move(moved(ONE_SHORT, "w5", "g4"), "w"))
    assert iterations_for("quincala", 1) == min(QUINCALA_LEVELS.values())
    for seed in range(5):
        after = state
        for move in choose_turn(state, level=1, seed=seed):
            after = after.play(move)
        assert after.is_over and after.winners == (0,), seed


# Each example moves pieces from their start dots (far from f5) and is judged against the position before.
@pytest.mark.parametrize(
    "why, code, before",
    [
        ("a tower lands whole, and its w4 is already on the dot",
         moved(moved(ONE_SHORT, "w4", "g4"), "w5", "g4", under="w4"), ONE_SHORT),
        ("a lone piece moves one dot, and h3 is two away", moved(ONE_SHORT, "w5", "h3"), ONE_SHORT),
        ("a mixed tower cannot make a first leg", moved(moved(ONE_SHORT, "b1", "g4"), "w5", "g4", under="b1"),
         ONE_SHORT),
        ("the opponent's piece wins nothing for White", moved(ONE_SHORT, "b5", "g4"), ONE_SHORT),
        ("the line from h3 is blocked at g4",
         moved(moved(moved(THREE_THERE, "w4", "h3"), "w5", "h3", under="w4"), "b1", "g4"), THREE_THERE),
    ],
)
def test_what_cannot_reach_the_quincala_dot_is_no_threat(why, code, before):
    assert evaluate(code) == evaluate(before), why


def test_a_tower_reaches_as_far_as_it_is_high_over_empty_dots():
    tower = moved(moved(THREE_THERE, "w4", "h3"), "w5", "h3", under="w4")   # w4w5 on h3, two dots from f5
    assert evaluate(tower)[0] > evaluate(THREE_THERE)[0]


# Black has moved a leg onto e9 (b2 b3) and may go on with the b2 or stop.
MID_MOVE = ("5 w1,w2,w3,w4,w5,w1,w2,w3,w4,w5,w3,w4,.,w1,w2,w3,w4,w5,w1,w2,.,.,w5" + ",." * 57
            + ",b2,b1,b5,b4,b2b3,b2,b1,b5,b4,b3,b5,b4,b3,.,b1,b5,b4,b3,b2,b1 - - - - b leg@e9 - -/0")


def test_the_bot_ends_a_move_after_the_leg_cap():
    state = QUINCALA.decode(MID_MOVE)
    assert "end" in state.legal_moves() and len(state.legal_moves()) > 1
    legs = ["e7-e8", "e8-e9", "e9-e8", "e8-e9"]
    assert stop_after_max_legs(state, legs[:BOT_MAX_LEGS - 1]) is None
    assert stop_after_max_legs(state, legs[:BOT_MAX_LEGS]) == "end"
    assert stop_after_max_legs(state, ["w1@a1", "home", *legs[:BOT_MAX_LEGS - 1]]) is None   # placements don't count
    start_of_turn = QUINCALA.new(2)
    assert stop_after_max_legs(start_of_turn, legs) is None   # no move under way: nothing to end


def test_the_search_plays_the_policys_stop_without_searching(monkeypatch):
    stopping = dataclasses.replace(policy_for("quincala"), stop_turn=lambda state, moves: "end")
    monkeypatch.setitem(POLICIES, "quincala", stopping)
    assert choose_turn(QUINCALA.decode(MID_MOVE), level=5, seed=1) == ["end"]


def test_bot_moves_keep_to_the_leg_cap():
    rng = random.Random(7)
    state = QUINCALA.new(2, seed=7)
    for _ in range(60):
        turn = choose_turn(state, level=1, seed=rng.randrange(1 << 30))
        assert sum(1 for move in turn if "-" in move) <= BOT_MAX_LEGS
        for move in turn:
            state = state.play(move)
        if state.is_over:
            break
