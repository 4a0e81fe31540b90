"""The Spinca board image (§6 of ../shared/rules/spinca.md).

Layout, top to bottom (the height depends only on the player count, so every frame of a game has one size):

1. the three levels exploded side by side, every cell named: what players read to type moves. Marbles carry
   their cell name and colour letter, locked marbles a "+" badge; the last turn shows as a cased slide arrow
   routed between the texts and badges of its two cells (the badges of a cell the arrow leaves or enters on
   its right move to its left), "↓" badges on the tumbled marbles and a thick gold ring cased in ink round
   the placed one. The levels end
   on one line, which leaves room above levels 2 and 3 for the status (whose turn and the turn number; at
   the end who won);
2. left: the pyramid seen from above (the physical view; letters only on the marbles nothing rests on: the
   others show only a sliver, too small for a legible letter, which the caption says) and the inner-pyramid
   counts; right: the four faces, each a triangle with, beside it, every colour's marble (its letter on it) and
   its groups and points in words ("groups of 2 and 2 → 2 points": a face scores the smallest group, §3 rule
   11), at FACE_TEXT px so the table reads on a phone; a face's block is as tall as its lines need (three
   colours: taller), so the height depends on the player count only;
3. the panel: per player the colour, name (shortened, never its seat tag), marbles left and points, the
   player to move boxed; then the last turn in words and the locked cells, or at the end the whole
   end-of-game sentence (``engines.base.outcome_text``, on two lines by ``common.wrap_text``, names shortened
   until it fits whole) and under it the turn that ended the game, with the winners boxed and wearing
   ``common.winner_badge``.

Every text a player reads is at least 24 px (≈11 px on a phone showing the image 400 px wide; the face table
28 px, its glyphs ≥ 12 px there); names go
through ``common.draw_name`` / ``fit_name``. Highlights read by luminance and shape, not hue alone: the
placed ring is gold between two ink rings, the slide arrow a dark core in a white casing, the lock a "+", the
tumble a "↓", the active row a box with an ink outline.

Speed: the parts that never change (background, grids, titles, coordinates, face ticks, the panel) form a
static layer drawn once per player count and language, supersampled; cells, marbles, badges, rings and the arrow are
cached sprites (opaque tiles where nothing overlaps them: the fastest paste); text is set word by word from
cached word tiles. ``palette`` is a fixed palette built once, so ``board_png`` maps each board onto it
instead of a median cut per board.

Words: every text drawn is an English template of ``TEXTS``, drawn as ``render.texts.tr`` gives it in the
post's language at draw time (seat names and the engine's end sentence stay English); the caches holding words
(the static layer, face lines, the winner badge) are keyed by language, the palette is always built from English
boards.

``cell_centre`` / ``cell_radius`` (exploded view), ``above_centre`` (from above) and ``face_centre`` (faces)
expose the geometry, and ``layout`` every dynamic text and badge drawn, so tests can probe pixels and text.
Drawing iterates over ordered sequences only: identical input gives identical pixels.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.base import State, outcome_text
from engines.spinca import CELLS, FACE_NAMES, GAME, GROUPS, INDEX, NAMES, SEAT_NAMES, SIZE, SpincaState, parse_turn
from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    RGB,
    WINNER,
    arrow,
    bare,
    build_palette,
    colour_letter,
    contrast_ink,
    disc,
    draw_name,
    fit_name,
    fit_text,
    font,
    has_rtl,
    letter_fit,
    mix,
    name_length,
    paste,
    put,
    rounded_panel,
    sprite,
    stored_palette,
    winner_badge,
    wrap_text,
)
from render.texts import ENGLISH, language, speaking, split, tr

# --- Texts (English templates, drawn in the post's language: render.texts) ---------------------------------
LEVEL_TITLE = "Level {level} ({size}×{size})"
FROM_ABOVE = "From above"
ABOVE_CAPTION = "Letters only on\nuncovered\nmarbles"     # at most CAPTION_LINES lines, under the view
INNER_PYRAMID = "Inner pyramid:"
FACE_TITLE = {"S": "South face", "E": "East face", "N": "North face", "W": "West face"}
LETTERS = {"W": "letter on white marbles: W", "B": "letter on black marbles: B", "R": "letter on red marbles: R"}
NO_MARBLE = "no marble → 0 points"                 # a face line: after the colour's marble icon
ONE_GROUP = "one group of {size} → {points}"
GROUPS_OF = "groups of {sizes} and {last} → {points}"
GROUPS_TERSE = "groups {sizes} → {points}"            # many groups: the same, more tersely
POINT = "{n} point"
POINTS = "{n} points"
PT = "{n} pt"                                                   # the tersest face line
PTS = "{n} pts"
TO_MOVE = "{name} to move"
TO_MOVE_SEAT = "{name} ({seat}) to move"
WINS = "{name} wins"
WIN_TOGETHER = "{names} win"
NAMES_AND = "{first} and {last}"
TEMPLE_COMPLETE = "The temple is complete."
TURN_OF = "Turn {turn} of {turns}"
ROW_LEFT = "{left} left · {points}"
ROW_LEFT_TEAM = "{left} left · team {points}"
ROW_END = "{points} · inner {inner}"
ROW_END_TEAM = "team {points} · inner {inner}"
ROW_TO_MOVE = "◀ to move"
LAST_PLACED = "Last turn by {name}: placed {cell}."
LAST_SLID = "Last turn by {name}: slid {marble} {slide}, placed {cell}."
LAST_SLID_TUMBLED = "Last turn by {name}: slid {marble} {slide}, {tumbles}, placed {cell}."
LAST_SHORT = "Last turn by {name}: {slide}, placed {cell}."                 # when the long one does not fit
LAST_SHORT_TUMBLED = "Last turn by {name}: {slide} ({tumbles}), placed {cell}."
MARBLE = {"W": "the white marble", "B": "the black marble", "R": "the red marble", "?": "a marble"}
TUMBLED = "{cell} tumbled to {to}"
TUMBLED_SOME = "a marble tumbled to {to}"
NO_LAST_TURN = "Last turn: —"
LOCKED = "Locked (+): {cells}, which may not slide or tumble"
LOCKED_NONE = "Locked (+): none"
TEXTS = (LEVEL_TITLE, FROM_ABOVE, ABOVE_CAPTION, INNER_PYRAMID, *FACE_TITLE.values(),
         *LETTERS.values(),
         NO_MARBLE, ONE_GROUP, GROUPS_OF, GROUPS_TERSE, POINT, POINTS, PT, PTS, TO_MOVE, TO_MOVE_SEAT, WINS,
         WIN_TOGETHER, NAMES_AND, TEMPLE_COMPLETE, TURN_OF, ROW_LEFT, ROW_LEFT_TEAM, ROW_END, ROW_END_TEAM,
         ROW_TO_MOVE, LAST_PLACED, LAST_SLID, LAST_SLID_TUMBLED, LAST_SHORT, LAST_SHORT_TUMBLED, *MARBLE.values(),
         TUMBLED, TUMBLED_SOME, NO_LAST_TURN, LOCKED, LOCKED_NONE)

# --- Geometry (final pixels) ------------------------------------------------------------------------------
WIDTH = 856
MARGIN = 16
TEXT = 24                               # the smallest text a player must read (≈10 px on a phone)
STATIC_SCALE = 2                        # the static layer is drawn this much larger, then reduced
SPRITE_SCALE = 4

PITCH = 80                              # exploded view: distance between cell centres
RADIUS = 36                             # exploded view: marble radius
NAME_DY = -10                           # exploded marble: the cell name above the centre...
LETTER_DY = 16                          # ...the colour letter below it
LEVEL_GAP = 30
LEVEL_TOP = 38                          # top of level 1's grid (its title above); levels 2 and 3 end level
                                        # with it, their titles and the status in the room above them
LEVEL_LEFT = (WIDTH - (4 + 3 + 2) * PITCH - 2 * LEVEL_GAP) / 2
LEVEL_X = (LEVEL_LEFT, LEVEL_LEFT + 4 * PITCH + LEVEL_GAP, LEVEL_LEFT + 7 * PITCH + 2 * LEVEL_GAP)

STATUS_X0 = LEVEL_LEFT + 4 * PITCH + LEVEL_GAP - 6       # the status is centred right of level 1's grid
STATUS_Y = 22                                            # ...its first line's centre
ROW_B = LEVEL_TOP + 4 * PITCH + 12      # top of the from-above view and the faces
ABOVE_U = 48                            # from above: marble diameter
ABOVE_X = MARGIN + 30                   # left of the base grid (rank numbers left of it, files below)
ABOVE_Y = ROW_B + 30
ABOVE_R = 0.48 * ABOVE_U
LEFT_W = ABOVE_X + 4 * ABOVE_U + 6      # right edge of the left column
CAPTION_LINES = 3                       # the caption's lines under the view from above (ABOVE_CAPTION)
CAPTION_Y = ABOVE_Y + 4 * ABOVE_U + 46     # the caption's first line, then the inner-pyramid lines
INNER_Y = CAPTION_Y + CAPTION_LINES * 26 + 10

FACE_D = 36                             # faces: marble diameter
FACE_X0 = LEFT_W + 10                   # left of the face triangles
FACE_TEXT = 28                          # the face table's text: ≈13 px (glyphs ≈12.6 px tall) on a phone 400 px
                                        # wide, where TEXT gives ≈11 px
FACE_LINE = 30                          # from one line of a face block to the next (the title is the first): the
                                        # 3-player board stays at most 1100 px tall
FACE_GAP = 3                            # below a block's last line, before the next block's title
FACE_TRIANGLE_H = FACE_D * (1 + math.sqrt(3))   # a face triangle's height, its balls' rims included
FACE_TEXT_X = FACE_X0 + 4 * FACE_D + 10         # a face line: its colour's marble icon...
FACE_ICON_R = 12
FACE_WORDS_X = FACE_TEXT_X + 2 * FACE_ICON_R + 6    # ...then its words
FACE_TEXT_W = WIDTH - MARGIN - FACE_WORDS_X
FACE_TITLE_DY = FACE_LINE / 2           # the title's centre below the block's top
PANEL_PAD = 8
ROW_H = 36                              # one player
LINE_H = 30                             # one line of the panel's text
PANEL_LINES = 3                         # the last turn and the locked cells, or the end sentence (one or two
                                        # lines) and the turn that ended the game
ICON_R = 17
NAME_X = MARGIN + 62
ICON_X = MARGIN + 36
STATUS_X = WIDTH - MARGIN - 172         # "◀ to move" / the winner badge start here
STATS_R = STATUS_X - 14                 # the stats end here
BADGE_SIZE = 30                         # winner_badge size: its label is 24 px
TEXT_W = WIDTH - 2 * MARGIN - 32        # the panel's full-width lines

# --- Palette --------------------------------------------------------------------------------------------
FILL = {"W": (244, 244, 244), "B": (32, 32, 32), "R": (192, 57, 43)}     # §6: #F4F4F4, #202020, #C0392B
EDGE = {"W": (70, 70, 76), "B": (0, 0, 0), "R": (110, 25, 18)}
GRID_FILL = (226, 216, 196)             # behind each level
HOLE_FILL = (208, 196, 172)             # an empty playable point
DEAD_FILL = (232, 225, 210)             # an empty point that is not playable (missing support)
DEAD_INK = (165, 157, 143)
PANEL_FILL = (236, 230, 218)
ACTIVE_FILL = (255, 255, 255)           # the row of the player to move / the winners
LOCK_FILL = (255, 200, 40)              # the "+" badge of a locked marble
PLACED_RING = (255, 180, 0)             # the placed marble's ring (cased in INK: it reads by luminance too)
SLIDE_INK = (30, 100, 210)              # the slide arrow's core (cased in white)
TUMBLE_FILL = (30, 100, 210)
WHITE = (255, 255, 255)
SHADOW = mix(GRID_FILL, INK, 0.35)

# Cells resting on each cell (from above, a marble with any of them occupied is partly covered).
_ABOVE: dict[str, tuple[str, ...]] = {
    NAMES[i]: tuple(NAMES[INDEX[f"{k + 2}{'abcd'[x - dx]}{y - dy + 1}"]]
                    for dx in (0, 1) for dy in (0, 1)
                    if k + 1 < 3 and 0 <= x - dx < SIZE[k + 1] and 0 <= y - dy < SIZE[k + 1])
    for i, (k, x, y) in enumerate(CELLS)}


def cell_centre(cell: str) -> tuple[float, float]:
    """Centre of a cell in the exploded view (rank 1 at the bottom)."""
    k, x, y = CELLS[INDEX[cell]]
    n = SIZE[k]
    return LEVEL_X[k] + (x + 0.5) * PITCH, level_top(k) + (n - 1 - y + 0.5) * PITCH


def level_top(k: int) -> float:
    """Top of the grid of level ``k`` (0-2) in the exploded view: the three grids end on one line."""
    return LEVEL_TOP + (4 - SIZE[k]) * PITCH


def cell_radius() -> float:
    return RADIUS


def swatch_point(cell: str) -> tuple[int, int]:
    """A pixel inside the exploded marble of ``cell`` that shows only its fill (no text, no badge)."""
    x, y = cell_centre(cell)
    return round(x - 0.72 * RADIUS), round(y + 0.05 * RADIUS)


def badge_point(cell: str) -> tuple[int, int]:
    """A pixel of the gold fill of the locked "+" badge of ``cell`` in the exploded view (beside the +)."""
    x, y = cell_centre(cell)
    return round(x + 0.72 * RADIUS - 5), round(y - 0.72 * RADIUS - 5)


def above_centre(cell: str) -> tuple[float, float]:
    """§2.5 / §6: the centre of ``cell`` seen from above, ((x + ½ + k/2)·u, (y + ½ + k/2)·u), y flipped."""
    k, x, y = CELLS[INDEX[cell]]
    return ABOVE_X + (x + 0.5 + k / 2) * ABOVE_U, ABOVE_Y + 4 * ABOVE_U - (y + 0.5 + k / 2) * ABOVE_U


LOCK_AT = (0.72, -1.0)       # the lock badge's centre from its marble's, in radii (x right, y down): above the name
TUMBLE_AT = (0.86, 0.72)     # the tumble badge's: right of the colour letter


def lock_badge_centre(cell: str, mirrored: bool = False) -> tuple[float, float]:
    """Where the '+' of a locked marble of the exploded levels goes: on its rim, clear of the cell's name (on
    its left, ``mirrored``, where the slide arrow passes on its right: ``mirrored_badges``)."""
    x, y = cell_centre(cell)
    return x + (-1 if mirrored else 1) * LOCK_AT[0] * RADIUS, y + LOCK_AT[1] * RADIUS


def tumble_badge_centre(cell: str, mirrored: bool = False) -> tuple[float, float]:
    """Where the '↓' of a marble that tumbled goes: on its rim, clear of its colour letter (on its left,
    ``mirrored``)."""
    x, y = cell_centre(cell)
    return x + (-1 if mirrored else 1) * TUMBLE_AT[0] * RADIUS, y + TUMBLE_AT[1] * RADIUS


def mirrored_badges(slide: tuple[str, str] | None) -> tuple[str, ...]:
    """The cells of a slide whose badges move to their left, out of the slide arrow's way: the source when the
    arrow leaves it rightwards, the target when it arrives from the right (the badges sit on the right)."""
    if slide is None:
        return ()
    dx = cell_centre(slide[1])[0] - cell_centre(slide[0])[0]
    return (slide[0],) if dx > 0 else (slide[1],) if dx < 0 else ()


def face_block(players: int) -> float:
    """The height of each face's block: its title and a line per colour (three with 3 players, else two: the
    teams of 4 play White and Black), and never less than its triangle needs."""
    colours = 3 if players == 3 else 2
    return max(math.ceil(FACE_TRIANGLE_H) + 2, (1 + colours) * FACE_LINE + FACE_GAP)


def face_top(face: str, players: int) -> float:
    """Top of the block of ``face`` (its triangle on the left, its title and lines on the right)."""
    return ROW_B + FACE_NAMES.index(face) * face_block(players)


def face_centre(face: str, slot: int, players: int) -> tuple[float, float]:
    """§6: row t has 4 − t circles at x = (j + t/2 + ½)·d, y = base − t·(√3/2)·d (slot = 0..8, bottom first);
    the triangle centred in its block."""
    t = 0 if slot < 4 else 1 if slot < 7 else 2
    j = slot - (0, 4, 7)[t]
    base = face_top(face, players) + (face_block(players) + FACE_TRIANGLE_H) / 2 - FACE_D / 2
    return FACE_X0 + (j + t / 2 + 0.5) * FACE_D, base - t * math.sqrt(3) / 2 * FACE_D


def face_line_centre(face: str, players: int, line: int) -> float:
    """The vertical centre of line ``line`` of a face's block (0: the title, then one per colour)."""
    return face_top(face, players) + FACE_TITLE_DY + line * FACE_LINE


