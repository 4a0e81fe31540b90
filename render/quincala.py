"""The Quincala board image (spec §6): the 10×10 diamond lattice inside an ornamental border, the four white
dots with their roles, the mover's winning dots tinted and placing areas washed blue, towers as stacks of
numbered bars, both players' hand and ledge as trays, and the last turn's legs (solid arrows) and travels
(dashed arrows).

White is always at the bottom (the rules' coordinates). While the game runs the tint and the wash are the
player to move's; once it is over the tint is the winner's and the completed tower is ringed.

Fast path (render/common.py): the static board (background, wash, frame, dots, white dots, coordinates, tray
panels) is drawn once per (board geometry, wash, active tray, tint) at twice the size and cached; bars, stars,
rings, role badges and the winner badge are cached RGBA sprites pasted on a copy of it; arrows go through
anti-aliased masks cached by shape; text is drawn at final size, a token at a time from cached masks (names
through common.draw_name, once per name); ``palette`` is one fixed palette built once from sample boards and
a swatch of the named colours. Everything iterates over ordered sequences only, so identical input gives
identical pixels.

Layout (800 × 1099): the status (at the end: the end-of-game sentence, whole, in one or two lines), the last
turn, what the mover must do; Black's tray row; file letters; the board, ranks 83 px apart so a tower of four
24 px bars (22 px numerals, each bar tucked under the one above) fits its dot's area with room to spare, and a
tower of five (always 1-2-3-4-5, so its numerals may be smaller) closer stacked; file letters; White's tray
row; the key (what green means changes with the player to move). Highlights read by luminance and
outline: a leg is a light core in a dark casing, a travel a dark dashed line in a white halo, both under the
towers, except a leg the towers would hide, drawn over them clear of their numerals (legs over the same two
dots run side by side in lanes: every leg shows); rings are cased. The white dots' role tags stand in a
clear margin cut out of whatever tower reaches them (only bar ends: never a numeral).

``dot_centre``, ``bar_box``, ``numeral_centre``, ``star_centre``, ``tower_height``, ``file_label_centre``,
``rank_label_centre``, ``tray_box``, ``tray_row``, ``ring_box``, ``role_badge_centre``, ``winner_badge_xy`` and
``leg_arrows`` give the geometry used, so tests can sample pixels; ``end_sentence`` the end-of-game lines as drawn.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple, cast

from PIL import Image, ImageDraw

from engines.base import State, outcome_text
from engines.quincala import BOARDS, GAME, INSTRUCTIONS, SEAT_NAMES, Event, QuincalaState, turn_notation
from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    WINNER,
    arrow,
    build_palette,
    draw_name,
    fit_name,
    fit_text,
    font,
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
LEGEND = "green: {seat}'s winning dots · blue: placing areas · ★ immune"
LEGEND_WON = "green: {seat}'s winning dots · ★ immune"     # at the end: the winner's dots, no placing areas
LEGEND_DRAWN = "★ immune"
TO_MOVE_SEAT = "{name} ({seat}) to move"
GOES_ON = "the move goes on from {dot} (ringed), or end"   # cut at " (" when the line is short of room
RELEASED = "rel {piece} → {to}"
COMPLETES = "{piece} completes {dot}"
SEATS_HAND = "{seat}'s hand"
SEATS_LEDGE = "{seat}'s ledge"
LAST_TURN = "Last turn: {turn}"
LAST_TURN_BY = "Last turn by {name}: {turn}"
TO_MOVE_MARK = "to move"
HAND = "hand"
LEDGE = "ledge"
# the engine's instructions (``QuincalaState.instruction``) are drawn too
TEXTS = (LEGEND, LEGEND_WON, LEGEND_DRAWN, TO_MOVE_SEAT, GOES_ON, RELEASED, COMPLETES, SEATS_HAND, SEATS_LEDGE,
         LAST_TURN, LAST_TURN_BY, TO_MOVE_MARK, HAND, LEDGE, *INSTRUCTIONS)


def pending_note(state: QuincalaState) -> str:
    """What the mover still owes (``state.instruction()``) in the render language."""
    found = state.instruction()
    return tr(found[0]).format_map(found[1]) if found else ""

Point = tuple[float, float]
Box = tuple[float, float, float, float]
RGB = tuple[int, int, int]

# --- Geometry (final pixels) ------------------------------------------------------------------------------
WIDTH = 800
STEP_X = 70                    # distance between neighbouring files
STEP_Y = 83                    # between neighbouring ranks: a tower of five readable bars fits its dot's area
FRAME_PAD = 10                 # from the outer dots' areas to the frame
LABEL_W = (WIDTH - 10 * STEP_X - 2 * FRAME_PAD) // 2      # the rank-number columns either side
FRAME_LEFT, FRAME_RIGHT = LABEL_W, WIDTH - LABEL_W
BOARD_LEFT = FRAME_LEFT + FRAME_PAD + STEP_X // 2          # x of file a
HEADER_H = 88                  # three lines: the status (or the end sentence, in one or two lines), the last
STATUS_Y = 17                  # turn (after a two-line end sentence: the third line), what the mover must do next
NOTE_Y = 46
THIRD_Y = 74
LEGEND_H = 28                  # the key under White's tray, on every board (the green dots change with the mover)
TRAY_H = 38
COORD_H = 28                   # the file-letter rows above and below the frame, clear of the trays
TOP_TRAY = HEADER_H
FRAME_TOP = TOP_TRAY + TRAY_H + COORD_H
BOARD_TOP = FRAME_TOP + FRAME_PAD + STEP_Y // 2            # y of rank 10
BOARD_BOTTOM = BOARD_TOP + 9 * STEP_Y                      # y of rank 1
FRAME_BOTTOM = BOARD_BOTTOM + STEP_Y // 2 + FRAME_PAD
BOTTOM_TRAY = FRAME_BOTTOM + COORD_H
LEGEND_Y = BOTTOM_TRAY + TRAY_H + LEGEND_H // 2
HEIGHT = BOTTOM_TRAY + TRAY_H + LEGEND_H + 2
TRAY_MARGIN = 12

BAR_H = 24                     # one piece's bar (12 px on a phone) ...
BAR_PITCH = 17                 # ... and the step between bars: each bar tucks under the one above it ...
FIVE_PITCH = 14                # ... closer in a tower of five (always 1-2-3-4-5: its numerals can be smaller)
BAR_W = {1: 28, 2: 36, 3: 44, 4: 52, 5: 60}               # bar width by size: larger pieces are wider
STAR_R = 9
STAR_DX = 1                    # the immunity star's centre, right of its bar's right end
TOWER_W = 2 * (BAR_W[5] // 2 + STAR_DX + STAR_R + 1)       # tower sprite width: the widest bar and a star

# --- Text sizes: what a player must read is >= ~24 px (a phone shows the image ~400 px wide) -------------
STATUS_SIZE = 30
TEXT_SIZE = 24
COORD_SIZE = 24
NUMERAL_SIZE = 22              # the size numeral on a bar (a bar is 24 px high, 17 px of it under a smaller one)
FIVE_NUMERAL_SIZE = 17         # ... in a tower of five, 14 px of each bar show
ROLE_SIZE = 22
BADGE_SIZE = 30                # common.winner_badge: a 24 px 'WINNER'

# --- Palette: every colour cue is doubled by a shape, a word or a luminance step ----------------------------
BOARD_FILL = (234, 224, 200)
BORDER_INK = (122, 86, 48)
DOT_INK = (60, 52, 44)
WHITE_DOT = (255, 255, 255)
WIN_TINT = (120, 200, 120)     # the winning dots (Fig. 2's green): the mover's, or the winner's at the end
PLACE_WASH = (176, 206, 240)   # the mover's placing areas (Fig. 3's blue)
WHITE_PIECE = (252, 252, 250)
WHITE_EDGE = (40, 40, 44)
BLACK_PIECE = (30, 30, 34)
BLACK_EDGE = (200, 200, 205)
LEG_INK = (255, 170, 30)       # a leg: a light amber core ...
LEG_CASE = (24, 24, 28)        # ... in a dark casing: reads by luminance and outline under any colour blindness
TRAVEL_INK = (0, 96, 74)       # a travel: a dark dashed line in a white halo (the inverse of a leg)
TRAVEL_CASE = (255, 255, 255)
STAR_FILL = (255, 196, 30)
TRAY_FILL = (236, 230, 218)
ACTIVE_TRAY = (255, 255, 255)
FILES = "abcdefghij"

SUPERSAMPLE = 2                # the static layer only
ARROW_SCALE = 3                # arrow masks


def dot_centre(dot: str) -> tuple[int, int]:
    """The centre of a dot in the final image (White at the bottom)."""
    return _CENTRES[dot]


_CENTRES = {f"{f}{r}": (BOARD_LEFT + i * STEP_X, BOARD_BOTTOM - (r - 1) * STEP_Y)
            for i, f in enumerate(FILES) for r in range(1, 11)}


def file_label_centre(file: str, side: str) -> tuple[int, int]:
    """Where the letter of ``file`` sits, ``side`` 'top' or 'bottom' (between the frame and the tray)."""
    x = BOARD_LEFT + FILES.index(file) * STEP_X
    return x, (FRAME_TOP - COORD_H // 2 if side == "top" else FRAME_BOTTOM + COORD_H // 2)


def rank_label_centre(rank: int, side: str) -> tuple[int, int]:
    """Where the number of ``rank`` sits, ``side`` 'left' or 'right'."""
    y = BOARD_BOTTOM - (rank - 1) * STEP_Y
    return (LABEL_W // 2 if side == "left" else WIDTH - LABEL_W // 2), y


def tray_box(seat: int) -> Box:
    """The panel of ``seat``'s name, hand and ledge (White's below the board, Black's above)."""
    top = BOTTOM_TRAY if seat == 0 else TOP_TRAY
    return TRAY_MARGIN, top + 2, WIDTH - TRAY_MARGIN, top + TRAY_H - 2


