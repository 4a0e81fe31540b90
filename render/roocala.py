"""The Roocala board image: the hex board (37 flat-topped hexes, a vertex towards each player, spec §3.1)
or the 6x6 square board (§4), edge cells tinted by owner, checker stacks with their count, the four Rooks,
the counter-clockwise sowing direction, the last move (drops, captures, the Rook's trip), both scores, whose
turn it is and a warning when the position has occurred twice.

``cell_centre(variant, cell)``, ``rook_centre`` and ``stack_centre`` give the geometry drawn, so tests can
sample pixels. Everything is drawn on a canvas ``SCALE`` times larger and shrunk once at the end; the drawing
iterates only over ordered sequences, so identical input gives identical pixels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.base import IllegalMove, outcome_text
from engines.roocala import BOARDS, SEATS
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    SUPERSAMPLE,
    arrow,
    dashed_circle,
    disc,
    downsample,
    fit_text,
    font,
    hex_corners,
    mix,
    rounded_panel,
    supersampled,
    text_centred,
)
from render.common import z as _z
from render.common import zi as _zi
from render.common import zp as _zp

SCALE = SUPERSAMPLE
WIDTH = 960
PANEL_H = 92
BOARD_TOP = PANEL_H + 20
HEX_D = 100                    # centre-to-centre distance of hex cells (§3.1 unit)
HEX_R = HEX_D / math.sqrt(3)   # circumradius of a flat-topped hex
SQ = 104                       # side of a square cell
BOARD_H = {"hex": 7 * HEX_D + 40, "square": 6 * SQ + 130}
BOARD_CX = WIDTH / 2

# --- Palette (lightness differs between the owners, so it reads without hue) ------------------------------
SOUTH_TINT = (246, 214, 160)   # light sand: South's edge cells
NORTH_TINT = (133, 160, 196)   # mid slate blue: North's edge cells
INNER_FILL = (238, 235, 228)   # the neutral inner area
GRID = (92, 84, 74)
LABEL_INK = (60, 56, 52)
CHECKER_FILL = (214, 168, 92)
CHECKER_EDGE = (104, 70, 30)
ROOK_FILL = ((252, 252, 248), (34, 34, 40))   # South white, North black
ROOK_EDGE = ((30, 30, 34), (250, 250, 246))
PANEL_FILL = (236, 230, 218)
ACTIVE_FILL = (255, 255, 255)
WARN_FILL = (255, 226, 120)
CAPTURE_FILL = (196, 30, 40)
FROM_INK = (40, 40, 44)


def _height(variant: str) -> int:
    return BOARD_TOP + BOARD_H[variant] + 12 + PANEL_H + 58


def _board_cy(variant: str) -> float:
    return BOARD_TOP + BOARD_H[variant] / 2


def cell_centre(variant: str, cell: str) -> tuple[float, float]:
    """The centre of ``cell`` in the final image.

    Hex (§3.1): x = (i − j)·√3/2, y = (i + j − 2)/2 in units of HEX_D, y up, d4 in the middle.
    Square: files left to right, rank 1 at the bottom.
    """
    col, row = "abcdefg".index(cell[0]) + 1, int(cell[1:])
    cy = _board_cy(variant)
    if variant == "hex":
        return (BOARD_CX + (col - row) * math.sqrt(3) / 2 * HEX_D, cy - ((col + row - 2) / 2 - 3) * HEX_D)
    return (BOARD_CX + (col - 3.5) * SQ, cy - (row - 3.5) * SQ)


def rook_centre(variant: str, cell: str, with_checkers: bool) -> tuple[float, float]:
    """Where a Rook is drawn: in the middle, or to the left when checkers share its cell."""
    x, y = cell_centre(variant, cell)
    return (x - 21, y + 12) if with_checkers else (x, y + 10)


def stack_centre(variant: str, cell: str, with_rook: bool) -> tuple[float, float]:
    """The top face of a checker stack (the numeral sits on it)."""
    x, y = cell_centre(variant, cell)
    return (x + 19, y + 8) if with_rook else (x, y + 8)


def tint_probe(variant: str, cell: str) -> tuple[float, float]:
    """A point of ``cell`` nothing but the cell's tint covers (for tests)."""
    x, y = cell_centre(variant, cell)
    return (x - 34, y - 20) if variant == "hex" else (x - 38, y - 32)


# --- helpers on the supersampled canvas -----------------------------------------------------------------