def panel_top(players: int) -> float:
    """The top of the panel, under the faces."""
    return ROW_B + 4 * face_block(players) + 6


def height(players: int) -> int:
    """The image height for a player count (the same before, during and after the game)."""
    return round(panel_top(players)) + 2 * PANEL_PAD + players * ROW_H + PANEL_LINES * LINE_H + MARGIN


def row_centre(seat: int, players: int) -> float:
    """The vertical centre of a player's row in the panel."""
    return panel_top(players) + PANEL_PAD + (seat + 0.5) * ROW_H


def line_centre(players: int, line: int) -> float:
    """The vertical centre of the panel's text line ``line`` (0-1: the last turn and the locked cells; at the end
    the end-of-game sentence, then the last turn: line 1 or 2)."""
    return panel_top(players) + PANEL_PAD + players * ROW_H + (line + 0.5) * LINE_H


# --- What a board says: every text and badge drawn after the static layer --------------------------------

@dataclass(frozen=True)
class Text:
    """One text drawn on the board: ``name`` texts (any holding a person's name) go through ``draw_name``."""

    xy: tuple[float, float]
    text: str
    size: int = TEXT
    bold: bool = False
    fill: RGB = INK
    anchor: str = "lm"
    name: bool = False
    bg: RGB = BACKGROUND    # the flat colour under it
    role: str = ""          # what it is, for tests: "status", "face", "row-name", "row-tag", "end", ...

    def box(self) -> tuple[int, int, int, int]:
        """The box (x0, y0, x1, y1) of the tile the text is drawn on (its ink and a pixel round it)."""
        tile, ox, oy = _line_tile(self.text, self.size, self.bold, self.fill, self.bg, self.anchor, self.name)
        x, y = round(self.xy[0]) + ox, round(self.xy[1]) + oy
        return x, y, x + tile.width, y + tile.height


