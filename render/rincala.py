"""Rincala board image: the ring of eight hollows, the last turn's sowings, the players' captures.

Hollow A sits at twelve o'clock and the letters run clockwise (spec B.3) round an oval: H A B along the
top, C and G at the ends, F E D along the bottom, so the image stays about as tall as it is wide. Each
hollow is an upright capsule holding its stack bottom → top, every piece in its colour *and* with its
letter (32 px bold: ~10 px tall on a phone, which shows a board 400 px wide), its height below (an
inverted FULL badge and a thick dark rim at 8). Grey "cw" arrows between the hollows show which way is
clockwise; the corners hold the title and two legends.

The last turn runs inside the ring: one racetrack per sowing (the first outermost, a second lap one track
further in), dark-cased so it reads on any background and under any colour blindness, from a numbered
disc on its start hollow, through a lettered disc per piece dropped, with an arrowhead half-way along its
longest stretch. Pieces collected at the end of the turn are ghosts in a dashed dark frame on top of the
stacks they came from. Below the ring: the end-of-game sentence (whole, on up to two lines), a row per
player (to-move triangle, name shortened to fit, WINNER badge, points, pieces collected) and the last
turn in words.

Fast path: the ring (board, capsules, letters, arrows, legends) is drawn once, supersampled, and cached;
pieces, stacks, discs, arrowheads, badges, player rows and words are cached sprites or masks; the bends of
the tracks are cached anti-aliased masks and their straight parts plain rectangles; text is drawn at its
final size; the PNG maps onto one fixed palette (``palette``), built once from sample boards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engines.base import IllegalMove, State, outcome_text
from engines.rincala import COLOURS, FULL, GAME, HOLLOWS, VALUES, RincalaState, Sowing, points
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    RGB,
    WINNER,
    Point,
    build_palette,
    colour_letter,
    contrast_ink,
    draw_name,
    fit_name,
    font,
    letter_fit,
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
TO_MOVE = "{name} to move"
MUST_MOVE_AGAIN = "— must move again"
FIRST_TURN = "First turn: exactly one move."
GAME_OVER_WINS = "Game over: {name} wins"
GAME_OVER_SHARE = "Game over: {names} share the win"
NAMES_AND = "{first} and {last}"
LAST_TURN = "Last turn"
LAST_TURN_BY = "Last turn by {name}:"
DROP_EMPTY = "{drop} (empty)"
JUMPED_FULL = "jumped full {hollows}"
COLLECTED = "collected {pieces}"
COLLECTED_FROM = "{colour} from {hollow}"
POINT = "{n} pt"
POINTS = "{n} pts"
NONE_YET = "none yet"
FULL_LABEL = "FULL"
LETTERS = {"R": "letter on red pieces: R", "G": "letter on green pieces: G", "Y": "letter on yellow pieces: Y",
           "W": "letter on white pieces: W"}         # common.colour_letter (shared with Tintas' templates)
FULL_LEGEND = ("8 pieces:", "jumped")     # the legend of the FULL badge, two lines
TEXTS = (TO_MOVE, MUST_MOVE_AGAIN, FIRST_TURN, GAME_OVER_WINS, GAME_OVER_SHARE, NAMES_AND, LAST_TURN, LAST_TURN_BY,
         DROP_EMPTY, JUMPED_FULL, COLLECTED, COLLECTED_FROM, POINT, POINTS, NONE_YET, FULL_LABEL, *FULL_LEGEND,
         *LETTERS.values())

# --- geometry (pixels) ------------------------------------------------------------------------------------
WIDTH = 880
MARGIN = 24
CX = WIDTH // 2
TOP = 48                                    # the header: the status line
STATUS_SIZE, TEXT_SIZE = 28, 24             # every word a player reads is at least 24 px
PIECE_W, PIECE_H, PIECE_GAP = 66, 34, 2      # a piece in a hollow: 30x15 px on a phone (400 px wide)
PIECE_LETTER = 32                           # its colour letter: ~23 px capitals, ~10.5 px on a phone
LETTER_PAD = 8                              # a letter keeps this far from the piece's sides (else it shrinks)
MINI_H = 26                                 # a piece in the legend and the players' rows
CAP_W, CAP_PAD, CAP_HEAD, CAP_FOOT, CAP_BOTTOM, CAP_RADIUS = 84, 4, 32, 26, 5, 16
FOOT_GAP = 3                                # between the stack and the height under it
STACK_H = FULL * PIECE_H + (FULL - 1) * PIECE_GAP
CAP_H = CAP_PAD + CAP_HEAD + STACK_H + FOOT_GAP + CAP_FOOT + CAP_BOTTOM
MARK_R = 15                                 # a drop disc on a track
TRACK_OUT, TRACK_IN, TRACK_STEP = 74, 16, 34    # half-heights of the first and innermost tracks, and spacing
CASING_W, CORE_W = 12, 6                    # a track: a dark casing and its colour inside it (even: crisp)
ROW_Y = TRACK_OUT + MARK_R + 6 + CAP_H // 2     # the top and bottom rows of hollows, from the centre
SIDE_X = 250                                # B, D, F, H from the centre (and the tracks' straight half-length)
EDGE_X = SIDE_X + TRACK_OUT + MARK_R + 3 + CAP_W // 2    # C and G
CY = TOP + 6 + ROW_Y + CAP_H // 2
RING_BOTTOM = CY + ROW_Y + CAP_H // 2
FOOT_TOP = RING_BOTTOM + 8                  # below the ring: the end sentence, the players, the last turn
ROW_H = 38
LINE_H = 28                                 # a line of the "Last turn" list
TURN_X = 160                                # its lines, right of the "Last turn" heading
MINI_W = 36                                 # a captured piece

OFFSETS = ((0, -ROW_Y), (SIDE_X, -ROW_Y), (EDGE_X, 0), (SIDE_X, ROW_Y),
           (0, ROW_Y), (-SIDE_X, ROW_Y), (-EDGE_X, 0), (-SIDE_X, -ROW_Y))

# --- palette ----------------------------------------------------------------------------------------------
PIECE_FILL: dict[str, RGB] = {"R": (206, 52, 42), "G": (0, 150, 105), "Y": (245, 200, 40), "W": (252, 252, 248)}
PIECE_EDGE = (60, 52, 44)
HOLLOW_FILL = (224, 208, 178)
HOLLOW_EDGE = (150, 124, 90)
BOARD_FILL = (232, 219, 192)
BOARD_EDGE = (196, 176, 140)
WHITE = (255, 255, 255)
# Okabe-Ito colours: apart for every colour vision, and each track is dark-cased and numbered besides.
SOWING_COLOURS: list[RGB] = [(0, 114, 178), (230, 159, 0), (204, 121, 167), (0, 158, 115), (213, 94, 0),
                             (86, 180, 233), (240, 228, 66)]
GHOST_FILL = {c: mix(fill, HOLLOW_FILL, 0.5) for c, fill in PIECE_FILL.items()}
YELLOW_EDGE = mix(PIECE_FILL["Y"], INK, 0.2)
"""The edge of a dark letter on a yellow piece: kept in the palette, or those edges map onto the winner's gold."""
EXACT: list[RGB] = list(dict.fromkeys([
    BACKGROUND, INK, MUTED, HIGHLIGHT, WINNER, PIECE_EDGE, HOLLOW_FILL, HOLLOW_EDGE, BOARD_FILL,
    BOARD_EDGE, *PIECE_FILL.values(), *GHOST_FILL.values(), *SOWING_COLOURS, YELLOW_EDGE]))