def tray_row(seat: int) -> int:
    """The middle line of ``seat``'s tray row."""
    return round(tray_box(seat)[1]) + (TRAY_H - 4) // 2


def tray_centre(seat: int, kind: str) -> tuple[float, float]:
    """Where ``seat``'s ``kind`` ('hand' / 'ledge') pieces are shown, towards the right of its tray row."""
    return WIDTH * (0.62 if kind == "hand" else 0.84), tray_row(seat)


def pitch(count: int) -> int:
    """The step between the bars of a tower of ``count`` pieces."""
    return FIVE_PITCH if count >= 5 else BAR_PITCH


def tower_height(count: int) -> int:
    """The height of a tower of ``count`` pieces (its bars overlap by ``BAR_H - pitch(count)``)."""
    return (count - 1) * pitch(count) + BAR_H if count else 0


def bar_box(dot: str, index: int, count: int, size: int) -> Box:
    """The box of the ``index``-th piece (0 = smallest, drawn on top) of a ``count``-piece tower on ``dot``."""
    cx, cy = dot_centre(dot)
    top = cy - tower_height(count) // 2 + index * pitch(count)
    half = BAR_W[size] / 2
    return cx - half, top + 0.5, cx + half, top + BAR_H - 0.5


def numeral_centre(dot: str, index: int, count: int) -> tuple[float, float]:
    """The middle of that bar's numeral: in the part of the bar that shows below the one above it."""
    _, y0, _, _ = bar_box(dot, index, count, 1)
    return dot_centre(dot)[0], y0 - 0.5 + BAR_H - (pitch(count) if index else BAR_H) / 2


def numeral_size(count: int) -> int:
    """The size of the numerals on a tower of ``count`` pieces."""
    return FIVE_NUMERAL_SIZE if count >= 5 else NUMERAL_SIZE


def star_centre(dot: str, index: int, count: int, size: int) -> tuple[float, float]:
    """Where the immunity star of that bar sits: on its right end, beside its numeral."""
    return bar_box(dot, index, count, size)[2] + STAR_DX, numeral_centre(dot, index, count)[1]


def ring_box(dot: str) -> Box:
    """The outer box of the ring around a dot's area (the completed tower, or where the move goes on)."""
    cx, cy = dot_centre(dot)
    w, h = _ring_size()
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


def winner_badge_xy(seat: int) -> tuple[int, int]:
    """The left end of the winner badge in ``seat``'s tray (the star's left tip), on the name row."""
    return round(tray_box(seat)[2] - 12 - _badge_width()), tray_row(seat)


def role_badge_centre(dot: str) -> tuple[float, float]:
    """The centre of a white dot's role badge (WH, WQ, BQ, BH): on the outer corner of its dot's area, where
    the four towers around it have only the ends of their bars (never a numeral)."""
    cx, cy = dot_centre(dot)
    sx = 1 if cx > _white_centre()[0] else -1
    sy = 1 if cy > _white_centre()[1] else -1
    return cx + sx * STEP_X / 2, cy + sy * STEP_Y / 2


@lru_cache(maxsize=1)
def _white_centre() -> tuple[float, float]:
    dots = sorted(BOARDS["5"].white_dots)
    return (sum(dot_centre(d)[0] for d in dots) / len(dots), sum(dot_centre(d)[1] for d in dots) / len(dots))


# --------------------------------------------------------------------------------------------------------
# Drawing
# --------------------------------------------------------------------------------------------------------


def draw(state: State, last_turn: Sequence[str] = (), names: Sequence[str] | None = None,
         previous: State | None = None) -> Image.Image:
    """The board image of a Quincala ``state`` (see the module docstring; the contract: ``render.games.Renderer``)."""
    assert isinstance(state, QuincalaState) and (previous is None or isinstance(previous, QuincalaState))
    moves = list(last_turn or ())
    names = _names(names)
    outcome = state.outcome()
    over = outcome is not None
    viewer = state.seat_to_show
    winners = tuple(outcome.winners) if outcome is not None else ()
    single = winners[0] if len(winners) == 1 else None
    tint_seat = single if over else viewer
    geo = _geometry(state.variant)
    board = _static(geo, None if over else viewer, None if over else viewer, tint_seat)
    image = board.copy()
    events = _replay(previous, moves)
    # highlights first, then the towers on top: an arrow never hides a tower
    done = state.complete_dot() if over else None
    if done is not None:
        _ring(image, done, "win")
    elif state.leg_dot and not over:
        _ring(image, state.leg_dot, "leg")
    legs = leg_arrows(state, events)
    tagged = [leg for leg in legs if _crosses_tag(leg, geo)]
    _arrows(image, state, events, [leg for leg in legs if not leg.over and leg not in tagged])
    beneath = {dot: image.crop(role_tag_box(dot)) for dot, _ in geo.white_dots}   # the arrows, not the towers
    _towers(image, state)
    for leg in legs:            # legs the towers would hide: over them, clear of their numerals
        if leg.over and leg not in tagged:
            _leg_arrow(image, leg)
    _role_badges(image, beneath, geo, tint_seat)
    for leg in tagged:          # a leg across a role tag: over it (the tag shows again on the next board)
        _leg_arrow(image, leg)
    _trays(image, state, names, viewer, over, winners)
    mover = previous.to_move if previous is not None else None
    _header(image, state, names, viewer, events, moves, mover)
    return image


