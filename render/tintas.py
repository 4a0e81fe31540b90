"""The Tintas board image: 49 flat-topped hexes, the pieces, the pawn, the last turn, both holdings.

The position is read from ``state.encode()`` (the spec's position code) and the geometry from the engine's
``LABELS`` / ``AXIAL``, with the pixel formula of the rules spec (A.3.3). ``cell_centre`` and
``piece_centre`` give the geometry used, so tests can sample pixels.

Everything is drawn on a canvas ``SCALE`` times larger and shrunk once at the end (smooth edges); the
drawing iterates only over ordered sequences, so identical input gives identical pixels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.tintas import AXIAL, COLOUR_NAMES, COLOURS, LABELS
from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    SUPERSAMPLE,
    arrow,
    dashed_circle,
    disc,
    downsample,
    fit_text,
    hex_corners,
    mix,
    piece,
    rounded_panel,
    star,
    supersampled,
    text_centred,
)
from render.common import z as _z
from render.common import zi as _zi
from render.common import zp as _zp

# --- Geometry (final pixels) ------------------------------------------------------------------------------
WIDTH = 960
HEX = 66                       # centre-to-corner of a cell
HEX_H = math.sqrt(3) * HEX     # a cell's height (flat top)
BOARD_X = WIDTH / 2            # pixel of E4's centre
BOARD_Y = 100 + 4 * HEX_H + 22
PIECE_RADIUS = 31
PIECE_DY = 13                  # the piece sits a little below the centre, the label above it
LABEL_DY = -37
ARROW_SHIFT = 8                # sideways offset of the path arrows (see _last_turn)
ARROW_SHIFT_VERTICAL = 25
SCALE = SUPERSAMPLE

PANEL_TOP = round(BOARD_Y + 4 * HEX_H + 30)
PANEL_H = 118
HEIGHT = PANEL_TOP + 2 * PANEL_H + 12 + 50

# --- Palette --------------------------------------------------------------------------------------------
# Seven fills chosen for distinct lightness as well as hue (red and purple dark, green mid, orange and blue
# light-mid, yellow and white light); each piece also carries its letter, so colour is never the only cue.
FILL = {
    "R": (200, 32, 44),
    "O": (245, 137, 22),
    "Y": (250, 215, 45),
    "G": (22, 140, 75),
    "B": (80, 170, 235),
    "P": (118, 58, 160),
    "W": (252, 252, 250),
}
EDGE = {c: mix(FILL[c], INK, 0.55) for c in COLOURS}  # darker outline of each colour
EDGE["W"] = (95, 95, 100)
EMPTY_FILL = (226, 216, 196)
BOARD_FILL = (120, 98, 76)
LABEL_INK = (70, 58, 46)
PAWN_INK = (28, 28, 32)
PATH_INK = (28, 28, 32)
PANEL_FILL = (236, 230, 218)
ACTIVE_FILL = (255, 255, 255)
GOLD = (255, 200, 40)


def cell_centre(label: str) -> tuple[float, float]:
    """The centre of a cell in the final image (A.3.3: x = 1.5·s·q, y = √3·s·(r + q/2))."""
    q, r = AXIAL[label]
    return BOARD_X + 1.5 * HEX * q, BOARD_Y + HEX_H * (r + q / 2)


def piece_centre(label: str) -> tuple[float, float]:
    """Where a piece (or the pawn) on ``label`` is drawn in the final image."""
    x, y = cell_centre(label)
    return x, y + PIECE_DY


def parse(code: str) -> tuple[dict[str, str], str | None, tuple[list[int], list[int]], int, str | None]:
    """Split a position code: (label -> letter or '.', pawn, holdings by seat, mover seat, chain colour)."""
    board, pawn, h1, h2, mover, chain = code.split()
    cells = dict(zip(LABELS, board, strict=True))
    return (cells, None if pawn == "-" else pawn, ([int(c) for c in h1], [int(c) for c in h2]),
            int(mover) - 1, None if chain == "-" else chain)




def draw(state, last_turn: Sequence[str] | None = None, names: Sequence[str] | None = None,
         previous=None) -> Image.Image:
    """The board image of a Tintas ``state`` (see the module docstring)."""
    cells, pawn, holdings, mover, chain = parse(state.encode())
    names = [str(n) for n in (names or ())][:2]
    names += [f"Player {i + 1}" for i in range(len(names), 2)]
    collected = [m.upper() for m in (last_turn or ()) if m.upper() in AXIAL]
    before = parse(previous.encode()) if previous is not None else None
    start = before[1] if before else None
    was = before[0] if before else {}

    image = supersampled(WIDTH, HEIGHT, SCALE, BACKGROUND)
    d = ImageDraw.Draw(image)
    _board(d, cells)
    _column_letters(d)
    _last_turn(d, collected, start, was, pawn)
    _labels(d)
    if pawn:
        _pawn(d, piece_centre(pawn))
    _header(d, state, cells, pawn, holdings, mover, chain, names, collected, start, was)
    _holdings(d, state, cells, holdings, names)
    return downsample(image, SCALE)


# --- Board ----------------------------------------------------------------------------------------------

def _board(d: ImageDraw.ImageDraw, cells: dict[str, str]) -> None:
    for label in LABELS:                                  # the wooden underlay: full-size hexes
        d.polygon(hex_corners(_zp(cell_centre(label)), _z(HEX + 3)), fill=BOARD_FILL)
    for label in LABELS:
        centre = cell_centre(label)
        d.polygon(hex_corners(_zp(centre), _z(HEX - 3.5)), fill=EMPTY_FILL)
        letter = cells[label]
        if letter != ".":
            piece(d, _zp(piece_centre(label)), _z(PIECE_RADIUS), FILL[letter], letter,
                  outline=EDGE[letter], width=_zi(2.5), letter_size=_zi(27))


def _labels(d: ImageDraw.ImageDraw) -> None:
    """Cell labels, drawn over the path arrows with a halo in the cell colour so they always read."""
    for label in LABELS:
        x, y = cell_centre(label)
        text_centred(d, _zp((x, y + LABEL_DY)), label, _zi(23), bold=True, fill=LABEL_INK,
                     stroke=_zi(2.5), stroke_fill=EMPTY_FILL)


def _column_letters(d: ImageDraw.ImageDraw) -> None:
    """Each column's letter just above its top cell and below its bottom cell (labels are letter + row)."""
    for col in "ABCDEFGHI":
        labels = [lab for lab in LABELS if lab[0] == col]
        for lab, dy in ((labels[-1], -HEX_H / 2 - 17), (labels[0], HEX_H / 2 + 17)):
            x, y = cell_centre(lab)
            text_centred(d, _zp((x, y + dy)), col, _zi(24), bold=True, fill=MUTED)