@dataclass
class Layout:
    """Everything a board shows beyond its static layer, in drawing order."""

    texts: list[Text] = field(default_factory=list)
    badges: list[tuple[float, float]] = field(default_factory=list)     # winner_badge positions
    end_lines: list[str] = field(default_factory=list)                  # the end sentence as drawn
    end_sentence: str = ""                                              # ... and the sentence it shows
    active_rows: list[int] = field(default_factory=list)                # seats whose row is boxed
    face_icons: list[tuple[str, tuple[float, float]]] = field(default_factory=list)    # a face line's colour

    def by_role(self, role: str) -> list[Text]:
        return [t for t in self.texts if t.role == role]


@lru_cache(maxsize=4096)
def _length(text: str, size: int = TEXT, bold: bool = False) -> float:
    """The width of a text that holds no name (cached: measuring is a real cost per board)."""
    return font(size, bold).getlength(text)


@lru_cache(maxsize=1024)
def _name_length(text: str, size: int = TEXT, bold: bool = False) -> float:
    return name_length(text, size, bold=bold)


@lru_cache(maxsize=1024)
def _fit_name(text: str, size: int, room: float, bold: bool = False) -> str:
    return fit_name(text, size, room, bold=bold)


def _fit(text: str, room: float, size: int = TEXT) -> str:
    """``text`` (holding no name), shortened with an ellipsis only if it is wider than ``room``."""
    return text if text_width(text, size) <= room else fit_text(text, size, room)


def _seat_names(state: State, names: Sequence[str] | None) -> list[str]:
    seat_names = [tr(seat) for seat in SEAT_NAMES[state.players]]
    out = [str(n) for n in (names or ())][:state.players]
    return out + list(seat_names[len(out):])


def _points(n: int) -> str:
    """``n`` points in words, in the render language."""
    return tr(POINT if n == 1 else POINTS).format(n=n)


def face_line(groups: tuple[int, ...], score: int) -> str:
    """One colour's groups on a face and the points they score, in words (§3 rule 11: the smallest group); the
    board draws the colour's marble icon before it."""
    return _face_line(groups, score, language())


@lru_cache(maxsize=1024)
def _face_line(groups: tuple[int, ...], score: int, lang: str) -> str:
    """``face_line`` in the language ``lang`` (the render language of the moment: part of the cache key)."""
    if not groups:
        return tr(NO_MARBLE)
    points = _points(score)
    if len(groups) == 1:
        return _fit(tr(ONE_GROUP).format(size=groups[0], points=points), FACE_TEXT_W, FACE_TEXT)
    sizes = ", ".join(map(str, groups))
    terse = tr(PT if score == 1 else PTS).format(n=score)
    candidates = (tr(GROUPS_OF).format(sizes=", ".join(map(str, groups[:-1])), last=groups[-1], points=points),
                  tr(GROUPS_TERSE).format(sizes=sizes, points=points),
                  tr(GROUPS_TERSE).format(sizes=sizes, points=terse))
    for text in candidates:
        if text_width(text, FACE_TEXT) <= FACE_TEXT_W:
            return text
    return _fit(candidates[-1], FACE_TEXT_W, FACE_TEXT)


def _last_turn(state, last_turn: Sequence[str], previous, names: Sequence[str] | None = None
               ) -> tuple[tuple[str, str] | None, list[str], str | None, str]:
    """(slide (from, to) or None, cells where tumbled marbles landed, placed cell, a sentence naming the player who
    played the turn, from ``names`` by seat) of the turn."""
    if not last_turn or not state.count:
        return None, [], None, ""
    try:
        src, dst, place = parse_turn(last_turn[0])
    except ValueError:
        return None, [], None, ""
    seat = (state.count - 1) % state.players
    who = names[seat] if names and seat < len(names) else tr(SEAT_NAMES[state.players][seat])
    if src < 0:
        return None, [], NAMES[place], _named(LAST_PLACED, who, cell=NAMES[place])
    slide = (NAMES[src], NAMES[dst])
    if previous is not None:
        drops = previous.tumbles(last_turn[0])
        colour = previous.colour_at(src) or "?"
    else:   # the locked set is exactly the slid, tumbled and placed marbles (§3 rule 9)
        drops = [("?", c) for c in state.locked_cells if c not in (slide[1], NAMES[place])]
        colour = state.colour_at(dst) or "?"
    marble, moved, cell = tr(MARBLE.get(colour, MARBLE["?"])), f"{slide[0]}→{slide[1]}", NAMES[place]
    if drops:
        tumbles = ", ".join(tr(TUMBLED).format(cell=a, to=b) if a != "?" else tr(TUMBLED_SOME).format(to=b)
                            for a, b in drops)
        long = _named(LAST_SLID_TUMBLED, who, fit=False, marble=marble, slide=moved, tumbles=tumbles, cell=cell)
        short = _named(LAST_SHORT_TUMBLED, who, slide=moved, cell=cell, tumbles=", ".join(
            f"{a}↓{b}" if a != "?" else f"↓{b}" for a, b in drops))
    else:
        long = _named(LAST_SLID, who, fit=False, marble=marble, slide=moved, cell=cell)
        short = _named(LAST_SHORT, who, slide=moved, cell=cell)
    text = long if text_width(long, name=True) <= TEXT_W else short
    return slide, [b for _, b in drops], NAMES[place], text


def _named(template: str, who: str, *, fit: bool = True, **values: str) -> str:
    """``template`` with ``who`` for its ``{name}`` and ``values`` for the rest; with ``fit`` only the name is
    shortened until the sentence fits the panel's line."""
    before, after = split(template)
    head, tail = before.format(**values), after.format(**values)
    room = TEXT_W - text_width(head + tail) if fit else math.inf
    return head + (_fit_name(who, TEXT, max(room, 40.0)) if fit else who) + tail


def _end_sentence(state: State, names: list[str]) -> tuple[str, list[str]]:
    """The end-of-game sentence and its (at most two) lines: names shortened until it fits whole."""
    outcome = state.outcome()
    if outcome is None:
        return "", []
    sentence = ""
    lines: tuple[str, ...] = ()
    for limit in (None, 400, 300, 240, 180, 140, 110, 80, 60):
        shown = names if limit is None else [_fit_name(n, TEXT, limit) for n in names]
        sentence = " ".join(outcome_text(state.game, outcome, shown, tr).split())
        lines, whole = _wrap(sentence)
        if whole:
            break
    return sentence, list(lines)


@lru_cache(maxsize=256)
def _wrap(sentence: str) -> tuple[tuple[str, ...], bool]:
    """``sentence`` on at most two lines of the panel, and whether they hold it whole (nothing cut)."""
    lines = wrap_text(sentence, TEXT, TEXT_W)
    whole = " ".join(lines) == sentence and all(text_width(line, name=True) <= TEXT_W for line in lines)
    return tuple(lines), whole


