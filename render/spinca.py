"""The Spinca board image (§6 of ../shared/rules/spinca.md).

Layout, top to bottom on an opaque panel (so the white, black and red marbles read on light and dark Discord
themes alike):

1. a status line (whose turn, turn number; the winner at the end);
2. the three levels exploded side by side, every cell named: what players read to type moves. Marbles carry
   their colour letter, locked marbles a "+" badge; the last turn shows as a slide arrow, "↓" badges on the
   tumbled marbles and a gold ring on the placed one;
3. the pyramid seen from above (the physical view) and the four faces as triangles, each with every
   player's group sizes and face score;
4. the panel: per player the colour, marbles left and (provisional) total; the locked cells, the last turn
   in words and, at the end, the inner-pyramid counts.

``cell_centre`` / ``cell_radius`` (exploded view), ``above_centre`` (from above) and ``face_centre`` (faces)
expose the geometry used, so tests can sample pixels. Everything is drawn on a canvas ``SCALE`` times
larger and shrunk once; drawing iterates over ordered sequences only, so identical input gives identical
pixels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.spinca import CELLS, FACE_NAMES, INDEX, INNER, NAMES, SEAT_NAMES, SIZE, parse_turn
from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    SUPERSAMPLE,
    arrow,
    contrast_ink,
    disc,
    downsample,
    fit_text,
    font,
    mix,
    rounded_panel,
    supersampled,
    text_centred,
)
from render.common import z as _z
from render.common import zi as _zi
from render.common import zp as _zp

# --- Geometry (final pixels) ------------------------------------------------------------------------------
WIDTH = 960
SCALE = SUPERSAMPLE
MARGIN = 16

HEADER_H = 58
PITCH = 84                              # exploded view: distance between cell centres
RADIUS = 37                             # exploded view: marble radius
LEVEL_GAP = 42
LEVEL_TOP = HEADER_H + 34               # top of the exploded grids (level titles above)
LEVEL_LEFT = (WIDTH - (4 + 3 + 2) * PITCH - 2 * LEVEL_GAP) / 2
LEVEL_X = (LEVEL_LEFT, LEVEL_LEFT + 4 * PITCH + LEVEL_GAP, LEVEL_LEFT + 7 * PITCH + 2 * LEVEL_GAP)

ROW_B = LEVEL_TOP + 4 * PITCH + 26      # top of the from-above view and the faces
ABOVE_U = 50                            # from above: marble diameter
ABOVE_X = MARGIN + 26                   # left of the base grid (file letters below, rank numbers left)
ABOVE_Y = ROW_B + 30
FACE_D = 37                             # faces: marble diameter
FACE_W = 170                            # width given to each face triangle
FACE_X0 = ABOVE_X + 4 * ABOVE_U + 26
FACE_BASE = ROW_B + 30 + FACE_D / 2 + 2 * FACE_D * math.sqrt(3) / 2   # centre line of the bottom face row
ROW_C = ROW_B + 4 * ABOVE_U + 62        # top of the panel
LINE_H = 30

# --- Palette --------------------------------------------------------------------------------------------
FILL = {"W": (244, 244, 244), "B": (32, 32, 32), "R": (192, 57, 43)}     # §6: #F4F4F4, #202020, #C0392B
EDGE = {"W": (70, 70, 76), "B": (0, 0, 0), "R": (110, 25, 18)}
GRID_FILL = (226, 216, 196)             # behind each level
HOLE_FILL = (208, 196, 172)             # an empty playable point
DEAD_FILL = (232, 225, 210)             # an empty point that is not playable (missing support)
DEAD_INK = (178, 170, 156)
PANEL_FILL = (236, 230, 218)
LOCK_FILL = (255, 200, 40)              # the "+" badge of a locked marble
PLACED_RING = (255, 180, 0)
SLIDE_INK = (30, 100, 210)
TUMBLE_FILL = (30, 100, 210)
COLOUR_WORD = {"W": "White", "B": "Black", "R": "Red"}


def cell_centre(cell: str) -> tuple[float, float]:
    """Centre of a cell in the exploded view (rank 1 at the bottom, each level's grid centred vertically)."""
    k, x, y = CELLS[INDEX[cell]]
    n = SIZE[k]
    top = LEVEL_TOP + (4 - n) * PITCH / 2
    return LEVEL_X[k] + (x + 0.5) * PITCH, top + (n - 1 - y + 0.5) * PITCH


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


def face_centre(face: str, slot: int) -> tuple[float, float]:
    """§6: row t has 4 − t circles at x = (j + t/2 + ½)·d, y = base − t·(√3/2)·d (slot = 0..8, bottom first)."""
    t = 0 if slot < 4 else 1 if slot < 7 else 2
    j = slot - (0, 4, 7)[t]
    left = FACE_X0 + FACE_NAMES.index(face) * FACE_W + (FACE_W - 4 * FACE_D) / 2
    return left + (j + t / 2 + 0.5) * FACE_D, FACE_BASE - t * math.sqrt(3) / 2 * FACE_D




def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, *, bold: bool = False,
          fill=INK, anchor: str = "lm") -> None:
    d.text(_zp(xy), text, font=font(_zi(size), bold), fill=fill, anchor=anchor)


