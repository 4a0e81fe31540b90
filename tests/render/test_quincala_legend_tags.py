"""Issue [16]'s Quincala probes: the key on every board (what green means changes with the player to move)
and role tags no tower touches (the last turn under a two-line end sentence: test_last_turn_names.py)."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from render import board_png
from render import quincala as rq
from tests.render.test_last_turn_names import turns
from tests.render.test_quincala import GAME, image, position


def legend_box():
    return 0, rq.LEGEND_Y - 16, rq.WIDTH, rq.LEGEND_Y + 16


def differs(a, b, box, mask=None) -> bool:
    """Whether ``a`` and ``b`` differ inside ``box`` (only where ``mask``, an 'L' image of the box's size, is
    set)."""
    r, g, b_ = ImageChops.difference(a.crop(box), b.crop(box)).split()
    diff = ImageChops.lighter(ImageChops.lighter(r, g), b_)
    if mask is not None:
        diff = ImageChops.multiply(diff.point(lambda v: 255 if v else 0), mask.point(lambda v: 255 if v == 255 else 0))
    return diff.getbbox() is not None


def test_the_key_shows_mid_game_and_follows_the_player_to_move():
    played = turns("quincala", 2, seed=3)
    white_next = next(p for p in played[5:] if not p[0].is_over and p[0].seat_to_show == 0)
    black_next = next(p for p in played[5:] if not p[0].is_over and p[0].seat_to_show == 1)
    shots = [image(board_png(s, last_turn=m, names=["Ann", "Bob"], previous=b)) for s, b, m in (white_next,
                                                                                              black_next)]
    for shot in shots:                                      # drawn: the key's row is not blank
        assert shot.crop(legend_box()).getextrema() != shot.crop((0, 0, 2, 2)).getextrema()
    assert differs(*shots, legend_box())                   # "White's winning dots" vs "Black's"
    assert rq.legend(white_next[0]) != rq.legend(black_next[0])
    assert "White" in rq.legend(white_next[0]) and "Black" in rq.legend(black_next[0])


def test_the_key_at_the_end_names_the_winner_without_placing_areas():
    state, before, moves = turns("quincala", 2, seed=3)[-1]
    outcome = state.outcome()
    assert outcome is not None and len(outcome.winners) == 1
    text = rq.legend(state)
    assert rq.SEAT_NAMES[outcome.winners[0]] in text and "placing" not in text
    shot = image(board_png(state, last_turn=moves, names=["Ann", "Bob"], previous=before))
    assert shot.crop(legend_box()).getextrema() != shot.crop((0, 0, 2, 2)).getextrema()


NEIGHBOURS = {"e5": ("d5", "d4", "e4"), "f5": ("g5", "g4", "f4"), "e6": ("d6", "d7", "e7"),
              "f6": ("g6", "g7", "f7")}


@pytest.mark.parametrize("dot", sorted(NEIGHBOURS))
@pytest.mark.parametrize("neighbour", ["1 2 3 4 5", "2 3 4 5"])
def test_no_tower_touches_a_role_tag(dot, neighbour):
    """The tallest tower a running game allows on the tagged dot (four pieces: five would end it) and tall
    towers on the three other dots around its tag: the tag and its clear margin look exactly as on an empty
    board (before, the bar ends ran into and under the tag)."""
    colour = "w" if dot in ("e5", "f5") else "b"
    other = "b" if colour == "w" else "w"
    cells = {dot: f"{colour}2 {colour}3 {colour}4 {colour}5"}
    for i, n in enumerate(NEIGHBOURS[dot]):
        c = other if i == 1 else colour
        cells[n] = " ".join(f"{c}{k}" for k in neighbour.split())
    full = image(board_png(GAME.decode(position(cells))))
    empty = image(board_png(GAME.decode(position({}))))
    box = rq.role_tag_box(dot)
    assert not differs(full, empty, box, rq.role_tag_mask()), dot
    # the towers are really there, right beside the margin
    grown = (box[0] - 6, box[1] - 6, box[2] + 6, box[3] + 6)
    assert differs(full, empty, grown)