def _pawn(d: ImageDraw.ImageDraw, centre: tuple[float, float]) -> None:
    """A dark cone-shaped pawn with a white rim, standing on the cell."""
    x, y = _zp(centre)
    u = _z(1)
    rim = _zi(3)
    base = (x - 27 * u, y + 14 * u, x + 27 * u, y + 30 * u)
    body = [(x - 22 * u, y + 22 * u), (x - 7 * u, y - 10 * u),
            (x + 7 * u, y - 10 * u), (x + 22 * u, y + 22 * u)]
    head = (x, y - 18 * u)
    # white halo first, then the dark shape, so the pawn reads on any fill
    d.ellipse((base[0] - rim, base[1] - rim, base[2] + rim, base[3] + rim), fill=(255, 255, 255))
    d.polygon(body, fill=(255, 255, 255), outline=(255, 255, 255), width=rim * 2)
    disc(d, head, 13 * u + rim, fill=(255, 255, 255))
    d.ellipse(base, fill=PAWN_INK)
    d.polygon(body, fill=PAWN_INK)
    disc(d, head, 13 * u, fill=PAWN_INK)
    disc(d, (head[0] - 4 * u, head[1] - 4 * u), 3.5 * u, fill=(120, 120, 128))   # a small highlight


def _last_turn(d: ImageDraw.ImageDraw, collected: list[str], start: str | None, was: dict[str, str],
               pawn: str | None) -> None:
    """Ghosts of the collected pieces (their colour, numbered in order) and arrows along the path."""
    if not collected:
        return
    for step, label in enumerate(collected, 1):
        centre = _zp(piece_centre(label))
        letter = was.get(label, ".")
        ring = EDGE[letter] if letter in FILL else PATH_INK
        if letter in FILL:
            disc(d, centre, _z(PIECE_RADIUS), fill=mix(FILL[letter], EMPTY_FILL, 0.6))
        dashed_circle(d, centre, _z(PIECE_RADIUS), fill=ring, width=_zi(4))
        text_centred(d, centre, str(step), _zi(25), bold=True, fill=INK)      # the order of collection
    path = ([start] if start and start != collected[0] else []) + collected
    for a, b in zip(path, path[1:], strict=False):
        # Each arrow is shifted to its right, so a chain that goes back along its own line (A.6.3: F5-H4-C3
        # re-crosses F5) shows two parallel arrows; straight up/down steps are shifted further, beside the
        # cell labels (which sit between vertically adjacent pieces).
        (xa, ya), (xb, yb) = piece_centre(a), piece_centre(b)
        length = math.hypot(xb - xa, yb - ya) or 1
        shift = ARROW_SHIFT_VERTICAL if abs(xb - xa) < 1 else ARROW_SHIFT
        ox, oy = -(yb - ya) / length * shift, (xb - xa) / length * shift
        trim_end = PIECE_RADIUS - 4 if b == pawn else PIECE_RADIUS + 1
        trim_start = 12 if a == start else PIECE_RADIUS + 1
        arrow(d, _zp((xa + ox, ya + oy)), _zp((xb + ox, yb + oy)), fill=PATH_INK, width=_zi(6),
              casing=(255, 255, 255), casing_width=_zi(2.5), trim_start=_z(trim_start), trim_end=_z(trim_end))
    if path[0] == start:                                        # where the pawn stood: a ring
        disc(d, _zp(piece_centre(start)), _z(14), fill=(255, 255, 255), outline=PATH_INK, width=_zi(5))


