"""The Roocala board image: the hex board (37 flat-topped hexes, a vertex towards each player, spec §3.1)
or the 6x6 square board (§4), edge cells tinted by owner, checker stacks with their count, the four Rooks,
the counter-clockwise sowing direction, the last move (drops, captures, the Rook's trip), both scores, whose
turn it is, a warning when the position has occurred twice, and at the end the winner and the whole reason.

How it is drawn (the fast path of ``render.common``):

* the static board - background, cells, coordinates, the counter-clockwise arrows, the panels' fixed parts -
  is drawn once per variant (supersampled, then reduced) and cached; a board starts as a copy of it;
* checker stacks, Rooks, rings, direction chevrons and badges are cached RGBA sprites pasted on top;
* the few texts that change (names, scores, the status line) are drawn at their final size;
* ``palette(state)`` is one fixed palette for every Roocala board, stored from a median cut over sample boards.

Every cell has the same slots, top to bottom: its coordinate (``label_box``), its contents (a stack and/or a
Rook), and the badge slot of the last move (``badge_centre``: ``+k`` drops or a ``×k`` capture; a badge too
wide for the room between the chevrons of a hex's lower slanted sides, '×12', moves sideways away from the
chevron drawn: ``badge_spot``). Direction chevrons sit across the side between two cells (``chevron_centre``),
and move rings along the cell's rim, so nothing of the last move ever covers a coordinate; ``mark_sprites``
gives the marks as drawn. ``cell_centre``, ``rook_centre``, ``stack_centre`` and
``tint_probe`` give the geometry drawn, so tests can sample pixels; ``status_lines`` gives the text of the
line(s) under the board. Only ordered sequences are iterated, so identical input gives identical pixels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import cast

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engines.base import State, outcome_text
from engines.roocala import BOARDS, SEATS, RoocalaState
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    arrow,
    build_palette,
    draw_name,
    fit_name,
    font,
    hex_corners,
    mix,
    name_length,
    paste,
    sprite,
    stored_palette,
    winner_badge,
    winner_label,
    wrap_text,
)
from render.texts import language, split, tr

# --- Texts (English templates, drawn in the post's language: render.texts) ---------------------------------
SOWING_HEX = "↺ sowing runs\ncounter-clockwise"      # two lines beside the hexagon
SOWING_SQUARE = "↺ sowing: counter-clockwise"
PANEL_SOUTH = "{seat} · White Rooks · bottom edge"
PANEL_NORTH = "{seat} · Black Rooks · top edge · 1 point start"
GOAL = "goal {n}"
DRAW_TAG = "DRAW"
TO_MOVE_TAG = "TO MOVE"
SEEN_TWICE = "⚠ Position seen twice: a third time is a draw"
LAST_MOVE = "Last move by {name}: {move} — {result}"
CAPTURED_ONE = "captured 1 checker"
CAPTURED_MANY = "captured {n} checkers"
CAPTURED_ROOK = "captured the Rook on {cell}"
NO_CAPTURE = "no capture"
TEXTS = (SOWING_HEX, SOWING_SQUARE, PANEL_SOUTH, PANEL_NORTH, GOAL, DRAW_TAG, TO_MOVE_TAG, SEEN_TWICE, LAST_MOVE,
         CAPTURED_ONE, CAPTURED_MANY, CAPTURED_ROOK, NO_CAPTURE)

WIDTH = 900
MARGIN = 16
PANEL_H = 84
PANEL_GAP = 10
BOARD_TOP = 8 + PANEL_H + PANEL_GAP
HEX_D = 104                    # centre-to-centre distance of hex cells (§3.1 unit); the apothem is HEX_D / 2
HEX_R = HEX_D / math.sqrt(3)   # circumradius of a flat-topped hex
SQ = 104                       # side of a square cell (the same apothem as the hexes: the same cell slots)
BOARD_H = {"hex": 7 * HEX_D + 8, "square": 6 * SQ + 80}
BOARD_CX = WIDTH / 2
STATUS_H = 101                 # three lines of 24 px text: the result (two at most) or the warning, the last move
STATUS_LINE = 31               # from one line of the status to the next
BASE_SCALE = 4                 # the static board is drawn 4x larger and reduced once per variant

TEXT = 24                      # the smallest text a player must read (a phone shows ~400 px: ~10 px)
NAME = 30
SCORE = 46

# --- Palette (lightness differs between the owners, so it reads without hue) ------------------------------
SOUTH_TINT = (246, 214, 160)   # light sand: South's edge cells
NORTH_TINT = (133, 160, 196)   # mid slate blue: North's edge cells
INNER_FILL = (238, 235, 228)   # the neutral inner area
GRID = (92, 84, 74)
LABEL_INK = (52, 48, 44)
CHECKER_FILL = (214, 168, 92)
CHECKER_EDGE = (104, 70, 30)
ROOK_FILL = ((252, 252, 248), (34, 34, 40))   # South white, North black
ROOK_EDGE = ((30, 30, 34), (250, 250, 246))
PANEL_FILL = (236, 230, 218)
PANEL_EDGE = (200, 192, 178)
ACTIVE_FILL = (255, 255, 255)
WARN_FILL = (255, 226, 120)
CAPTURE_FILL = (196, 30, 40)
DROP_INK = (150, 22, 18)       # '+k' on drop cells: dark red, a white halo (reads by luminance)
CCW_INK = (150, 140, 126)
CHEVRON_FILL = (255, 204, 0)   # the bright core of a step's chevron (a dark casing carries it by luminance)
WHITE = (255, 255, 255)

# Cell slots, relative to the cell centre (y down), the same for hexes and squares (apothem 52).
LABEL_DY = -28                 # coordinate: ink -37 .. -19 (a descender to -14)
CONTENT_DY = 1                 # stack / Rook row: -18 .. +19 (a black Rook's halo), under the label
BADGE_DY = 29                  # '+k' / '×k': +20 .. +37, between the stack and Rook above and a chevron below
BADGE_H = 18                   # the badge's height (the slot has room for no more)
RING = 10                      # the move rings: a band this wide inside the cell's rim
CHEVRON = 11                   # half the chevron's length across the shared side (+2 halo): 13 px each way, 1 px
                               # short of a badge's slot (BADGE_CLEAR)
SHARED_DX = 19                 # stack and Rook side by side when they share a cell


def height(variant: str) -> int:
    """The image height for ``variant``."""
    return BOARD_TOP + BOARD_H[variant] + PANEL_GAP + PANEL_H + 8 + STATUS_H


def _board_cy(variant: str) -> float:
    return BOARD_TOP + BOARD_H[variant] / 2


def panel_top(seat: int, variant: str) -> int:
    """The top edge of a player's panel: North's above the board, South's below it."""
    return 8 if seat == 1 else BOARD_TOP + BOARD_H[variant] + PANEL_GAP