def layout(state, last_turn: Sequence[str] | None = None, names: Sequence[str] | None = None,
           previous=None) -> Layout:
    """The texts and badges ``draw`` puts on the static layer for this board."""
    players = state.players
    seat_names = [tr(seat) for seat in SEAT_NAMES[players]]     # in the render language, as the names given
    names = _seat_names(state, names)
    out = Layout()
    add = out.texts.append

    # 1. the status: two lines in the room above levels 2 and 3
    x, w = STATUS_X0 + (WIDTH - MARGIN - STATUS_X0) / 2, WIDTH - MARGIN - STATUS_X0 - 8
    if state.is_over:
        winners = list(state.winners)
        head, tail = split(WIN_TOGETHER, "names") if len(winners) > 1 else split(WINS)
        joiner = tr(NAMES_AND).partition("{first}")[2].partition("{last}")[0]
        room = (w - text_width(head + tail + joiner * (len(winners) - 1), 28, True, True)) / max(1, len(winners))
        line1 = head + joiner.join(_fit_name(names[s], 28, room, bold=True) for s in winners) + tail
        line2 = tr(TEMPLE_COMPLETE)
    else:
        seat = state.to_move
        if bare(names[seat]) != seat_names[seat]:
            head, tail = split(TO_MOVE_SEAT)
            tail = tail.format(seat=seat_names[seat])
        else:
            head, tail = split(TO_MOVE)
        room = w - text_width(head + tail, 28, True, True)
        line1 = head + _fit_name(names[seat], 28, room, bold=True) + tail
        line2 = tr(TURN_OF).format(turn=state.count + 1, turns=len(NAMES))
    add(Text((x, STATUS_Y), line1, 28, True, anchor="mm", name=True, role="status"))
    add(Text((x, STATUS_Y + 36), line2, anchor="mm", role="status"))

    # 2. the faces: one line per colour beside each triangle
    for f in FACE_NAMES:
        groups = state.face_groups(f)
        scores = {c: g[0] if g else 0 for c, g in groups.items()}     # the smallest group (§3 rule 11)
        for i, c in enumerate(state.colours):
            y = face_line_centre(f, players, i + 1)
            out.face_icons.append((c, (FACE_TEXT_X + FACE_ICON_R, y)))
            add(Text((FACE_WORDS_X, y), face_line(groups[c], scores[c]), FACE_TEXT, role="face"))

    # 2. the inner-pyramid counts (left column, under the view from above)
    inner = state.inner_counts()
    add(Text((MARGIN + 4, INNER_Y + 26), " · ".join(f"{_letter(c)} {inner[c]}" for c in state.colours),
             bold=True, role="inner"))

    # 3. the panel: one row per player
    left = state.marbles_left
    totals = state.scores
    for seat in range(players):
        y = row_centre(seat, players)
        active = seat in state.winners if state.is_over else state.to_move == seat
        if active:
            out.active_rows.append(seat)
        team = players == 4
        if state.is_over:
            stats = tr(ROW_END_TEAM if team else ROW_END).format(points=_points(totals[seat]),
                                                                 inner=inner[state.seat_colour(seat)])
        else:
            stats = tr(ROW_LEFT_TEAM if team else ROW_LEFT).format(left=left[seat], points=_points(totals[seat]))
        bg = ACTIVE_FILL if active else PANEL_FILL
        add(Text((STATS_R, y), stats, anchor="rm", bg=bg, role="row-stats"))
        tag = f" ({seat_names[seat]})" if bare(names[seat]) != seat_names[seat] else ""
        room = STATS_R - text_width(stats) - 20 - NAME_X - text_width(tag)
        shown = _fit_name(names[seat], TEXT, room, bold=True)
        add(Text((NAME_X, y), shown, bold=True, name=True, bg=bg, role="row-name"))
        if tag:
            add(Text((NAME_X + round(text_width(shown, TEXT, True, True)), y), tag, bg=bg, role="row-tag"))
        if active and state.is_over:
            out.badges.append((STATUS_X, y))
        elif active:
            add(Text((STATUS_X, y), tr(ROW_TO_MOVE), bold=True, bg=bg, role="row-status"))

    # 3. the last turn and the locked cells, or the whole end-of-game sentence and under it the turn that ended
    # the game
    x = MARGIN + 16
    if state.is_over:
        out.end_sentence, out.end_lines = _end_sentence(state, names)
        for i, line in enumerate(out.end_lines):
            add(Text((x, line_centre(players, i)), line, name=True, bg=PANEL_FILL, role="end"))
        *_, last_text = _last_turn(state, list(last_turn or ()), previous, names)
        if last_text:
            add(Text((x, line_centre(players, len(out.end_lines))), last_text, name=True, bg=PANEL_FILL,
                     role="last"))
    else:
        *_, last_text = _last_turn(state, list(last_turn or ()), previous, names)
        add(Text((x, line_centre(players, 0)), last_text or tr(NO_LAST_TURN), name=bool(last_text), bg=PANEL_FILL,
                 role="last"))
        locked = " ".join(state.locked_cells)
        text = tr(LOCKED).format(cells=locked) if locked else tr(LOCKED_NONE)
        add(Text((x, line_centre(players, 1)), _fit(text, TEXT_W), bg=PANEL_FILL, role="locked"))
    return out


# --- Sprites (each drawn once, supersampled) -------------------------------------------------------------

Draw = ImageDraw.ImageDraw


def _sized(draw_at: Callable[[Draw, float, float], None], size: int) -> Image.Image:
    """A square sprite of ``size`` px; ``draw_at(d, s, c)`` draws with scale ``s`` around centre ``c``."""
    return sprite(lambda d, s: draw_at(d, s, size / 2 * s), (size, size), scale=SPRITE_SCALE)


def _letter(colour: str | None) -> str:
    """The letter marbles of ``colour`` carry in the render language (German: S for Schwarz); '' for none."""
    return colour_letter(LETTERS[colour]) if colour in LETTERS else ""


def _marble_at(d: Draw, s: float, c: float, radius: float, colour: str, outline: float) -> None:
    disc(d, (c, c), radius * s, fill=FILL[colour], outline=EDGE[colour], width=round(outline * s))


@lru_cache(maxsize=256)
def _cell_body(kind: str) -> Image.Image:
    """An exploded cell's disc: a marble ('W', 'B', 'R'), a playable hole ('live') or a dead point."""
    def draw_at(d: Draw, s: float, c: float) -> None:
        if kind in FILL:
            _marble_at(d, s, c, RADIUS, kind, 2.5)
        elif kind == "live":
            disc(d, (c, c), (RADIUS - 4) * s, fill=HOLE_FILL, outline=MUTED, width=round(2 * s))
        else:
            disc(d, (c, c), (RADIUS - 4) * s, fill=DEAD_FILL, outline=DEAD_INK, width=round(1 * s))
    return _sized(draw_at, 2 * RADIUS + 4)


@lru_cache(maxsize=256)
def _cell_label(cell: str, kind: str, letter: str = "") -> Image.Image:
    """An exploded cell's text, drawn at final size (crisp): its name, and on a marble its colour letter, with
    a halo of the fill (so it stays legible over the slide arrow). Transparent elsewhere: the canvas starts
    as the fill at zero opacity, so the anti-aliased edges blend towards the fill, not black."""
    size = 2 * RADIUS + 4
    c = size / 2
    fill = FILL[kind] if kind in FILL else HOLE_FILL if kind == "live" else DEAD_FILL
    canvas = Image.new("RGBA", (size, size), (*fill, 0))
    d = ImageDraw.Draw(canvas)
    bold = font(TEXT, True)
    if kind in FILL:
        ink = contrast_ink(fill)
        d.text((c, c + NAME_DY), cell, font=bold, fill=ink, anchor="mm", stroke_width=2, stroke_fill=fill)
        d.text((c, c + LETTER_DY), letter or kind, font=bold, fill=mix(ink, fill, 0.2), anchor="mm", stroke_width=2,
               stroke_fill=fill)
    else:
        d.text((c, c), cell, font=bold, fill=INK if kind == "live" else DEAD_INK, anchor="mm", stroke_width=2,
               stroke_fill=fill)
    return canvas


@lru_cache(maxsize=256)
def _cell_tile(cell: str, kind: str, letter: str = "") -> Image.Image:
    """An exploded cell as an opaque tile on the grid's fill (pasted without a mask: the fastest paste)."""
    body, label = _cell_body(kind), _cell_label(cell, kind, letter)
    tile = Image.new("RGB", body.size, GRID_FILL)
    tile.paste(body, (0, 0), body)
    tile.paste(label, (0, 0), label)
    return tile


@lru_cache(maxsize=8)
def _placed_ring(radius: float, band: float = 5.5) -> Image.Image:
    """A thick ring just outside a marble of ``radius``: a gold ``band`` cased in ink on both sides, so it
    reads by luminance (light between darks) and shape in grey-scale and to every colour vision."""
    def draw_at(d: Draw, s: float, c: float) -> None:
        disc(d, (c, c), (radius + band + 2.5) * s, fill=INK)
        disc(d, (c, c), (radius + band) * s, fill=PLACED_RING)
        disc(d, (c, c), radius * s, fill=INK)
        d.ellipse((c - (radius - 1) * s, c - (radius - 1) * s, c + (radius - 1) * s, c + (radius - 1) * s),
                  fill=(0, 0, 0, 0))                      # a hole: the marble shows through
    return _sized(draw_at, round(2 * (radius + band) + 10))