def _names(names: Sequence[str] | None) -> list[str]:
    out = list(names) if names else []
    return out + [tr(seat) for seat in SEAT_NAMES[len(out):]] if len(out) < 2 else out


def _replay(previous: QuincalaState | None, moves: list[str]) -> list[Event]:
    """What the last turn did, from the state before it (knocks and releases need it)."""
    events: list[Event] = []
    if previous is None:
        for m in moves:
            if "-" in m:
                a, b = m.split("-", 1)
                events.append(Event("leg", "", a, b))
        return events
    st = previous
    for m in moves:
        try:
            st, ev = st.play_traced(m)
        except ValueError:
            break
        events.extend(ev)
    return events


# --- The static layer ---------------------------------------------------------------------------------------

def _diamond(d: ImageDraw.ImageDraw, centre: Point, rx: float, ry: float | None = None, *,
             fill: tuple[int, int, int] | None, outline: tuple[int, int, int] | None = None,
             width: int = 1) -> None:
    x, y = centre
    ry = rx if ry is None else ry
    d.polygon([(x, y - ry), (x + rx, y), (x, y + ry), (x - rx, y)], fill=fill, outline=outline, width=width)


@lru_cache(maxsize=32)
def _static(data: Geometry, wash_seat: int | None, active: int | None, tint_seat: int | None) -> Image.Image:
    """Everything that does not depend on the pieces: drawn once per (board geometry, placing wash, active
    tray, winning tint), supersampled; its text at final size."""
    s = SUPERSAMPLE
    big = Image.new("RGB", (WIDTH * s, HEIGHT * s), BACKGROUND)
    d = ImageDraw.Draw(big)

    def zb(b: Box) -> Box:
        return b[0] * s, b[1] * s, b[2] * s, b[3] * s

    def zp(p: Point) -> Point:
        return p[0] * s, p[1] * s

    d.rectangle(zb((FRAME_LEFT, FRAME_TOP, FRAME_RIGHT, FRAME_BOTTOM)), fill=BOARD_FILL)
    # the placing areas of the player to move, one wash per area with a gap between them (R-P1, R-P2)
    if wash_seat is not None:
        for _, dots in data.placing_areas[wash_seat][1]:
            xs = [dot_centre(p)[0] for p in dots]
            ys = [dot_centre(p)[1] for p in dots]
            box = (min(xs) - STEP_X / 2 + 4, min(ys) - STEP_Y / 2 + 4, max(xs) + STEP_X / 2 - 4,
                   max(ys) + STEP_Y / 2 - 4)
            d.rounded_rectangle(zb(box), radius=10 * s, fill=PLACE_WASH)
    # ornamental border: a double line with diamonds at the corners and the middle of each side
    for inset, w in ((0, 4), (7, 2)):
        d.rectangle(zb((FRAME_LEFT + inset, FRAME_TOP + inset, FRAME_RIGHT - inset, FRAME_BOTTOM - inset)),
                    outline=BORDER_INK, width=w * s)
    mid_x, mid_y = (FRAME_LEFT + FRAME_RIGHT) / 2, (FRAME_TOP + FRAME_BOTTOM) / 2
    for p in ((FRAME_LEFT, FRAME_TOP), (FRAME_RIGHT, FRAME_TOP), (FRAME_LEFT, FRAME_BOTTOM),
              (FRAME_RIGHT, FRAME_BOTTOM), (mid_x, FRAME_TOP), (mid_x, FRAME_BOTTOM), (FRAME_LEFT, mid_y),
              (FRAME_RIGHT, mid_y)):
        _diamond(d, zp(p), 10 * s, fill=BORDER_INK)
        _diamond(d, zp(p), 4.5 * s, fill=BOARD_FILL)
    # black dots, then the white dots: large diamonds, the tinted seat's two winning dots green (Fig. 2)
    wins = _winning_dots(data, tint_seat)
    white = {dot for dot, _ in data.white_dots}
    for r in range(1, data.ranks + 1):
        for f in data.files:
            dot = f"{f}{r}"
            if dot not in white and dot not in data.holes:
                _diamond(d, zp(dot_centre(dot)), 6 * s, fill=DOT_INK)
    for dot, _ in data.white_dots:
        _diamond(d, zp(dot_centre(dot)), (STEP_X / 2 - 3) * s, (STEP_Y / 2 - 6) * s,
                 fill=WIN_TINT if dot in wins else WHITE_DOT, outline=INK, width=round(2.5 * s))
    # tray panels: the active one white with a heavy outline; a swatch of the seat's colour
    for seat in (0, 1):
        on = seat == active
        d.rounded_rectangle(zb(tray_box(seat)), radius=12 * s, fill=ACTIVE_TRAY if on else TRAY_FILL,
                            outline=INK if on else MUTED, width=round((3 if on else 1.5) * s))
        colour, edge = (WHITE_PIECE, WHITE_EDGE) if seat == 0 else (BLACK_PIECE, BLACK_EDGE)
        _diamond(d, zp((TRAY_MARGIN + 20, tray_row(seat))), 11 * s, fill=colour, outline=edge, width=2 * s)
    image = big.reduce(s)
    # text at final size
    for f in FILES:
        for side in ("top", "bottom"):
            x, y = file_label_centre(f, side)
            _label(image, x, _baseline(y, COORD_SIZE), f, COORD_SIZE, bold=True, align="m")
    for r in range(1, 11):
        for side in ("left", "right"):
            x, y = rank_label_centre(r, side)
            _label(image, x, _baseline(y, COORD_SIZE), str(r), COORD_SIZE, bold=True, align="m")
    return image


class Geometry(NamedTuple):
    """What the static layer needs of a variant's board table (hashable: equal boards share one layer)."""

    files: str
    ranks: int
    white_dots: tuple[tuple[str, tuple[str, str]], ...]           # (dot, (role, owner)), sorted
    placing_areas: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...]   # per colour w, b
    holes: tuple[str, ...]


@lru_cache(maxsize=8)
def _geometry(variant: str) -> Geometry:
    data = BOARDS[variant]
    return Geometry(data.files, data.ranks, tuple(sorted(data.white_dots.items())),
                    tuple((c, tuple(data.placing_areas[c])) for c in "wb"), tuple(sorted(data.holes)))


def _winning_dots(data: Geometry, seat: int | None) -> tuple[str, ...]:
    """``seat``'s winning dots: its own quincala dot and the opponent's home dot (§4.3)."""
    if seat is None:
        return ()
    me, opp = "wb"[seat], "wb"[1 - seat]
    return tuple(sorted(dot for dot, (role, owner) in data.white_dots
                        if (role, owner) in (("quincala", me), ("home", opp))))


# --- Sprites ------------------------------------------------------------------------------------------------

ROLE_W, ROLE_H = 44, 26        # a role tag's panel
TAG_MARGIN = 3                 # the clear margin cut out of the towers around a role tag


@lru_cache(maxsize=16)
def _role_badge_sprite(label: str, tinted: bool) -> Image.Image:
    w, h = ROLE_W, ROLE_H

    def panel(d: ImageDraw.ImageDraw, s: float) -> None:
        d.rounded_rectangle((1 * s, 1 * s, (w - 1) * s, (h - 1) * s), radius=6 * s,
                            fill=WIN_TINT if tinted else WHITE_DOT, outline=INK, width=round(2 * s))

    image = sprite(panel, (w, h))
    ImageDraw.Draw(image).text((w / 2, h / 2), label, font=font(ROLE_SIZE, True), fill=INK, anchor="mm")
    return image