def _cell_shape(variant: str, cell: str, inset: float = 0.0) -> list[tuple[float, float]]:
    x, y = cell_centre(variant, cell)
    if variant == "hex":
        return hex_corners(_zp((x, y)), _z(HEX_R - inset), flat_top=True)
    h = SQ / 2 - inset
    return [_zp((x - h, y - h)), _zp((x + h, y - h)), _zp((x + h, y + h)), _zp((x - h, y + h))]


# --- drawing --------------------------------------------------------------------------------------------

def draw(state, last_turn: Sequence[str] | None = None, names: Sequence[str] | None = None,
         previous=None) -> Image.Image:
    """The board image of a Roocala ``state`` (see the module docstring)."""
    variant = state.variant
    g = BOARDS[variant]
    given = list(names or ())[:2]
    names = [str(given[i]) if i < len(given) and given[i] else SEATS[i] for i in range(2)]
    fx = _last_move(previous, list(last_turn or ()))

    image = supersampled(WIDTH, _height(variant), SCALE, BACKGROUND)
    d = ImageDraw.Draw(image)
    _ccw_arrows(d, variant)
    for cell in g.names:
        owner = state.owner(cell)
        fill = INNER_FILL if owner is None else (SOUTH_TINT, NORTH_TINT)[owner]
        d.polygon(_cell_shape(variant, cell), fill=fill, outline=GRID, width=_zi(2))
    if variant == "square":
        _square_frame(d)
    if fx:
        _highlight(d, variant, fx)
        _trip(d, variant, fx)
    for cell in g.names:
        _cell_contents(d, state, variant, cell)
    if fx:
        _marks(d, variant, fx)
    _panels(d, state, names, variant)
    _status(d, state, names, variant, fx)
    return downsample(image, SCALE)


def _last_move(previous, last_turn: list[str]) -> dict | None:
    """The effects of the last move, read from the state before it (None when unknown)."""
    if previous is None or not last_turn:
        return None
    try:
        return previous.effects(last_turn[-1])
    except (IllegalMove, KeyError):
        return None


def _square_frame(d: ImageDraw.ImageDraw) -> None:
    """File letters below and rank numbers left of the square board (every cell is labelled too)."""
    _, y1 = cell_centre("square", "a1")
    for f in "abcdef":
        x, _ = cell_centre("square", f"{f}1")
        text_centred(d, _zp((x, y1 + SQ / 2 + 18)), f, _zi(24), bold=True, fill=MUTED)
    for r in range(1, 7):
        xa, y = cell_centre("square", f"a{r}")
        text_centred(d, _zp((xa - SQ / 2 - 18, y)), str(r), _zi(24), bold=True, fill=MUTED)


def _ccw_arrows(d: ImageDraw.ImageDraw, variant: str) -> None:
    """Short arrows round the board, tangent to it, pointing counter-clockwise (the sowing direction)."""
    cx, cy = BOARD_CX, _board_cy(variant)
    if variant == "hex":
        radius, angles = 3.62 * HEX_D, [60 * k for k in range(6)]        # off the middle of each side
    else:
        radius, angles = 3 * SQ + 44, [90 * k for k in range(4)]         # off the middle of each side
    ink = (150, 140, 126)
    for a in angles:
        t = math.radians(a)
        px, py = cx + radius * math.cos(t), cy + radius * math.sin(t)
        tx, ty = math.sin(t), -math.cos(t)   # screen y down: this tangent turns counter-clockwise
        half = 34
        arrow(d, _zp((px - tx * half, py - ty * half)), _zp((px + tx * half, py + ty * half)), fill=ink,
              width=_zi(5), head=_z(16))
    x0, y0 = 18, BOARD_TOP + 6
    text = "↺ sowing runs counter-clockwise"
    d.text(_zp((x0, y0)), text, font=font(_zi(19), True), fill=MUTED, anchor="la")


def _highlight(d: ImageDraw.ImageDraw, variant: str, fx: dict) -> None:
    """Drop cells and the Rook's landing cell get a thick outline; the departure cell a dark one."""
    cells = list(dict.fromkeys(fx["drops"] + ([fx["rook_to"]] if fx["rook_to"] else [])))
    for cell in cells:
        d.polygon(_cell_shape(variant, cell, inset=3), outline=HIGHLIGHT, width=_zi(6))
    d.polygon(_cell_shape(variant, fx["from"], inset=3), outline=FROM_INK, width=_zi(4))


