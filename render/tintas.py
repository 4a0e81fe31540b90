"""The Tintas board image: 49 flat-topped hexes, the pieces, the pawn, the last turn, both holdings.

The position is read from ``state.encode()`` (the spec's position code) and the geometry from the engine's
``LABELS`` / ``AXIAL``, with the pixel formula of the rules spec (A.3.3). ``cell_centre`` and
``piece_centre`` give the geometry used, so tests can sample pixels.

The fast path (see render/common.py): the static picture (background, hexes, cell labels, column letters,
plain panel frames) is drawn once per image height, supersampled, and cached; pieces, ghosts, arrows, the
pawn, counters and fixed texts are cached sprites (drawn once, supersampled; the ones that always land on
a flat colour are flattened onto it and pasted without a mask); names and move lists are drawn at final
size. ``palette`` is the game's fixed PNG palette, built once from sample boards. Everything iterates over
ordered sequences only, so identical input gives identical pixels.

Layout (900 px wide, ~1050 px tall in play): a two-line header (who is to move; who played the last turn
and what), the board with 'On the board' (pieces left per colour) in its empty lower-right corner, the two
players' holdings side by side and, once the game is over, the whole end-of-game sentence on a card.
Every text a player must read is at least 24 px (about 11 px on a phone showing the image 400 px wide).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.base import State, outcome_text
from engines.tintas import AXIAL, COLOUR_NAMES, COLOURS, LABELS
from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    WINNER,
    arrow,
    build_palette,
    contrast_ink,
    dashed_circle,
    disc,
    draw_name,
    fit_name,
    font,
    hex_corners,
    mix,
    name_length,
    paste,
    sprite,
    star,
    stored_palette,
    winner_badge,
    winner_label,
    wrap_text,
)
from render.texts import language, split, tr

# --- Texts (English templates, drawn in the post's language: render.texts) ---------------------------------
GAME_OVER_WINS = "Game over: {name} wins"
GAME_OVER_DRAW = "Game over: a draw"
MAY_TAKE_MORE = "{name} may take more {colour} (or end)"
TO_MOVE_PLACE_PAWN = "{name} to move: place the pawn on any piece"
TO_MOVE_JUMP = "{name} to move: nothing in line, jump"
TO_MOVE = "{name} to move"
LAST_TURN_BY = "Last turn by {name}: {turn}"
PATH_TOOK = "{path}, took {pieces}"
TOOK_PIECES = "{count} {colour}"
ENDED_TURN = "ended the turn"
ON_THE_BOARD = "On the board"
MAJORITIES = "{count}/4 colours with 4+"
TO_MOVE_TAG = "TO MOVE"
TEXTS = (GAME_OVER_WINS, GAME_OVER_DRAW, MAY_TAKE_MORE, TO_MOVE_PLACE_PAWN, TO_MOVE_JUMP, TO_MOVE, LAST_TURN_BY,
         PATH_TOOK, TOOK_PIECES, ENDED_TURN, ON_THE_BOARD, MAJORITIES, TO_MOVE_TAG, *COLOUR_NAMES.values())

# --- Geometry (final pixels) ------------------------------------------------------------------------------
WIDTH = 900
HEX = 56                       # centre-to-corner of a cell
HEX_H = math.sqrt(3) * HEX     # a cell's height (flat top)
HEADER_H = 86                  # two lines of text above the board
BOARD_X = WIDTH / 2            # pixel of E4's centre
BOARD_Y = HEADER_H + 4 + 4 * HEX_H      # the top cell's edge (D7) sits 4 cells above E4
PIECE_RADIUS = 26
PIECE_DY = 16                  # the piece sits a little below the centre, the label above it
LABEL_DY = -30
LABEL_SIZE = 28                # cell labels and column letters: ~12.5 px on a 400 px wide phone
LETTER_SIZE = 26
ARROW_SHIFT = 8                # sideways offset of the path arrows (see _last_turn)
ARROW_SHIFT_VERTICAL = 29      # straight up/down steps pass beside the cell labels
SCALE = 3                      # supersampling of the static layer (drawn once)

MARGIN = 14
PANEL_GAP = 12
PANEL_TOP = round(BOARD_Y + 4 * HEX_H + 12)
PANEL_W = (WIDTH - 2 * MARGIN - PANEL_GAP) // 2
PANEL_H = 160
CELL_W = 58                    # one colour counter in a panel
FOOTER_TOP = PANEL_TOP + PANEL_H + 10    # the end-of-game sentence, once the game is over
LINE_H = 32                    # end-sentence line pitch (24 px text)
TEXT_SIZE = 24                 # the smallest text a player must read
HEIGHT = FOOTER_TOP            # the in-play image; a finished game adds a card with its end sentence
LEGEND_X = round(BOARD_X + 4 * HEX + 8)         # 'On the board': the empty corner right of G1, below H1
LEGEND_Y = round(BOARD_Y + 2 * HEX_H + 56)

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
GHOST = {c: mix(FILL[c], (255, 255, 255), 0.55) for c in COLOURS}   # a collected piece, faded
EMPTY_FILL = (226, 216, 196)
BOARD_FILL = (120, 98, 76)
LABEL_INK = (70, 58, 46)
PAWN_INK = (28, 28, 32)
PATH_INK = (28, 28, 32)
PANEL_FILL = (236, 230, 218)
PANEL_EDGE = (200, 192, 178)
ACTIVE_FILL = (255, 255, 255)
GOLD = (255, 200, 40)
ZERO_INK = (150, 145, 135)
WHITE = (255, 255, 255)
PAWN_SHINE = (120, 120, 128)

Point = tuple[float, float]
Cells = dict[str, str]
Parts = list[tuple[str, bool]]     # a line of text as (text, is it a person's name) parts


def cell_centre(label: str) -> Point:
    """The centre of a cell in the final image (A.3.3: x = 1.5·s·q, y = √3·s·(r + q/2))."""
    q, r = AXIAL[label]
    return BOARD_X + 1.5 * HEX * q, BOARD_Y + HEX_H * (r + q / 2)


def piece_centre(label: str) -> Point:
    """Where a piece (or the pawn) on ``label`` is drawn in the final image."""
    x, y = cell_centre(label)
    return x, y + PIECE_DY


_PIECE_AT = {label: piece_centre(label) for label in LABELS}


def label_centre(label: str) -> Point:
    """Where a cell's label is drawn (its middle)."""
    x, y = cell_centre(label)
    return x, y + LABEL_DY


