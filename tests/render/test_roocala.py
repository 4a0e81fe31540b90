"""Roocala board images: valid small PNGs for both boards, stable bytes, and pixels that mean something."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engines import GAMES
from render import board_png
from render import roocala as RR
from render.common import MAX_PNG_BYTES

GAME = GAMES["roocala"]


def image(state, **kw) -> Image.Image:
    return Image.open(io.BytesIO(board_png(state, **kw))).convert("RGB")


def pixel(img: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    return img.getpixel((round(xy[0]), round(xy[1])))


def close(a, b, tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def ex9():
    """§8 Ex 9: the hybrid c1>d1+R drops on d1, e2 and puts South's Rook on f3, capturing 2."""
    st2 = GAME.new().play("Rd2-c1").play("c6")
    return st2, st2.play("c1>d1+R")


@pytest.mark.parametrize("variant", ["hex", "square"])
def test_png_is_valid_small_and_phone_sized(variant):
    state = GAME.new(variant=variant)
    data = board_png(state, names=["Ann", "Bob"])
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) <= MAX_PNG_BYTES
    img = Image.open(io.BytesIO(data))
    assert 800 <= img.width <= 1000 and img.height <= 1100


def test_identical_input_gives_identical_bytes():
    before, after = ex9()
    a = board_png(after, last_turn=["c1>d1+R"], names=["Ann", "Bob"], previous=before)
    b = board_png(after, last_turn=["c1>d1+R"], names=["Ann", "Bob"], previous=before)
    assert a == b
    assert a != board_png(after, names=["Ann", "Bob"])


@pytest.mark.parametrize("variant, south, north, inner", [
    ("hex", "a1", "g7", "d4"), ("hex", "e2", "f3", "b2"), ("square", "a1", "f6", "c3"),
    ("square", "f3", "f4", "e5"),
])
def test_edge_cells_tinted_by_owner_inner_neutral(variant, south, north, inner):
    img = image(GAME.new(variant=variant))
    assert close(pixel(img, RR.tint_probe(variant, south)), RR.SOUTH_TINT)
    assert close(pixel(img, RR.tint_probe(variant, north)), RR.NORTH_TINT)
    assert close(pixel(img, RR.tint_probe(variant, inner)), RR.INNER_FILL)


def test_hex_cells_follow_the_spec_formula():  # §3.1: a1 bottom, g7 top, d7/a4 left, d1/g4 right
    x1, y1 = RR.cell_centre("hex", "a1")
    x7, y7 = RR.cell_centre("hex", "g7")
    assert abs(x1 - x7) < 1 and y1 > y7
    assert RR.cell_centre("hex", "d7")[0] < x1 < RR.cell_centre("hex", "d1")[0]
    dx = RR.cell_centre("hex", "b1")[0] - x1
    dy = y1 - RR.cell_centre("hex", "b1")[1]
    assert abs(dx - RR.HEX_D * 3 ** 0.5 / 2) < 0.01 and abs(dy - RR.HEX_D / 2) < 0.01


@pytest.mark.parametrize("variant", ["hex", "square"])
def test_rooks_drawn_in_the_players_colours(variant):
    state = GAME.new(variant=variant)
    img = image(state)
    rooks = {"hex": {"b4": 0, "d2": 0, "d6": 1, "f4": 1}, "square": {"b2": 0, "e2": 0, "b5": 1, "e5": 1}}
    for cell, seat in rooks[variant].items():
        x, y = RR.rook_centre(variant, cell, False)
        assert close(pixel(img, (x, y + 2)), RR.ROOK_FILL[seat]), cell
    # An empty inner cell shows no Rook there.
    empty = "d4" if variant == "hex" else "c3"
    x, y = RR.rook_centre(variant, empty, False)
    assert close(pixel(img, (x, y + 2)), RR.INNER_FILL)


def test_checker_stack_drawn_where_checkers_are():
    state = GAME.new()
    img = image(state)
    x, y = RR.stack_centre("hex", "a1", False)
    side = pixel(img, (x - 15, y + 1))  # the top checker's face beside the numeral
    assert close(side, RR.CHECKER_FILL, tol=30)
    x, y = RR.stack_centre("hex", "d4", False)
    assert close(pixel(img, (x - 15, y + 1)), RR.INNER_FILL)