@lru_cache(maxsize=2048)
def _word_mask(word: str, size: int, bold: bool, name: bool) -> tuple[Image.Image, int, int]:
    """One word's coverage (an 'L' mask, whatever its colours) and the mask's offset from the word's origin
    (left end of its baseline). A word of a text holding a person's name is drawn by ``draw_name``, on a
    canvas with room for glyphs of other fonts, then cropped to what was drawn."""
    f = font(size, bold)
    x0, y0, x1, y1 = f.getbbox(word, anchor="ls")
    pad = 1
    if name:
        x1 = max(x1, _name_length(word, size, bold))
        pad = size
    ox, oy = math.floor(x0) - pad, math.floor(y0) - pad
    canvas = Image.new("RGB", (math.ceil(x1) - ox + pad, math.ceil(y1) - oy + pad), (0, 0, 0))
    d = ImageDraw.Draw(canvas)
    if name:
        draw_name(d, (-ox, -oy), word, size, bold=bold, fill=WHITE, anchor="ls")
    else:
        d.text((-ox, -oy), word, font=f, fill=WHITE, anchor="ls")
    mask = canvas.convert("L")
    box = mask.getbbox() if name else None
    if box:
        mask = mask.crop(box)
        ox, oy = ox + box[0], oy + box[1]
    return mask, ox, oy


@lru_cache(maxsize=4096)
def _word_tile(word: str, size: int, bold: bool, fill: RGB, bg: RGB, name: bool) -> tuple[Image.Image, int, int]:
    """One word in ``fill`` on an opaque tile of ``bg`` (lines are set from these: plain pastes, no mask)."""
    mask, ox, oy = _word_mask(word, size, bold, name)
    tile = Image.new("RGB", mask.size, bg)
    tile.paste(fill, (0, 0, mask.width, mask.height), mask)
    return tile, ox, oy


def _advances(text: str, size: int, bold: bool, name: bool) -> tuple[list[float], float]:
    """Where each space-separated word of ``text`` starts, and the text's width: the words' own widths plus
    one space each (measured once per word and cached, so a board measures almost nothing)."""
    measure = _name_length if name else _length
    space = measure(" ", size, bold)
    starts, x = [], 0.0
    for word in _words(text, name):
        starts.append(x)
        x += measure(word, size, bold) + space
    return starts, max(0.0, x - space)


def _words(text: str, name: bool) -> list[str]:
    """The pieces a line is set from: its words, or the whole line if it holds right-to-left text (its
    order is then decided for the line as a whole, by ``draw_name``)."""
    return [text] if name and has_rtl(text) else text.split(" ")


def text_width(text: str, size: int = TEXT, bold: bool = False, name: bool = False) -> float:
    """The width of ``text`` as ``draw`` sets it (word by word)."""
    return _advances(text, size, bold, name)[1]


@lru_cache(maxsize=192)
def _line_tile(text: str, size: int, bold: bool, fill: RGB, bg: RGB, anchor: str,
               name: bool) -> tuple[Image.Image, int, int]:
    """A line of text set word by word from cached word tiles onto one opaque tile (pasted without a mask: the
    fastest paste), and the tile's offset from the anchor point (``anchor``: l/m/r then m/s, as Pillow's)."""
    starts, width = _advances(text, size, bold, name)
    parts = [(_word_tile(w, size, bold, fill, bg, name), round(x))
             for w, x in zip(_words(text, name), starts, strict=True) if w]
    if not parts:
        return Image.new("RGB", (1, 1), bg), 0, 0
    left = min(x + ox for (_, ox, _), x in parts)
    top = min(oy for (_, _, oy), _ in parts)
    right = max(x + ox + t.width for (t, ox, _), x in parts)
    bottom = max(oy + t.height for (t, _, oy), _ in parts)
    tile = Image.new("RGB", (right - left, bottom - top), bg)
    for (word, ox, oy), x in parts:
        tile.paste(word, (x + ox - left, oy - top))
    ascent, descent = font(size, bold).getmetrics()
    dx = {"l": 0, "m": -round(width / 2), "r": -round(width)}[anchor[0]]
    dy = {"s": 0, "m": round((ascent - descent) / 2)}[anchor[1]]
    return tile, left + dx, top + dy


@lru_cache(maxsize=16)
def _lock_badge(r: float) -> Image.Image:
    """The "+" of a locked marble: an ink cross on a gold disc with an ink rim (a shape, not only a colour)."""
    def draw_at(d: Draw, s: float, c: float) -> None:
        disc(d, (c, c), r * s, fill=LOCK_FILL, outline=INK, width=round(1.5 * s))
        arm, w = r * 0.62 * s, max(1.5, r * 0.28) * s
        d.rectangle((c - arm, c - w / 2, c + arm, c + w / 2), fill=INK)
        d.rectangle((c - w / 2, c - arm, c + w / 2, c + arm), fill=INK)
    return _sized(draw_at, round(2 * r + 4))


@lru_cache(maxsize=16)
def _tumble_badge(r: float) -> Image.Image:
    """The "↓" of a marble that tumbled: a white arrow on a blue disc, rimmed white then ink."""
    def draw_at(d: Draw, s: float, c: float) -> None:
        disc(d, (c, c), (r + 1.5) * s, fill=INK)
        disc(d, (c, c), r * s, fill=TUMBLE_FILL, outline=WHITE, width=round(1.5 * s))
        d.rectangle((c - r * 0.13 * s, c - r * 0.6 * s, c + r * 0.13 * s, c + r * 0.1 * s), fill=WHITE)
        d.polygon([(c - r * 0.45 * s, c), (c + r * 0.45 * s, c), (c, c + r * 0.62 * s)], fill=WHITE)
    return _sized(draw_at, round(2 * r + 6))


def slide_arrow(source: str, target: str, source_kind: str) -> tuple[Image.Image, tuple[float, float]]:
    """The slide arrow of a slide ``source`` → ``target`` and the centre it is pasted at (``draw`` and the tests
    place it with this). ``source_kind`` is what the source holds after the turn: "hole", "placed" (the turn's
    marble placed there) or "tumbled" (a marble tumbled into it): its texts and badges differ."""
    (xa, ya), (xb, yb) = cell_centre(source), cell_centre(target)
    return _slide_arrow(xb - xa, yb - ya, source_kind), ((xa + xb) / 2, (ya + yb) / 2)


def source_kind(source: str, colour: str | None, placed: str | None) -> str:
    """What the source of a slide holds after the turn: "hole", "placed" or "tumbled" (``slide_arrow``)."""
    return "hole" if colour is None else "placed" if source == placed else "tumbled"