@lru_cache(maxsize=1)
def role_tag_mask() -> Image.Image:
    """The 'L' mask of a role tag's panel grown by ``TAG_MARGIN``."""
    w, h = ROLE_W + 2 * TAG_MARGIN, ROLE_H + 2 * TAG_MARGIN
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=6 + TAG_MARGIN, fill=255)
    return mask


def role_tag_box(dot: str) -> tuple[int, int, int, int]:
    """The box of a white dot's role tag with its clear margin (what no tower may touch)."""
    mask = role_tag_mask()
    cx, cy = role_badge_centre(dot)
    x0, y0 = round(cx - mask.width / 2), round(cy - mask.height / 2)
    return x0, y0, x0 + mask.width, y0 + mask.height


def _role_badges(image: Image.Image, beneath: dict[str, Image.Image], data: Geometry, tint_seat: int | None) -> None:
    """The white dots' role badges, tinted like their dots, over the towers: the towers around a badge (their
    bar ends only) are cut back to what lies ``beneath`` them (each tag's box before the towers) in a clear
    margin, so a tall tower never touches or hides a tag."""
    wins = _winning_dots(data, tint_seat)
    for dot, (role, owner) in data.white_dots:
        box = role_tag_box(dot)
        image.paste(beneath[dot], box[:2], role_tag_mask())
        paste(image, _role_badge_sprite(f"{owner.upper()}{role[0].upper()}", dot in wins), role_badge_centre(dot))


def _bar_colours(piece: str) -> tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]:
    """(fill, outline, numeral ink) of a piece's bar."""
    if piece[0] == "w":
        return WHITE_PIECE, WHITE_EDGE, INK
    return BLACK_PIECE, BLACK_EDGE, (255, 255, 255)


Sprite = tuple[Image.Image, int, int]     # an RGBA image and where its top-left goes, relative to its anchor


@lru_cache(maxsize=128)
def _bar_sprite(piece: str, immune: bool = False, compact: bool = False, shown: int = BAR_H,
                numeral: int = NUMERAL_SIZE) -> Sprite:
    """One piece's bar with its numeral (and its immunity star), cropped to what it covers; its anchor is
    the middle of the bar's top edge. A tower pastes its bars from the largest up, so each smaller bar sits
    on the one below it. ``compact``: as narrow as a size 1 (tray chips that must fit). ``shown``: how much of
    the bar shows below the one above it (its numeral, of size ``numeral``, and star are in the middle of that)."""
    width, h = TOWER_W, BAR_H + 2
    mid = 1 + BAR_H - shown / 2
    cx = width // 2
    half = (BAR_W[1] if compact else BAR_W[int(piece[1:])]) / 2
    fill, edge, ink = _bar_colours(piece)

    def bar(d: ImageDraw.ImageDraw, s: float) -> None:
        d.rounded_rectangle(((cx - half) * s, 1.5 * s, (cx + half) * s, (BAR_H + 0.5) * s), radius=5 * s,
                            fill=fill, outline=edge, width=round(1.5 * s))
        if immune:
            star(d, ((cx + half + STAR_DX) * s, mid * s), STAR_R * s, fill=STAR_FILL, outline=INK,
                 width=round(1.2 * s))

    image = sprite(bar, (width, h))
    ImageDraw.Draw(image).text((cx, mid), piece[1:], font=font(numeral, True), fill=ink, anchor="mm")
    box = image.getchannel("A").getbbox() or (0, 0, width, h)
    return image.crop(box), box[0] - cx, box[1] - 1


def _ring_size() -> tuple[int, int]:
    return STEP_X + 6, STEP_Y + 10


@lru_cache(maxsize=4)
def _ring_sprite(kind: str) -> Image.Image:
    """A thick ring around a dot's area: gold for the completed tower, amber where the move goes on; both in
    a dark casing, so the ring reads by outline and luminance, not hue."""
    w, h = _ring_size()
    core = WINNER if kind == "win" else LEG_INK

    def ring(d: ImageDraw.ImageDraw, s: float) -> None:
        d.rounded_rectangle((1 * s, 1 * s, (w - 1) * s, (h - 1) * s), radius=14 * s, outline=LEG_CASE,
                            width=round(10 * s))
        d.rounded_rectangle((3.5 * s, 3.5 * s, (w - 3.5) * s, (h - 3.5) * s), radius=12 * s, outline=core,
                            width=round(5 * s))

    return sprite(ring, (w, h))


def _badge_width() -> float:
    return BADGE_SIZE * 1.4 + _length(winner_label(), round(BADGE_SIZE * 0.8), True)


def _badge_sprite() -> Image.Image:
    return _badge_sprite_in(language())


@lru_cache(maxsize=4)
def _badge_sprite_in(lang: str) -> Image.Image:
    """common.winner_badge (the one winner marker of every game), drawn once, smooth."""
    w, h = math.ceil(_badge_width()) + 4, BADGE_SIZE + 8
    return sprite(lambda d, s: winner_badge(d, (2 * s, h / 2 * s), size=round(BADGE_SIZE * s)), (w, h), scale=3)


def _blit(image: Image.Image, sprite_: Image.Image, x: int, y: int) -> None:
    """Paste an RGBA sprite with its top-left at (x, y), through its own alpha: ``Image.paste`` without its
    per-call checks (the board is a fresh in-memory image, the sprites are cached; the core clips)."""
    image.im.paste(sprite_.im, (x, y, x + sprite_.width, y + sprite_.height), sprite_.im)


def _fill(image: Image.Image, colour: RGB, x: int, y: int, mask: Image.Image) -> None:
    """Paint ``colour`` through an 'L' ``mask`` whose top-left is at (x, y)."""
    image.im.paste(colour, (x, y, x + mask.width, y + mask.height), mask.im)


def _ring(image: Image.Image, dot: str, kind: str) -> None:
    paste(image, _ring_sprite(kind), dot_centre(dot))


def _towers(image: Image.Image, state: QuincalaState) -> None:
    """Every tower, its bars pasted from the largest up (``bar_box``)."""
    marks = set(state.immune_pieces()) | set(state.gained_pieces())
    for dot, pieces in sorted(state.towers().items()):
        cx, cy = dot_centre(dot)
        step, numerals = pitch(len(pieces)), numeral_size(len(pieces))
        top = cy - tower_height(len(pieces)) // 2
        for i in range(len(pieces) - 1, -1, -1):
            p = pieces[i]
            bar, dx, dy = _bar_sprite(p, (dot, int(p[1:])) in marks, False, step if i else BAR_H, numerals)
            _blit(image, bar, cx + dx, top + i * step + dy)


# --- Arrows: anti-aliased through masks the size of each arrow ---------------------------------------------

MASK_INK = cast(RGB, 255)      # common.arrow's fill, on an 'L' mask


def _tower_extent(state: QuincalaState, dot: str) -> tuple[float, float]:
    """Half width and half height of what is drawn on ``dot`` (a tower, or the dot itself)."""
    pieces = state.tower(dot)
    if not pieces:
        return (10.0, 10.0) if dot not in state.white_dot_roles() else (STEP_X / 2 - 14, STEP_Y / 2 - 20)
    marks = {m for m, _ in (*state.immune_pieces(), *state.gained_pieces())}
    star_room = STAR_DX + STAR_R if dot in marks else 0
    return max(BAR_W[int(p[1:])] for p in pieces) / 2 + star_room + 2, tower_height(len(pieces)) / 2 + 2


def _clearance(state: QuincalaState, dot: str, ux: float, uy: float) -> float:
    """How far from ``dot``'s centre, along (ux, uy), its tower ends (so arrow ends stay visible)."""
    hw, hh = _tower_extent(state, dot)
    return min(hw / abs(ux) if ux else 1e9, hh / abs(uy) if uy else 1e9) + 2


