"""Roocala board images: valid small PNGs for both boards, stable bytes, and pixels that mean something."""

from __future__ import annotations

import io
import math
import random
import re

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engines import GAMES
from engines.base import outcome_text
from render import board_png
from render import roocala as RR
from render.common import MAX_PNG_BYTES, WINNER, luminance, name_length

GAME = GAMES["roocala"]


def image(state, **kw) -> Image.Image:
    return Image.open(io.BytesIO(board_png(state, **kw))).convert("RGB")


def pixel(img: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    return img.getpixel((round(xy[0]), round(xy[1])))


def pixels(img: Image.Image) -> list[tuple[int, int, int]]:
    data = img.convert("RGB").tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def close(a, b, tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def ex9():
    """§8 Ex 9: the hybrid c1>d1+R drops on d1, e2 and puts South's Rook on f3, capturing 2."""
    st2 = GAME.new().play("Rd2-c1").play("c6")
    return st2, st2.play("c1>d1+R")


def finished():
    """R-E2: North to move has no move; the 5 checkers left go to South, who wins 20 to 17."""
    from tests.engines.test_roocala import code

    rooks = {"a1": "N", "d4": "N", "b4": "S", "d2": "S"}
    return GAME.decode(code("hex", {"a1": 3, "b1": 2, "c5": 0}, rooks=rooks, s=15, n=17, side="N"))


def random_positions(count: int, seed: int = 7):
    """(state, last move, state before it) from seeded random games of both variants."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        st = GAME.new(variant=GAME.variants[k % len(GAME.variants)])
        before, last = None, []
        for _ in range(rng.randrange(1, 140)):
            if st.is_over:
                break
            move = rng.choice(st.legal_moves())
            before, st, last = st, st.play(move), [move]
        out.append((st, last, before))
    return out


# --- format ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["hex", "square"])
def test_png_is_valid_small_and_phone_sized(variant):
    state = GAME.new(variant=variant)
    data = board_png(state, names=["Ann", "Bob"])
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) <= MAX_PNG_BYTES
    img = Image.open(io.BytesIO(data))
    assert 800 <= img.width <= 1000 and img.height <= 1100


def test_random_positions_of_both_variants_stay_phone_sized_and_small():
    for state, last, before in random_positions(10):
        data = board_png(state, last_turn=last, names=["Ann", "Bob"], previous=before)
        img = Image.open(io.BytesIO(data))
        assert 800 <= img.width <= 1000 and img.height == RR.height(state.variant), state.encode()
        assert len(data) <= MAX_PNG_BYTES, state.encode()


def test_identical_input_gives_identical_bytes():
    before, after = ex9()
    a = board_png(after, last_turn=["c1>d1+R"], names=["Ann", "Bob"], previous=before)
    b = board_png(after, last_turn=["c1>d1+R"], names=["Ann", "Bob"], previous=before)
    assert a == b
    assert a != board_png(after, names=["Ann", "Bob"])
    over = finished()
    assert board_png(over, names=["Ann", "Bob"]) == board_png(GAME.decode(over.encode()), names=["Ann", "Bob"])
    for state, last, prev in random_positions(4, seed=3):   # equal states built afresh: same bytes
        again = GAME.decode(state.encode())
        prev2 = GAME.decode(prev.encode()) if prev is not None else None
        assert (board_png(state, last_turn=last, names=["A", "B"], previous=prev)
                == board_png(again, last_turn=last, names=["A", "B"], previous=prev2))


def test_the_fixed_palette_is_built_once_and_keeps_the_key_colours():
    pal = RR.palette(GAME.new())
    assert pal is RR.palette(GAME.new(variant="square"))
    colours = pal.getpalette()[:768]
    table = {tuple(colours[i:i + 3]) for i in range(0, 768, 3)}
    for key in (RR.HIGHLIGHT, RR.INK, RR.SOUTH_TINT, RR.NORTH_TINT, RR.INNER_FILL, RR.CHECKER_FILL,
                RR.WARN_FILL, RR.CAPTURE_FILL, RR.CHEVRON_FILL, WINNER, RR.ACTIVE_FILL, RR.PANEL_FILL):
        assert key in table, key


def test_readable_text_is_at_least_24_px():
    assert RR.TEXT >= 24 and RR.NAME >= 24 and RR.SCORE >= 24
    x0, y0, x1, y1 = RR.label_box("hex", "d4")
    assert y1 - y0 >= 17   # the ink of a 24 px label: digits and x-height letters


# --- the board ---------------------------------------------------------------------------------------------

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

    def rim(cell):  # a point just inside the right-hand corner of the hex, where the ring runs
        x, y = RR.cell_centre("hex", cell)
        return (x + RR.HEX_R - 7, y)

    for cell in ("d1", "e2", "f3"):  # two drops and the Rook's landing cell
        assert close(pixel(lit, rim(cell)), RR.HIGHLIGHT, tol=40), cell
        assert not close(pixel(plain, rim(cell)), RR.HIGHLIGHT, tol=40), cell
    for cell in ("g4", "b1", "a4"):  # untouched by the move
        assert not close(pixel(lit, rim(cell)), RR.HIGHLIGHT, tol=40), cell
    # The capture badge on f3, and the Rook now drawn there in South's colour.
    bx, by = RR.badge_centre("hex", "f3")
    assert close(pixel(lit, (bx - 14, by)), RR.CAPTURE_FILL, tol=40)
    assert not close(pixel(plain, (bx - 14, by)), RR.CAPTURE_FILL, tol=40)
    rx, ry = RR.rook_centre("hex", "f3", False)
    assert close(pixel(lit, (rx, ry + 2)), RR.ROOK_FILL[0])


def test_rook_move_capture_marked_on_square():  # §8 Ex 10
    st2 = GAME.new(variant="square").play("b1 n").play("e6 s")
    st3 = st2.play("Re2xe4")
    lit = image(st3, last_turn=["Re2xe4"], previous=st2)
    x, y = RR.cell_centre("square", "e4")
    assert close(pixel(lit, (x + RR.SQ / 2 - 5, y + 20)), RR.HIGHLIGHT, tol=40)
    bx, by = RR.badge_centre("square", "e4")
    assert close(pixel(lit, (bx - 14, by)), RR.CAPTURE_FILL, tol=40)
    rx, ry = RR.rook_centre("square", "e4", False)
    assert close(pixel(lit, (rx, ry + 2)), RR.ROOK_FILL[0])
    rx, ry = RR.rook_centre("square", "e5", True)
    assert close(pixel(lit, (rx, ry + 2)), RR.ROOK_FILL[1])
    # The Rook's trip is marked at both sides it crossed (e2|e3, e3|e4), pointing north.
    assert RR.trail("square", st2.effects("Re2xe4")) == [("e2", "e3"), ("e3", "e4")]
    for a, b in (("e2", "e3"), ("e3", "e4")):
        cx, cy = RR.chevron_centre("square", a, b)
        window = [lit.getpixel((round(cx) + dx, round(cy) + dy)) for dx in range(-8, 9) for dy in range(-8, 9)]
        assert any(close(p, RR.CHEVRON_FILL, tol=30) for p in window)


def test_repetition_warning_banner():
    code = "square " + ",".join("1" if c in ("c3", "c4") else "0"
                                for c in [f"{f}{r}" for r in range(1, 7) for f in "abcdef"]) + " 19 20 S"
    st0 = GAME.decode(code)
    st3 = st0.play("c3 e").play("c4 e").play("d3 w")
    st4 = st3.play("d4 w")
    assert st4.repetitions() == 2
    probe = (30, RR.status_top("square") + 22)
    warned = image(st4, last_turn=["d4 w"], previous=st3)
    calm = image(st3)
    assert close(pixel(warned, probe), RR.WARN_FILL)
    assert not close(pixel(calm, probe), RR.WARN_FILL)


def test_turn_marker_follows_the_player_to_move():
    st0 = GAME.new()
    a = image(st0)
    b = image(st0.play("e2>f3"))
    # The active panel is white, the other beige: South's panel (bottom) at the start, North's after.
    bottom = (300, RR.panel_top(0, "hex") + RR.PANEL_H - 8)
    top = (300, RR.panel_top(1, "hex") + RR.PANEL_H - 8)
    assert close(pixel(a, bottom), RR.ACTIVE_FILL) and close(pixel(a, top), RR.PANEL_FILL)
    assert close(pixel(b, top), RR.ACTIVE_FILL) and close(pixel(b, bottom), RR.PANEL_FILL)


# --- the end of the game -----------------------------------------------------------------------------------

def test_a_finished_game_states_its_outcome_with_the_players_names():
    over = finished()
    assert over.is_over
    lines = RR.status_lines(over, ["Ann", "Bob"])
    assert " ".join(lines) == ("Bob has no legal move, so the 5 checkers left on the board go to Ann "
                               "(Ann 20, Bob 17).")


@pytest.mark.parametrize("names", [
    ["Ann", "Bob"], ["Player 1", "Player 2"],
    ["Alexandra Konstantinopoulou-Smith", "Bartholomew Featherstonehaugh III"], ["W" * 32, "M" * 32],
])
def test_the_end_sentence_is_shown_whole_in_two_lines(names):
    """The old board cut it ('…with the same player to mov…'): now every word of the reason is there and
    only names are ever shortened."""
    over = finished()
    lines = RR.status_lines(over, names)
    assert 1 <= len(lines) <= 2
    for line in lines:
        assert name_length(line, RR.TEXT, bold=True) <= RR.WIDTH - 2 * RR.MARGIN
    text = " ".join(lines)
    template = GAME.terminations["no_move"]
    pattern = re.escape(template)
    for field, value in (("left", "5"), ("checkers", "checkers"), ("south_score", "20"), ("north_score", "17")):
        pattern = pattern.replace(re.escape("{" + field + "}"), value)
    for role in ("stuck", "gainer", "south", "north"):
        pattern = pattern.replace(re.escape("{" + role + "}"), f"(?P<{role}>.+?)", 1)
        pattern = pattern.replace(re.escape("{" + role + "}"), "(?:.+?)")
    found = re.fullmatch(pattern, text)
    assert found, text
    for role, seat in (("stuck", 1), ("gainer", 0), ("south", 0), ("north", 1)):
        shown = found.group(role)
        assert shown == names[seat] or (shown.endswith("…") and names[seat].startswith(shown[:-1].rstrip()))
    if all(len(n) <= 8 for n in names):
        assert text == outcome_text(GAME, over.outcome(), names)


def test_the_repetition_draw_sentence_is_whole_and_on_the_image():
    code = "square " + ",".join("1" if c in ("c3", "c4") else "0"
                                for c in [f"{f}{r}" for r in range(1, 7) for f in "abcdef"]) + " 19 20 S"
    st = GAME.decode(code)
    for move in ["c3 e", "c4 e", "d3 w", "d4 w"] * 2:
        before, st = st, st.play(move)
    assert st.is_over and st.winners == (0, 1)
    sentence = "The same position occurred for the third time with the same player to move: a draw."
    lines = RR.status_lines(st, ["Ann", "Bob"])
    assert " ".join(lines) == sentence and len(lines) == 2
    img = image(st, last_turn=["d4 w"], names=["Ann", "Bob"], previous=before)
    top = RR.status_top("square")
    for y in (top + 20, top + 51):   # ink on both lines of the status area
        row = [img.getpixel((x, y)) for x in range(RR.MARGIN, RR.WIDTH - RR.MARGIN)]
        assert sum(1 for p in row if luminance(p) < 0.1) >= 20, y


def winner_pixels(img: Image.Image, seat: int, variant: str) -> int:
    top = RR.panel_top(seat, variant)
    box = img.crop((RR.MARGIN + 88, top + 8, RR.WIDTH - 260, top + 50))
    return sum(1 for p in pixels(box) if close(p, WINNER, tol=20))


def test_the_winner_gets_the_common_winner_badge():
    over = finished()
    assert over.winners == (0,)
    img = image(over, names=["Ann", "Bob"])
    assert winner_pixels(img, 0, "hex") >= 60          # the gold star beside South's name
    assert winner_pixels(img, 1, "hex") == 0
    running = image(GAME.new(), names=["Ann", "Bob"])
    assert winner_pixels(running, 0, "hex") == 0


def test_a_long_name_is_shortened_but_its_status_is_kept():
    long = "Maximilian Alexander von Hohenzollern-Sigmaringen"
    for state, seat in ((GAME.new(), 0), (finished(), 0)):
        img = image(state, names=[long, "Bob"])
        y = RR.panel_top(seat, "hex") + 28
        row = [luminance(img.getpixel((x, y + 13))) for x in range(RR.MARGIN + 88, RR.WIDTH - 250)]
        if state.is_over:   # the winner badge's label and star, after the shortened name
            assert winner_pixels(img, seat, "hex") >= 60
        else:               # the dark TO MOVE pill: a long dark run on the name line
            runs, run = [], 0
            for v in row:
                run = run + 1 if v < 0.05 else 0
                runs.append(run)
            assert max(runs) >= 100


# --- the last move's marks never cover a coordinate ------------------------------------------------------

def covered(plain: Image.Image, lit: Image.Image, variant: str) -> dict[str, int]:
    """Per cell, how many pixels of its coordinate the last move's marks changed (beyond palette noise)."""
    out = {}
    for cell in GAME.new(variant=variant).board.names:
        box = RR.label_box(variant, cell)
        n = sum(1 for p, q in zip(pixels(plain.crop(box)), pixels(lit.crop(box)), strict=True)
                if max(abs(x - y) for x, y in zip(p, q, strict=True)) > 48)
        if n:
            out[cell] = n
    return out


MOVES = [  # (variant, the position before as a list of moves from the start, the move)
    ("hex", ["Rd2-c1", "c6"], "c1>d1+R"),     # hybrid: drops, a capture badge, the Rook's landing
    ("hex", [], "e2>f3"),                     # one step along the edge
    ("hex", [], "a1>b2"),                     # one step straight up (the chevron below b2's label)
    ("hex", ["a2 n"], "Rf4xc4"),              # a Rook crossing three sides
    ("hex", ["a1>b2"], "b2>c3"),              # a capture chain ending on an inner cell
    ("square", ["b1 n", "e6 s"], "Re2xe4"),   # a vertical Rook trip through e3 (the old arrow covered 'e3')
    ("square", [], "b1>b2"),                  # one step north
    ("square", [], "f1>f2"),                  # one step along the right-hand edge
]


@pytest.mark.parametrize("variant, opening, move", MOVES)
def test_move_marks_leave_every_coordinate_untouched(variant, opening, move):
    st = GAME.new(variant=variant)
    for m in opening:
        st = st.play(m)
    after = st.play(move)
    assert covered(image(after), image(after, last_turn=[move], previous=st), variant) == {}


@pytest.mark.parametrize("variant", ["hex", "square"])
def test_badge_and_chevron_slots_never_reach_a_label(variant):
    """Over every cell and every step: the widest badge and every chevron, pasted all at once on a clear
    layer, leave every coordinate's box fully transparent."""
    names = GAME.new(variant=variant).board.names
    layer = Image.new("RGBA", (RR.WIDTH, RR.height(variant)), (0, 0, 0, 0))
    for cell in names:
        RR.paste(layer, RR._badge_sprite("×R", True), RR.badge_centre(variant, cell))
        RR.paste(layer, RR._badge_sprite("+12", False), RR.badge_centre(variant, cell))
        for other in names:
            (xa, ya), (xb, yb) = RR.cell_centre(variant, cell), RR.cell_centre(variant, other)
            if 0 < math.hypot(xb - xa, yb - ya) < RR.HEX_D + 1:   # neighbours
                angle = round(math.degrees(math.atan2(yb - ya, xb - xa))) % 360
                RR.paste(layer, RR._chevron_sprite(angle), RR.chevron_centre(variant, cell, other))
    alpha = layer.getchannel("A")
    assert [c for c in names if alpha.crop(RR.label_box(variant, c)).getbbox() is not None] == []


# --- a one-step move is clearly visible, also without colour vision -------------------------------------

# Machado, Oliveira & Fernandes (2009), severity 1.0: linear RGB simulation matrices.
CVD = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def simulate(rgb, matrix):
    lin = [(c / 255) ** 2.2 for c in rgb]
    out = [max(0.0, min(1.0, sum(m * v for m, v in zip(row, lin, strict=True)))) for row in matrix]
    return tuple(round(255 * v ** (1 / 2.2)) for v in out)


def contrast(a, b) -> float:
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@pytest.mark.parametrize("variant, move", [("hex", "e2>f3"), ("hex", "a1>b2"), ("hex", "c1>d1"),
                                           ("square", "b1>b2"), ("square", "f1>f2")])
def test_a_one_step_sowing_is_clearly_marked_between_the_two_cells(variant, move):
    """The old board drew a short red arrow half hidden by the stack and a thin outline on the departure:
    now the departure has a thick dark ring, and a dark-cased chevron with a bright core sits across the
    shared side pointing into the first drop, readable by luminance under every colour-vision deficiency."""
    st = GAME.new(variant=variant)
    after = st.play(move)
    fx = st.effects(move)
    a, b = fx["from"], fx["drops"][0]
    plain = image(after)
    lit = image(after, last_turn=[move], previous=st)
    (xa, ya), (xb, yb) = RR.cell_centre(variant, a), RR.cell_centre(variant, b)
    ux, uy = (xb - xa) / math.hypot(xb - xa, yb - ya), (yb - ya) / math.hypot(xb - xa, yb - ya)
    # The departure's ring: dark through its first 6 px, on the side away from the step.
    for inset in (2, 4, 6):
        rim = (xa - ux * (RR.HEX_D / 2 - inset), ya - uy * (RR.HEX_D / 2 - inset))
        assert luminance(pixel(lit, rim)) < 0.05, inset
    # The chevron: its bright core reaches into the first drop's half, on a dark casing.
    cx, cy = RR.chevron_centre(variant, a, b)
    box = (round(cx) - 14, round(cy) - 14, round(cx) + 15, round(cy) + 15)
    window = pixels(lit.crop(box))
    changed = sum(1 for p, q in zip(pixels(plain.crop(box)), window, strict=True) if p != q)
    assert changed >= 0.4 * len(window)
    core = [(box[0] + i % 29 - cx, box[1] + i // 29 - cy) for i, p in enumerate(window)
            if close(p, RR.CHEVRON_FILL, tol=30)]
    assert len(core) >= 30
    assert max(dx * ux + dy * uy for dx, dy in core) >= 3     # ahead of the shared side, inside b
    tint = pixel(plain, RR.tint_probe(variant, b))
    for name, matrix in CVD.items():   # luminance carries it on any vision: dark casing, bright core
        seen = [simulate(p, matrix) for p in window]
        sim_tint = simulate(tint, matrix)
        assert any(contrast(p, sim_tint) >= 4.5 and luminance(p) < 0.05 for p in seen), name
        assert any(luminance(p) > 0.4 and contrast(p, simulate(RR.INK, matrix)) >= 7 for p in seen), name


def test_a_draw_is_drawn_as_a_draw_without_the_winner_star_for_both():
    code = "square " + ",".join("1" if c in ("c3", "c4") else "0"
                                for c in [f"{f}{r}" for r in range(1, 7) for f in "abcdef"]) + " 19 20 S"
    st = GAME.decode(code)
    for move in ["c3 e", "c4 e", "d3 w", "d4 w"] * 2:
        before, st = st, st.play(move)
    assert st.winners == (0, 1)                        # a draw
    img = image(st, last_turn=["d4 w"], names=["Ann", "Bob"], previous=before)
    assert winner_pixels(img, 0, "square") == winner_pixels(img, 1, "square") == 0
    for seat in (0, 1):                                # a dark 'DRAW' tag beside each name instead
        top = RR.panel_top(seat, "square")
        box = img.crop((RR.MARGIN + 88, top + 12, RR.WIDTH - 260, top + 44))
        assert sum(1 for p in pixels(box) if luminance(p) < 0.03) >= 400, seat


def _alpha_layer(variant: str, pastes) -> Image.Image:
    layer = Image.new("RGBA", (RR.WIDTH, RR.height(variant)), (0, 0, 0, 0))
    for sprite_, centre in pastes:
        RR.paste(layer, sprite_, centre)
    return layer.getchannel("A").point(lambda a: 255 if a > 24 else 0)


@pytest.mark.parametrize("variant, cell", [("hex", "b3"), ("hex", "d4"), ("square", "b3"), ("square", "e6")])
def test_the_move_badge_never_covers_a_rook_a_stack_or_a_chevron(variant, cell):
    """The '×1' badge sat over the Rook and the stack sharing its cell (b3 in a square mid-game): the badges
    (as wide as a capture of up to 18 or the Rook) never touch the ink of a Rook or of any stack above them, nor
    a chevron across the side below them (the slot moved down towards it)."""
    x, y = RR.cell_centre(variant, cell)
    badges = _alpha_layer(variant, [(RR._badge_sprite(t, c), RR.badge_centre(variant, cell))
                                    for t, c in (("×R", True), ("×8", True), ("+9", False), ("×18", True))])
    contents = []
    for k in (1, 2, 3, 9, 12):
        for shared in (False, True):
            sx, sy = RR.stack_centre(variant, cell, shared)
            contents.append((RR._stack_sprite(k), (sx, sy + 4)))       # as _contents pastes it
    for seat in (0, 1):
        for shared in (False, True):
            contents.append((RR._rook_sprite(seat), RR.rook_centre(variant, cell, shared)))
    names = GAME.new(variant=variant).board.names
    chevrons = []
    for other in names:
        (xb, yb) = RR.cell_centre(variant, other)
        if 0 < math.hypot(xb - x, yb - y) < RR.HEX_D + 1 and abs(xb - x) < 1:     # the side straight below
            for a, b in ((cell, other), (other, cell)):
                (xa, ya), (xc, yc) = RR.cell_centre(variant, a), RR.cell_centre(variant, b)
                angle = round(math.degrees(math.atan2(yc - ya, xc - xa))) % 360
                chevrons.append((RR._chevron_sprite(angle), RR.chevron_centre(variant, a, b)))
    for others in (contents, chevrons):
        both = ImageChops.multiply(badges, _alpha_layer(variant, others))
        assert both.getbbox() is None, (cell, both.getbbox())


# --- wide badges ('×12') keep clear of chevrons, pieces and coordinates ---------------------------------------

def big_capture_moves(variant: str, seed: int, want: int = 8) -> list[tuple[object, str]]:
    """Seeded random positions, each with a hybrid sowing that captures 10 or more (a two-digit '×k' badge):
    the mover's Rook on a big stack, a few other big stacks, the other Rooks anywhere free. Every other one
    sows a whole lap of the edge from beside an opponent's edge cell holding a big stack, so the Rook lands on
    the first drop again and captures there: the badge's own cell carries the move's chevron."""
    rng = random.Random(seed)
    board = GAME.new(variant=variant).board
    track = board.track
    out: list[tuple[object, str]] = []
    while len(out) < want:
        side = rng.randrange(2)
        counts, rooks = [0] * board.n, [-1] * board.n
        if len(out) % 2:
            at = rng.choice([j for j, i in enumerate(track) if board.owner[i] != 1 - side
                             and board.owner[track[(j + 1) % len(track)]] == 1 - side])
            home, first = track[at], track[(at + 1) % len(track)]
            counts[home], counts[first] = len(track) - 1, rng.randrange(10, board.checkers - len(track) + 2)
            chosen = [home, first]
        else:
            home = rng.choice([i for i in range(board.n) if board.owner[i] != 1 - side])
            counts[home] = rng.randrange(10, len(track))
            chosen = [home]
        rooks[home] = side
        left = board.checkers - sum(counts)
        for i in rng.sample([i for i in range(board.n) if i not in chosen], 5):
            counts[i] = min(left, rng.randrange(8, 16))
            left -= counts[i]
        free = [i for i in range(board.n) if i not in chosen]
        for seat, i in zip((side, 1 - side, 1 - side), rng.sample(free, 3), strict=True):
            rooks[i] = seat
        cells = ",".join(f"{k}{'SN'[r] if r >= 0 else ''}" for k, r in zip(counts, rooks, strict=True))
        state = GAME.decode(f"{variant} {cells} 0 1 {'SN'[side]}")
        moves = [m for m in state.legal_moves() if sum(state.effects(m)["captured"].values()) >= 10]
        if moves:
            out.append((state, rng.choice(moves)))
    return out


BIG = {variant: big_capture_moves(variant, seed=16) for variant in ("hex", "square")}


def near(layer: Image.Image, px: int = RR.BADGE_CLEAR) -> Image.Image:
    """``layer`` grown by ``px`` pixels: what a badge must keep clear of to stand apart from it."""
    return layer.filter(ImageFilter.MaxFilter(2 * px + 1))


def _local_alpha(variant: str, pastes, boxes=()) -> Image.Image:
    layer = _alpha_layer(variant, pastes)
    draw = ImageDraw.Draw(layer)
    for box in boxes:
        draw.rectangle(box, fill=255)
    return layer


@pytest.mark.parametrize("variant", ["hex", "square"])
def test_two_digit_capture_badges_touch_no_chevron_piece_or_coordinate(variant):
    """Boards of seeded random positions where a hybrid sowing captures 10 or more: every badge the board
    draws (where ``draw`` puts it) stays 2 px from every chevron and touches no stack or Rook of any cell and no
    coordinate, and the board shows the capture badge's red pill there."""
    assert any(len(text) >= 3 for state, move in BIG[variant] for _, text, _ in RR.badges(state.effects(move)))
    seen_chevron_on_badge_cell = 0
    for state, move in BIG[variant]:
        after = state.play(move)
        fx = state.effects(move)
        marks = RR.mark_sprites(variant, fx, after)
        badges = _alpha_layer(variant, [(s, c) for kind, s, c in marks if kind == "badge"])
        chevrons = near(_alpha_layer(variant, [(s, c) for kind, s, c in marks if kind == "chevron"]))
        pieces = []
        for cell in after.board.names:
            k, seat = after.checkers(cell), after.rook(cell)
            if k:
                sx, sy = RR.stack_centre(variant, cell, seat is not None)
                pieces.append((RR._stack_sprite(k), (sx, sy + 4)))
            if seat is not None:
                pieces.append((RR._rook_sprite(seat), RR.rook_centre(variant, cell, k > 0)))
        labels = _local_alpha(variant, [], [RR.label_box(variant, c) for c in after.board.names])
        for name, others in (("chevron", chevrons), ("piece", _alpha_layer(variant, pieces)), ("label", labels)):
            both = ImageChops.multiply(badges, others)
            assert both.getbbox() is None, (move, name, both.getbbox())
        cells = {cell for cell, text, _ in RR.badges(fx) if len(text) >= 3}
        seen_chevron_on_badge_cell += any(cell in step for step in RR.trail(variant, fx) for cell in cells)
        drawn = RR.draw(after, [move], ["Ann", "Bob"], state)
        for kind, sprite_, (x, y) in marks:
            if kind == "badge" and sprite_.getpixel((sprite_.width // 2, 4))[:3] == RR.CAPTURE_FILL:
                assert close(drawn.getpixel((round(x), round(y) - sprite_.height // 2 + 4)), RR.CAPTURE_FILL, 40)
    assert seen_chevron_on_badge_cell >= 2   # a two-digit badge's own cell carries a chevron: probed


@pytest.mark.parametrize("variant", ["hex", "square"])
def test_any_badge_keeps_clear_of_a_chevron_on_any_side_of_its_cell(variant):
    """Every cell, a chevron into it across any one of its sides (a badge's cell is only ever entered: a sowing
    never drops on its departure, and a Rook leaves only its start and vacant cells), the widest badges (a
    capture of up to 18: half the checkers; the Rook), its cell empty, holding a big stack, a Rook, or both:
    the badge's spot stays BADGE_CLEAR px from the chevron and touches neither the cell's stack and Rook nor
    any coordinate."""
    names = GAME.new(variant=variant).board.names
    labels = _local_alpha(variant, [], [RR.label_box(variant, c) for c in names])
    for cell in names:
        x, y = RR.cell_centre(variant, cell)
        for other in names:
            xb, yb = RR.cell_centre(variant, other)
            if not 0 < math.hypot(xb - x, yb - y) < RR.HEX_D + 1:
                continue
            for step in ((other, cell),):
                chevron = near(_alpha_layer(variant, [(RR._chevron_sprite(RR.step_angle(variant, *step)),
                                                       RR.chevron_centre(variant, *step))]))
                for checkers, rook in ((0, None), (17, None), (0, 1), (12, 0)):
                    for text in ("×18", "×R"):
                        spot = RR.badge_spot(variant, cell, text, True, (step,), checkers, rook)
                        badge = _alpha_layer(variant, [(RR._badge_sprite(text, True), spot)])
                        own = []
                        if checkers:
                            sx, sy = RR.stack_centre(variant, cell, rook is not None)
                            own.append((RR._stack_sprite(checkers), (sx, sy + 4)))
                        if rook is not None:
                            own.append((RR._rook_sprite(rook), RR.rook_centre(variant, cell, checkers > 0)))
                        for others in (chevron, labels, _alpha_layer(variant, own)):
                            assert ImageChops.multiply(badge, others).getbbox() is None, (cell, step, text, spot)