def slide_arrow_ends(source: str, target: str, source_kind: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The slide arrow's tail and tip as drawn (``slide_arrow``), in the image."""
    (xa, ya), (xb, yb) = cell_centre(source), cell_centre(target)
    offset, start, tip = _slide_path(xb - xa, yb - ya, source_kind)
    length = math.hypot(xb - xa, yb - ya)
    ux, uy = (xb - xa) / length, (yb - ya) / length
    x0, y0 = xa + uy * offset, ya - ux * offset
    return (x0 + ux * start, y0 + uy * start), (x0 + ux * tip, y0 + uy * tip)


Box = tuple[float, float, float, float]


def cell_text_boxes(kind: str) -> tuple[Box, ...]:
    """The boxes (x0, y0, x1, y1), from a cell's centre, of the texts an exploded cell of ``kind`` carries (a
    marble: its name above the centre and its colour letter, a capital, under it; a hole: its name
    on the centre), haloes included, as wide as the widest cell name."""
    name, letter = _text_extent("1a1"), _text_extent("W")
    if kind not in FILL:
        return ((name[0], name[1], name[2], name[3]),)
    return ((name[0], NAME_DY + name[1], name[2], NAME_DY + name[3]),
            (letter[0], LETTER_DY + letter[1], letter[2], LETTER_DY + letter[3]))


@lru_cache(maxsize=4)
def _text_extent(sample: str) -> Box:
    """The ink box of cell names (``sample`` "1a1": the widest over every name) or of colour letters ("W", the
    widest capital), bold TEXT px with a 2 px halo, anchored in the middle."""
    bold = font(TEXT, True)
    texts = NAMES if sample in NAMES else (sample,)
    boxes = [bold.getbbox(t, anchor="mm", stroke_width=2) for t in texts]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _badge_box(centre: tuple[float, float], r: float) -> Box:
    return (centre[0] - r - 2, centre[1] - r - 2, centre[0] + r + 2, centre[1] + r + 2)


SLIDE_WIDTH = 5             # the slide arrow's core...
SLIDE_CASING = 2            # ...its white casing either side...
SLIDE_HEAD = 14             # ...and its head's length
SLIDE_CLEAR = 2             # pixels kept between the arrow and the texts and badges of its two cells
SLIDE_OFFSETS = (0, -6, 6, -12, 12, -18, 18, -24, 24, -30, 30)   # tried beside the line between the centres
SLIDE_STEP = 2              # the search's step along the line (px)


def slide_obstacles(dx: float, dy: float, source_kind: str) -> tuple[Box, ...]:
    """What the slide arrow must keep clear of, from the source's centre: both cells' texts, round both cells
    every other cell's texts, whatever it holds, the target's lock badge (a slid marble is locked) and on a
    marble placed or tumbled into the source its lock badge and its tumble badge (``mirrored_badges``)."""
    source = cell_text_boxes("hole" if source_kind == "hole" else "W")
    target = tuple(_moved(box, dx, dy) for box in cell_text_boxes("W"))
    side = (-1 if dx > 0 else 1, -1 if dx < 0 else 1)         # the badges' sides (``mirrored_badges``)
    lock = [_badge_box((s * LOCK_AT[0] * RADIUS, LOCK_AT[1] * RADIUS), 13) for s in side]
    tumble = _badge_box((side[0] * TUMBLE_AT[0] * RADIUS, TUMBLE_AT[1] * RADIUS), 14.5)
    marks = [_moved(lock[1], dx, dy)]
    if source_kind != "hole":
        marks.append(lock[0])
    if source_kind == "tumbled":
        marks.append(tumble)
    others = [(i * PITCH, j * PITCH) for i in range(-2, 3) for j in range(-2, 3)]
    others = [(x, y) for x, y in others if (x, y) != (0, 0) and (x, y) != (dx, dy)
              and max(abs(x), abs(y), abs(x - dx), abs(y - dy)) <= PITCH]          # both cells' neighbours
    around = [_moved(box, x, y) for x, y in others for box in (*cell_text_boxes("W"), *cell_text_boxes("hole"))]
    # (their badges may lie under the arrow: it is drawn under every badge)
    return (*source, *target, *marks, *around)


def _moved(box: Box, dx: float, dy: float) -> Box:
    return box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy


@lru_cache(maxsize=64)
def _slide_path(dx: float, dy: float, source_kind: str) -> tuple[float, float, float]:
    """(offset, start, tip) of the slide arrow, along the line from the source's centre towards the target's,
    shifted ``offset`` px to its left: the longest arrow, between the two centres, whose every part (cased
    shaft and head) stays SLIDE_CLEAR px from ``slide_obstacles``; the arrow nearest the line among equals.
    Separating-axis tests of thin slices of the arrow against the obstacles' boxes, beside the line at each of
    SLIDE_OFFSETS (every slide of a game finds one at least 34 px long: tests/render/test_spinca_board.py)."""
    obstacles = slide_obstacles(dx, dy, source_kind)
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    c = SLIDE_CLEAR
    extents = [(x0 - c, y0 - c, x1 + c, y1 + c) for x0, y0, x1, y1 in obstacles]
    boxes = [[(x0, y0), (x1, y0), (x1, y1), (x0, y1)] for x0, y0, x1, y1 in extents]
    narrow = SLIDE_WIDTH / 2 + SLIDE_CASING                        # the cased shaft's half-width
    grow = SLIDE_CASING * 1.6                                      # ``common.arrow``'s casing past the head
    wide = SLIDE_HEAD * 0.6 + grow                                 # the cased head's half-width
    best = (0.0, 0.0, 0.0, 0.0)                                    # (length, offset, start, tip)
    steps = range(0, math.floor(length) + 1, SLIDE_STEP)
    for offset in SLIDE_OFFSETS:
        ox, oy = uy * offset, -ux * offset

        def clear(t: float, half: float, ox: float = ox, oy: float = oy) -> bool:
            """Whether the slice of the arrow ``half`` px either side of the point ``t`` along it is clear."""
            a, b = t - SLIDE_STEP / 2, t + SLIDE_STEP / 2
            slab = [(ox + ux * a - uy * half, oy + uy * a + ux * half),
                    (ox + ux * b - uy * half, oy + uy * b + ux * half),
                    (ox + ux * b + uy * half, oy + uy * b - ux * half),
                    (ox + ux * a + uy * half, oy + uy * a - ux * half)]
            xs, ys = [x for x, _ in slab], [y for _, y in slab]
            x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
            return all(_apart(slab, box) for box, (bx0, by0, bx1, by1) in zip(boxes, extents, strict=True)
                       if x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1)
        shaft = _blocked_before([not clear(t, narrow) for t in steps])
        head = _blocked_before([not clear(t, wide) for t in steps])

        def free(blocked: list[int], a: float, b: float) -> bool:
            """No blocked slice centred in a..b (steps of SLIDE_STEP from 0)."""
            i, j = max(0, math.ceil(a / SLIDE_STEP)), min(len(steps) - 1, math.floor(b / SLIDE_STEP))
            return i > j or blocked[j + 1] == blocked[i]
        for start in steps:
            if start - narrow < 0:
                continue
            for tip in reversed(steps):
                span = tip - start
                if span < SLIDE_HEAD + 4 or span <= best[0]:
                    break
                base = tip - SLIDE_HEAD - SLIDE_CASING
                if (tip + grow <= length and free(head, base - 1, tip + grow + 1)
                        and free(shaft, start - narrow - 1, base)):
                    best = (span, float(offset), float(start), float(tip))
                    break
    return best[1], best[2], best[3]


def _blocked_before(blocked: list[bool]) -> list[int]:
    """How many of ``blocked`` are true before each index (and in all, last): a range's count in one step."""
    return [0, *itertools.accumulate(int(b) for b in blocked)]


def _apart(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> bool:
    """Whether two convex polygons do not overlap (a separating axis among their edges' normals)."""
    for poly in (a, b):
        for (px, py), (qx, qy) in zip(poly, [*poly[1:], poly[0]], strict=True):
            nx, ny = qy - py, px - qx
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return True
    return False


@lru_cache(maxsize=64)
def _slide_arrow(dx: float, dy: float, source_kind: str) -> Image.Image:
    """The slide arrow from one exploded cell to another ``(dx, dy)`` pixels away, centred on their middle: a
    dark blue core in a white casing, so it reads on white, black and red marbles and in grey-scale; routed
    (``_slide_path``) so that it crosses neither cell's name or letter nor their badges."""
    pad = 24 + max(SLIDE_OFFSETS)          # the head's half-width and casing, beside the line at any offset
    w, h = round(abs(dx)) + 2 * pad, round(abs(dy)) + 2 * pad
    offset, start, tip = _slide_path(dx, dy, source_kind)
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length

    def draw_at(d: Draw, s: float) -> None:
        x0, y0 = w / 2 - dx / 2 + uy * offset, h / 2 - dy / 2 - ux * offset
        arrow(d, ((x0 + ux * start) * s, (y0 + uy * start) * s), ((x0 + ux * tip) * s, (y0 + uy * tip) * s),
              fill=SLIDE_INK, width=round(SLIDE_WIDTH * s), head=SLIDE_HEAD * s, casing=WHITE,
              casing_width=round(SLIDE_CASING * s))
    return sprite(draw_at, (w, h), scale=SPRITE_SCALE)


def _above_marble_at(d: Draw, s: float, c: float, colour: str, lettered: bool, letter: str = "") -> None:
    _marble_at(d, s, c, ABOVE_R, colour, 2)
    if lettered:
        shown = letter or colour
        d.text((c, c), shown, font=font(letter_fit(shown, round(TEXT * s)), True), fill=contrast_ink(FILL[colour]),
               anchor="mm")


@lru_cache(maxsize=256)
def _above_tile(colour: str | None, lettered: bool, letter: str = "") -> Image.Image:
    """A base cell seen from above, as an opaque ``ABOVE_U`` square (base marbles never overlap)."""
    def draw_at(d: Draw, s: float, c: float) -> None:
        d.rectangle((0, 0, 2 * c, 2 * c), fill=GRID_FILL)
        if colour is None:
            disc(d, (c, c), 0.3 * ABOVE_U * s, fill=HOLE_FILL, outline=DEAD_INK, width=round(s))
        else:
            _above_marble_at(d, s, c, colour, lettered, letter)
    return _sized(draw_at, ABOVE_U).convert("RGB")


@lru_cache(maxsize=256)
def _above_stacked(colour: str, lettered: bool, letter: str = "") -> Image.Image:
    """A marble of level 2 or 3 seen from above, with the soft shadow that makes stacking read."""
    def draw_at(d: Draw, s: float, c: float) -> None:
        disc(d, (c + 3 * s, c + 4 * s), ABOVE_R * s, fill=SHADOW)
        _above_marble_at(d, s, c, colour, lettered, letter)
    return _sized(draw_at, round(2 * ABOVE_R + 12))


@lru_cache(maxsize=256)
def _above_playable() -> Image.Image:
    """An empty playable point on a platform, from above: a small hollow ring (§6)."""
    return _sized(lambda d, s, c: disc(d, (c, c), 0.2 * ABOVE_U * s, fill=None, outline=INK, width=round(3 * s)),
                  round(0.4 * ABOVE_U + 6))


@lru_cache(maxsize=8)
def _face_ball(colour: str | None, letter: str = "") -> Image.Image:
    """One ball of a face triangle with its letter (None: an empty point)."""
    r = FACE_D / 2 - 1

    def draw_at(d: Draw, s: float, c: float) -> None:
        if colour is None:
            disc(d, (c, c), (r - 2) * s, fill=DEAD_FILL, outline=DEAD_INK, width=round(s))
        else:
            _marble_at(d, s, c, r, colour, 2)       # a 24 px letter (regular: bold would touch the rim)
            shown = letter or colour
            d.text((c, c), shown, font=font(letter_fit(shown, round(TEXT * s))), fill=contrast_ink(FILL[colour]),
                   anchor="mm")
    return _sized(draw_at, FACE_D + 2)


@lru_cache(maxsize=512)
def _face_row(colours: tuple[str | None, ...], letters: tuple[str, ...] = ()) -> Image.Image:
    """One row of a face triangle (4, 3 or 2 balls side by side), composed from the cached balls."""
    row = Image.new("RGBA", (len(colours) * FACE_D + 2, FACE_D + 2), (0, 0, 0, 0))
    for j, colour in enumerate(colours):
        row.alpha_composite(_face_ball(colour, letters[j] if letters else ""), (j * FACE_D, 0))
    return row


def _winner_badge() -> tuple[Image.Image, int, int]:
    """``_winner_badge_in`` in the render language (its label is a word)."""
    return _winner_badge_in(language())


@lru_cache(maxsize=4)
def _winner_badge_in(lang: str) -> tuple[Image.Image, int, int]:
    """``common.winner_badge`` drawn once on a transparent sprite, and its offset from the badge's anchor."""
    canvas = Image.new("RGBA", (8 * BADGE_SIZE, 3 * BADGE_SIZE), (*INK, 0))
    winner_badge(ImageDraw.Draw(canvas), (BADGE_SIZE, 1.5 * BADGE_SIZE), size=BADGE_SIZE)
    box = canvas.getbbox() or (0, 0, 1, 1)
    return canvas.crop(box), box[0] - BADGE_SIZE, box[1] - round(1.5 * BADGE_SIZE)


@lru_cache(maxsize=256)
def _icon(colour: str, letter: str = "", radius: float = ICON_R) -> Image.Image:
    """A colour's marble with its letter: a player's row, a face line."""
    size = round(TEXT * radius / ICON_R)

    def draw_at(d: Draw, s: float, c: float) -> None:
        _marble_at(d, s, c, radius, colour, 1.5)
        shown = letter or colour
        d.text((c, c), shown, font=font(letter_fit(shown, round(size * s))), fill=contrast_ink(FILL[colour]),
               anchor="mm")
    return _sized(draw_at, round(2 * radius + 4))


@lru_cache(maxsize=256)
def _row_box(w: int, h: int) -> Image.Image:
    """The box round the row of the player to move (or of a winner): white, a dark 2 px outline."""
    box = sprite(lambda d, s: rounded_panel(d, (s, s, (w - 1) * s, (h - 1) * s), fill=ACTIVE_FILL, outline=INK,
                                            width=round(2 * s), radius=round(9 * s)), (w, h), scale=SPRITE_SCALE)
    tile = Image.new("RGB", (w, h), PANEL_FILL)      # opaque on the panel: the fastest paste
    tile.paste(box, (0, 0), box)
    return tile


# --- The static layer ------------------------------------------------------------------------------------

def _static(players: int) -> Image.Image:
    """``_static_in`` in the render language (its titles and caption are words)."""
    return _static_in(players, language())


@lru_cache(maxsize=8)
def _static_in(players: int, lang: str) -> Image.Image:
    """Everything that does not depend on the position, drawn once per player count and language
    (supersampled)."""
    sc = STATIC_SCALE
    image = Image.new("RGB", (WIDTH * sc, height(players) * sc), BACKGROUND)
    d = ImageDraw.Draw(image)

    def p(x: float, y: float) -> tuple[float, float]:
        return x * sc, y * sc

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return x0 * sc, y0 * sc, x1 * sc, y1 * sc

    def text(xy: tuple[float, float], s: str, *, size: int = TEXT, bold: bool = True, fill: RGB = MUTED,
             anchor: str = "mm") -> None:
        d.text(p(*xy), s, font=font(size * sc, bold), fill=fill, anchor=anchor)

    # exploded levels
    for k, n in enumerate(SIZE):
        x0 = LEVEL_X[k]
        top = level_top(k)
        rounded_panel(d, box(x0 - 6, top - 6, x0 + n * PITCH + 6, top + n * PITCH + 6), fill=GRID_FILL,
                      radius=14 * sc)
        text((x0 + n * PITCH / 2, top - 22), tr(LEVEL_TITLE).format(level=k + 1, size=n))

    # from above, its caption and the inner-pyramid heading
    u = ABOVE_U
    text((ABOVE_X + 2 * u, ROW_B + 12), tr(FROM_ABOVE), fill=INK)
    rounded_panel(d, box(ABOVE_X - 4, ABOVE_Y - 4, ABOVE_X + 4 * u + 4, ABOVE_Y + 4 * u + 4), fill=GRID_FILL,
                  radius=10 * sc)
    for i, f in enumerate("abcd"):
        text((ABOVE_X + (i + 0.5) * u, ABOVE_Y + 4 * u + 17), f, fill=INK)
        text((ABOVE_X - 17, ABOVE_Y + 4 * u - (i + 0.5) * u), str(i + 1), fill=INK)
    for i, line in enumerate(tr(ABOVE_CAPTION).split("\n")[:CAPTION_LINES]):
        text((MARGIN + 4, CAPTION_Y + i * 26), line, bold=False, anchor="lm")
    text((MARGIN + 4, INNER_Y), tr(INNER_PYRAMID), fill=INK, anchor="lm")

    # faces: titles, empty slots, edge ticks
    for f in FACE_NAMES:
        text((FACE_TEXT_X, face_line_centre(f, players, 0)), tr(FACE_TITLE[f]), size=FACE_TEXT, fill=INK,
             anchor="lm")
        r = FACE_D / 2 - 1
        for slot in range(9):
            x, y = face_centre(f, slot, players)
            if slot in (0, 3, 4, 6, 7, 8):      # rising-edge marbles (first and last of each row): a tick
                side = -1 if slot in (0, 4, 7) else 1
                d.line([p(x + side * (r + 2), y), p(x + side * (r + 8), y)], fill=MUTED, width=2 * sc)

    # the panel
    bottom = height(players) - MARGIN
    rounded_panel(d, box(MARGIN, panel_top(players), WIDTH - MARGIN, bottom), fill=PANEL_FILL, radius=14 * sc)
    return image.reduce(sc)


# --- Drawing ---------------------------------------------------------------------------------------------

def draw(state: State, last_turn: Sequence[str] = (), names: Sequence[str] | None = None,
         previous: State | None = None) -> Image.Image:
    """The board image of a Spinca ``state`` (see the module docstring; the contract: ``render.games.Renderer``)."""
    assert isinstance(state, SpincaState) and (previous is None or isinstance(previous, SpincaState))
    players = state.players
    image = _static(players).copy()
    locked = set(state.locked_cells)
    playable = set(state.playable_cells())
    slide, drops, placed, _ = _last_turn(state, list(last_turn or ()), previous)
    colour_at = {cell: state.colour_at(cell) for cell in NAMES}

    # exploded levels: cells, the placed ring, the slide arrow (between its two cells' texts), badges
    kinds = {cell: colour_at[cell] or ("live" if cell in playable else "dead") for cell in NAMES}
    half = RADIUS + 2
    for cell in NAMES:
        x, y = cell_centre(cell)
        put(image, _cell_tile(cell, kinds[cell], _letter(kinds[cell])), (round(x) - half, round(y) - half))
    if placed is not None and colour_at[placed]:
        paste(image, _placed_ring(RADIUS), cell_centre(placed))
    if slide is not None:
        paste(image, *slide_arrow(*slide, source_kind(slide[0], colour_at[slide[0]], placed)))
    mirrored = mirrored_badges(slide)
    for cell in NAMES:
        if not colour_at[cell]:
            continue
        if cell in drops:
            paste(image, _tumble_badge(13), tumble_badge_centre(cell, cell in mirrored))
        if cell in locked:
            paste(image, _lock_badge(13), lock_badge_centre(cell, cell in mirrored))

    # from above: the base (opaque tiles), then level by level, so the upper marbles cover the lower
    half = ABOVE_U // 2
    lettered = {cell: colour_at[cell] is not None and not any(colour_at[c] for c in _ABOVE[cell]) for cell in NAMES}
    for cell in NAMES[:16]:
        x, y = above_centre(cell)
        put(image, _above_tile(colour_at[cell], lettered[cell], _letter(colour_at[cell])),
            (round(x) - half, round(y) - half))
    for cell in NAMES:
        k = CELLS[INDEX[cell]][0]
        centre = above_centre(cell)
        colour = colour_at[cell]
        if colour is None:
            if k and cell in playable:
                paste(image, _above_playable(), centre)
            continue
        if cell == placed:
            paste(image, _placed_ring(ABOVE_R, 3.5), centre)
        if k:
            paste(image, _above_stacked(colour, lettered[cell], _letter(colour)), centre)
        if cell in locked:
            paste(image, _lock_badge(9), (centre[0] + 0.3 * ABOVE_U, centre[1] - 0.3 * ABOVE_U))

    # faces: row by row, bottom first
    for f in FACE_NAMES:
        cells = state.face_cells(f)
        for first, last in ((0, 4), (4, 7), (7, 9)):
            row = tuple(colour_at[c] for c in cells[first:last])
            (xa, y), (xb, _) = face_centre(f, first, players), face_centre(f, last - 1, players)
            paste(image, _face_row(row, tuple(_letter(c) for c in row)), ((xa + xb) / 2, y))

    # the panel's rows: the active box, the colour icon
    plan = layout(state, last_turn, names, previous)
    box = _row_box(WIDTH - 2 * MARGIN - 12, ROW_H - 2)
    for seat in plan.active_rows:
        put(image, box, (round(WIDTH / 2 - box.width / 2), round(row_centre(seat, players) - box.height / 2)))
    for seat in range(players):
        paste(image, _icon(state.seat_colour(seat), _letter(state.seat_colour(seat))),
              (ICON_X, row_centre(seat, players)))
    for colour, xy in plan.face_icons:
        paste(image, _icon(colour, _letter(colour), FACE_ICON_R), xy)

    for t in plan.texts:      # cached opaque tiles, set word by word from cached words
        tile, ox, oy = _line_tile(t.text, t.size, t.bold, t.fill, t.bg, t.anchor, t.name)
        put(image, tile, (round(t.xy[0]) + ox, round(t.xy[1]) + oy))
    for x, y in plan.badges:
        im, ox, oy = _winner_badge()
        image.paste(im, (round(x) + ox, round(y) + oy), im)
    return image


# --- The fixed palette -----------------------------------------------------------------------------------

PALETTE_SIZE = 64       # enough for the anti-aliased edges of this flat picture; fewer colours, smaller PNGs
KEY_COLOURS: tuple[RGB, ...] = (*FILL.values(), *EDGE.values(), GRID_FILL, HOLE_FILL, DEAD_FILL, DEAD_INK,
                                PANEL_FILL, ACTIVE_FILL, LOCK_FILL, PLACED_RING, SLIDE_INK, TUMBLE_FILL, WINNER,
                                INK, MUTED, BACKGROUND, SHADOW)


def _sample_boards() -> list[Image.Image]:
    """A few boards covering every colour a board shows: marbles of all three colours in every view, holes,
    dead points, locks, tumbles, the placed ring, the slide arrow, the active row and the winner badge."""
    out = []
    for players, seed, turns in ((3, 5, 29), (4, 11, 17)):
        rng = random.Random(seed)
        state = prev = GAME.new(players)
        move = ""
        for _ in range(turns):
            moves = state.legal_moves()
            slides = [m for m in moves if "-" in m]
            prev, move = state, rng.choice(slides or moves)
            state = state.play(move)
        out.append(draw(state, [move], None, prev))
    return out


# The words boards are made of (numbers, cell names, the fixed phrases, the end-of-game templates): drawn at
# first use, so a board draws almost no text.
_NUMBERS = [f"{n}{end}" for n in range(41) for end in ("", ",", ".", ")", ").", "),", ";")]
_WORDS = (_NUMBERS + [f"{cell}{end}" for cell in NAMES for end in ("", ",", ".")]
          + "White: Black: Red: White Black Red one group groups of and no marble → point points pt pts left · "
            "team inner Last turn (White): (Black): (Red): (White (Black A): B): (White) (Black) (Red) A) B) slid "
            "the white black red marble tumbled to placed Locked (+): which may not slide or tumble none W B R "
            "Turn The temple is complete. ◀ move".split())
_TEMPLATE_WORDS = [w for template in GAME.terminations.values() for w in template.split() if "{" not in w]
_FACE_WORDS = "one group groups of and no marble → point points pt pts".split()
_STATUS_WORDS = "Turn The temple is complete.".split()
_ROW_WORDS = "left · team point points inner (White) (Black) (Red) (White A) (Black A) (White B) (Black B) " \
             "A) B)".split()


def _warm() -> None:
    """Draw every sprite of the finite sets once (cells, balls, badges, arrows): boards then only paste."""
    for players in GAME.player_counts:
        _static(players)
    kinds = ("W", "B", "R", "live", "dead")
    for cell in NAMES:
        for kind in kinds:
            _cell_tile(cell, kind, _letter(kind))
    for colour in (None, "W", "B", "R"):
        _face_ball(colour, _letter(colour))
        for lettered in (False, True):
            _above_tile(colour, lettered, _letter(colour))
            if colour is not None:
                _above_stacked(colour, lettered, _letter(colour))
    for colour in FILL:
        _icon(colour, _letter(colour))
        _icon(colour, _letter(colour), FACE_ICON_R)
    balls = (None, "W", "B", "R")
    for n in (2, 3, 4):
        for row in itertools.product(balls, repeat=n):
            _face_row(row, tuple(_letter(c) for c in row))
    for dx in (-PITCH, 0, PITCH):
        for dy in (-PITCH, 0, PITCH):
            if dx or dy:
                for kind in ("hole", "placed", "tumbled"):
                    _slide_arrow(dx, dy, kind)
    _placed_ring(RADIUS), _placed_ring(ABOVE_R, 3.5), _lock_badge(13), _lock_badge(9), _tumble_badge(13)
    for word in _WORDS:                                 # the panel's lines
        _word_tile(word, TEXT, False, INK, PANEL_FILL, False)
    for word in (*_NUMBERS[:41], *_STATUS_WORDS):       # the status
        _word_tile(word, TEXT, False, INK, BACKGROUND, False)
    for word in (*_NUMBERS[:41], *_FACE_WORDS):         # the faces
        _word_tile(word, FACE_TEXT, False, INK, BACKGROUND, False)
    for word in (*_NUMBERS[:41], *_ROW_WORDS):          # the boxed row (player to move, winners)
        _word_tile(word, TEXT, False, INK, ACTIVE_FILL, False)
    for word in ("W", "B", "R", "·", "0", "1", "2", "3", "4", "5"):
        _word_tile(word, TEXT, True, INK, BACKGROUND, False)        # the inner-pyramid counts
    for word in ("◀", "to", "move"):
        _word_tile(word, TEXT, True, INK, ACTIVE_FILL, False)
    for word in (*_TEMPLATE_WORDS, *_NUMBERS):          # the end sentence holds names: drawn by draw_name
        _word_tile(word, TEXT, False, INK, PANEL_FILL, True)
    for word in ("to", "move", "win", "wins", "and", "(White", "(Black", "(White)", "(Black)", "(Red)", "A)", "B)"):
        _word_tile(word, 28, True, INK, BACKGROUND, True)
    for cell in NAMES:
        for kind in ("W", "B", "R", "live", "dead"):
            _cell_label(cell, kind, _letter(kind))
    for groups in sorted(set(GROUPS)):                  # every line a face can show
        _line_tile(face_line(groups, groups[0] if groups else 0), FACE_TEXT, False, INK, BACKGROUND, "lm", False)
    for turn in range(1, 30):
        _line_tile(TURN_OF.format(turn=turn, turns=len(NAMES)), TEXT, False, INK, BACKGROUND, "mm", False)
    _above_playable(), _winner_badge(), _row_box(WIDTH - 2 * MARGIN - 12, ROW_H - 2)


@lru_cache(maxsize=1)
def sampled_palette() -> Image.Image:
    """The key colours exactly (marbles, highlights, backgrounds, the winner badge: a median cut could merge
    the rare ones), then ``build_palette``'s median cut of sample boards for their anti-aliased edges. Always
    from English boards, whatever language the first board asked for: every language maps onto one palette."""
    with speaking(ENGLISH):
        _warm()
        cut = build_palette(*_sample_boards(), colours=PALETTE_SIZE - len(KEY_COLOURS))
    data = cut.getpalette() or []
    found = [tuple(data[i:i + 3]) for i in range(0, 3 * (PALETTE_SIZE - len(KEY_COLOURS)), 3)]
    colours = list(dict.fromkeys([*KEY_COLOURS, *found]))     # ordered, without repeats
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for colour in colours for v in colour])
    return palette


def palette(state: State | None = None) -> Image.Image:
    """The fixed palette of every Spinca board (the same for every player count), stored from
    ``sampled_palette``."""
    return stored_palette("spinca")


def mark_centre(state: State, cell: str) -> tuple[float, float] | None:
    """Where a picker's key for ``cell`` goes (``render.marks``): over the cell's name in the exploded view,
    the marble's colour visible around it."""
    if cell not in INDEX:
        return None
    x, y = cell_centre(cell)
    return x, y + NAME_DY