def _unit(a: Point, b: Point) -> tuple[float, float, float]:
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    return (b[0] - a[0]) / length, (b[1] - a[1]) / length, length


def _arrow(image: Image.Image, kind: str, a: Point, b: Point, trim_a: float, trim_b: float) -> None:
    """A ``kind`` ('leg' / 'travel') arrow from ``a`` to ``b`` with its ends pulled in by the trims: its
    casing, then its core, each painted through an anti-aliased mask (cached by the arrow's shape, which
    repeats a lot: the same leg between the same kinds of towers)."""
    ax, ay = round(a[0]), round(a[1])

    def half(v: float) -> float:
        return round(v * 2) / 2

    shape = _arrow_masks(kind, half(b[0] - ax), half(b[1] - ay), half(trim_a), half(trim_b))
    if shape is None:
        return
    for colour, (mask, dx, dy) in zip(_ARROW_COLOURS[kind], shape, strict=True):
        _fill(image, colour, ax + dx, ay + dy, mask)


_ARROW_COLOURS = {"leg": (LEG_CASE, LEG_INK), "short leg": (LEG_CASE, LEG_INK), "travel": (TRAVEL_CASE, TRAVEL_INK)}
SHORT_HEAD = 15                # the head of a leg over the towers or in a lane: a short arrow keeps its shaft
Mask = tuple[Image.Image, int, int]      # an 'L' mask and its top-left, relative to the arrow's start


@lru_cache(maxsize=1024)
def _arrow_masks(kind: str, dx: float, dy: float, trim_a: float, trim_b: float) -> tuple[Mask, Mask] | None:
    """The casing and core masks of a ``kind`` arrow from (0, 0) to (dx, dy), its ends pulled in by the
    trims: drawn ``ARROW_SCALE`` (or 2) times larger over the arrow's box only, reduced (smooth edges),
    cropped."""
    ux, uy, length = _unit((0, 0), (dx, dy))
    visible = length - trim_a - trim_b
    if visible < (24 if kind == "travel" else 16):
        return None
    pad = 20
    x0, y0 = math.floor(min(0, dx) - pad), math.floor(min(0, dy) - pad)
    x1, y1 = math.ceil(max(0, dx) + pad), math.ceil(max(0, dy) + pad)
    k = ARROW_SCALE if (x1 - x0) * (y1 - y0) <= 20_000 else 2      # long diagonals: a lighter supersample

    def at(t: float) -> Point:
        """The point ``t`` along the arrow, in mask pixels."""
        return (ux * t - x0) * k, (uy * t - y0) * k

    out: list[Mask] = []
    for casing in (True, False):
        mask = Image.new("L", ((x1 - x0) * k, (y1 - y0) * k), 0)
        d = ImageDraw.Draw(mask)
        if kind in ("leg", "short leg"):
            arrow(d, at(trim_a), at(length - trim_b), fill=MASK_INK, width=7 * k,
                  head=(22 if kind == "leg" else SHORT_HEAD) * k,
                  casing=MASK_INK if casing else None, casing_width=3 * k if casing else 0)
        else:
            grow = 2 if casing else 0
            dash, gap, head = 13.0, 8.0, 17.0
            stop, t = length - trim_b - head, trim_a
            while t < stop - 3:
                e = min(t + dash, stop)
                d.line([at(t), at(e)], fill=255, width=(5 + 2 * grow) * k)
                t = e + gap
            arrow(d, at(stop - 2), at(length - trim_b), fill=MASK_INK, width=5 * k, head=head * k,
                  casing=MASK_INK if casing else None, casing_width=grow * k)
        small = mask.reduce(k)
        box = small.getbbox() or (0, 0, 1, 1)
        out.append((small.crop(box), x0 + box[0], y0 + box[1]))
    return out[0], out[1]


def _leg_arrow(image: Image.Image, leg: LegArrow) -> None:
    """A solid leg arrow: a light core in a dark casing (a shorter head over the towers or in a lane)."""
    _arrow(image, "short leg" if leg.short else "leg", leg.start, leg.end, 0, 0)


def _travel_arrow(image: Image.Image, a: Point, b: Point, trim_a: float, trim_b: float) -> None:
    """A dashed travel arrow: a dark line in a white halo."""
    _arrow(image, "travel", a, b, trim_a, trim_b)


def _target(where: str) -> Point:
    if ":" in where:
        kind, colour = where.split(":")
        return tray_centre("wb".index(colour), kind)
    return dot_centre(where)


def _to_frame(a: Point, b: Point) -> Point:
    """Where the segment from ``a`` (on the board) towards ``b`` (a tray) leaves the frame."""
    ux, uy, length = _unit(a, b)
    edge = FRAME_TOP if uy < 0 else FRAME_BOTTOM
    t = (edge - a[1]) / uy if uy else length
    return a[0] + ux * t, a[1] + uy * t


class LegArrow(NamedTuple):
    """Where one leg's arrow is drawn: from ``start`` to ``end`` (its tip), under the towers or ``over`` them."""

    frm: str
    to: str
    start: Point
    end: Point
    over: bool
    short: bool                # drawn with a shorter head: over the towers, or one of several lanes


LANE = 18                      # between the arrows of legs over the same two dots (there and back, or again)
MIN_UNDER = 34                 # a leg that would show less than this between its towers is drawn over them ...
NUMERAL_CLEAR = 15             # ... this far (across) from the towers' numeral column
STEEP = 0.35                   # a leg this close to vertical (|dx| per unit) runs beside the numerals instead
OVER_TRIM = 16                 # a steep leg over the towers starts and stops this far from the dots' centres


def leg_arrows(state: QuincalaState, events: Sequence[Event]) -> list[LegArrow]:
    """Every leg of the turn as drawn, so that each one shows: from tower edge to tower edge under the
    towers; over them (its ends clear of the numerals) when the towers would leave too little of it; legs
    over the same two dots side by side in lanes, ``LANE`` apart."""
    legs = [(e.frm, e.to) for e in events if e.kind == "leg" and e.frm in _DOTS and e.to in _DOTS]
    total: dict[frozenset[str], int] = {}
    for frm, to in legs:
        total[frozenset((frm, to))] = total.get(frozenset((frm, to)), 0) + 1
    seen: dict[frozenset[str], int] = {}
    out: list[LegArrow] = []
    for frm, to in legs:
        pair = frozenset((frm, to))
        k, n = seen.get(pair, 0), total[pair]
        seen[pair] = k + 1
        a, b = dot_centre(frm), dot_centre(to)
        ux, uy, length = _unit(a, b)
        p, q = sorted(pair, key=lambda d: dot_centre(d))           # one side of the pair for both directions
        px, py, _ = _unit(dot_centre(p), dot_centre(q))
        nx, ny = -py, px
        trim_a, trim_b = _clearance(state, frm, ux, uy), _clearance(state, to, ux, uy)
        over = length - trim_a - trim_b < MIN_UNDER
        if over and abs(ux) < STEEP:               # beside the numeral column, lanes further out
            ox, oy = -float(NUMERAL_CLEAR + k * LANE), 0.0
            trim_a = trim_b = OVER_TRIM
        else:
            lane = (k - (n - 1) / 2) * LANE
            ox, oy = nx * lane, ny * lane
            if over:
                trim_a = trim_b = NUMERAL_CLEAR / abs(ux)
        start = (a[0] + ox + ux * trim_a, a[1] + oy + uy * trim_a)
        end = (b[0] + ox - ux * trim_b, b[1] + oy - uy * trim_b)
        out.append(LegArrow(frm, to, start, end, over, over or n > 1))
    return out