def panel_box(seat: int) -> tuple[int, int, int, int]:
    """The holdings panel of ``seat``: (x0, y0, x1, y1)."""
    x0 = MARGIN + seat * (PANEL_W + PANEL_GAP)
    return x0, PANEL_TOP, x0 + PANEL_W, PANEL_TOP + PANEL_H


def counter_centre(seat: int, index: int) -> Point:
    """The middle of the counter of colour ``COLOURS[index]`` in ``seat``'s panel."""
    x0, y0, _, _ = panel_box(seat)
    left = x0 + (PANEL_W - 7 * CELL_W) / 2
    return left + (index + 0.5) * CELL_W, y0 + 44 + 42


def legend_centre(index: int) -> Point:
    """The small piece of colour ``COLOURS[index]`` in the 'On the board' corner (three to a row)."""
    return LEGEND_X + 20 + (index % 3) * 72, LEGEND_Y + 37 + (index // 3) * 41


_COUNTER_AT = [[counter_centre(seat, i) for i in range(7)] for seat in (0, 1)]


def image_height(end_lines: int) -> int:
    """The image height with an end sentence of ``end_lines`` lines under the panels (0 while playing)."""
    return FOOTER_TOP + (end_lines * LINE_H + 16 + 10 if end_lines else 0)


def parse(code: str) -> tuple[dict[str, str], str | None, tuple[list[int], list[int]], int, str | None]:
    """Split a position code: (label -> letter or '.', pawn, holdings by seat, mover seat, chain colour)."""
    board, pawn, h1, h2, mover, chain = code.split()
    cells = dict(zip(LABELS, board, strict=True))
    return (cells, None if pawn == "-" else pawn, ([int(c) for c in h1], [int(c) for c in h2]),
            int(mover) - 1, None if chain == "-" else chain)


# --- Cached text and sprites -------------------------------------------------------------------------------

@lru_cache(maxsize=1024)
def _text_sprite(text: str, size: int, bold: bool, fill: tuple[int, int, int], anchor: str = "mm",
                 halo: int = 0, halo_fill: tuple[int, int, int] | None = None) -> tuple[Image.Image, int, int]:
    """Fixed text (labels, counts, tags) drawn once at final size: (RGBA image, anchor x, anchor y)."""
    f = font(size, bold)
    box = f.getbbox(text, anchor=anchor, stroke_width=halo)
    left, top, right, bottom = math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3])
    ax, ay = 1 - left, 1 - top
    image = Image.new("RGBA", (right - left + 2, bottom - top + 2), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((ax, ay), text, font=f, fill=fill, anchor=anchor, stroke_width=halo,
                               stroke_fill=halo_fill)
    return image, ax, ay


def _text(base: Image.Image, xy: Point, text: str, size: int, *, bold: bool = False,
          fill: tuple[int, int, int] = INK, anchor: str = "mm", halo: int = 0,
          halo_fill: tuple[int, int, int] | None = None) -> None:
    """Paste a cached text sprite with its ``anchor`` on ``xy`` (as ``draw.text`` would place it)."""
    image, ax, ay = _text_sprite(text, size, bold, fill, anchor, halo, halo_fill)
    base.paste(image, (round(xy[0]) - ax, round(xy[1]) - ay), image)


@lru_cache(maxsize=256)
def _length(text: str, size: int, bold: bool) -> float:
    """The width of fixed text (not a name) in ``font(size, bold)``."""
    return font(size, bold).getlength(text)


@lru_cache(maxsize=256)
def _fit(name: str, size: int, room: float, bold: bool) -> str:
    return fit_name(name, size, room, bold=bold)


@lru_cache(maxsize=256)
def _name_sprite(text: str, size: int, bold: bool, fill: tuple[int, int, int]) -> tuple[Image.Image, int, int]:
    """A person's name (or a line holding one) drawn once through ``common.draw_name`` on a transparent
    sprite: (RGBA image, x and y of its left baseline). Names repeat on every board of a match."""
    pad = size // 2
    ax, ay = pad, round(size * 1.4)
    image = Image.new("RGBA", (math.ceil(name_length(text, size, bold=bold)) + 2 * pad, 2 * size),
                      (0, 0, 0, 0))
    draw_name(ImageDraw.Draw(image), (ax, ay), text, size, bold=bold, fill=fill, anchor="ls")
    return image, ax, ay


def _name(base: Image.Image, xy: Point, text: str, size: int, *, bold: bool = False,
          fill: tuple[int, int, int] = INK) -> None:
    """Paste a name with its left baseline on ``xy`` (like ``draw_name(..., anchor='ls')``)."""
    image, ax, ay = _name_sprite(text, size, bold, fill)
    base.paste(image, (round(xy[0]) - ax, round(xy[1]) - ay), image)


def _opaque(image: Image.Image, background: tuple[int, int, int], size: tuple[int, int] | None = None) -> Image.Image:
    """An RGBA sprite flattened onto the flat ``background`` it always lands on (optionally cropped to
    ``size`` around its centre): pasted without a mask, several times faster than alpha blending."""
    flat = Image.new("RGB", image.size, background)
    flat.paste(image, (0, 0), image)
    if size is not None:
        x = (image.width - size[0]) // 2
        y = (image.height - size[1]) // 2
        flat = flat.crop((x, y, x + size[0], y + size[1]))
    return flat


def _put(base: Image.Image, tile: Image.Image, centre: Point) -> None:
    """Paste an opaque tile with its centre on ``centre`` (rounded like ``common.paste``)."""
    base.paste(tile, (round(centre[0] - tile.width / 2), round(centre[1] - tile.height / 2)))


def _square(radius: float) -> tuple[int, int]:
    side = 2 * math.ceil(radius) + 4
    return side, side


@lru_cache(maxsize=8)
def _piece_tile(letter: str) -> Image.Image:
    """A board piece on its empty cell's flat fill, 54 px square (the cell is flat there: the label is
    above, the hex edge around)."""
    piece_ = _piece_sprite(letter)
    return _opaque(piece_, EMPTY_FILL, (piece_.width - 2, piece_.height - 2))


@lru_cache(maxsize=16)
def _piece_sprite(letter: str, radius: int = PIECE_RADIUS, letter_size: int = LETTER_SIZE,
                  rim: float = 2.5) -> Image.Image:
    """A piece: a disc in its colour with a darker rim and its letter (the colour-blind cue) at final size."""
    size = _square(radius)

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        disc(d, (size[0] * s / 2, size[1] * s / 2), radius * s, fill=FILL[letter], outline=EDGE[letter],
             width=round(rim * s))
    image = sprite(paint, size)
    ImageDraw.Draw(image).text((size[0] / 2, size[1] / 2), letter, font=font(letter_size, True),
                               fill=contrast_ink(FILL[letter]), anchor="mm")
    return image


@lru_cache(maxsize=128)
def _ghost_sprite(letter: str | None, step: int) -> Image.Image:
    """A piece collected in the last turn: its faded colour, a thick dark dashed ring, the step number."""
    radius = PIECE_RADIUS
    size = _square(radius + 1)

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        centre = (size[0] * s / 2, size[1] * s / 2)
        if letter is not None:
            disc(d, centre, radius * s, fill=GHOST[letter])
        dashed_circle(d, centre, (radius - 1) * s, fill=PATH_INK, width=round(4 * s))
    image = sprite(paint, size)
    ImageDraw.Draw(image).text((size[0] / 2, size[1] / 2), str(step), font=font(LETTER_SIZE, True), fill=INK,
                               anchor="mm", stroke_width=2, stroke_fill=WHITE)
    return image


@lru_cache(maxsize=1)
def _pawn_sprite() -> Image.Image:
    """A dark cone-shaped pawn with a white rim, so it reads on any fill and in grey-scale."""
    size = (64, 68)

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        x, y = size[0] * s / 2, size[1] * s / 2
        u = 0.92 * s
        rim = 3 * s
        base = (x - 27 * u, y + 14 * u, x + 27 * u, y + 30 * u)
        body = [(x - 22 * u, y + 22 * u), (x - 7 * u, y - 10 * u), (x + 7 * u, y - 10 * u),
                (x + 22 * u, y + 22 * u)]
        head = (x, y - 18 * u)
        d.ellipse((base[0] - rim, base[1] - rim, base[2] + rim, base[3] + rim), fill=WHITE)
        d.polygon(body, fill=WHITE, outline=WHITE, width=round(rim * 2))
        disc(d, head, 13 * u + rim, fill=WHITE)
        d.ellipse(base, fill=PAWN_INK)
        d.polygon(body, fill=PAWN_INK)
        disc(d, head, 13 * u, fill=PAWN_INK)
        disc(d, (head[0] - 4 * u, head[1] - 4 * u), 3.5 * u, fill=PAWN_SHINE)
    return sprite(paint, size)


@lru_cache(maxsize=1)
def _start_sprite() -> Image.Image:
    """Where the pawn stood before the last turn: a white ring with a thick dark outline."""
    size = (34, 34)

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        disc(d, (17 * s, 17 * s), 14 * s, fill=WHITE, outline=PATH_INK, width=round(5 * s))
    return sprite(paint, size)


@lru_cache(maxsize=512)
def _arrow_sprite(dx: int, dy: int, trim_start: int, trim_end: int) -> Image.Image:
    """A dark arrow with a white casing along (dx, dy), centred in its sprite (paste it at the midpoint)."""
    pad = 22
    size = (abs(dx) + 2 * pad, abs(dy) + 2 * pad)
    scale = 4 if size[0] * size[1] <= 60_000 else 2

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        cx, cy = size[0] * s / 2, size[1] * s / 2
        arrow(d, (cx - dx * s / 2, cy - dy * s / 2), (cx + dx * s / 2, cy + dy * s / 2), fill=PATH_INK,
              width=round(6 * s), casing=WHITE, casing_width=round(2.5 * s), trim_start=trim_start * s,
              trim_end=trim_end * s)
    return sprite(paint, size, scale=scale)


@lru_cache(maxsize=2)
def _panel_tile(active: bool) -> Image.Image:
    return _opaque(_panel_sprite(active), BACKGROUND)


def _panel_sprite(active: bool) -> Image.Image:       # only for _panel_tile (cached)
    """A holdings panel's frame: white with a thick dark outline for the player to move (or the winner)."""
    size = (PANEL_W, PANEL_H)

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        w = (3 if active else 1.5) * s
        d.rounded_rectangle((w / 2, w / 2, PANEL_W * s - w / 2, PANEL_H * s - w / 2), radius=round(14 * s),
                            fill=ACTIVE_FILL if active else PANEL_FILL, outline=INK if active else PANEL_EDGE,
                            width=round(w))
    return sprite(paint, size, scale=2)


@lru_cache(maxsize=128)
def _counter_tile(letter: str, n: int, active: bool) -> Image.Image:
    return _opaque(_counter_sprite(letter, n), ACTIVE_FILL if active else PANEL_FILL)


@lru_cache(maxsize=64)
def _counter_sprite(letter: str, n: int) -> Image.Image:
    """One colour counter holding ``n``: the colour's small piece over the count, on a plain cell, a cell
    outlined in ink for 4 or more, or a gold cell with a star for all seven (outline and star carry it
    without colour)."""
    size = (CELL_W - 4, 84)
    level = 2 if n == 7 else 1 if n >= 4 else 0

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        box = (1.5 * s, 1.5 * s, (size[0] - 1.5) * s, (size[1] - 1.5) * s)
        if level == 2:
            d.rounded_rectangle(box, radius=round(10 * s), fill=GOLD, outline=INK, width=round(3 * s))
            star(d, ((size[0] - 10) * s, (size[1] - 13) * s), 7.5 * s, fill=INK)
        elif level == 1:
            d.rounded_rectangle(box, radius=round(10 * s), fill=WHITE, outline=INK, width=round(3 * s))
        disc(d, (size[0] * s / 2, 25 * s), 19 * s, fill=FILL[letter], outline=EDGE[letter], width=round(2 * s))
    image = sprite(paint, size)
    d = ImageDraw.Draw(image)
    d.text((size[0] / 2, 25), letter, font=font(TEXT_SIZE, True), fill=contrast_ink(FILL[letter]), anchor="mm")
    d.text((size[0] / 2, 64), str(n), font=font(28, n >= 4), fill=INK if n else ZERO_INK, anchor="mm")
    return image


@lru_cache(maxsize=64)
def _legend_tile(letter: str, n: int) -> Image.Image:
    image = _legend_sprite(letter, n)
    return _opaque(image, BACKGROUND, (image.width, 40))


def _legend_sprite(letter: str, n: int) -> Image.Image:   # only for _legend_tile (cached)
    """A small piece and the number of its colour left, for the 'On the board' corner."""
    piece_ = _piece_sprite(letter, 19, TEXT_SIZE, 2)
    image = Image.new("RGBA", (piece_.width + 30, piece_.height), (0, 0, 0, 0))
    image.paste(piece_, (0, 0))
    ImageDraw.Draw(image).text((piece_.width + 1, piece_.height / 2), str(n), font=font(TEXT_SIZE, True),
                               fill=INK if n else ZERO_INK, anchor="lm")
    return image


def _tag_sprite() -> Image.Image:
    """The 'TO MOVE' tag in the render language."""
    return _tag_sprite_of(tr(TO_MOVE_TAG))


@lru_cache(maxsize=4)
def _tag_sprite_of(label: str) -> Image.Image:
    """The 'TO MOVE' tag: white bold text on a dark pill."""
    f = font(TEXT_SIZE, True)
    w = round(f.getlength(label)) + 20
    size = (w, 36)

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        d.rounded_rectangle((0, 0, w * s - 1, 36 * s - 1), radius=round(9 * s), fill=INK)
    image = sprite(paint, size)
    ImageDraw.Draw(image).text((w / 2, 18), label, font=f, fill=WHITE, anchor="mm")
    return image


BADGE_SIZE = 30                # common.winner_badge at 30: a 36 px star and 'WINNER' in 24 px bold


def badge_width(size: int = BADGE_SIZE) -> float:
    """The width ``common.winner_badge`` paints at ``size`` (star plus label)."""
    return size * 1.4 + _length(winner_label(), round(size * 0.8), True)


# --- The static layer ------------------------------------------------------------------------------------

def _board_layer() -> Image.Image:
    """Background, wooden underlay, empty cells (supersampled), then labels and column letters. Not cached: it
    only goes into ``_static_in`` (cached), and would hold 3 MB in every render process for a few rare uses."""
    top = round(BOARD_Y - 4 * HEX_H - 4)
    height = round(8 * HEX_H + 8)
    canvas = Image.new("RGB", (WIDTH * SCALE, height * SCALE), BACKGROUND)
    d = ImageDraw.Draw(canvas)

    def at(p: Point) -> Point:
        return p[0] * SCALE, (p[1] - top) * SCALE
    for label in LABELS:
        d.polygon(hex_corners(at(cell_centre(label)), (HEX + 3) * SCALE), fill=BOARD_FILL)
    for label in LABELS:
        d.polygon(hex_corners(at(cell_centre(label)), (HEX - 3.5) * SCALE), fill=EMPTY_FILL)
    layer = canvas.reduce(SCALE)
    shifted = Image.new("RGB", (WIDTH, top + height), BACKGROUND)
    shifted.paste(layer, (0, top))
    for label in LABELS:
        _label(shifted, label)
    for col in "ABCDEFGHI":
        labels = [lab for lab in LABELS if lab[0] == col]
        for lab, dy in ((labels[-1], -HEX_H / 2 - 18), (labels[0], HEX_H / 2 + 18)):
            if lab in ("D7", "F1"):          # the top and bottom cells: their letter is at the other end
                continue
            x, y = cell_centre(lab)
            _text(shifted, (x, y + dy), col, LABEL_SIZE, bold=True, fill=MUTED)
    return shifted


def _label(base: Image.Image, label: str) -> None:
    """A cell's label, with a halo in the cell's colour so it reads over an arrow."""
    _text(base, label_centre(label), label, LABEL_SIZE, bold=True, fill=LABEL_INK, halo=3, halo_fill=EMPTY_FILL)


def _static(end_lines: int) -> Image.Image:
    """The whole unchanging picture in the render language (its 'On the board')."""
    return _static_in(end_lines, language())


@lru_cache(maxsize=16)
def _static_in(end_lines: int, lang: str) -> Image.Image:
    """The whole unchanging picture, with room for an end sentence of ``end_lines`` lines (0 in play)."""
    image = Image.new("RGB", (WIDTH, image_height(end_lines)), BACKGROUND)
    image.paste(_board_layer(), (0, 0))
    for seat in (0, 1):
        x0, y0, x1, _ = panel_box(seat)
        _put(image, _panel_tile(False), ((x0 + x1) / 2, y0 + PANEL_H / 2))
    if end_lines:                                          # the end sentence sits on a white card
        size = (WIDTH - 2 * MARGIN, end_lines * LINE_H + 16)
        card = sprite(lambda d, s: d.rounded_rectangle(
            (0, 0, size[0] * s - 1, size[1] * s - 1), radius=round(12 * s), fill=WHITE, outline=INK,
            width=round(2 * s)), size, scale=2)
        image.paste(card, (MARGIN, FOOTER_TOP), card)
    else:
        _text(image, (LEGEND_X, LEGEND_Y), tr(ON_THE_BOARD), TEXT_SIZE, fill=MUTED, anchor="lm")
    return image


# --- Drawing ---------------------------------------------------------------------------------------------

def draw(state: State, last_turn: Sequence[str] = (), names: Sequence[str] | None = None,
         previous: State | None = None) -> Image.Image:
    """The board image of a Tintas ``state`` (see the module docstring; the contract: ``render.games.Renderer``)."""
    cells, pawn, holdings, _, _ = parse(state.encode())
    names = _names(names)
    moves = list(last_turn or ())
    collected = [m.upper() for m in moves if m.upper() in AXIAL]
    before = parse(previous.encode()) if previous is not None else None
    start = before[1] if before else None
    was = before[0] if before else {}

    end_lines = end_sentence(state, names) if state.is_over else []
    image = _static(len(end_lines)).copy()
    for label in LABELS:
        letter = cells[label]
        if letter != ".":
            _put(image, _piece_tile(letter), _PIECE_AT[label])
    _last_turn(image, collected, start, was, pawn)
    if pawn:
        paste(image, _pawn_sprite(), piece_centre(pawn))
    d = ImageDraw.Draw(image)
    _header(image, state, moves, names, previous)
    _holdings(image, d, state, holdings, names)
    _footer(image, cells, end_lines)
    return image


def _names(names: Sequence[str] | None) -> list[str]:
    out = [str(n) for n in (names or ())][:2]
    return out + [tr(f"Player {i + 1}") for i in range(len(out), 2)]     # the seat names (engines' texts)


def _path(collected: list[str], start: str | None) -> list[str]:
    return ([start] if start and start != collected[0] else []) + collected


def _last_turn(image: Image.Image, collected: list[str], start: str | None, was: dict[str, str],
               pawn: str | None) -> None:
    """Ghosts of the collected pieces (their colour, numbered in order) and arrows along the path."""
    if not collected:
        return
    for step, label in enumerate(collected, 1):
        letter = was.get(label, ".")
        paste(image, _ghost_sprite(letter if letter in FILL else None, step), piece_centre(label))
    path = _path(collected, start)
    touched: list[str] = []
    for a, b in zip(path, path[1:], strict=False):
        # Each arrow is shifted to its right, so a chain that goes back along its own line (A.6.3: F5-H4-C3
        # re-crosses F5) shows two parallel arrows; straight up/down steps are shifted further, beside the
        # cell labels (which sit between vertically adjacent pieces).
        (xa, ya), (xb, yb) = piece_centre(a), piece_centre(b)
        length = math.hypot(xb - xa, yb - ya) or 1
        ux, uy = (xb - xa) / length, (yb - ya) / length
        steep = min(1.0, max(0.0, (abs(uy) - 0.55) / 0.35))      # 0 up to the 60° diagonals, 1 near vertical
        shift = ARROW_SHIFT + (ARROW_SHIFT_VERTICAL - ARROW_SHIFT) * steep
        ox, oy = -uy * shift, ux * shift
        trim_end = PIECE_RADIUS - 4 if b == pawn else PIECE_RADIUS + 1
        trim_start = 12 if a == start else PIECE_RADIUS + 1
        sprite_ = _arrow_sprite(round(xb - xa), round(yb - ya), trim_start, trim_end)
        paste(image, sprite_, ((xa + xb) / 2 + ox, (ya + yb) / 2 + oy))
        # labels the shaft crosses are put back on top; the head stays whole
        head = trim_end + 3.2 * 6 + 6
        if length > head + trim_start:       # (never the target's own label: the head ends there)
            near = _labels_near((xa + ox, ya + oy), (xb + ox - ux * head, yb + oy - uy * head))
            touched += [lab for lab in near if lab != b]
    if path[0] == start:
        paste(image, _start_sprite(), piece_centre(start))
    for label in LABELS:                     # labels stay on top of the arrows that cross them
        if label in touched:
            _label(image, label)


def _labels_near(a: Point, b: Point, reach: float = 7) -> list[str]:
    """The cells whose label box comes within ``reach`` pixels of the shaft from ``a`` to ``b``."""
    (xa, ya), (xb, yb) = a, b
    length = math.hypot(xb - xa, yb - ya)
    steps = max(1, math.ceil(length / 4))
    points = [(xa + (xb - xa) * i / steps, ya + (yb - ya) * i / steps) for i in range(steps + 1)]
    hw, hh = 21 + reach, 11 + reach
    x0, x1, y0, y1 = min(xa, xb) - hw, max(xa, xb) + hw, min(ya, yb) - hh, max(ya, yb) + hh
    out = []
    for label in LABELS:
        x, y = label_centre(label)
        if x0 < x < x1 and y0 < y < y1 and any(abs(px - x) < hw and abs(py - y) < hh for px, py in points):
            out.append(label)
    return out


def last_mover(state: State, previous: State | None) -> int:
    """The seat that played the last turn: the mover of ``previous`` when known, else read from the code
    (field 5 is the player to move, or once over the opponent of the last mover; a chain is mid-turn)."""
    if previous is not None and previous.to_move is not None:
        return previous.to_move
    _, _, _, side, chain = parse(state.encode())
    return side if chain and not state.is_over else 1 - side


def _centred_line(image: Image.Image, y: float, parts: Parts, size: int, *,
                  bold: bool, fill: tuple[int, int, int] = INK) -> None:
    """One centred line (baseline ``y``) made of ``(text, is_name)`` parts: names go through ``draw_name``
    (cached per name), the last part (a move list, often new) is drawn directly, the others are cached."""
    widths = [name_length(t, size, bold=bold) if is_name else _length(t, size, bold) for t, is_name in parts]
    x = WIDTH / 2 - sum(widths) / 2
    for i, ((t, is_name), w) in enumerate(zip(parts, widths, strict=True)):
        if not t:
            continue
        if is_name:
            _name(image, (x, y), t, size, bold=bold, fill=fill)
        elif i == len(parts) - 1 and i > 0:
            ImageDraw.Draw(image).text((x, y), t, font=font(size, bold), fill=fill, anchor="ls")
        else:
            _text(image, (x, y), t, size, bold=bold, fill=fill, anchor="ls")
        x += w


def _fitted(before: str, name: str, after: str, size: int, bold: bool,
            width: float = WIDTH - 2 * MARGIN - 8) -> Parts:
    """``before`` + name + ``after`` on one line of ``width`` pixels, shortening only the name."""
    room = width - _length(before, size, bold) - _length(after, size, bold)
    return [(before, False), (_fit(name, size, max(room, 40.0), bold), True), (after, False)]


def header_lines(state: State, last_turn: Sequence[str] | None = None, names: Sequence[str] | None = None,
                 previous: State | None = None) -> tuple[Parts, Parts]:
    """The two header lines as (text, is_name) parts: the status (who is to move, or who won), then who
    played the last turn and what. Only the names are ever shortened, to fit the image's width."""
    _, pawn, _, _, chain = parse(state.encode())
    names = _names(names)
    moves = list(last_turn or ())
    collected = [m.upper() for m in moves if m.upper() in AXIAL]
    before = parse(previous.encode()) if previous is not None else None
    start = before[1] if before else None
    was = before[0] if before else {}
    if state.is_over:
        winners = list(state.winners)
        if len(winners) == 1:
            head, tail = split(GAME_OVER_WINS)
            status = _fitted(head, names[winners[0]], tail, 30, True)
        else:
            status = [(tr(GAME_OVER_DRAW), False)]
    else:
        seat = state.to_move if state.to_move is not None else 0
        if chain:
            template = MAY_TAKE_MORE
        elif pawn is None:
            template = TO_MOVE_PLACE_PAWN
        elif getattr(state, "must_jump", False):
            template = TO_MOVE_JUMP
        else:
            template = TO_MOVE
        head, tail = split(template)
        status = _fitted(head, names[seat], tail.format(colour=tr(COLOUR_NAMES[chain]) if chain else ""),
                         30, True)
    note: Parts = []
    if collected or "end" in [m.lower() for m in moves]:
        who = names[last_mover(state, previous)]
        if collected:
            path = _path(collected, start)
            jump = previous is not None and getattr(previous, "must_jump", False)
            text = f"{path[0]}*{'-'.join(path[1:])}" if jump and len(path) > 1 else "-".join(path)
            letters = [was[c] for c in collected if was.get(c, ".") in FILL]
            if letters and len(letters) == len(collected):
                text = tr(PATH_TOOK).format(path=text, pieces=", ".join(
                    tr(TOOK_PIECES).format(count=letters.count(c), colour=tr(COLOUR_NAMES[c]))
                    for c in COLOURS if c in letters))
        else:
            text = tr(ENDED_TURN)
        head, tail = split(LAST_TURN_BY)
        note = _fitted(head, who, tail.format(turn=text), TEXT_SIZE, False)
    return status, note


def _header(image: Image.Image, state: State, last_turn: list[str], names: list[str],
            previous: State | None) -> None:
    status, note = header_lines(state, last_turn, names, previous)
    _centred_line(image, 43, status, 30, bold=True)
    if note:
        _centred_line(image, 76, note, TEXT_SIZE, bold=False, fill=INK)


def _holdings(image: Image.Image, d: ImageDraw.ImageDraw, state: State, holdings: tuple[list[int], list[int]],
              names: list[str]) -> None:
    """One panel per player: name, tag (to move / winner badge), seven counters, the 4+ score."""
    over = state.is_over
    for seat in (0, 1):
        x0, y0, x1, _ = panel_box(seat)
        winner = over and seat in state.winners
        active = (not over and state.to_move == seat) or winner
        if active:                       # the static layer holds the plain frames
            _put(image, _panel_tile(True), ((x0 + x1) / 2, y0 + PANEL_H / 2))
        room: float = PANEL_W - 32
        if winner:
            room -= badge_width() + 10
            winner_badge(d, (x1 - 14 - badge_width(), y0 + 26), size=BADGE_SIZE)
        elif active:
            tag = _tag_sprite()
            room -= tag.width + 10
            paste(image, tag, (x1 - 14 - tag.width / 2, y0 + 26))
        _name(image, (x0 + 16, y0 + 35), _fit(names[seat], 26, room, True), 26, bold=True)
        for i, (letter, n) in enumerate(zip(COLOURS, holdings[seat], strict=True)):
            _put(image, _counter_tile(letter, n, active), _COUNTER_AT[seat][i])
        majorities = sum(1 for n in holdings[seat] if n >= 4)
        _text(image, ((x0 + x1) / 2, y0 + PANEL_H - 17), tr(MAJORITIES).format(count=majorities), TEXT_SIZE,
              fill=MUTED)


def end_sentence(state: State, names: Sequence[str]) -> list[str]:
    """The end-of-game sentence (``outcome_text``) as the lines drawn under the board: always the whole
    sentence, on 2 lines (3 when it cannot fit 2), with the names shortened when they are too long for it."""
    outcome = state.outcome()
    if outcome is None:
        return []
    width = WIDTH - 2 * MARGIN - 24
    for room in (width, 420.0, 300.0, 220.0, 160.0, 110.0, 70.0):
        for lines in (2, 3):
            short = [fit_name(n, TEXT_SIZE, room) for n in names]
            sentence = outcome_text(state.game, outcome, short, tr)
            wrapped = wrap_text(sentence, TEXT_SIZE, width, lines=lines)
            if " ".join(wrapped) == " ".join(sentence.split()):
                return wrapped
    return wrapped


def _footer(image: Image.Image, cells: Cells, end_lines: list[str]) -> None:
    if end_lines:
        for i, line in enumerate(end_lines):
            _centred_line(image, FOOTER_TOP + 8 + 24 + i * LINE_H, [(line, True)], TEXT_SIZE, bold=False)
        return
    letters = list(cells.values())
    for i, letter in enumerate(COLOURS):             # the pieces left per colour, under 'On the board'
        tile = _legend_tile(letter, letters.count(letter))
        cx, cy = legend_centre(i)
        _put(image, tile, (cx + tile.width / 2 - 21, cy))


# --- The fixed palette -------------------------------------------------------------------------------------

FLAT_COLOURS: tuple[tuple[int, int, int], ...] = (
    BACKGROUND, INK, MUTED, WINNER, EMPTY_FILL, BOARD_FILL, LABEL_INK, PAWN_INK, PANEL_FILL, PANEL_EDGE,
    ACTIVE_FILL, GOLD, ZERO_INK, PAWN_SHINE, (0, 0, 0),
    *(FILL[c] for c in COLOURS), *(EDGE[c] for c in COLOURS), *(GHOST[c] for c in COLOURS),
)


def _sample_boards() -> list[Image.Image]:
    """Boards that show every kind of mark: a full opening, a chain with its path, a jump, a finished game."""
    from engines import GAMES
    game = GAMES["tintas"]
    out = [draw(game.new(seed=3), [], ["Ann", "Bob"], None)]
    found_chain = found_jump = False
    for seed in range(1, 40):
        rng = random.Random(seed)
        state = game.new(seed=seed)
        while not state.is_over:
            before, turn = state, []
            while True:
                moves = state.legal_moves()
                move = rng.choice([m for m in moves if m != "end"] or moves)
                turn.append(move)
                state = state.play(move)
                if state.is_over or state.to_move != before.to_move:
                    break
            cells = [m for m in turn if m != "end"]
            if not found_chain and len(cells) >= 3 and not state.is_over:
                out.append(draw(state, turn, ["Ann", "Bob"], before))
                found_chain = True
            if not found_jump and getattr(before, "must_jump", False) and not state.is_over:
                out.append(draw(state, turn, ["Ann", "Bob"], before))
                found_jump = True
        if len(out) < 5:
            out.append(draw(state, turn, ["Ann", "Bob"], before))
        if found_chain and found_jump and len(out) >= 5:
            break
    return out


def _warm() -> None:
    """Draw the sprites of the finite sets once (counters, the legend, ghosts, the arrows of every straight
    step), so no board pays for a first use."""
    for letter in COLOURS:
        for n in range(8):
            _counter_tile(letter, n, False)
            _counter_tile(letter, n, True)
            _legend_tile(letter, n)
        for step in range(1, 8):
            _ghost_sprite(letter, step)
    for k in range(7):
        _text_sprite(MAJORITIES.format(count=k), TEXT_SIZE, False, MUTED, "mm", 0, None)
    for label in ("E4",):                                   # every direction and distance from the centre
        x, y = piece_centre(label)
        for other in LABELS:
            ox, oy = piece_centre(other)
            dq, dr = AXIAL[other]
            if other != label and (dq == 0 or dr == 0 or dq == -dr):
                for trim_start in (12, PIECE_RADIUS + 1):
                    for trim_end in (PIECE_RADIUS - 4, PIECE_RADIUS + 1):
                        _arrow_sprite(round(ox - x), round(oy - y), trim_start, trim_end)


@lru_cache(maxsize=1)
def sampled_palette() -> Image.Image:
    _warm()
    boards = _sample_boards()
    sampled = build_palette(*boards, colours=256 - len(FLAT_COLOURS))
    entries = list(sampled.getpalette() or [])[: 3 * (256 - len(FLAT_COLOURS))]
    entries += [v for rgb in FLAT_COLOURS for v in rgb]     # the flat colours, exactly
    pal = Image.new("P", (1, 1))
    pal.putpalette(entries + [0] * (768 - len(entries)))
    return pal


def palette(state: State | None = None) -> Image.Image:
    """The game's fixed PNG palette (a 'P' image), as stored from ``sampled_palette``: a median cut over sample
    boards plus every flat colour a board uses (pieces, ghosts, highlights, the winner badge) kept exact."""
    return stored_palette("tintas")
