"""Quincala's evaluation: the sizes each player's two winning dots still miss, his quincala dot worth more."""

from __future__ import annotations

import pytest

from ai.policies.quincala import quincala_evaluate
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