def _crosses_tag(leg: LegArrow, data: Geometry) -> bool:
    """Whether ``leg``'s arrow runs across a white dot's role tag."""
    (ax, ay), (bx, by) = leg.start, leg.end
    steps = max(1, round(math.hypot(bx - ax, by - ay) / 2))
    boxes = [role_tag_box(dot) for dot, _ in data.white_dots]
    return any(x0 <= ax + (bx - ax) * i / steps <= x1 and y0 <= ay + (by - ay) * i / steps <= y1
               for i in range(steps + 1) for x0, y0, x1, y1 in boxes)


def _arrows(image: Image.Image, state: QuincalaState, events: list[Event], legs: Sequence[LegArrow]) -> None:
    """Legs as solid arrows (``legs``: those drawn under the towers); travels as dashed arrows to the white dot
    they stopped on, or out of the frame towards the tray they went to."""
    a: Point
    b: Point
    for leg in legs:
        _leg_arrow(image, leg)
    for e in events:
        if e.kind in ("knock", "release") and e.frm in _DOTS:
            a = dot_centre(e.frm)
            if ":" in e.to:
                b = _to_frame(a, _target(e.to))
                ux, uy, _ = _unit(a, b)
                _travel_arrow(image, a, b, _clearance(state, e.frm, ux, uy), 2)
            elif e.to in _DOTS:
                b = dot_centre(e.to)
                ux, uy, _ = _unit(a, b)
                _travel_arrow(image, a, b, _clearance(state, e.frm, ux, uy), _clearance(state, e.to, ux, uy))


_DOTS = frozenset(f"{f}{r}" for f in FILES for r in range(1, 11))


# --- Text ---------------------------------------------------------------------------------------------------
# Text is drawn at final size. Fixed strings are rendered once into cached masks and pasted; people's names go
# through common.draw_name / fit_name / name_length (one place picks their fonts), measured once per string.

Run = tuple[str, bool, bool]      # (text, bold, is a person's name)


def _length(text: str, size: int, bold: bool = False) -> float:
    """The width of ``text`` as ``_label`` draws it."""
    return _layout(text, size, bold)[1]


# ``_label`` draws text a token at a time (words, coordinates like 'd6', numbers, single signs), each rendered
# once: a new move or log line costs pastes, not a font rendering.
_TOKENS = re.compile(r"[A-Za-z]+[0-9]*|[0-9]+|\s+|.")


@lru_cache(maxsize=4096)
def _token_length(token: str, size: int, bold: bool) -> float:
    return font(size, bold).getlength(token)


@lru_cache(maxsize=1024)
def _layout(text: str, size: int, bold: bool) -> tuple[tuple[tuple[str, float], ...], float]:
    """The tokens of ``text`` (spaces left out) with their offsets from its start, and its width."""
    x, out = 0.0, []
    for token in _TOKENS.findall(text):
        if not token.isspace():
            out.append((token, x))
        x += _token_length(token, size, bold)
    return tuple(out), x


@lru_cache(maxsize=1024)
def _name_length(text: str, size: int, bold: bool) -> float:
    return name_length(text, size, bold=bold)


@lru_cache(maxsize=1024)
def _fit_name(text: str, size: int, max_width: float, bold: bool) -> str:
    return fit_name(text, size, max_width, bold=bold)


@lru_cache(maxsize=256)
def _wrap(text: str, size: int, max_width: float, bold: bool = False) -> tuple[str, ...]:
    return tuple(wrap_text(text, size, max_width, bold=bold))


@lru_cache(maxsize=1024)
def _text_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, int, int]:
    """``text`` rendered once as a mask, with the offset of its box from the left end of its baseline."""
    f = font(size, bold)
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(text, anchor="ls"))
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=f, fill=255, anchor="ls")
    return mask, x0, y0


def _label(image: Image.Image, x: float, baseline: float, text: str, size: int, *, bold: bool = False,
           fill: tuple[int, int, int] = INK, align: str = "l") -> None:
    """Text that holds no name, its baseline's left end (``align`` 'l') or middle ('m') at (x, baseline)."""
    if not text:
        return
    tokens, width = _layout(text, size, bold)
    if align == "m":
        x -= width / 2
    y = round(baseline)
    for token, offset in tokens:
        mask, dx, dy = _text_mask(token, size, bold)
        _fill(image, fill, round(x + offset) + dx, y + dy, mask)


def _runs_width(runs: Sequence[Run], size: int) -> float:
    return sum(_name_length(t, size, b) if is_name else _length(t, size, b) for t, b, is_name in runs)


@lru_cache(maxsize=512)
def _name_sprite(text: str, size: int, bold: bool, fill: tuple[int, int, int]) -> tuple[Image.Image, int, int]:
    """A person's name drawn by common.draw_name once (whatever fonts it picks, colour glyphs included) on a
    transparent sprite, with the offset of the sprite from the left end of the baseline."""
    ascent, descent = font(size, bold).getmetrics()
    pad = size // 2
    w = math.ceil(_name_length(text, size, bold)) + 2 * pad
    h = ascent + descent + 2 * pad
    image = Image.new("RGBA", (max(1, w), h), (*fill, 0))
    draw_name(ImageDraw.Draw(image), (pad, pad + ascent), text, size, bold=bold, fill=fill, anchor="ls")
    box = image.getchannel("A").getbbox() or (0, 0, 1, 1)
    return image.crop(box), box[0] - pad, box[1] - pad - ascent


def _name(image: Image.Image, x: float, baseline: float, text: str, size: int, *, bold: bool = False,
          fill: tuple[int, int, int] = INK) -> None:
    """A person's name (or a line holding names) with its baseline's left end at (x, baseline)."""
    if text:
        sprite_, dx, dy = _name_sprite(text, size, bold, fill)
        _blit(image, sprite_, round(x) + dx, round(baseline) + dy)


def _draw_runs(image: Image.Image, x: float, y: float, runs: Sequence[Run], size: int,
               fill: tuple[int, int, int] = INK) -> float:
    """Draw ``runs`` left to right from ``x`` on the baseline ``y``; returns the x after them."""
    for text, bold, is_name in runs:
        if is_name:
            _name(image, x, y, text, size, bold=bold, fill=fill)
            x += _name_length(text, size, bold)
        else:
            _label(image, x, y, text, size, bold=bold, fill=fill)
            x += _length(text, size, bold)
    return x


def _baseline(mid: float, size: int) -> float:
    """The baseline that centres a line of digits and capitals of ``size`` on ``mid``."""
    return round(mid + size * 0.36)


def _named_line(name: str, rest: Sequence[Run], size: int, max_width: float, before: str = "", *,
                bold: bool = True, least: float = 40.0) -> list[Run]:
    """A person's name after ``before`` and followed by ``rest`` (a status that is never shortened): only the name
    gives way, to no less than ``least`` pixels."""
    head: list[Run] = [(before, bold, False)] if before else []
    room = max_width - _runs_width([*head, *rest], size)
    return [*head, (_fit_name(name, size, max(room, least), bold), bold, True), *rest]


def end_sentence(state: QuincalaState, names: Sequence[str] | None, size: int = TEXT_SIZE,
                 max_width: float = WIDTH - 32, bold: bool = True) -> list[str]:
    """The end-of-game sentence (``outcome_text`` with the names) in at most two lines, always whole: when
    it cannot fit, the names in it are shortened, never the rest of the sentence."""
    outcome = state.outcome()
    if outcome is None:
        return []
    full = _names(names)
    lines: tuple[str, ...] = ()
    for limit in (None, 300.0, 220.0, 160.0, 110.0, 70.0, 40.0):
        shown = full if limit is None else [_fit_name(n, size, limit, bold) for n in full]
        text = outcome_text(state.game, outcome, shown, tr)
        lines = _wrap(text, size, max_width, bold)
        if " ".join(lines) == " ".join(text.split()):
            break
    return list(lines)