def _trip(d: ImageDraw.ImageDraw, variant: str, fx: dict) -> None:
    """Under the pieces: an arrow from the departure cell to the first drop, or along the Rook's move."""
    if fx["drops"]:
        a, b = cell_centre(variant, fx["from"]), cell_centre(variant, fx["drops"][0])
        arrow(d, _zp(a), _zp(b), fill=HIGHLIGHT, width=_zi(5), casing=(255, 255, 255), casing_width=_zi(2),
              trim_start=_z(18), trim_end=_z(30), head=_z(16))
    if fx["kind"] == "rook":
        a, b = cell_centre(variant, fx["from"]), cell_centre(variant, fx["rook_to"])
        arrow(d, _zp(a), _zp(b), fill=HIGHLIGHT, width=_zi(6), casing=(255, 255, 255), casing_width=_zi(2),
              trim_start=_z(14), trim_end=_z(34), head=_z(18))


def _marks(d: ImageDraw.ImageDraw, variant: str, fx: dict) -> None:
    """+k on drop cells, ×k badges on captures, a ring where the moved Rook stood."""
    drops: dict[str, int] = {}
    for cell in fx["drops"]:
        drops[cell] = drops.get(cell, 0) + 1
    for cell, k in drops.items():
        x, y = cell_centre(variant, cell)
        text_centred(d, _zp((x, y + (36 if variant == "hex" else 38))), f"+{k}", _zi(17), bold=True,
                     fill=HIGHLIGHT, stroke=_zi(3), stroke_fill=(255, 255, 255))
    if fx["rook_to"]:
        dashed_circle(d, _zp(cell_centre(variant, fx["from"])), _z(24), fill=HIGHLIGHT, width=_zi(4))
    badges = [(cell, f"×{k}") for cell, k in fx["captured"].items()]
    if fx["rook_captured"]:
        badges.append((fx["rook_captured"], "×R"))
    for cell, text in badges:
        x, y = cell_centre(variant, cell)
        bx, by = (x + 30, y - 30) if variant == "hex" else (x + 32, y - 30)
        disc(d, _zp((bx, by)), _z(17), fill=CAPTURE_FILL, outline=(255, 255, 255), width=_zi(2))
        text_centred(d, _zp((bx, by)), text, _zi(17), bold=True, fill=(255, 255, 255))


def _cell_contents(d: ImageDraw.ImageDraw, state, variant: str, cell: str) -> None:
    x, y = cell_centre(variant, cell)
    label_y = y - (30 if variant == "hex" else 32)
    text_centred(d, _zp((x, label_y)), cell, _zi(21), bold=True, fill=LABEL_INK, stroke=_zi(2),
                 stroke_fill=(255, 255, 255))
    k = state.checkers(cell)
    rook = state.rook(cell)
    if k:
        _stack(d, stack_centre(variant, cell, rook is not None), k)
    if rook is not None:
        _rook(d, rook_centre(variant, cell, k > 0), rook)


def _stack(d: ImageDraw.ImageDraw, top: tuple[float, float], k: int) -> None:
    """A small stack of flat checkers (at most 4 drawn) with the count on the top one."""
    layers = min(k, 4)
    w, h, step = 40, 18, 5
    x, y = top
    for i in range(layers - 1, -1, -1):
        cy = y + i * step
        box = (_z(x - w / 2), _z(cy - h / 2), _z(x + w / 2), _z(cy + h / 2))
        d.ellipse(box, fill=CHECKER_FILL if i == 0 else mix(CHECKER_FILL, CHECKER_EDGE, 0.35),
                  outline=CHECKER_EDGE, width=_zi(2))
    text_centred(d, _zp((x, y - 1)), str(k), _zi(22 if k < 10 else 19), bold=True, fill=INK,
                 stroke=_zi(2), stroke_fill=(255, 244, 220))


def _rook(d: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int) -> None:
    """A castle silhouette: white for South, black with a white rim for North."""
    x, y = centre
    s = 1.0
    pts = [(-15, 17), (15, 17), (15, 11), (10, 8), (10, -6), (14, -9), (14, -18), (8, -18), (8, -13),
           (3, -13), (3, -18), (-3, -18), (-3, -13), (-8, -13), (-8, -18), (-14, -18), (-14, -9), (-10, -6),
           (-10, 8), (-15, 11)]
    poly = [_zp((x + px * s, y + py * s)) for px, py in pts]
    d.polygon(poly, fill=ROOK_FILL[seat], outline=ROOK_EDGE[seat], width=_zi(2.5))
    if seat == 0:  # a dark outer rim keeps the white Rook visible on the light South tint
        d.line(poly + [poly[0]], fill=INK, width=_zi(2.5), joint="curve")
    else:
        outer = [_zp((x + px * 1.12, y + py * 1.12)) for px, py in pts]
        d.line(outer + [outer[0]], fill=INK, width=_zi(2), joint="curve")