"""Colours every board shows exactly as drawn: the fixed palette holds them unchanged."""


def hollow_centre(hollow: int) -> Point:
    dx, dy = OFFSETS[hollow]
    return CX + dx, CY + dy


def hollow_box(hollow: int) -> tuple[int, int, int, int]:
    x, y = hollow_centre(hollow)
    x0, y0 = round(x) - CAP_W // 2, round(y) - CAP_H // 2
    return x0, y0, x0 + CAP_W, y0 + CAP_H


def piece_box(hollow: int, slot: int) -> tuple[int, int, int, int]:
    """The rectangle of the piece at height ``slot`` (0 = bottom) of a hollow's stack."""
    x0, y0, _, _ = hollow_box(hollow)
    bottom = y0 + CAP_PAD + CAP_HEAD + STACK_H - slot * (PIECE_H + PIECE_GAP)
    left = x0 + (CAP_W - PIECE_W) // 2
    return left, bottom - PIECE_H, left + PIECE_W, bottom


def foot_centre(hollow: int) -> Point:
    x0, _, x1, y1 = hollow_box(hollow)
    return (x0 + x1) / 2, y1 - CAP_BOTTOM - CAP_FOOT / 2


# --- the racetracks of the last turn -----------------------------------------------------------------------
# Track ``h`` is a stadium round the centre: straight from x = -SIDE_X to +SIDE_X at y = ±h, with half-circle
# ends of radius h. Each hollow has a waypoint on it (under B, beside C...), and the straight lines x = 0,
# x = ±SIDE_X and y = 0 through the waypoints cut it into eight segments, one between each pair of
# neighbouring hollows, every cut square to the track.