def status_top(variant: str) -> int:
    """The top of the status area under the panels (the result, the warning or the last move)."""
    return height(variant) - STATUS_H


def cell_centre(variant: str, cell: str) -> tuple[float, float]:
    """The centre of ``cell`` in the final image.

    Hex (§3.1): x = (i − j)·√3/2, y = (i + j − 2)/2 in units of HEX_D, y up, d4 in the middle.
    Square: files left to right, rank 1 at the bottom.
    """
    return _centres(variant)[cell]


@lru_cache(maxsize=2)
def _centres(variant: str) -> dict[str, tuple[float, float]]:
    cy = _board_cy(variant)
    out: dict[str, tuple[float, float]] = {}
    for cell in BOARDS[variant].names:
        col, row = "abcdefg".index(cell[0]) + 1, int(cell[1:])
        if variant == "hex":
            out[cell] = (BOARD_CX + (col - row) * math.sqrt(3) / 2 * HEX_D, cy - ((col + row - 2) / 2 - 3) * HEX_D)
        else:
            out[cell] = (BOARD_CX + (col - 3.5) * SQ, cy - (row - 3.5) * SQ)
    return out


def rook_centre(variant: str, cell: str, with_checkers: bool) -> tuple[float, float]:
    """Where a Rook is drawn: in the middle, or to the left when checkers share its cell."""
    x, y = cell_centre(variant, cell)
    return (x - SHARED_DX, y + CONTENT_DY) if with_checkers else (x, y + CONTENT_DY)


def stack_centre(variant: str, cell: str, with_rook: bool) -> tuple[float, float]:
    """The top face of a checker stack (the numeral sits on it)."""
    x, y = cell_centre(variant, cell)
    return (x + SHARED_DX if with_rook else x, y + CONTENT_DY - 2)


def tint_probe(variant: str, cell: str) -> tuple[float, float]:
    """A point of ``cell`` nothing but the cell's tint covers (for tests)."""
    x, y = cell_centre(variant, cell)
    return (x - 34, y - 16) if variant == "hex" else (x - 38, y - 32)


def label_box(variant: str, cell: str) -> tuple[int, int, int, int]:
    """The box (x0, y0, x1, y1) of the coordinate ``cell`` as drawn in the cell."""
    x, y = cell_centre(variant, cell)
    b = font(TEXT, True).getbbox(cell, anchor="mm")
    lx, ly = round(x), round(y + LABEL_DY)
    return (lx + round(b[0]), ly + round(b[1]), lx + round(b[2]), ly + round(b[3]))


def badge_centre(variant: str, cell: str) -> tuple[float, float]:
    """Where the last move's '+k' or '×k' sits in ``cell``: under the contents, above the lower side."""
    x, y = cell_centre(variant, cell)
    return (x, y + BADGE_DY)