def legend(state: QuincalaState) -> str:
    """The key of the board's colours, in the render language: whose winning dots are green (the player to move's,
    at the end the winner's), the placing areas while the game runs, the immunity star."""
    outcome = state.outcome()
    if outcome is None:
        return tr(LEGEND).format(seat=tr(SEAT_NAMES[state.seat_to_show]))
    if len(outcome.winners) == 1:
        return tr(LEGEND_WON).format(seat=tr(SEAT_NAMES[outcome.winners[0]]))
    return tr(LEGEND_DRAWN)


def _header(image: Image.Image, state: QuincalaState, names: list[str], viewer: int, events: list[Event],
            moves: list[str], mover: int | None = None) -> None:
    """At the end, the end-of-game sentence, whole, in one or two bold lines, then the last turn. While the game
    runs, the status (only the name gives way), the last turn, then what the mover must do next. The key goes
    under White's tray on every board."""
    room = WIDTH - 32
    _label(image, WIDTH / 2, _baseline(LEGEND_Y, TEXT_SIZE), _fit_text(legend(state), TEXT_SIZE, room, False),
           TEXT_SIZE, fill=MUTED, align="m")
    if state.is_over:           # the sentence names the winner: it is the status
        lines = end_sentence(state, names)
        for line, mid in zip(lines, (STATUS_Y, NOTE_Y), strict=False):
            _name(image, (WIDTH - _name_length(line, TEXT_SIZE, True)) / 2, _baseline(mid, TEXT_SIZE), line,
                  TEXT_SIZE, bold=True)
        _last_turn_line(image, events, moves, names, mover, NOTE_Y if len(lines) == 1 else THIRD_Y)
        return
    before, after = split(TO_MOVE_SEAT)
    runs = _named_line(names[viewer], [(after.format(seat=tr(SEAT_NAMES[viewer])), True, False)], STATUS_SIZE, room,
                       before)
    _draw_runs(image, (WIDTH - _runs_width(runs, STATUS_SIZE)) / 2, _baseline(STATUS_Y, STATUS_SIZE), runs,
               STATUS_SIZE)
    _last_turn_line(image, events, moves, names, mover, NOTE_Y)
    note = pending_note(state) or (tr(GOES_ON).format(dot=state.leg_dot) if state.leg_dot else "")
    if note and _length(note, TEXT_SIZE) > room and " (" in note:
        note = note.split(" (")[0]                      # the instruction without its explanation
    if note:
        _label(image, WIDTH / 2, _baseline(NOTE_Y if not moves else THIRD_Y, TEXT_SIZE),
               _fit_text(note, TEXT_SIZE, room, False), TEXT_SIZE, fill=MUTED, align="m")


LAST_TURN_SIZES = (TEXT_SIZE, 22, 20, 18)    # a turn too long for the line is drawn smaller, never cut
MIN_NAME = 90.0                # the mover's name keeps this much room before the line is drawn smaller


def _last_turn_line(image: Image.Image, events: list[Event], moves: list[str], names: Sequence[str] = (),
                    mover: int | None = None, mid: int = NOTE_Y) -> None:
    """The last turn and who played it (seat ``mover`` of ``names``, when known) in the §7 notation, then what
    travelled (in the travel colour); the travels give way first when the line is full, then the name, then
    the size of the line (``LAST_TURN_SIZES``): the turn itself, every leg of it, is never cut."""
    if not moves:
        return
    room = WIDTH - 32
    words = []
    for e in events:
        to = e.to
        if ":" in e.to:
            kind, colour = e.to.split(":")
            to = tr(SEATS_HAND if kind == "hand" else SEATS_LEDGE).format(seat=tr(SEAT_NAMES["wb".index(colour)]))
        if e.kind == "knock":
            words.append(f"× {e.piece} → {to}")
        elif e.kind == "release":
            words.append(tr(RELEASED).format(piece=e.piece, to=to))
        elif e.kind == "win":
            words.append(tr(COMPLETES).format(piece=tr(e.piece), dot=e.frm))    # the piece: a seat
    turn = turn_notation(moves)
    size, head = TEXT_SIZE, []
    for size in LAST_TURN_SIZES:                 # the whole turn: a smaller size rather than a cut
        if mover is not None and mover < len(names):
            before, after = split(LAST_TURN_BY)
            head = _named_line(names[mover], [(after.format(turn=turn), True, False)], size, room, before,
                               least=MIN_NAME if size != LAST_TURN_SIZES[-1] else 24.0)
        else:
            head = [(tr(LAST_TURN).format(turn=turn), True, False)]
        if _runs_width(head, size) <= room:
            break
    else:                                        # longer than any turn of the seeded games: cut, inside the image
        head = [(_fit_text(tr(LAST_TURN).format(turn=turn), size, room, True), True, False)]
    head_w = _runs_width(head, size)
    rest = _fit_text(" · " + " · ".join(words), size, room - head_w, False) if words else ""
    if rest in ("", "…", " ·…"):
        rest = ""
    x = (WIDTH - head_w - _length(rest, size)) / 2
    y = _baseline(mid, size)
    x = _draw_runs(image, x, y, head, size)
    _label(image, x, y, rest, size, fill=TRAVEL_INK)