def track_heights(sowings: Sequence[Sowing]) -> list[tuple[int, ...]]:
    """The half-height of each sowing's track, one per lap: the first sowing outermost, a second lap on
    the next track in, spaced as widely as the ring allows (at most a drop disc and a little apart)."""
    laps = [1 + (len(s.path) - 1) // 8 for s in sowings]
    tracks = sum(laps)
    step = TRACK_STEP if tracks <= 1 else min(TRACK_STEP, (TRACK_OUT - TRACK_IN) / (tracks - 1))
    out, i = [], 0
    for n in laps:
        out.append(tuple(round(TRACK_OUT - (i + lap) * step) for lap in range(n)))
        i += n
    return out


def waypoint(hollow: int, h: int) -> Point:
    """Where track ``h`` passes hollow ``hollow``."""
    dx, dy = OFFSETS[hollow]
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    if dy == 0:
        return CX + sx * (SIDE_X + h), CY
    return CX + dx, CY + sy * h


def track_point(h: int, s: float) -> tuple[float, float, float, float]:
    """The point at arc length ``s`` clockwise from A's waypoint on track ``h``, and the clockwise tangent."""
    L, half = SIDE_X, math.pi * h
    s %= 4 * L + 2 * half
    if s < L:
        return CX + s, CY - h, 1.0, 0.0
    if s < L + half:
        t = (s - L) / h
        return CX + L + h * math.sin(t), CY - h * math.cos(t), math.cos(t), math.sin(t)
    if s < 3 * L + half:
        return CX + L - (s - L - half), CY + h, -1.0, 0.0
    if s < 3 * L + 2 * half:
        t = (s - 3 * L - half) / h
        return CX - L - h * math.sin(t), CY + h * math.cos(t), -math.cos(t), -math.sin(t)
    return CX - L + (s - 3 * L - 2 * half), CY - h, 1.0, 0.0


def waypoint_arc(hollow: int, h: int) -> float:
    L, half = SIDE_X, math.pi * h
    return (0, L, L + half / 2, L + half, 2 * L + half, 3 * L + half, 3 * L + 1.5 * half, 3 * L + 2 * half)[hollow]


@lru_cache(maxsize=128)
def corner(h: int, quadrant: int) -> tuple[Image.Image, Image.Image]:
    """A quarter of track ``h``'s end circle as (casing mask, core mask), anti-aliased: quadrant 0 is the
    top right quarter (B to C), then clockwise. Each mask's square has the circle's centre at a corner."""
    if quadrant:
        casing, core = corner(h, 0)
        how = (Image.Transpose.FLIP_TOP_BOTTOM, Image.Transpose.ROTATE_180, Image.Transpose.FLIP_LEFT_RIGHT)
        return casing.transpose(how[quadrant - 1]), core.transpose(how[quadrant - 1])
    scale, size = 4, h + CASING_W
    masks = []
    for width in (CASING_W, CORE_W):
        big = Image.new("L", (size * scale, size * scale), 0)
        d = ImageDraw.Draw(big)
        for radius, fill in ((h + width // 2, 255), (h - width // 2, 0)):
            r = radius * scale
            d.ellipse((-r, size * scale - r, r - 1, size * scale + r - 1), fill=fill)
        masks.append(big.reduce(scale))
    return masks[0], masks[1]


def draw_segment(image: Image.Image, d: ImageDraw.ImageDraw, h: int, segment: int, casing: bool, fill: RGB) -> None:
    """Segment ``segment`` (from hollow ``segment`` to the next, clockwise) of track ``h``: its straight
    parts are plain rectangles (the widths are even, so their edges fall on pixel edges), its bends masks."""
    g = (CASING_W if casing else CORE_W) // 2
    L = SIDE_X
    if segment in (0, 3, 4, 7):
        x0 = CX if segment in (0, 3) else CX - L
        y = CY - h if segment in (0, 7) else CY + h
        d.rectangle((x0, y - g, x0 + L - 1, y + g - 1), fill=fill)
        return
    quadrant = {1: 0, 2: 1, 5: 2, 6: 3}[segment]
    mask = corner(h, quadrant)[0 if casing else 1]
    size = mask.width
    x = CX + L if quadrant in (0, 1) else CX - L - size
    y = CY - size if quadrant in (0, 3) else CY
    image.paste(fill, (x, y, x + size, y + size), mask)


# --- sprites ----------------------------------------------------------------------------------------------
def _centred_text(d: ImageDraw.ImageDraw, xy: Point, text: str, f: ImageFont.FreeTypeFont, fill: RGB) -> None:
    """Text whose ink box is centred on ``xy`` (capitals sit in the middle, not a little high)."""
    x0, y0, x1, y1 = d.textbbox((0, 0), text, font=f, anchor="la")
    d.text((xy[0] - (x0 + x1) / 2, xy[1] - (y0 + y1) / 2), text, font=f, fill=fill, anchor="la")


def letter(colour: str) -> str:
    """The letter pieces of ``colour`` carry in the render language (German: Ge for Gelb, Gn for Grün)."""
    return colour_letter(LETTERS[colour])


@lru_cache(maxsize=32)
def chip(colour: str, width: int = PIECE_W, ghost: bool = False, shown: str = "", height: int = PIECE_H,
         size: int = PIECE_LETTER) -> Image.Image:
    """A piece: a rounded bar in its colour with its letter (``size`` px, bold). A ghost (collected this
    turn) is paler, inside a dashed dark frame."""
    fill = GHOST_FILL[colour] if ghost else PIECE_FILL[colour]
    text = shown or colour
    letter_size = piece_letter_size(text, size, width)

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        w, h = width * s, height * s
        if ghost:
            dash, x = 6 * s, 0.0
            while x < w:
                d.rectangle((x, 0, min(x + dash, w) - 1, 2 * s - 1), fill=INK)
                d.rectangle((x, h - 2 * s, min(x + dash, w) - 1, h - 1), fill=INK)
                x += 2 * dash
            y = 0.0
            while y < h:
                d.rectangle((0, y, 2 * s - 1, min(y + dash, h) - 1), fill=INK)
                d.rectangle((w - 2 * s, y, w - 1, min(y + dash, h) - 1), fill=INK)
                y += 2 * dash
            d.rounded_rectangle((4 * s, 4 * s, w - 4 * s - 1, h - 4 * s - 1), radius=3 * s, fill=fill)
        else:
            d.rounded_rectangle((0, 0, w - 1, h - 1), radius=6 * s, fill=fill, outline=PIECE_EDGE,
                                width=round(1.5 * s))
        _centred_text(d, (w / 2, h / 2), text, font(round(letter_size * s), True), contrast_ink(fill))
    return sprite(paint, (width, height))


def piece_letter_size(text: str, size: int, width: int) -> int:
    """The font size of ``text`` on a piece ``width`` wide: ``size`` if it fits inside ``LETTER_PAD``, else
    ``letter_fit``'s (two letters a little smaller)."""
    return size if font(size, True).getlength(text) <= width - 2 * LETTER_PAD else letter_fit(text, size)


@lru_cache(maxsize=64)
def solid_chip(colour: str, width: int = PIECE_W, ghost: bool = False, ground: RGB = HOLLOW_FILL,
               shown: str = "", height: int = PIECE_H, size: int = PIECE_LETTER) -> Image.Image:
    """``chip`` already laid on the colour under it (a hollow, or the page): pasted without a mask."""
    image = Image.new("RGB", (width, height), ground)
    paste(image, chip(colour, width, ghost, shown, height, size), (width / 2, height / 2))
    return image


def put(base: Image.Image, image: Image.Image, centre: Point) -> None:
    """Paste an opaque sprite with its centre on ``centre`` (rounded as ``paste`` rounds)."""
    base.paste(image, (round(centre[0] - image.width / 2), round(centre[1] - image.height / 2)))


@lru_cache(maxsize=1024)
def length(text: str, size: int, bold: bool = True) -> float:
    """``name_length``, remembered: the same few labels and names come back on every board."""
    return name_length(text, size, bold=bold)


@lru_cache(maxsize=256)
def fitted(text: str, size: int, width: float, bold: bool = True) -> str:
    """``fit_name``, remembered."""
    return fit_name(text, size, width, bold=bold)


@lru_cache(maxsize=16)
def drop_disc(colour: str, shown: str = "") -> Image.Image:
    """A piece dropped on a track: a disc in its colour with its letter."""
    fill = PIECE_FILL[colour]

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        r = MARK_R * s
        c = (MARK_R + 1) * s
        d.ellipse((c - r, c - r, c + r, c + r), fill=fill, outline=PIECE_EDGE, width=round(2 * s))
        text = shown or colour
        _centred_text(d, (c, c), text, font(letter_fit(text, round(22 * s)), True), contrast_ink(fill))
    return sprite(paint, (2 * MARK_R + 2, 2 * MARK_R + 2))


@lru_cache(maxsize=16)
def start_disc(k: int) -> Image.Image:
    """Where sowing ``k`` starts: a disc in its colour, a thick dark rim, its number."""
    fill = SOWING_COLOURS[k % len(SOWING_COLOURS)]

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        c, r = 18 * s, 17 * s
        d.ellipse((c - r, c - r, c + r, c + r), fill=INK)
        r2 = 13.5 * s
        d.ellipse((c - r2, c - r2, c + r2, c + r2), fill=fill)
        _centred_text(d, (c, c), str(k + 1), font(round(22 * s), True), contrast_ink(fill))
    return sprite(paint, (36, 36))


@lru_cache(maxsize=16)
def arrow_right(k: int) -> Image.Image:
    """A dark-cased triangle in sowing ``k``'s colour, pointing right."""
    fill = SOWING_COLOURS[k % len(SOWING_COLOURS)]

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        d.polygon([(35 * s, 20 * s), (5 * s, 4 * s), (5 * s, 36 * s)], fill=INK)
        d.polygon([(29 * s, 20 * s), (9 * s, 10.5 * s), (9 * s, 29.5 * s)], fill=fill)
    return sprite(paint, (40, 40))


@lru_cache(maxsize=512)
def arrowhead(degrees: int, k: int) -> Image.Image:
    """``arrow_right(k)`` turned to point at ``degrees`` (screen angle: 0 = right, 90 = down)."""
    base = arrow_right(k)
    return base if degrees == 0 else base.rotate(-degrees, resample=Image.Resampling.BICUBIC)


@lru_cache(maxsize=16)
def rim(colour: RGB, width: int) -> Image.Image:
    """A capsule's outline: full stacks (dark, thick) and the start hollows of the last turn (its colour,
    with a dark line inside for contrast)."""
    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        box = (0, 0, CAP_W * s - 1, CAP_H * s - 1)
        d.rounded_rectangle(box, radius=CAP_RADIUS * s, outline=colour, width=round(width * s))
        if colour != INK:
            inner = (width * s, width * s, (CAP_W - width) * s - 1, (CAP_H - width) * s - 1)
            d.rounded_rectangle(inner, radius=(CAP_RADIUS - width) * s, outline=INK, width=round(2 * s))
    return sprite(paint, (CAP_W, CAP_H))


def foot(height: int) -> Image.Image:
    """``_foot`` in the render language (the FULL badge has a word)."""
    return _foot(height, language() if height >= FULL else "")


@lru_cache(maxsize=24)
def _foot(height: int, lang: str) -> Image.Image:
    """A hollow's height under its stack (opaque, on the hollow's colour); at 8 an inverted FULL badge
    (with transparent corners), as wide as the capsule inside its dark rim."""
    if height >= FULL:
        w, h = CAP_W - 8, CAP_FOOT

        def badge(d: ImageDraw.ImageDraw, s: float) -> None:
            d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=8 * s, fill=INK)
            _centred_text(d, (w * s / 2, h * s / 2), tr(FULL_LABEL), font(round(TEXT_SIZE * s), True), WHITE)
        return sprite(badge, (w, h))
    w, h = 34, CAP_FOOT

    def digits(d: ImageDraw.ImageDraw, s: float) -> None:
        d.rectangle((0, 0, w * s - 1, h * s - 1), fill=HOLLOW_FILL)
        _centred_text(d, (w * s / 2, h * s / 2), str(height), font(round(TEXT_SIZE * s), True), INK)
    return sprite(digits, (w, h)).convert("RGB")


# Caches of things that vary from board to board keep the recent few: each render process holds its own, and
# at the old sizes (128 columns, 64 rows) they held 15 MB after a minute of play, for a saving of a
# millisecond or so per miss (bench/bench_memory.py, bench/bench_render.py).
COLUMNS_KEPT = 32        # a hollow's stack (64 KB each)
ROWS_KEPT = 16           # a player's row (128 KB each)


@lru_cache(maxsize=COLUMNS_KEPT)
def column(stack: str, ghost: str = "", letters: tuple[str, ...] = ()) -> Image.Image:
    """A hollow's inside on its colour: the stack bottom → top, the ghost of a piece collected from it, and
    the height under it (a FULL badge is pasted over it separately: it is wider). ``letters``: the letters of
    ``COLOURS`` in the render language (English without)."""
    shown = dict(zip(COLOURS, letters, strict=True)) if letters else {c: c for c in COLOURS}
    image = Image.new("RGB", (PIECE_W, STACK_H + FOOT_GAP + CAP_FOOT), HOLLOW_FILL)
    for slot, colour in enumerate(stack):
        image.paste(solid_chip(colour, shown=shown[colour]), (0, STACK_H - PIECE_H - slot * (PIECE_H + PIECE_GAP)))
    if ghost:
        image.paste(solid_chip(ghost, ghost=True, shown=shown[ghost]),
                    (0, STACK_H - PIECE_H - len(stack) * (PIECE_H + PIECE_GAP)))
    if len(stack) < FULL:
        put(image, foot(len(stack)), (PIECE_W / 2, STACK_H + FOOT_GAP + CAP_FOOT / 2))
    return image


@lru_cache(maxsize=1)
def to_move_mark() -> Image.Image:
    """The player to move: a triangle (shape, not only colour) in the highlight colour, dark-rimmed."""
    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        d.polygon([(2 * s, 2 * s), (24 * s, 13 * s), (2 * s, 24 * s)], fill=HIGHLIGHT, outline=INK,
                  width=round(2 * s))
    return sprite(paint, (26, 26))


# --- the static layer: drawn once, supersampled -----------------------------------------------------------
STATIC_SCALE = 3


def static_layer() -> Image.Image:
    """``_static_layer`` in the render language (its legends have words)."""
    return _static_layer(language())


def _static_layer(lang: str) -> Image.Image:   # not cached: ``_tall_static`` (cached) holds it, boards crop that
    """The header band, the board, the eight empty capsules with their letters, the clockwise arrows, the
    title and the legends; every board starts as a copy of it."""
    s = STATIC_SCALE
    image = Image.new("RGB", (WIDTH * s, (RING_BOTTOM + 8) * s), BACKGROUND)
    d = ImageDraw.Draw(image)

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return x0 * s, y0 * s, x1 * s - 1, y1 * s - 1

    d.rounded_rectangle(box(CX - EDGE_X - CAP_W / 2 - 10, CY - ROW_Y - CAP_H / 2 - 6,
                            CX + EDGE_X + CAP_W / 2 + 10, CY + ROW_Y + CAP_H / 2 + 6),
                        radius=40 * s, fill=BOARD_FILL, outline=BOARD_EDGE, width=2 * s)
    capital = font(30 * s, True)
    for hollow in range(8):
        x0, y0, x1, y1 = hollow_box(hollow)
        d.rounded_rectangle(box(x0, y0, x1, y1), radius=CAP_RADIUS * s, fill=HOLLOW_FILL, outline=HOLLOW_EDGE,
                            width=2 * s)
        _centred_text(d, ((x0 + x1) / 2 * s, (y0 + CAP_PAD + CAP_HEAD / 2 + 1) * s), HOLLOWS[hollow], capital, INK)
    # clockwise arrows in the gaps of the top row (pointing right) and the bottom row (pointing left)
    label = font(22 * s, True)
    for gap_x, row, direction in ((-SIDE_X / 2, -ROW_Y, 1), (SIDE_X / 2, -ROW_Y, 1),
                                  (SIDE_X / 2, ROW_Y, -1), (-SIDE_X / 2, ROW_Y, -1)):
        x, y = CX + gap_x, CY + row
        tail, tip = x - direction * 50, x + direction * 50
        d.line(((tail * s, (y + 8) * s), ((tip - direction * 12) * s, (y + 8) * s)), fill=MUTED, width=5 * s)
        d.polygon([(tip * s, (y + 8) * s), ((tip - direction * 20) * s, (y - 3) * s),
                   ((tip - direction * 20) * s, (y + 19) * s)], fill=MUTED)
        _centred_text(d, (x * s, (y - 18) * s), "cw", label, MUTED)
    # the title (top left) and the legends (bottom corners), outside the capsules
    left = CX - EDGE_X - CAP_W / 2
    top = CY - ROW_Y - CAP_H / 2
    d.text((left * s, (top + 14) * s), "Rincala", font=font(26 * s, True), fill=INK, anchor="la")
    ly = CY + CAP_H / 2 + 24
    for colour in COLOURS:
        fill = PIECE_FILL[colour]
        d.rounded_rectangle(box(left, ly, left + MINI_W, ly + MINI_H), radius=6 * s, fill=fill,
                            outline=PIECE_EDGE, width=2 * s)
        _centred_text(d, ((left + MINI_W / 2) * s, (ly + MINI_H / 2) * s), letter(colour),
                      font(letter_fit(letter(colour), TEXT_SIZE * s), True),
                      contrast_ink(fill))
        value = VALUES[colour]
        d.text(((left + MINI_W + 8) * s, (ly + MINI_H / 2) * s), tr(POINTS if value > 1 else POINT).format(n=value),
               font=font(TEXT_SIZE * s, True), fill=INK, anchor="lm")
        ly += MINI_H + 6
    return image.reduce(s)


FULL_LEGEND_W = 200      # the room of the FULL legend, right-aligned under the right capsule


def full_legend_box() -> tuple[int, int, int, int]:
    """Where the FULL legend goes (bottom right corner), drawn only on a board with a full hollow."""
    right = round(CX + EDGE_X + CAP_W / 2)
    top = round(CY + CAP_H / 2 + 24)
    return right - FULL_LEGEND_W, top, right, top + CAP_FOOT + 8 + 30 * len(FULL_LEGEND) + 4


def full_legend() -> Image.Image:
    return _full_legend(language())


@lru_cache(maxsize=4)
def _full_legend(lang: str) -> Image.Image:
    """The FULL badge and its two lines ('8 pieces: jumped') on a clear sprite the size of ``full_legend_box``."""
    x0, y0, x1, y1 = full_legend_box()
    w, h = x1 - x0, y1 - y0

    def paint(d: ImageDraw.ImageDraw, s: float) -> None:
        d.rounded_rectangle(((w - 72) * s, 0, w * s - 1, (CAP_FOOT - 2) * s), radius=7 * s, fill=INK)
        _centred_text(d, ((w - 36) * s, (CAP_FOOT - 2) / 2 * s), tr(FULL_LABEL), font(round(TEXT_SIZE * s), True),
                      WHITE)
        for i, text in enumerate(FULL_LEGEND):
            d.text((w * s, (CAP_FOOT + 8 + 30 * i) * s), tr(text), font=font(round(TEXT_SIZE * s)), fill=INK,
                   anchor="ra")
    return sprite(paint, (w, h))


# --- drawing ----------------------------------------------------------------------------------------------
def draw(state: State, last_turn: Sequence[str] = (), names: Sequence[str] | None = None,
         previous: State | None = None) -> Image.Image:
    """The board image of a Rincala ``state`` (the contract: ``render.games.Renderer``)."""
    assert isinstance(state, RincalaState) and (previous is None or isinstance(previous, RincalaState))
    moves = list(last_turn)
    shown = list(names) if names else [tr(seat) for seat in state.game.seat_names(state.players)]
    mover = previous.to_move if previous is not None else None
    return compose(state, shown, replay(previous, moves), moves, mover)


def compose(state: RincalaState, names: Sequence[str], sowings: Sequence[Sowing],
            moves: Sequence[str], mover: int | None = None) -> Image.Image:
    """The board of ``state`` with ``sowings`` (the last turn, worked out, played by seat ``mover``) drawn on
    it."""
    runs, sub = status(state, names)
    lines = last_turn_lines(moves, sowings)
    heading = last_turn_heading(names[mover], WIDTH - 2 * MARGIN) if lines and mover is not None else None
    top = panel_top(len(sub))
    panel_bottom = top + ROW_H * state.players
    height = panel_bottom + (10 + LINE_H * (len(lines) + (heading is not None)) if lines else 0) + 12
    image = canvas(height)
    d = ImageDraw.Draw(image)
    x: float = MARGIN
    for text, colour, is_name in runs:
        x += paste_text(image, (x, TOP / 2), text, STATUS_SIZE, colour, is_name)
    for i, line in enumerate(sub):     # the end sentence may hold names: drawn as a name is
        draw_name(d, (MARGIN, FOOT_TOP + LINE_H * i + LINE_H / 2), line, TEXT_SIZE,
                  fill=INK if state.is_over else MUTED, anchor="lm")
    draw_hollows(image, state, sowings)
    draw_sowings(image, d, sowings)
    draw_players(image, d, state, names, top)
    if lines:
        y = panel_bottom + 10
        if heading is not None:          # 'Last turn by <name>:' on a line of its own, the sowings under it
            draw_name(d, (MARGIN, y + LINE_H / 2), heading, TEXT_SIZE, bold=True, anchor="lm")
            y += LINE_H
        else:
            paste_text(image, (MARGIN, y + LINE_H / 2), tr(LAST_TURN), TEXT_SIZE, INK)
        for i, line in enumerate(lines):
            draw_words(image, (TURN_X, y + LINE_H * i + LINE_H / 2), line)
    return image


def last_turn_heading(name: str, room: float) -> str:
    """'Last turn by <name>:' in at most ``room`` pixels: only the name gives way."""
    before, after = split(LAST_TURN_BY)
    rest = name_length(before + after, TEXT_SIZE, bold=True)
    return before + fit_name(name, TEXT_SIZE, max(room - rest, 40.0), bold=True) + after


CANVAS_H = 1800      # the static layer continued in the page colour: a board is one crop of it


def tall_static() -> Image.Image:
    return _tall_static(language())


@lru_cache(maxsize=4)
def _tall_static(lang: str) -> Image.Image:
    image = Image.new("RGB", (WIDTH, CANVAS_H), BACKGROUND)
    image.paste(static_layer(), (0, 0))
    return image


def canvas(height: int) -> Image.Image:
    """A fresh board ``height`` pixels tall: the static layer above, the page colour below."""
    if height <= CANVAS_H:
        return tall_static().crop((0, 0, WIDTH, height))
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    image.paste(static_layer(), (0, 0))
    return image


def panel_top(sub_lines: int) -> int:
    """The top of the players' rows, below the ring and the lines under it (the end-of-game sentence)."""
    return FOOT_TOP + LINE_H * sub_lines + 12


@lru_cache(maxsize=64)
def name_sprite(text: str, size: int, colour: RGB, bold: bool = True) -> Image.Image:
    """A person's name drawn once through ``draw_name`` at its final size, on the page colour."""
    width = math.ceil(length(text, size, bold)) + 4
    height = round(size * 1.5)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw_name(ImageDraw.Draw(image), (0, height / 2), text, size, bold=bold, fill=colour, anchor="lm")
    return image


@lru_cache(maxsize=1024)
def text_mask(text: str, size: int, bold: bool = True) -> Image.Image:
    """The coverage of ``text`` drawn at its final size, to paste a colour through (as ``draw.text`` does)."""
    width = math.ceil(length(text, size, bold)) + 4
    height = round(size * 1.5)
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).text((0, height / 2), text, font=font(size, bold), fill=255, anchor="lm")
    return mask


def paste_text(image: Image.Image, xy: Point, text: str, size: int, colour: RGB, is_name: bool = False,
               bold: bool = True) -> float:
    """``text`` with its left end at ``xy`` (vertically centred there), from a cached sprite or mask;
    returns its advance."""
    x, y = round(xy[0]), round(xy[1] - round(size * 1.5) / 2)
    if is_name:
        image.paste(name_sprite(text, size, colour, bold), (x, y))
    else:
        mask = text_mask(text, size, bold)
        image.paste(colour, (x, y, x + mask.width, y + mask.height), mask)
    return length(text, size, bold)


def replay(previous: RincalaState | None, moves: Sequence[str]) -> list[Sowing]:
    """The sowings of the last turn, worked out from the state before it (none if that is unknown)."""
    out: list[Sowing] = []
    state = previous
    if state is None:
        return out
    for move in moves:
        try:
            sowing = state.sowing(move)
        except IllegalMove:
            return []                           # the moves do not belong to ``previous``: draw no path
        out.append(sowing)
        state = state.play(move)
    return out


def turn_lines(moves: Sequence[str], sowings: Sequence[Sowing]) -> list[str]:
    """One line per sowing of the last turn: its drops, the full hollows it jumped, what it collected."""
    if not sowings:
        return [", ".join(moves)] if moves else []
    lines = []
    for k, s in enumerate(sowings):
        drops = ", ".join(tr(DROP_EMPTY).format(drop=f"{letter(c)}→{HOLLOWS[h]}") if h in s.empty_drops
                          else f"{letter(c)}→{HOLLOWS[h]}" for h, c in s.drops)
        line = f"{k + 1}. {s.move}: {drops}"
        if s.skipped:
            line += " · " + tr(JUMPED_FULL).format(hollows=", ".join(dict.fromkeys(HOLLOWS[h] for h in s.skipped)))
        if s.captures:
            line += " · " + tr(COLLECTED).format(pieces=", ".join(
                tr(COLLECTED_FROM).format(colour=letter(c), hollow=HOLLOWS[h]) for h, c in s.captures))
        lines.append(line)
    return lines


def last_turn_lines(moves: Sequence[str], sowings: Sequence[Sowing]) -> list[str]:
    """``turn_lines`` broken to the image's width (later lines of a sowing indented)."""
    return [part for line in turn_lines(moves, sowings) for part in wrap(line, WIDTH - MARGIN - TURN_X)]


def words_length(text: str, size: int = TEXT_SIZE) -> float:
    """The width of ``text`` drawn word by word (``draw_words``)."""
    return sum(length(word, size, False) for word in text.split(" ")) + text.count(" ") * length(" ", size, False)


def wrap(text: str, width: float, indent: str = "     ") -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` pixels; later lines indented."""
    if words_length(text) <= width:
        return [text]
    lines, line = [], ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and words_length(trial) > width:
            lines.append(line)
            trial = indent + word
        line = trial
    return [*lines, line] if line else lines


def draw_words(image: Image.Image, xy: Point, text: str, colour: RGB = INK) -> None:
    """A line of plain text from cached word sprites (the words of a turn come back on every board)."""
    x, y = xy
    space = length(" ", TEXT_SIZE, False)
    for word in text.split(" "):
        if word:
            paste_text(image, (x, y), word, TEXT_SIZE, colour, bold=False)
        x += length(word, TEXT_SIZE, False) + space


# --- the header -------------------------------------------------------------------------------------------
Run = tuple[str, RGB, bool]     # a piece of the status line: text, colour, whether it is a person's name


def status(state: RincalaState, names: Sequence[str]) -> tuple[list[Run], list[str]]:
    """The status line (runs drawn left to right, bold) and the lines below it.

    Names are shortened to leave the rest of the line whole ("to move — must move again", "share the
    win"); the end-of-game sentence is wrapped onto two lines, never cut.
    """
    room = WIDTH - 2 * MARGIN
    outcome = state.outcome()
    if outcome is None:
        seat = state.seat
        before, after = split(TO_MOVE)
        rest: list[Run] = [(after, INK, False)]
        if state.pending():
            rest.append(("  " + tr(MUST_MOVE_AGAIN), HIGHLIGHT, False))
        who: list[str] = [names[seat]]
        joiners: list[str] = []
        sub = [tr(FIRST_TURN)] if state.phase == "first" else []
        head: list[Run] = [(before, INK, False)] if before else []
    else:
        who = [names[w] for w in outcome.winners]
        joiners = [", "] * (len(who) - 2) + [_and()] if len(who) > 1 else []
        before, after = split(GAME_OVER_WINS) if len(who) == 1 else split(GAME_OVER_SHARE, "names")
        head = [(before, INK, False)]
        rest = [(after, INK, False)]
        sub = end_lines(state, names)
    fixed = sum(length(t, STATUS_SIZE) for t, _, _ in [*head, *rest])
    fixed += sum(length(j, STATUS_SIZE) for j in joiners)
    each = (room - fixed) / len(who)
    runs = list(head)
    for i, name in enumerate(who):
        runs.append((fitted(name, STATUS_SIZE, each), INK, True))
        if i < len(joiners):
            runs.append((joiners[i], INK, False))
    return runs + rest, sub


def _and() -> str:
    """The word between the last two names of a list (' and ')."""
    return tr(NAMES_AND).partition("{first}")[2].partition("{last}")[0]


def end_lines(state: RincalaState, names: Sequence[str]) -> list[str]:
    """The end-of-game sentence in at most two lines, whole (names inside it are shortened if need be)."""
    outcome = state.outcome()
    if outcome is None:
        return []
    room = WIDTH - 2 * MARGIN
    for width in (None, 360.0, 200.0, 100.0):
        shown = list(names) if width is None else [fit_name(n, TEXT_SIZE, width) for n in names]
        sentence = outcome_text(state.game, outcome, shown, tr)
        lines = wrap_text(sentence, TEXT_SIZE, room)
        if " ".join(lines) == " ".join(sentence.split()):
            return lines
    return lines


# --- the ring ---------------------------------------------------------------------------------------------
def draw_hollows(image: Image.Image, state: RincalaState, sowings: Sequence[Sowing]) -> None:
    letters = tuple(letter(c) for c in COLOURS)
    starts = {s.start: k for k, s in enumerate(sowings)}
    collected = dict(sowings[-1].captures) if sowings else {}
    for hollow, stack in enumerate(state.board):
        x0, y0, x1, y1 = hollow_box(hollow)
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        if len(stack) >= FULL:
            paste(image, rim(INK, 6), centre)
        elif hollow in starts:
            paste(image, rim(SOWING_COLOURS[starts[hollow] % len(SOWING_COLOURS)], 5), centre)
        ghost = collected.get(hollow, "") if len(stack) < FULL else ""
        left, _, _, bottom = piece_box(hollow, 0)
        image.paste(column(stack, ghost, letters), (left, bottom - STACK_H))
        if len(stack) >= FULL:
            paste(image, foot(FULL), foot_centre(hollow))
    if any(len(stack) >= FULL for stack in state.board):     # the legend only when a hollow is full
        x0, y0, x1, y1 = full_legend_box()
        paste(image, full_legend(), ((x0 + x1) / 2, (y0 + y1) / 2))


def box_centre(box: tuple[int, int, int, int]) -> Point:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def arrow_point(s: Sowing, heights: tuple[int, ...]) -> tuple[float, float, float, float]:
    """Where a sowing's arrowhead goes: half-way along its longest segment (the last of equals), clear of
    the discs at both ends; and the clockwise tangent there."""
    best, where = -1.0, (0, heights[0])
    for step in range(1, len(s.path) + 1):
        h = heights[(step - 1) // 8]
        hollow = (s.start + (step - 1) * s.direction) % 8
        segment = hollow if s.direction > 0 else (hollow - 1) % 8
        size = SIDE_X if segment in (0, 3, 4, 7) else math.pi * h / 2
        if size >= best:
            best, where = size, (hollow, h)
    hollow, h = where
    return track_point(h, waypoint_arc(hollow, h) + s.direction * best / 2)


def draw_sowings(image: Image.Image, d: ImageDraw.ImageDraw, sowings: Sequence[Sowing]) -> None:
    """Each sowing's track from its start to its last drop, then the drop discs, arrowheads, start discs."""
    heights = track_heights(sowings)
    discs: list[tuple[Image.Image, Point]] = []
    heads: list[tuple[Image.Image, Point]] = []
    starts: list[tuple[Image.Image, Point]] = []
    for k, s in enumerate(sowings):
        colour = SOWING_COLOURS[k % len(SOWING_COLOURS)]
        for casing, fill in ((True, INK), (False, colour)):
            for step in range(1, len(s.path) + 1):
                lap = (step - 1) // 8
                h = heights[k][lap]
                hollow = (s.start + (step - 1) * s.direction) % 8
                draw_segment(image, d, h, hollow if s.direction > 0 else (hollow - 1) % 8, casing, fill)
                if lap and (step - 1) % 8 == 0:        # a second lap steps inwards at the start hollow
                    a, b = waypoint(hollow, heights[k][lap - 1]), waypoint(hollow, h)
                    g = (CASING_W if casing else CORE_W) // 2
                    d.rectangle((min(a[0], b[0]) - g, min(a[1], b[1]) - g, max(a[0], b[0]) + g - 1,
                                 max(a[1], b[1]) + g - 1), fill=fill)
        for step, (hollow, dropped) in enumerate(s.path, 1):
            if dropped:
                discs.append((drop_disc(dropped, letter(dropped)), waypoint(hollow, heights[k][(step - 1) // 8])))
        x, y, tx, ty = arrow_point(s, heights[k])
        degrees = round(math.degrees(math.atan2(ty * s.direction, tx * s.direction)))
        heads.append((arrowhead(degrees % 360, k), (x, y)))
        starts.append((start_disc(k), waypoint(s.start, heights[k][0])))
    for sprite_image, centre in [*discs, *heads, *starts]:
        paste(image, sprite_image, centre)


# --- the players ------------------------------------------------------------------------------------------
NAME_X = MARGIN + 36   # after the to-move triangle
SCORE_X = 500          # right edge of the points column
CAPS_X = 524           # the captured pieces: one piece per colour with its count


def draw_players(image: Image.Image, d: ImageDraw.ImageDraw, state: RincalaState, names: Sequence[str],
                 top: int) -> None:
    d.line((MARGIN, top - 8, WIDTH - MARGIN, top - 8), fill=HOLLOW_EDGE, width=1)
    for seat, caps in enumerate(state.captured):
        won = state.is_over and seat in state.winners
        image.paste(player_row(names[seat], caps, seat == state.to_move, won, language()), (0, top + ROW_H * seat))


@lru_cache(maxsize=ROWS_KEPT)
def player_row(name: str, caps: str, to_move: bool, won: bool, lang: str = "en") -> Image.Image:
    """A player's row: the to-move triangle, the name (shortened to fit, never the rest of the row), the
    WINNER badge, the points, and the pieces collected (one piece per colour and how many)."""
    image = Image.new("RGB", (WIDTH, ROW_H), BACKGROUND)
    d = ImageDraw.Draw(image)
    y = ROW_H / 2
    if to_move:
        paste(image, to_move_mark(), (MARGIN + 13, y))
    score = tr(POINTS).format(n=points(caps))
    badge = BADGE_SIZE * 1.4 + length(winner_label(), round(BADGE_SIZE * 0.8)) + 14
    room = SCORE_X - length(score, TEXT_SIZE) - 16 - NAME_X - (badge if won else 0)
    shown = fitted(name, TEXT_SIZE, room)
    advance = paste_text(image, (NAME_X, y), shown, TEXT_SIZE, INK, True)
    if won:
        winner_badge(d, (NAME_X + advance + 12, y), size=BADGE_SIZE)
    paste_text(image, (SCORE_X - length(score, TEXT_SIZE), y), score, TEXT_SIZE, INK)
    x = CAPS_X
    for colour in COLOURS:
        count = caps.count(colour)
        if count:
            mini = solid_chip(colour, MINI_W, ground=BACKGROUND, shown=letter(colour), height=MINI_H, size=TEXT_SIZE)
            put(image, mini, (x + MINI_W / 2, y))
            paste_text(image, (x + MINI_W + 4, y), f"×{count}", TEXT_SIZE, INK, bold=False)
            x += MINI_W + 4 + 36 + 10
    if not caps:
        paste_text(image, (x, y), tr(NONE_YET), TEXT_SIZE, MUTED, bold=False)
    return image


BADGE_SIZE = 30


# --- the fixed palette ------------------------------------------------------------------------------------
def palette(state: State | None = None) -> Image.Image:
    """The fixed palette every Rincala board maps onto (the same for 2 and 3 players), as stored from
    ``sampled_palette``."""
    return stored_palette("rincala")


@lru_cache(maxsize=1)
def sampled_palette() -> Image.Image:
    """A median cut over sample boards that show every colour a board can (all track colours, drops,
    ghosts, full stacks, the winner badge, the highlight), plus every ``EXACT`` colour unchanged.

    Pillow maps a pixel through a cache of 8x4x8 colour cells, so a near neighbour in the palette could
    steal an exact colour; such neighbours are replaced by the colour they stole until all map exactly.
    """
    warm()
    samples = [compose(*sample) for sample in palette_samples()]
    cut = build_palette(*samples, colours=256 - len(EXACT)).getpalette() or []
    entries = [*EXACT, *(tuple(cut[i:i + 3]) for i in range(0, len(cut), 3))][:256]
    entries += [entries[-1]] * (256 - len(entries))
    probe = Image.new("RGB", (len(EXACT), 1))
    for i, colour in enumerate(EXACT):
        probe.putpixel((i, 0), colour)
    for _ in range(256):
        pal = Image.new("P", (1, 1))
        pal.putpalette([v for colour in entries for v in colour])
        mapped = probe.quantize(palette=pal, dither=Image.Dither.NONE)
        got = [int(mapped.getpixel((i, 0))) for i in range(len(EXACT))]  # type: ignore[arg-type]
        wrong = [(i, j) for i, j in enumerate(got) if entries[j] != EXACT[i]]
        if not wrong:
            return pal
        for i, j in wrong:
            if j < len(EXACT):
                raise AssertionError(f"{EXACT[i]} and {EXACT[j]} are too close to both stay exact")
            entries[j] = EXACT[i]
    raise AssertionError("no exact palette")


def warm() -> None:
    """Draw every sprite, mask and word a board can need once, so that no board pays for one: run with the
    palette, on the first board of a process."""
    for colour in COLOURS:
        for ghost in (False, True):
            solid_chip(colour, ghost=ghost, shown=letter(colour))
        solid_chip(colour, MINI_W, ground=BACKGROUND, shown=letter(colour), height=MINI_H, size=TEXT_SIZE)
        drop_disc(colour, letter(colour))
    for k in range(len(SOWING_COLOURS)):
        start_disc(k)
        arrowhead(0, k)
        arrowhead(180, k)
        rim(SOWING_COLOURS[k], 5)
    rim(INK, 6)
    for height in range(FULL + 1):
        foot(height)
    for tracks in range(1, 9):
        step = TRACK_STEP if tracks <= 1 else min(TRACK_STEP, (TRACK_OUT - TRACK_IN) / (tracks - 1))
        for i in range(tracks):
            for quadrant in range(4):
                corner(round(TRACK_OUT - i * step), quadrant)
    for text in ("Last turn", *(f"{n} pts" for n in range(51))):
        text_mask(text, TEXT_SIZE, True)
    words = ["none yet", "·", "jumped", "full", "collected", "from", "(empty)", "(empty),", "cw", "ccw", "cw,",
             "ccw,", "cw:", "ccw:", *(f"×{n}" for n in range(1, 7)), *(f"{k}." for k in range(1, 8)),
             *(f"{h}{end}" for h in HOLLOWS + COLOURS for end in ("", ",")),
             *(f"{c}→{h}{end}" for c in COLOURS for h in HOLLOWS for end in ("", ","))]
    for word in words:
        text_mask(word, TEXT_SIZE, False)


def palette_samples() -> list[tuple[RincalaState, list[str], list[Sowing], list[str]]]:
    """Boards for the palette: a finished three-player game (winner badges), a forced continuation (the
    highlight), and a made-up turn of seven lapping sowings over full stacks (every track colour)."""
    game = GAME
    rng = random.Random(7)
    state = game.new(players=3, seed=7)
    before, turn = state, list[str]()
    while not state.is_over:
        if state.phase != "again":
            before, turn = state, []
        move = rng.choice(state.legal_moves())
        turn.append(move)
        state = state.play(move)
    names = ["Ann", "Bob", "Cy"]
    again = game.decode("WRG/RY/-/YG/GWR/YW/RY/GWY -/- 1 turn")
    moved = again.play("A ccw")
    full = game.decode("RGYWRGYW/RGYWRGY/WRGYWRGY/W/-/-/-/- -/-/- 1 turn")
    fake = [Sowing(k, 1 if k % 2 else -1, tuple(((k + i * (1 if k % 2 else -1)) % 8, COLOURS[i % 4])
                                                for i in range(1, 11)), (), ((k, COLOURS[k % 4]),), full.board)
            for k in range(7)]
    return [(state, names, replay(before, turn), turn), (moved, names[:2], replay(again, ["A ccw"]), ["A ccw"]),
            (full, names, fake, [s.move for s in fake])]


__all__ = ["TEXTS", "draw", "hollow_box", "mark_centre", "palette", "piece_box"]


def mark_centre(state: State, cell: str) -> Point | None:
    """Where a picker's key for hollow ``cell`` (its letter) goes (``render.marks``): over the letter in the
    hollow's head, its stack visible."""
    if len(cell) != 1 or cell not in HOLLOWS:
        return None
    x0, y0, x1, _ = hollow_box(HOLLOWS.index(cell))
    return (x0 + x1) / 2, y0 + CAP_PAD + CAP_HEAD / 2