def chevron_centre(variant: str, a: str, b: str) -> tuple[float, float]:
    """The middle of the side ``a`` and its neighbour ``b`` share, where the chevron of a step a→b sits."""
    (xa, ya), (xb, yb) = cell_centre(variant, a), cell_centre(variant, b)
    return ((xa + xb) / 2, (ya + yb) / 2)


# --- geometry helpers ------------------------------------------------------------------------------------

def _cell_poly(variant: str, centre: tuple[float, float], inset: float, scale: float = 1.0
               ) -> list[tuple[float, float]]:
    """The cell outline ``inset`` pixels inside its rim (hex or square), scaled by ``scale``."""
    x, y = centre
    if variant == "hex":
        pts = hex_corners((x, y), HEX_R - inset * 2 / math.sqrt(3), flat_top=True)
    else:
        h = SQ / 2 - inset
        pts = [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
    return [(px * scale, py * scale) for px, py in pts]


def _ccw_arrow_spots(variant: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The counter-clockwise arrows round the board: (start, end) pairs, tangent to a circle round it."""
    cx, cy = BOARD_CX, _board_cy(variant)
    if variant == "hex":
        radius, angles = 3.75 * HEX_D, [30 + 60 * k for k in range(6)]    # off the board's six corners' gaps
    else:
        radius, angles = 3 * SQ + 24, [90 * k for k in range(4)]
    out = []
    for a in angles:
        t = math.radians(a)
        px, py = cx + radius * math.cos(t), cy + radius * math.sin(t)
        tx, ty = math.sin(t), -math.cos(t)   # screen y down: this tangent turns counter-clockwise
        half = 34
        out.append(((px - tx * half, py - ty * half), (px + tx * half, py + ty * half)))
    return out


# --- the cached static layers ---------------------------------------------------------------------------

def _base(variant: str) -> Image.Image:
    """``_base_in`` in the render language (its caption has words)."""
    return _base_in(variant, language())


@lru_cache(maxsize=8)
def _base_in(variant: str, lang: str) -> Image.Image:
    """The static board of ``variant``: drawn once, supersampled, then the labels at final size."""
    s = BASE_SCALE
    h = height(variant)
    big = Image.new("RGB", (WIDTH * s, h * s), BACKGROUND)
    d = ImageDraw.Draw(big)
    for a, b in _ccw_arrow_spots(variant):
        arrow(d, (a[0] * s, a[1] * s), (b[0] * s, b[1] * s), fill=CCW_INK, width=5 * s, head=16 * s)
    for cell in BOARDS[variant].names:
        owner = BOARDS[variant].owner[BOARDS[variant].index[cell]]
        fill = INNER_FILL if owner < 0 else (SOUTH_TINT, NORTH_TINT)[owner]
        centre = cell_centre(variant, cell)
        d.polygon(_cell_poly(variant, centre, -1, s), fill=GRID)
        d.polygon(_cell_poly(variant, centre, 1, s), fill=fill)
    image = big.reduce(s)
    d = ImageDraw.Draw(image)
    for cell in BOARDS[variant].names:
        x, y = cell_centre(variant, cell)
        d.text((round(x), round(y + LABEL_DY)), cell, font=font(TEXT, True), fill=LABEL_INK, anchor="mm")
    caption = tr(SOWING_HEX if variant == "hex" else SOWING_SQUARE).split("\n")
    for i, line in enumerate(caption):
        d.text((MARGIN + 4, BOARD_TOP + 2 + 30 * i), line, font=font(TEXT, True), fill=MUTED, anchor="la")
    for seat in (1, 0):
        image.paste(_panel(variant, seat, False, lang), (MARGIN, panel_top(seat, variant)))
    return image


@lru_cache(maxsize=16)
def _panel(variant: str, seat: int, active: bool, lang: str = "en") -> Image.Image:
    """A player's panel without the name and the score: the frame, the Rook tile, the fixed texts."""
    w = WIDTH - 2 * MARGIN
    s = BASE_SCALE
    big = Image.new("RGB", (w * s, PANEL_H * s), BACKGROUND)
    d = ImageDraw.Draw(big)
    fill = ACTIVE_FILL if active else PANEL_FILL
    edge, width = (INK, 4) if active else (PANEL_EDGE, 2)
    d.rounded_rectangle((0, 0, w * s - 1, PANEL_H * s - 1), radius=14 * s, fill=edge)
    d.rounded_rectangle((width * s, width * s, w * s - 1 - width * s, PANEL_H * s - 1 - width * s),
                        radius=(14 - width) * s, fill=fill)
    d.rounded_rectangle((12 * s, 12 * s, 72 * s, (PANEL_H - 12) * s), radius=10 * s, fill=GRID)
    d.rounded_rectangle((14 * s, 14 * s, 70 * s, (PANEL_H - 14) * s), radius=8 * s,
                        fill=(SOUTH_TINT, NORTH_TINT)[seat])
    image = big.reduce(s)
    paste(image, _rook_sprite(seat), (42, PANEL_H / 2))
    d = ImageDraw.Draw(image)
    sub = tr((PANEL_SOUTH, PANEL_NORTH)[seat]).format(seat=tr(SEATS[seat]))
    d.text((88, 62), sub, font=font(TEXT), fill=MUTED, anchor="lm")
    d.text((w - 124, PANEL_H / 2), tr(GOAL).format(n=BOARDS[variant].threshold), font=font(TEXT), fill=MUTED,
           anchor="rm")
    return image


# --- sprites ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=2)
def _rook_sprite(seat: int) -> Image.Image:
    """A castle silhouette: white with a dark rim for South, black with a white rim for North."""
    outline = [(-15, 17), (15, 17), (15, 11), (10, 8), (10, -6), (14, -9), (14, -18), (8, -18), (8, -13),
               (3, -13), (3, -18), (-3, -18), (-3, -13), (-8, -13), (-8, -18), (-14, -18), (-14, -9), (-10, -6),
               (-10, 8), (-15, 11)]
    pts = [(x * 0.92, (y + 0.5) * 0.92) for x, y in outline]   # 28 x 32 px, centred

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        c = 20
        poly = [((c + x) * s, (c + y) * s) for x, y in pts]
        if seat == 0:
            d.polygon(poly, fill=ROOK_FILL[0], outline=INK, width=round(3 * s))
        else:
            outer = [((c + x * 1.14) * s, (c + y * 1.12) * s) for x, y in pts]
            d.polygon(outer, fill=INK)
            d.polygon(poly, fill=ROOK_EDGE[1])
            inner = [((c + x * 0.84) * s, (c + 0.5 + y * 0.86) * s) for x, y in pts]
            d.polygon(inner, fill=ROOK_FILL[1])
    return sprite(paint, (40, 40))


@lru_cache(maxsize=64)
def _stack_sprite(k: int) -> Image.Image:
    """A stack of flat checkers (at most 3 drawn) with the count on the top one, the face at (24, 15)."""
    layers = min(k, 3)
    w, h, step = (42 if k < 10 else 48), 24, 3

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        cx, cy = 24, 15
        for i in range(layers - 1, -1, -1):
            y = cy + i * step
            fill = CHECKER_FILL if i == 0 else mix(CHECKER_FILL, CHECKER_EDGE, 0.35)
            d.ellipse(((cx - w / 2) * s, (y - h / 2) * s, (cx + w / 2) * s, (y + h / 2) * s), fill=CHECKER_EDGE)
            d.ellipse(((cx - w / 2 + 2) * s, (y - h / 2 + 2) * s, (cx + w / 2 - 2) * s, (y + h / 2 - 2) * s),
                      fill=fill)
    image = sprite(paint, (48, 38))
    d = ImageDraw.Draw(image)
    d.text((24, 15), str(k), font=font(TEXT, True), fill=INK, anchor="mm")
    return image


@lru_cache(maxsize=8)
def _ring_sprite(variant: str, kind: str) -> Image.Image:
    """The rim band of a move: 'drop' dark-red-dark (drops, the Rook's landing), 'from' dark-white."""
    r = math.ceil(HEX_R if variant == "hex" else SQ / 2 * math.sqrt(2)) + 2
    size = (2 * r, 2 * r)
    bands = [(0.5, INK), (2.5, HIGHLIGHT), (RING - 2, INK)] if kind == "drop" else [(0.5, INK), (RING - 3, WHITE)]

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        for inset, colour in bands:
            d.polygon(_cell_poly(variant, (r, r), inset, s), fill=colour)
        d.polygon(_cell_poly(variant, (r, r), RING, s), fill=(0, 0, 0, 0))
    return sprite(paint, size)


@lru_cache(maxsize=16)
def _chevron_sprite(angle: int) -> Image.Image:
    """A notched arrowhead (a dart) pointing ``angle`` degrees (screen: 0 = right, 90 = down) for a step
    across a shared side: a white halo, a dark body and a bright core, so it reads by luminance and shape on
    any cell and on the rings of both cells. It reaches CHEVRON + 2 px either side of the side it crosses."""
    t = math.radians(angle)
    ux, uy = math.cos(t), math.sin(t)
    c = 27

    def dart(tip: float, back: float, half: float, notch: float, s: float) -> list[tuple[float, float]]:
        pts = [(ux * tip, uy * tip), (-ux * back - uy * half, -uy * back + ux * half),
               (-ux * (back - notch), -uy * (back - notch)), (-ux * back + uy * half, -uy * back - ux * half)]
        return [((c + x) * s, (c + y) * s) for x, y in pts]

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        tip, back, half, notch = CHEVRON - 0.5, CHEVRON - 0.5, 21, 11
        body = dart(tip, back, half, notch, s)
        d.line([*body, body[0], body[1]], fill=WHITE, width=round(5 * s), joint="curve")
        d.polygon(body, fill=INK)
        root = (tip - back + notch) / 2    # the middle of the arms' root, on the axis
        core = dart(root, 0.8 * (back + root) - root, 0.8 * half, 0, s)   # the arms' centre lines
        d.line([core[1], core[0], core[3]], fill=CHEVRON_FILL, width=round(4 * s), joint="curve")
    return sprite(paint, (54, 54))


@lru_cache(maxsize=64)
def _badge_sprite(text: str, capture: bool) -> Image.Image:
    """'+k' (dark red, white halo) or a capture '×k' (white on a red pill with a dark rim)."""
    f = font(TEXT, True)
    w = math.ceil(f.getlength(text)) + (16 if capture else 8)
    h = BADGE_H

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        if capture:
            d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=9 * s, fill=INK)
            d.rounded_rectangle((2 * s, 2 * s, w * s - 1 - 2 * s, h * s - 1 - 2 * s), radius=7 * s,
                                fill=CAPTURE_FILL)
    image = sprite(paint, (w, h))
    d = ImageDraw.Draw(image)
    if capture:
        d.text((w / 2, h / 2), text, font=f, fill=WHITE, anchor="mm")
    else:
        d.text((w / 2, h / 2), text, font=f, fill=DROP_INK, anchor="mm", stroke_width=3, stroke_fill=WHITE)
    return image


@lru_cache(maxsize=1)
def _ghost_sprite() -> Image.Image:
    """A dashed ring where the moved Rook stood (shape, not colour: dark dashes with a white halo)."""
    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        c, r = 22, 17
        for width, colour in ((7, WHITE), (4, INK)):
            for i in range(10):
                a0 = i * 36 - 90
                d.arc(((c - r) * s, (c - r) * s, (c + r) * s, (c + r) * s), a0, a0 + 20, fill=colour,
                      width=round(width * s))
    return sprite(paint, (44, 44))


# --- drawing ---------------------------------------------------------------------------------------------

def draw(state: State, last_turn: Sequence[str] = (), names: Sequence[str] | None = None,
         previous: State | None = None) -> Image.Image:
    """The board image of a Roocala ``state`` (see the module docstring; the contract: ``render.games.Renderer``)."""
    variant = state.variant or "hex"
    given = list(names or ())[:2]
    shown = [str(given[i]) if i < len(given) and given[i] else tr(SEATS[i]) for i in range(2)]
    fx = _last_move(previous, list(last_turn or ()))

    image = _base(variant).copy()
    over = state.is_over
    for seat in (1, 0):
        if (seat in state.winners) if over else state.to_move == seat:
            image.paste(_panel(variant, seat, True, language()), (MARGIN, panel_top(seat, variant)))
    if fx:
        for cell in _ringed(fx):
            paste(image, _ring_sprite(variant, "drop"), cell_centre(variant, cell))
        paste(image, _ring_sprite(variant, "from"), cell_centre(variant, fx["from"]))
    _contents(image, state, variant)
    if fx:
        _marks(image, variant, fx, state)
    d = ImageDraw.Draw(image)
    _panel_texts(image, d, state, shown, variant)
    mover = previous.to_move if previous is not None and fx else None
    _status(d, state, shown, variant, fx, mover)
    return image


def _last_move(previous: State | None, last_turn: list[str]) -> dict | None:
    """The effects of the last move, read from the state before it (None when unknown)."""
    effects = getattr(previous, "effects", None)
    if effects is None or not last_turn:
        return None
    try:
        fx: dict = effects(last_turn[-1])
    except (ValueError, KeyError):   # IllegalMove is a ValueError: a move that does not fit, no marks
        return None
    return fx


def _ringed(fx: dict) -> list[str]:
    """The cells the last move ended on: the drops, then the Rook's landing cell, each once, in order."""
    return list(dict.fromkeys(fx["drops"] + ([fx["rook_to"]] if fx["rook_to"] else [])))


def _contents(image: Image.Image, state: State, variant: str) -> None:
    checkers, rook = cast(RoocalaState, state).checkers, cast(RoocalaState, state).rook
    for cell in BOARDS[variant].names:
        k = checkers(cell)
        seat = rook(cell)
        if k:
            x, y = stack_centre(variant, cell, seat is not None)
            paste(image, _stack_sprite(k), (x, y + 4))   # the sprite's face sits 4 px above its middle
        if seat is not None:
            paste(image, _rook_sprite(seat), rook_centre(variant, cell, k > 0))


def trail(variant: str, fx: dict) -> list[tuple[str, str]]:
    """The steps a chevron marks: departure → first drop for a sowing; every step of a Rook move."""
    g = BOARDS[variant]
    if fx["kind"] == "rook":
        a, b = g.index[fx["from"]], g.index[fx["rook_to"]]
        d = g.line[a].get(b)
        if d is None:
            return []
        cells = [fx["from"]] + [g.names[c] for c in g.ray[a][d][: g.ray[a][d].index(b) + 1]]
        return list(zip(cells, cells[1:], strict=False))
    return [(fx["from"], fx["drops"][0])] if fx["drops"] else []


def _marks(image: Image.Image, variant: str, fx: dict, state: State) -> None:
    """Chevrons across the sides the move crossed, '+k' / '×k' badges, a dashed ring where a Rook left."""
    for _, sprite_, centre in mark_sprites(variant, fx, state):
        paste(image, sprite_, centre)


def mark_sprites(variant: str, fx: dict, state: State) -> list[tuple[str, Image.Image, tuple[float, float]]]:
    """What ``_marks`` pastes, in order: (kind, sprite, centre), kind "chevron", "ghost" or "badge". Each badge
    sits in its cell's badge slot, moved sideways as little as keeps it clear of the chevrons drawn, the
    cell's own stack and Rook, and every coordinate (``badge_spot``)."""
    out: list[tuple[str, Image.Image, tuple[float, float]]] = []
    steps = tuple(trail(variant, fx))
    for a, b in steps:
        out.append(("chevron", _chevron_sprite(step_angle(variant, a, b)), chevron_centre(variant, a, b)))
    st = cast(RoocalaState, state)
    if fx["kind"] != "sow" and st.rook(fx["from"]) is None:
        x, y = cell_centre(variant, fx["from"])
        out.append(("ghost", _ghost_sprite(), (x, y + CONTENT_DY)))
    for cell, text, capture in badges(fx):
        near = tuple(step for step in steps if cell in step)
        out.append(("badge", _badge_sprite(text, capture),
                    badge_spot(variant, cell, text, capture, near, st.checkers(cell), st.rook(cell))))
    return out


def step_angle(variant: str, a: str, b: str) -> int:
    """The direction of a step a → b on screen, in whole degrees (0 = right, 90 = down): its chevron's."""
    (xa, ya), (xb, yb) = cell_centre(variant, a), cell_centre(variant, b)
    return round(math.degrees(math.atan2(yb - ya, xb - xa))) % 360


BADGE_CLEAR = 1             # pixels between a badge and a chevron (the slot leaves 2-3 px above it to a stack)
BADGE_SHIFTS = tuple(sorted(((dx, dy) for dx in range(-30, 31, 3) for dy in (0, -1, -2)),
                            key=lambda d: (abs(d[0]) + 4 * abs(d[1]), d[1], d[0])))   # nearest first


@lru_cache(maxsize=512)
def badge_spot(variant: str, cell: str, text: str, capture: bool, steps: tuple[tuple[str, str], ...],
               checkers: int, rook: int | None) -> tuple[float, float]:
    """Where the badge ``text`` of ``cell`` goes: its slot (``badge_centre``), or the spot nearest it (sideways
    by up to 30 px, up by up to 2: ``BADGE_SHIFTS``) where it touches none of the chevrons of ``steps`` (the
    move's steps across this cell's sides; BADGE_CLEAR px from them), this cell's stack of ``checkers`` and its
    Rook, nor any coordinate. A two-digit capture ('×12') is wider than the room between the chevrons of a
    hex's lower slanted sides: it moves away from the one drawn."""
    x, y = badge_centre(variant, cell)
    if not steps:       # the slot lies under any contents (rows 20-37 against theirs ending by row 19)
        return x, y
    reach = 110                                     # the local canvas round the cell: its neighbours' sides
    origin = (round(x) - reach, round(y) - reach)

    def layer(pastes: list[tuple[Image.Image, tuple[float, float]]]) -> Image.Image:
        """The sprites' coverage on the local canvas (alpha over 24)."""
        canvas = Image.new("RGBA", (2 * reach, 2 * reach), (0, 0, 0, 0))
        for sprite_, (cx, cy) in pastes:
            paste(canvas, sprite_, (cx - origin[0], cy - origin[1]))
        return canvas.getchannel("A").point(lambda a: 255 if a > 24 else 0)
    chevrons = layer([(_chevron_sprite(step_angle(variant, a, b)), chevron_centre(variant, a, b))
                      for a, b in steps]).filter(ImageFilter.MaxFilter(2 * BADGE_CLEAR + 1))
    pieces = []
    if checkers:
        sx, sy = stack_centre(variant, cell, rook is not None)
        pieces.append((_stack_sprite(checkers), (sx, sy + 4)))
    if rook is not None:
        pieces.append((_rook_sprite(rook), rook_centre(variant, cell, checkers > 0)))
    taken = ImageChops.lighter(chevrons, layer(pieces))
    draw = ImageDraw.Draw(taken)
    for other in BOARDS[variant].names:
        x0, y0, x1, y1 = label_box(variant, other)
        if abs(x0 - x) < 2 * reach and abs(y0 - y) < 2 * reach:
            draw.rectangle((x0 - origin[0] - 1, y0 - origin[1] - 1, x1 - origin[0] + 1, y1 - origin[1] + 1),
                           fill=255)
    badge = _badge_sprite(text, capture).getchannel("A").point(lambda a: 255 if a > 24 else 0)
    for dx, dy in BADGE_SHIFTS:
        left, top = round(x + dx - badge.width / 2) - origin[0], round(y + dy - badge.height / 2) - origin[1]
        under = taken.crop((left, top, left + badge.width, top + badge.height))
        if ImageChops.multiply(under, badge).getbbox() is None:
            return x + dx, y + dy
    return x, y


def badges(fx: dict) -> list[tuple[str, str, bool]]:
    """(cell, text, is a capture) for the badge slot of each cell the last move changed: '×k' where it
    captured (checkers, or 'R' for a Rook), else '+k' for k drops."""
    drops: dict[str, int] = {}
    for cell in fx["drops"]:
        drops[cell] = drops.get(cell, 0) + 1
    taken = {cell: f"×{k}" for cell, k in fx["captured"].items()}
    if fx["rook_captured"]:
        taken[fx["rook_captured"]] = "×R"
    out = [(cell, taken.get(cell, f"+{k}"), cell in taken) for cell, k in drops.items()]
    out += [(cell, text, True) for cell, text in taken.items() if cell not in drops]
    return out


def _panel_texts(image: Image.Image, d: ImageDraw.ImageDraw, state: State, names: list[str], variant: str
                 ) -> None:
    """Each player's name (shortened, never its tag), the turn tag or the result badge, and the score."""
    over = state.is_over
    winners = state.winners
    scores = state.scores
    for seat in (1, 0):
        top = panel_top(seat, variant)
        x0 = MARGIN + 88
        y = top + 28
        tag_w = 0.0
        tag = ""
        won = over and seat in winners and len(winners) == 1
        if won:
            tag = winner_label()
            tag_w = 30 * 1.4 + font(TEXT, True).getlength(tag)
        elif over and seat in winners:          # a draw: a plain tag, not the winner's star for both
            tag = tr(DRAW_TAG)
            tag_w = font(TEXT, True).getlength(tag) + 24
        elif not over and state.to_move == seat:
            tag = tr(TO_MOVE_TAG)
            tag_w = font(TEXT, True).getlength(tag) + 24
        room = WIDTH - MARGIN - 250 - x0 - (tag_w + 16 if tag else 0)
        name = fit_name(names[seat], NAME, room, bold=True)
        draw_name(d, (x0, y), name, NAME, bold=True, anchor="lm")
        tx = x0 + name_length(name, NAME, bold=True) + 16
        if won:
            winner_badge(d, (tx, y), size=30, label=tag)
        elif tag:
            pill = _tag_sprite(tag)
            paste(image, pill, (tx + pill.width / 2, y))
        paste(image, _text_sprite(str(round(scores[seat])), SCORE), (WIDTH - MARGIN - 62, top + PANEL_H / 2))


@lru_cache(maxsize=128)
def _text_sprite(text: str, size: int) -> Image.Image:
    """Bold ``text`` in INK on a clear sprite, centred (scores: drawn once per value)."""
    f = font(size, True)
    x0, y0, x1, y1 = f.getbbox(text, anchor="mm")
    w, h = 2 * math.ceil(max(-x0, x1)) + 2, 2 * math.ceil(max(-y0, y1)) + 2
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((w / 2, h / 2), text, font=f, fill=INK, anchor="mm")
    return image


@lru_cache(maxsize=4)
def _tag_sprite(tag: str) -> Image.Image:
    """The turn tag: white bold text on a dark pill."""
    w, h = round(font(TEXT, True).getlength(tag)) + 24, 32

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=8 * s, fill=INK)
    image = sprite(paint, (w, h))
    ImageDraw.Draw(image).text((w / 2, h / 2), tag, font=font(TEXT, True), fill=WHITE, anchor="mm")
    return image