def _panels(d: ImageDraw.ImageDraw, state, names: list[str], variant: str) -> None:
    """North's panel above the board, South's below, each with its score and the turn marker."""
    over = state.is_over
    tops = {1: 8, 0: BOARD_TOP + BOARD_H[variant] + 12}
    scores = state.scores
    for seat in (1, 0):
        top = tops[seat]
        active = (not over and state.to_move == seat) or (over and seat in state.winners)
        box = (_z(16), _z(top), _z(WIDTH - 16), _z(top + PANEL_H))
        tint = (SOUTH_TINT, NORTH_TINT)[seat]
        rounded_panel(d, box, fill=ACTIVE_FILL if active else PANEL_FILL,
                      outline=INK if active else (200, 192, 178), width=_zi(4 if active else 1.5),
                      radius=_zi(14))
        rounded_panel(d, (_z(26), _z(top + 12), _z(86), _z(top + PANEL_H - 12)), fill=tint, outline=GRID,
                      width=_zi(1.5), radius=_zi(10))
        _rook(d, (56, top + PANEL_H / 2), seat)
        name = fit_text(names[seat], _zi(28), _z(430), bold=True)
        d.text(_zp((104, top + 30)), name, font=font(_zi(28), True), fill=INK, anchor="lm")
        colour = ("White", "Black")[seat]
        side = ("bottom", "top")[seat]
        sub = f"{SEATS[seat]} · {colour} Rooks · owns the {side} edge"
        d.text(_zp((104, top + 64)), sub, font=font(_zi(19)), fill=MUTED, anchor="lm")
        if active:
            tag = ("WINNER" if len(state.winners) == 1 else "DRAW") if over else "TO MOVE"
            nx = 104 + font(_zi(28), True).getlength(name) / SCALE + 14
            tw = font(_zi(18), True).getlength(tag) / SCALE
            rounded_panel(d, (_z(nx), _z(top + 16), _z(nx + tw + 22), _z(top + 44)),
                          fill=INK, radius=_zi(8))
            text_centred(d, _zp((nx + 11 + tw / 2, top + 30)), tag, _zi(18), bold=True, fill=(255, 255, 255))
        text_centred(d, _zp((WIDTH - 105, top + 38)), str(scores[seat]), _zi(46), bold=True, fill=INK)
        note = "points (+1 start)" if seat == 1 else "points"
        text_centred(d, _zp((WIDTH - 105, top + 74)), note, _zi(15), fill=MUTED)
        goal = f"goal {BOARDS[variant].threshold}"
        d.text(_zp((WIDTH - 200, top + 38)), goal, font=font(_zi(18)), fill=MUTED, anchor="rm")


def _status(d: ImageDraw.ImageDraw, state, names: list[str], variant: str, fx: dict | None) -> None:
    """The line under the board: the result, the repetition warning, or the last move."""
    y = _height(variant) - 30
    outcome = state.outcome()
    if outcome is not None:
        reason = outcome_text(state.game, outcome, names)
        text = fit_text(reason, _zi(21), _z(WIDTH - 40), bold=True)
        text_centred(d, _zp((WIDTH / 2, y)), text, _zi(21), bold=True, fill=INK)
        return
    if state.repetitions() >= 2:
        box = (_z(16), _z(y - 22), _z(WIDTH - 16), _z(y + 22))
        rounded_panel(d, box, fill=WARN_FILL, outline=INK, width=_zi(2), radius=_zi(10))
        text_centred(d, _zp((WIDTH / 2, y)), "⚠ This position has occurred twice: a third time is a draw",
                     _zi(21), bold=True, fill=INK)
        return
    if fx:
        note = f"Last move: {fx['move']} — {previous_note(fx)}"
        text_centred(d, _zp((WIDTH / 2, y)), fit_text(note, _zi(21), _z(WIDTH - 40)), _zi(21), fill=MUTED)


def previous_note(fx: dict) -> str:
    """A few words on the last move's result for the status line."""
    took = sum(fx["captured"].values())
    parts = []
    if took:
        parts.append(f"captured {took} checker{'s' if took != 1 else ''}")
    if fx["rook_captured"]:
        parts.append(f"captured the Rook on {fx['rook_captured']}")
    return ", ".join(parts) if parts else "no capture"