def test_last_move_highlights_drops_captures_and_the_rook():
    before, after = ex9()
    plain = image(after, names=["Ann", "Bob"])
    lit = image(after, last_turn=["c1>d1+R"], names=["Ann", "Bob"], previous=before)

    def rim(cell):  # a point just inside the right-hand corner of the hex, where the outline runs
        x, y = RR.cell_centre("hex", cell)
        return (x + RR.HEX_R - 7, y)

    for cell in ("d1", "e2", "f3"):  # two drops and the Rook's landing cell
        assert close(pixel(lit, rim(cell)), RR.HIGHLIGHT, tol=40), cell
        assert not close(pixel(plain, rim(cell)), RR.HIGHLIGHT, tol=40), cell
    for cell in ("g4", "b1", "a4"):  # untouched by the move
        assert not close(pixel(lit, rim(cell)), RR.HIGHLIGHT, tol=40), cell
    # The capture badge on f3, and the Rook now drawn there in South's colour.
    x, y = RR.cell_centre("hex", "f3")
    assert close(pixel(lit, (x + 30, y - 22)), RR.CAPTURE_FILL, tol=40)
    assert not close(pixel(plain, (x + 30, y - 22)), RR.CAPTURE_FILL, tol=40)
    rx, ry = RR.rook_centre("hex", "f3", False)
    assert close(pixel(lit, (rx, ry + 2)), RR.ROOK_FILL[0])


def test_rook_move_capture_marked_on_square():  # §8 Ex 10
    st2 = GAME.new(variant="square").play("b1 n").play("e6 s")
    st3 = st2.play("Re2xe4")
    lit = image(st3, last_turn=["Re2xe4"], previous=st2)
    x, y = RR.cell_centre("square", "e4")
    assert close(pixel(lit, (x + RR.SQ / 2 - 5, y + 20)), RR.HIGHLIGHT, tol=40)
    assert close(pixel(lit, (x + 32, y - 22)), RR.CAPTURE_FILL, tol=40)
    rx, ry = RR.rook_centre("square", "e4", False)
    assert close(pixel(lit, (rx, ry + 2)), RR.ROOK_FILL[0])
    rx, ry = RR.rook_centre("square", "e5", True)
    assert close(pixel(lit, (rx, ry + 2)), RR.ROOK_FILL[1])


def test_repetition_warning_banner():
    code = "square " + ",".join("1" if c in ("c3", "c4") else "0"
                                for c in [f"{f}{r}" for r in range(1, 7) for f in "abcdef"]) + " 19 20 S"
    st0 = GAME.decode(code)
    st3 = st0.play("c3 e").play("c4 e").play("d3 w")
    st4 = st3.play("d4 w")
    assert st4.repetitions() == 2
    h = RR._height("square")
    warned = image(st4, last_turn=["d4 w"], previous=st3)
    calm = image(st3)
    assert close(pixel(warned, (30, h - 30)), RR.WARN_FILL)
    assert not close(pixel(calm, (30, h - 30)), RR.WARN_FILL)


def test_turn_marker_follows_the_player_to_move():
    st0 = GAME.new()
    a = image(st0)
    b = image(st0.play("e2>f3"))
    # The active panel is white, the other beige: South's panel (bottom) at the start, North's after.
    bottom = (300, RR.BOARD_TOP + RR.BOARD_H["hex"] + 12 + 84)
    top = (300, 8 + 84)
    assert close(pixel(a, bottom), RR.ACTIVE_FILL) and close(pixel(a, top), RR.PANEL_FILL)
    assert close(pixel(b, top), RR.ACTIVE_FILL) and close(pixel(b, bottom), RR.PANEL_FILL)


def test_a_finished_game_states_its_outcome_with_the_players_names(monkeypatch):
    from tests.engines.test_roocala import code

    rooks = {"a1": "N", "d4": "N", "b4": "S", "d2": "S"}
    over = GAME.decode(code("hex", {"a1": 3, "b1": 2, "c5": 0}, rooks=rooks, s=15, n=17, side="N"))
    assert over.is_over
    said: list[str] = []
    monkeypatch.setattr(RR, "fit_text", lambda text, *a, **k: said.append(text) or text)
    board_png(over, names=["Ann", "Bob"])
    assert ("Bob has no legal move, so the 5 checkers left on the board go to Ann (Ann 20, Bob 17)." in said)