def _trays(image: Image.Image, state: QuincalaState, names: list[str], viewer: int, over: bool,
           winners: tuple[int, ...]) -> None:
    """Each player's row: colour swatch, name and seat (and 'to move'), the hand and ledge pieces when there
    are any, the winner badge at the end. Only the name gives way when the row is full."""
    for seat in (0, 1):
        x0, _, x1, _ = tray_box(seat)
        y = tray_row(seat)
        right = x1 - 12
        if over and len(winners) == 1 and seat in winners:
            badge = _badge_sprite()
            bx, by = winner_badge_xy(seat)
            _blit(image, badge, bx - 2, by - badge.height // 2)
            right = bx - 16
        status: list[Run] = [(f" ({tr(SEAT_NAMES[seat])})", False, False)]
        if seat == viewer and not over:
            status.append((" · " + tr(TO_MOVE_MARK), True, False))
        left = x0 + 40
        groups = [(tr(kind), _kinds(pieces)) for kind, pieces in ((HAND, state.hand(seat)),
                                                                   (LEDGE, state.ledge(seat))) if pieces]
        block = _pieces_block(groups, right - left - _runs_width(status, TEXT_SIZE) - 110)
        width = sum(w for w, _ in block)
        x = right - width
        for w, paint in block:
            paint(image, x, y)
            x += w
        runs = _named_line(names[seat], status, TEXT_SIZE, right - width - 16 - left)
        _draw_runs(image, left, _baseline(y, TEXT_SIZE), runs, TEXT_SIZE)


def _kinds(pieces: list[str]) -> list[tuple[str, int]]:
    """The pieces grouped: (piece, how many), in the order given (smallest first)."""
    kinds: list[tuple[str, int]] = []
    for p in pieces:
        if kinds and kinds[-1][0] == p:
            kinds[-1] = (p, kinds[-1][1] + 1)
        else:
            kinds.append((p, 1))
    return kinds


Item = tuple[float, Callable[[Image.Image, float, int], None]]     # a width and how to paint it at (x, y)


def _pieces_block(groups: list[tuple[str, list[tuple[str, int]]]], room: float) -> list[Item]:
    """The hand and ledge of a tray row as items left to right: a chip per kind of piece with its count, as
    narrow chips if the row is short of room, or only the number of pieces if even that does not fit."""
    for style in ("chips", "compact", "count"):
        items: list[Item] = []
        for i, (kind, kinds) in enumerate(groups):
            if i:
                items.append((14, _nothing))
            label = kind if style != "count" else f"{kind} {sum(n for _, n in kinds)}"
            items.append((_length(label, TEXT_SIZE) + 8, _text_item(label, MUTED, False)))
            if style == "count":
                continue
            for p, n in kinds:
                w = BAR_W[1] if style == "compact" else BAR_W[int(p[1:])]
                items.append((w + 2, _chip_item(p, w, style == "compact")))
                if n > 1:
                    items.append((_length(f"×{n}", TEXT_SIZE, True) + 2, _text_item(f"×{n}", INK, True)))
                items.append((6, _nothing))
        if sum(w for w, _ in items) <= room or style == "count":
            return items
    return []


def _nothing(image: Image.Image, x: float, y: int) -> None:
    return None


def _text_item(text: str, fill: RGB, bold: bool) -> Callable[[Image.Image, float, int], None]:
    return lambda image, x, y: _label(image, x, _baseline(y, TEXT_SIZE), text, TEXT_SIZE, bold=bold, fill=fill)


def _chip_item(piece: str, w: int, compact: bool) -> Callable[[Image.Image, float, int], None]:
    def paint(image: Image.Image, x: float, y: int) -> None:
        chip, dx, dy = _bar_sprite(piece, False, compact)
        _blit(image, chip, round(x + w / 2) + dx, y - BAR_H // 2 + dy)
    return paint


@lru_cache(maxsize=512)
def _fit_text(text: str, size: int, max_width: float, bold: bool) -> str:
    return fit_text(text, size, max_width, bold=bold)


# --- The fixed palette --------------------------------------------------------------------------------------

def _sample_code(cells: dict[str, str], mover: str = "w", phase: str = "place", immune: str = "-",
                 gained: str = "-", hands: tuple[str, str, str, str] = ("-", "-", "-", "-"), passes: int = 0) -> str:
    """A 5-size position code: ``cells`` as given, the other pieces as towers in the corners."""
    counts = {f"{c}{s}": 4 for c in "wb" for s in range(1, 6)}
    placed = {d: p.split() for d, p in cells.items()}
    for ps in [*placed.values(), *[[h[i:i + 2] for i in range(0, len(h), 2)] for h in hands if h != "-"]]:
        for p in ps:
            counts[p] -= 1
    for c, spots in (("w", ["a1", "b1", "c1", "d1", "a2"]), ("b", ["j10", "i10", "h10", "g10", "j9"])):
        for spot in spots:
            tower = [f"{c}{s}" for s in range(1, 6) if counts[f"{c}{s}"] > 0]
            for p in tower:
                counts[p] -= 1
            if tower:
                placed[spot] = tower
    dots = [f"{f}{r}" for r in range(1, 11) for f in FILES]
    field = ",".join("".join(sorted(placed[d], key=lambda p: int(p[1]))) if d in placed else "." for d in dots)
    return " ".join(["5", field, *hands, mover, phase, immune, f"{gained}/{passes}"])


@lru_cache(maxsize=1)
def sampled_palette() -> Image.Image:
    """Sample boards showing every element (and so drawing the static layers most boards use), plus a swatch
    of the named colours so each has its exact entry; one median cut over them all."""
    def turn(cells: dict[str, str], moves: list[str], immune: str = "-") -> Image.Image:
        prev = GAME.decode(_sample_code(cells, immune=immune))
        state = prev
        for m in moves:
            state = state.play(m)
        return draw(state, moves, ["Ann", "Bob"], prev)

    samples = [
        # legs, knocks travelling to a white dot, immunity stars; Black to move
        turn({"d3": "w1 w3 w4", "d6": "b3", "b7": "b1", "e2": "w2", "e3": "b2", "f4": "w5 b4",
              "h5": "b1 b2 b3 b4 b5"}, ["d3-d6", "d6-b6", "b6-b7"], immune="h5:3"),
        # a knocked piece travelling off the board to Black's hand; Black must place it
        turn({"e2": "w3", "e3": "b3", "e5": "b3", "e6": "b3", "c5": "w1 w2"}, ["e2-e3"]),
        # mid-move (the ringed dot), White's hand and ledge filled, Black to move
        draw(GAME.decode(_sample_code({"c8": "b2 b4", "f7": "w3"}, mover="b", phase="leg@c8",
                                      hands=("w1w1w5", "b2b4", "-", "-"))), [], None, None),
        turn({"c3": "w2 w4"}, ["c3-c5"]),                                  # White mid-move
        turn({"f5": "w1 w2 w3 w4", "f4": "w5", "e5": "b1 b2"}, ["f4-f5"]),  # White wins
        turn({"e5": "b1 b2 b3 b5", "f6": "w1 w2 w3 w4", "c5": "b4", "c4": "w5", "a5": "w2 w4", "c6": "b5"},
             ["c4-c5"]),                                                   # Black wins (spec example 3)
        draw(GAME.decode(_sample_code({}, passes=2)), [], ["Ann", "Bob"], None),   # a draw
        draw(GAME.new(), [], None, None),
    ]
    named = (BACKGROUND, INK, MUTED, WINNER, BOARD_FILL, BORDER_INK, DOT_INK, WHITE_DOT, WIN_TINT, PLACE_WASH,
             WHITE_PIECE, WHITE_EDGE, BLACK_PIECE, BLACK_EDGE, LEG_INK, LEG_CASE, TRAVEL_INK, TRAVEL_CASE,
             STAR_FILL, TRAY_FILL, ACTIVE_TRAY, (255, 255, 255))
    # the tokens of every log line and note (coordinates, pieces, signs), rendered once, ahead of need
    words = [*_CENTRES, *(f"{c}{size}" for c in "wb" for size in BAR_W), "Last", "turn", "rel", "completes",
             "White", "Black", "hand", "ledge", "s", "home", "end", "pass", "place", "the", "move", "goes", "on",
             "from", "ringed", "or", *":-·×→@;,'()…"]
    for word in words:
        for bold in (False, True):
            _text_mask(word, TEXT_SIZE, bold)
            _token_length(word, TEXT_SIZE, bold)
    for piece in (f"{c}{size}" for c in "wb" for size in BAR_W):    # every bar, drawn once, ahead of need
        for immune in (False, True):
            _bar_sprite(piece, immune)
        _bar_sprite(piece, False, True)
    # every other pixel of each sample (exact colours, no blends): a quarter of the median cut's work
    thinned = [im.resize((im.width // 2, im.height // 2), Image.Resampling.NEAREST) for im in samples]
    swatch = Image.new("RGB", (WIDTH // 2, 80), BACKGROUND)
    for i, colour in enumerate(named):
        swatch.paste(colour, (i * 18, 0, i * 18 + 18, 80))
    return build_palette(*thinned, swatch)


def palette(state: State | None = None) -> Image.Image:
    """The fixed palette every Quincala board maps onto (stored from ``sampled_palette``)."""
    return stored_palette("quincala")


def mark_centre(state: State, cell: str) -> tuple[int, int] | None:
    """Where a picker's key for ``cell`` goes (``render.marks``): in the top of the dot's area, above a low
    tower (the board names no dot)."""
    if cell not in _CENTRES:
        return None
    x, y = _CENTRES[cell]
    return x, y - MARK_RISE


MARK_RISE = STEP_Y // 2 - 16   # a mark's centre above its dot: the top of the dot's area
