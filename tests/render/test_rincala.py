"""Rincala board image: limits, determinism, and pixels that mean something."""

import io
import random

import pytest
from PIL import Image

from engines import GAMES
from render import board_png
from render.common import HIGHLIGHT, INK, MAX_PNG_BYTES
from render.rincala import ARC_OUTER, PIECE_FILL, SOWING_COLOURS, TOP, WIDTH, angle, hollow_box, piece_box, point

GAME = GAMES["rincala"]
B64 = "WRG/RY/-/YG/GWR/YW/RY/GWY -/- 1 turn"
B65 = "RGYWRGYW/RGYWRGY/WRGYWRGY/W/-/-/-/- -/-/- 1 turn"


def image(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("RGB")


def played_game(players: int, seed: int):
    """A random game to its end; returns (final state, its last turn's moves, the state before that turn)."""
    rng = random.Random(seed)
    state, before, turn = GAME.new(players=players, seed=seed), None, []
    while not state.is_over:
        if state.phase != "again":
            before, turn = state, []
        move = rng.choice(state.legal_moves())
        turn.append(move)
        state = state.play(move)
    return state, turn, before


def cases():
    s64 = GAME.decode(B64)
    s65 = GAME.decode(B65)
    end3, turn3, before3 = played_game(3, 5)
    yield "opening", GAME.new(players=2, seed=1), [], None, None
    yield "move again", s64.play("A ccw"), ["A ccw"], s64, ["Ann", "Bob"]
    yield "lapping", s65.play("A cw"), ["A cw"], s65, ["A" * 40, "B", "C"]
    yield "three players over", end3, turn3, before3, None


@pytest.mark.parametrize("name, state, turn, previous, names", list(cases()))
def test_png_limits(name, state, turn, previous, names):
    png = board_png(state, last_turn=turn, previous=previous, names=names)
    img = image(png)
    assert img.width == WIDTH and 800 <= img.width <= 1000
    assert img.height < 1500
    assert len(png) <= MAX_PNG_BYTES


def test_same_input_same_bytes():
    s64 = GAME.decode(B64)
    after = s64.play("A cw")
    one = board_png(after, last_turn=["A cw"], previous=s64, names=["Ann", "Bob"])
    two = board_png(GAME.decode(after.encode()), last_turn=["A cw"], previous=GAME.decode(B64), names=["Ann", "Bob"])
    assert one == two


def test_pieces_are_drawn_bottom_to_top_in_their_colours():
    state = GAME.decode(B64)
    img = image(board_png(state))
    for hollow, stack in enumerate(state.board):
        for slot, colour in enumerate(stack):
            x0, y0, x1, y1 = piece_box(hollow, slot)
            assert img.getpixel((x0 + 6, (y0 + y1) // 2)) == PIECE_FILL[colour], (hollow, slot)
        if len(stack) < 8:                       # above the stack: the empty hollow
            x0, y0, x1, y1 = piece_box(hollow, len(stack))
            assert img.getpixel((x0 + 6, (y0 + y1) // 2)) not in PIECE_FILL.values()


def test_full_stacks_are_marked():
    before = GAME.decode(B65)
    state = before.play("A cw")
    img = image(board_png(state))
    for hollow, stack in enumerate(state.board):
        x0, y0, x1, y1 = hollow_box(hollow)
        edge = img.getpixel((x0 + 2, (y0 + y1) // 2))
        assert (edge == INK) is (len(stack) == 8), hollow


def test_last_sowing_shows_its_start_and_drops():
    before = GAME.decode(B64)
    state = before.play("A cw")                  # W onto B, R into empty C, G onto D (collected)
    img = image(board_png(state, last_turn=["A cw"], previous=before))
    for step, colour in enumerate("WRG", 1):
        x, y = point(angle(0) + 45 * step, ARC_OUTER)
        assert img.getpixel((round(x), round(y))) == PIECE_FILL[colour]
    x, y = point(angle(0), ARC_OUTER)
    assert img.getpixel((round(x) - 8, round(y))) == SOWING_COLOURS[0]  # the numbered start marker
    # the collected green is a ghost on top of D's stack: a paler green, not a piece colour
    x0, y0, x1, y1 = piece_box(3, len(state.board[3]))
    ghost = img.getpixel(((x0 + x1) // 2 - 20, (y0 + y1) // 2))
    assert ghost not in PIECE_FILL.values() and ghost[1] > ghost[0]
    # without the previous state the path is not drawn
    plain = image(board_png(state, last_turn=["A cw"]))
    x, y = point(angle(0) + 45, ARC_OUTER)
    assert plain.getpixel((round(x), round(y))) != PIECE_FILL["W"]


def status_has_highlight(img: Image.Image) -> bool:
    bar = img.crop((0, 0, WIDTH, TOP))
    return any(colour == HIGHLIGHT for _, colour in bar.getcolors(1 << 20))


def test_must_move_again_is_shown():
    before = GAME.decode(B64)
    assert status_has_highlight(image(board_png(before.play("A ccw"), last_turn=["A ccw"], previous=before)))
    assert not status_has_highlight(image(board_png(before.play("A cw"), last_turn=["A cw"], previous=before)))


def test_moves_that_do_not_fit_the_previous_state_draw_no_path():
    state = GAME.decode(B64)
    png = board_png(state, last_turn=["E cw"], previous=GAME.decode(B65))   # E is empty there
    assert image(png).width == WIDTH