def _width(text: str, size: int, bold: bool = False) -> float:
    return font(_zi(size), bold).getlength(text) / SCALE


# --- Last turn --------------------------------------------------------------------------------------------

def _last_turn(state, last_turn: Sequence[str], previous) -> tuple[tuple[str, str] | None, list[str],
                                                                       str | None, str]:
    """(slide (from, to) or None, cells where tumbled marbles landed, placed cell, a sentence) of the turn."""
    if not last_turn:
        return None, [], None, ""
    try:
        src, dst, place = parse_turn(last_turn[0])
    except ValueError:
        return None, [], None, ""
    mover = (state.turn - 1) % state.players
    who = SEAT_NAMES[state.players][mover]
    if src < 0:
        return None, [], NAMES[place], f"{who} placed {NAMES[place]}."
    slide = (NAMES[src], NAMES[dst])
    if previous is not None:
        drops = previous.tumbles(last_turn[0])
        colour = previous.colour_at(src) or "?"
    else:   # the locked set is exactly the slid, tumbled and placed marbles (§3 rule 9)
        drops = [("?", c) for c in state.locked_cells if c not in (slide[1], NAMES[place])]
        colour = state.colour_at(dst) or "?"
    text = f"{who} slid the {COLOUR_WORD.get(colour, '?').lower()} marble {slide[0]}→{slide[1]}"
    if drops:
        text += "; " + ", ".join(f"{a}↓{b}" if a != "?" else f"↓{b}" for a, b in drops) + " tumbled"
    return slide, [b for _, b in drops], NAMES[place], text + f"; placed {NAMES[place]}."


# --- Marbles ----------------------------------------------------------------------------------------------

def _marble(d: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, colour: str, *,
            letter: bool = True, letter_size: int | None = None, outline: float = 2.5) -> None:
    fill = FILL[colour]
    disc(d, _zp(centre), _z(radius), fill=fill, outline=EDGE[colour], width=_zi(outline))
    if letter:
        text_centred(d, _zp(centre), colour, _zi(letter_size or round(radius * 0.95)), bold=True,
                     fill=contrast_ink(fill))