def status_lines(state: State, names: Sequence[str]) -> list[str]:
    """The end-of-game sentence as the board shows it: whole, in at most two lines. Long names are
    shortened (each to the same width) until it fits; the sentence itself is never cut."""
    outcome = state.outcome()
    if outcome is None:
        return []
    width = WIDTH - 2 * MARGIN
    text = ""
    for limit in (None, 360, 280, 220, 170, 130, 100, 80, 60, 40):
        shown = [n if limit is None else fit_name(n, TEXT, limit, bold=True) for n in names]
        text = outcome_text(state.game, outcome, shown, tr)
        lines = wrap_text(text, TEXT, width, bold=True)
        if " ".join(lines) == " ".join(text.split()) and all(
                name_length(line, TEXT, bold=True) <= width for line in lines):
            return lines
    return wrap_text(text, TEXT, width, bold=True)


def _status(d: ImageDraw.ImageDraw, state: State, names: list[str], variant: str, fx: dict | None,
            mover: int | None) -> None:
    """Under the board: the result (whole, two lines at most) or the repetition warning, then the last move and
    who made it (also at the end: the move that ended the game)."""
    top = status_top(variant)
    y = top + 20
    lines = status_lines(state, names)
    for line in lines:
        draw_name(d, (WIDTH / 2, y), line, TEXT, bold=True, fill=INK, anchor="mm")
        y += STATUS_LINE
    if not lines and cast(RoocalaState, state).repetitions() >= 2:
        d.rounded_rectangle((MARGIN, y - 18, WIDTH - MARGIN, y + 18), radius=10, fill=INK)
        d.rounded_rectangle((MARGIN + 2, y - 16, WIDTH - MARGIN - 2, y + 16), radius=8, fill=WARN_FILL)
        d.text((WIDTH / 2, y), tr(SEEN_TWICE), font=font(TEXT, True),
               fill=INK, anchor="mm")
        y += STATUS_LINE + 6
    if fx and mover is not None:
        draw_name(d, (WIDTH / 2, y), last_move_line(fx, names[mover]), TEXT, fill=INK, anchor="mm")