# --- Text around the board ------------------------------------------------------------------------------

def _win_reason(holding: list[int]) -> str:
    for letter, n in zip(COLOURS, holding, strict=True):
        if n == 7:
            return f"all seven {COLOUR_NAMES[letter]}"
    majorities = sum(1 for n in holding if n >= 4)
    return f"4+ pieces in {majorities} colours"


def _header(d, state, cells, pawn, holdings, mover, chain, names, collected, start, was) -> None:
    if state.is_over:
        winners = list(state.winners)
        if winners:
            seat = winners[0]
            who = fit_text(names[seat], _zi(30), _z(400), bold=True)
            status = f"{who} wins: {_win_reason(holdings[seat])}"
        else:
            status = "Game over"
    else:
        seat = mover if state.to_move is None else state.to_move
        who = fit_text(names[seat], _zi(30), _z(520), bold=True)
        if chain:
            status = f"{who} is continuing {COLOUR_NAMES[chain]}"
        elif pawn is None:
            status = f"{who} to move: place the pawn anywhere"
        else:
            status = f"{who} to move"
    text_centred(d, (_z(WIDTH / 2), _z(34)), status, _zi(30), bold=True, fill=INK)
    if collected:
        path = ([start] if start and start != collected[0] else []) + collected
        note = "Last turn: " + "-".join(path)
        letters = [was[c] for c in collected if was.get(c, ".") in FILL]
        if letters and len(letters) == len(collected):
            parts = [f"{letters.count(c)} {COLOUR_NAMES[c]}" for c in COLOURS if c in letters]
            note += "  (" + ", ".join(parts) + ")"
        text_centred(d, (_z(WIDTH / 2), _z(72)), note, _zi(21), fill=MUTED)


def _holdings(d: ImageDraw.ImageDraw, state, cells, holdings, names) -> None:
    """One panel per player: name, badge, and seven counters (4+ outlined, 7 in gold with a star)."""
    margin = 16
    over = state.is_over
    for seat in (0, 1):
        top = PANEL_TOP + seat * (PANEL_H + 12)
        active = (not over and state.to_move == seat) or (over and seat in state.winners)
        box = (_z(margin), _z(top), _z(WIDTH - margin), _z(top + PANEL_H))
        rounded_panel(d, box, fill=ACTIVE_FILL if active else PANEL_FILL,
                      outline=INK if active else (200, 192, 178), width=_zi(3 if active else 1.5),
                      radius=_zi(14))
        name = fit_text(names[seat], _zi(26), _z(520), bold=True)
        d.text((_z(margin + 18), _z(top + 22)), name, font=_font(26, True), fill=INK, anchor="lm")
        if active:
            nx = margin + 18 + _font(26, True).getlength(name) / SCALE + 14
            tag = "WINNER" if over else "TO MOVE"
            tw = _font(17, True).getlength(tag) / SCALE
            rounded_panel(d, (_z(nx), _z(top + 9), _z(nx + tw + 20), _z(top + 35)),
                          fill=GOLD if over else INK, radius=_zi(8))
            text_centred(d, (_z(nx + 10 + tw / 2), _z(top + 22)), tag, _zi(17), bold=True,
                         fill=INK if over else (255, 255, 255))
        majorities = sum(1 for n in holdings[seat] if n >= 4)
        d.text((_z(WIDTH - margin - 18), _z(top + 22)), f"{majorities}/4 colours with 4+",
               font=_font(19), fill=MUTED, anchor="rm")
        cw = (WIDTH - 2 * margin - 24) / 7
        for i, (letter, n) in enumerate(zip(COLOURS, holdings[seat], strict=True)):
            x0 = margin + 12 + i * cw
            cb = (_z(x0 + 4), _z(top + 44), _z(x0 + cw - 4), _z(top + PANEL_H - 10))
            if n == 7:
                rounded_panel(d, cb, fill=GOLD, outline=INK, width=_zi(3), radius=_zi(10))
            elif n >= 4:
                rounded_panel(d, cb, fill=(255, 255, 255), outline=INK, width=_zi(3), radius=_zi(10))
            cy = top + 44 + (PANEL_H - 54) / 2
            piece(d, _zp((x0 + 30, cy)), _z(20), FILL[letter], letter, outline=EDGE[letter], width=_zi(2),
                  letter_size=_zi(20))
            text_centred(d, _zp((x0 + 74, cy)), str(n), _zi(32 if n >= 4 else 28), bold=n >= 4,
                         fill=INK if n else (170, 165, 155))
            if n == 7:
                star(d, _zp((x0 + cw - 18, top + 54)), _z(11), fill=INK)
    # pieces still on the board, per colour
    on_board = [sum(1 for v in cells.values() if v == c) for c in COLOURS]
    text = "On the board:  " + "   ".join(f"{c} {n}" for c, n in zip(COLOURS, on_board, strict=True))
    text_centred(d, (_z(WIDTH / 2), _z(HEIGHT - 26)), text, _zi(20), fill=MUTED)


def _font(size: int, bold: bool = False):
    from render.common import font
    return font(_zi(size), bold)