def _lock_badge(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    disc(d, _zp(centre), _z(r), fill=LOCK_FILL, outline=INK, width=_zi(1.5))
    x, y = centre
    arm, w = r * 0.6, max(1.5, r * 0.28)
    d.rectangle(_box((x - arm, y - w / 2, x + arm, y + w / 2)), fill=INK)
    d.rectangle(_box((x - w / 2, y - arm, x + w / 2, y + arm)), fill=INK)


def _tumble_badge(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    disc(d, _zp(centre), _z(r), fill=TUMBLE_FILL, outline=(255, 255, 255), width=_zi(1.5))
    x, y = centre
    d.rectangle(_box((x - r * 0.13, y - r * 0.6, x + r * 0.13, y + r * 0.1)), fill=(255, 255, 255))
    d.polygon([_zp((x - r * 0.45, y)), _zp((x + r * 0.45, y)), _zp((x, y + r * 0.62))], fill=(255, 255, 255))


def _box(b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    return tuple(v * SCALE for v in b)  # type: ignore[return-value]


# --- Panels -----------------------------------------------------------------------------------------------

def _exploded(d, state, locked: set[str], playable: set[str], slide, drops: list[str], placed) -> None:
    for k, n in enumerate(SIZE):
        x0 = LEVEL_X[k]
        top = LEVEL_TOP + (4 - n) * PITCH / 2
        rounded_panel(d, _box((x0 - 6, top - 6, x0 + n * PITCH + 6, top + n * PITCH + 6)), fill=GRID_FILL,
                      radius=_zi(14))
        _text(d, (x0 + n * PITCH / 2, top - 22), f"Level {k + 1} ({n}×{n})", 19, bold=True, anchor="mm",
              fill=MUTED)
    for cell in NAMES:                       # pass 1: holes and marbles
        x, y = cell_centre(cell)
        colour = state.colour_at(cell)
        if colour is None:
            live = cell in playable
            disc(d, _zp((x, y)), _z(RADIUS - 4), fill=HOLE_FILL if live else DEAD_FILL,
                 outline=MUTED if live else DEAD_INK, width=_zi(2 if live else 1))
            continue
        if cell == placed:
            disc(d, _zp((x, y)), _z(RADIUS + 5), fill=PLACED_RING)
        disc(d, _zp((x, y)), _z(RADIUS), fill=FILL[colour], outline=EDGE[colour], width=_zi(2.5))
    if slide:                                # pass 2: the slide arrow, under the names
        arrow(d, _zp(cell_centre(slide[0])), _zp(cell_centre(slide[1])), fill=SLIDE_INK, width=_zi(6),
              casing=(255, 255, 255), casing_width=_zi(2.5), trim_start=_z(RADIUS * 0.55),
              trim_end=_z(RADIUS - 3))
    for cell in NAMES:                       # pass 3: names, colour letters, badges
        x, y = cell_centre(cell)
        colour = state.colour_at(cell)
        if colour is None:
            live = cell in playable
            _text(d, (x, y), cell, 22, bold=True, anchor="mm", fill=INK if live else DEAD_INK)
            continue
        fill = FILL[colour]
        ink = contrast_ink(fill)
        d.text(_zp((x, y - 7)), cell, font=font(_zi(22), True), fill=ink, anchor="mm", stroke_width=_zi(2),
               stroke_fill=fill)
        _text(d, (x, y + 19), colour, 15, bold=True, anchor="mm", fill=mix(ink, fill, 0.25))
        if cell in drops:
            _tumble_badge(d, (x + 0.72 * RADIUS, y + 0.72 * RADIUS), 11)
        if cell in locked:
            _lock_badge(d, (x + 0.72 * RADIUS, y - 0.72 * RADIUS), 11)


def _from_above(d, state, locked: set[str], playable: set[str], placed) -> None:
    u = ABOVE_U
    _text(d, (ABOVE_X + 2 * u, ROW_B + 10), "From above", 19, bold=True, anchor="mm", fill=MUTED)
    rounded_panel(d, _box((ABOVE_X - 4, ABOVE_Y - 4, ABOVE_X + 4 * u + 4, ABOVE_Y + 4 * u + 4)),
                  fill=GRID_FILL, radius=_zi(10))
    for i, f in enumerate("abcd"):
        _text(d, (ABOVE_X + (i + 0.5) * u, ABOVE_Y + 4 * u + 16), f, 17, bold=True, anchor="mm", fill=MUTED)
        _text(d, (ABOVE_X - 14, ABOVE_Y + 4 * u - (i + 0.5) * u), str(i + 1), 17, bold=True, anchor="mm",
              fill=MUTED)
    for cell in NAMES:
        k = CELLS[INDEX[cell]][0]
        centre = above_centre(cell)
        colour = state.colour_at(cell)
        if colour is None:
            if k == 0:
                disc(d, _zp(centre), _z(0.3 * u), fill=HOLE_FILL, outline=DEAD_INK, width=_zi(1))
            elif cell in playable:      # an empty playable point on a platform: a small hollow ring
                disc(d, _zp(centre), _z(0.2 * u), fill=None, outline=INK, width=_zi(2))
            continue
        if k:    # a soft shadow so stacking reads
            disc(d, _zp((centre[0] + 3, centre[1] + 4)), _z(0.48 * u), fill=mix(GRID_FILL, INK, 0.35))
        if cell == placed:
            disc(d, _zp(centre), _z(0.48 * u + 4), fill=PLACED_RING)
        _marble(d, centre, 0.48 * u, colour, letter_size=17)
        if cell in locked:
            _lock_badge(d, (centre[0] + 0.3 * u, centre[1] - 0.3 * u), 7)


def _faces(d, state, colours: tuple[str, ...], labels: dict[str, str]) -> None:
    titles = {"S": "South face", "E": "East face", "N": "North face", "W": "West face"}
    for f in FACE_NAMES:
        cx = FACE_X0 + FACE_NAMES.index(f) * FACE_W + FACE_W / 2
        _text(d, (cx, ROW_B + 10), titles[f], 19, bold=True, anchor="mm", fill=MUTED)
        cells = state.face_cells(f)
        for slot, cell in enumerate(cells):
            centre = face_centre(f, slot)
            colour = state.colour_at(cell)
            r = FACE_D / 2 - 1
            if colour is None:
                disc(d, _zp(centre), _z(r - 2), fill=DEAD_FILL, outline=DEAD_INK, width=_zi(1))
            else:
                _marble(d, centre, r, colour, letter_size=15, outline=2)
            if slot in (0, 3, 4, 6, 7, 8):      # rising-edge marbles (first and last of each row): a tick
                side = -1 if slot in (0, 4, 7) else 1
                x, y = centre
                d.line([_zp((x + side * (r + 2), y)), _zp((x + side * (r + 7), y))], fill=MUTED, width=_zi(2))
        groups = state.face_groups(f)
        scores = state.face_scores(f)
        y = FACE_BASE + FACE_D / 2 + 16
        for c in colours:
            g = groups[c]
            groups_text = "[" + ", ".join(map(str, g)) + "]" if g else "none"
            text = f"{labels[c]}: {groups_text} → {scores[c]}"
            _text(d, (cx, y), fit_text(text, _zi(17), _z(FACE_W - 4)), 17, anchor="mm", fill=INK)
            y += 22


def _panel(d, state, names: list[str], colours, last_text: str) -> None:
    players = state.players
    rows = players + 2 + (1 if state.is_over else 0)
    bottom = ROW_C + 12 + rows * LINE_H + 8
    rounded_panel(d, _box((MARGIN, ROW_C, WIDTH - MARGIN, bottom)), fill=PANEL_FILL, radius=_zi(14))
    left = state.marbles_left
    totals = state.scores
    y = ROW_C + 12 + LINE_H / 2
    x = MARGIN + 16
    inner = state.inner_counts() if state.is_over else None
    for seat in range(players):
        colour = state.seat_colour(seat)
        active = (not state.is_over and state.to_move == seat) or (state.is_over and seat in state.winners)
        if active:
            rounded_panel(d, _box((x - 8, y - LINE_H / 2 + 1, WIDTH - MARGIN - 8, y + LINE_H / 2 - 1)),
                          fill=(255, 255, 255), outline=INK, width=_zi(1.5), radius=_zi(8))
        _marble(d, (x + 12, y), 11, colour, letter_size=12, outline=1.5)
        label = names[seat]
        seat_name = SEAT_NAMES[players][seat]
        if label != seat_name:
            label = f"{label} ({seat_name})"
        _text(d, (x + 32, y), fit_text(label, _zi(20), _z(370), bold=True), 20, bold=True)
        stats = f"{left[seat]} left · {'total' if state.is_over else 'face points'} {totals[seat]}"
        if players == 4:
            stats += " (team)"
        if inner is not None:
            stats += f" · inner {inner[colour]}"
        if active:
            stats += "  ◀ WINNER" if state.is_over else "  ◀ to move"
        _text(d, (WIDTH - MARGIN - 20, y), stats, 19, anchor="rm", fill=INK)
        y += LINE_H
    locked = " ".join(state.locked_cells) or "none"
    _text(d, (x, y), fit_text(f"Locked (+): {locked}", _zi(19), _z(WIDTH - 70)), 19, fill=INK)
    y += LINE_H
    _text(d, (x, y), fit_text(f"Last turn: {last_text or '—'}", _zi(19), _z(WIDTH - 70)), 19, fill=INK)
    y += LINE_H
    if inner is not None:   # the game is over
        cells = " ".join(NAMES[i] for i in INNER)
        counts = ", ".join(f"{COLOUR_WORD[c]} {inner[c]}" for c in colours)
        _text(d, (x, y), fit_text(f"Inner pyramid ({cells}): {counts}", _zi(19), _z(WIDTH - 70)), 19,
              fill=INK)


def height(state) -> int:
    rows = state.players + 2 + (1 if state.is_over else 0)
    return round(ROW_C + 12 + rows * LINE_H + 8 + MARGIN)


def draw(state, last_turn: Sequence[str] | None = None, names: Sequence[str] | None = None,
         previous=None) -> Image.Image:
    """The board image of a Spinca ``state`` (see the module docstring)."""
    players = state.players
    seat_names = SEAT_NAMES[players]
    names = [str(n) for n in (names or ())][:players]
    names += list(seat_names[len(names):])
    colours = state.colours
    labels = {c: c for c in colours}
    locked = set(state.locked_cells)
    playable = set(state.playable_cells())
    slide, drops, placed, last_text = _last_turn(state, list(last_turn or ()), previous)

    image = supersampled(WIDTH, height(state), SCALE, BACKGROUND)
    d = ImageDraw.Draw(image)
    if state.is_over:
        winners = " and ".join(names[s] for s in state.winners)
        status = f"{winners} win{'' if len(state.winners) > 1 else 's'} · temple complete"
    else:
        seat = state.to_move
        who = names[seat] if names[seat] == seat_names[seat] else f"{names[seat]} ({seat_names[seat]})"
        status = f"{who} to move · turn {state.count + 1} of 29"
    _text(d, (WIDTH / 2, HEADER_H / 2 + 2), fit_text(status, _zi(28), _z(WIDTH - 40), bold=True), 28,
          bold=True, anchor="mm")
    _exploded(d, state, locked, playable, slide, drops, placed)
    _from_above(d, state, locked, playable, placed)
    _faces(d, state, colours, labels)
    _panel(d, state, names, colours, last_text)
    return downsample(image, SCALE)