def last_move_line(fx: dict, name: str) -> str:
    """'Last move by <name>: <move> — <result>', the name shortened until the line fits the board's width."""
    before, after = split(LAST_MOVE)
    rest = after.format(move=fx["move"], result=previous_note(fx))
    room = WIDTH - 2 * MARGIN - font(TEXT).getlength(before + rest)
    return before + fit_name(name, TEXT, max(room, 40.0)) + rest


def previous_note(fx: dict) -> str:
    """A few words on the last move's result for the status line."""
    took = sum(fx["captured"].values())
    parts = []
    if took:
        parts.append(tr(CAPTURED_ONE) if took == 1 else tr(CAPTURED_MANY).format(n=took))
    if fx["rook_captured"]:
        parts.append(tr(CAPTURED_ROOK).format(cell=fx["rook_captured"]))
    return ", ".join(parts) if parts else tr(NO_CAPTURE)


# --- the fixed palette -----------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def sampled_palette() -> Image.Image:
    """One palette for every Roocala board: median cut over sample boards of both variants that show every
    element (rings, chevrons, badges, the warning, the winner and draw badges), plus a swatch of the flat
    colours so none of them is merged away."""
    from engines.roocala import GAME
    samples: list[Image.Image] = []
    hexa = GAME.new().play("Rd2-c1").play("c6")
    samples.append(draw(hexa.play("c1>d1+R"), ["c1>d1+R"], ["Ann", "Bob"], hexa))
    sq = GAME.new(variant="square").play("b1 n").play("e6 s")
    samples.append(draw(sq.play("Re2xe4"), ["Re2xe4"], ["Ann", "Bob"], sq))
    cells = [f"{f}{r}" for r in range(1, 7) for f in "abcdef"]
    code = "square " + ",".join("1" if c in ("c3", "c4") else "0" for c in cells) + " 19 20 S"
    st = GAME.decode(code)
    moves = ["c3 e", "c4 e", "d3 w", "d4 w"]
    for m in moves:
        st = st.play(m)
    samples.append(draw(st, [], ["Ann", "Bob"], None))            # the repetition warning
    for m in moves:
        before, st = st, st.play(m)
    samples.append(draw(st, [m], ["Ann", "Bob"], before))         # a draw
    won = GAME.decode("hex " + ",".join(("3N" if c == "a1" else "2" if c == "b1" else
                                         "0S" if c in ("b4", "d2") else "0N" if c == "d4" else "0")
                                        for c in BOARDS["hex"].names) + " 15 17 N")
    samples.append(draw(won, [], ["Ann", "Bob"], None))           # a winner
    flat = [BACKGROUND, INK, MUTED, HIGHLIGHT, SOUTH_TINT, NORTH_TINT, INNER_FILL, GRID, LABEL_INK, CHECKER_FILL,
            CHECKER_EDGE, *ROOK_FILL, PANEL_FILL, PANEL_EDGE, ACTIVE_FILL, WARN_FILL, CAPTURE_FILL, DROP_INK,
            CCW_INK, CHEVRON_FILL, (214, 158, 24)]
    swatch = Image.new("RGB", (WIDTH, 40), BACKGROUND)
    sd = ImageDraw.Draw(swatch)
    step = WIDTH // len(flat)
    for i, colour in enumerate(flat):
        sd.rectangle((i * step, 0, (i + 1) * step - 1, 39), fill=colour)
    return build_palette(*samples, *([swatch] * 40))


def palette(state: State | None = None) -> Image.Image:
    """The fixed palette every Roocala board is mapped onto (stored from ``sampled_palette``; both variants)."""
    return stored_palette("roocala")


def mark_centre(state: State, cell: str) -> tuple[float, float] | None:
    """Where a picker's key for ``cell`` goes (``render.marks``): over the cell's coordinate, the stack visible."""
    centres = _centres(state.variant or "hex")
    if cell not in centres:
        return None
    x, y = centres[cell]
    return x, y + LABEL_DY
