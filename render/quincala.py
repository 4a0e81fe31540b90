"""The Quincala board image (spec §6): the 10×10 diamond lattice inside an ornamental border, the four white
dots with their roles, the mover's winning dots tinted and placing areas washed blue, towers as stacks of
numbered bars, both players' hand and ledge as trays, and the last turn's legs (solid arrows) and travels
(dashed arrows).

White is always at the bottom (the rules' coordinates). The viewer is the player to move. ``dot_centre``,
``tray_centre`` and ``bar_box`` give the geometry used, so tests can sample pixels. Everything is drawn
``SCALE`` times larger and shrunk once; the drawing iterates only over ordered sequences, so identical input
gives identical pixels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.base import outcome_text
from engines.quincala import SEAT_NAMES, Event, QuincalaState, turn_notation
from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    SUPERSAMPLE,
    arrow,
    downsample,
    fit_text,
    mix,
    rounded_panel,
    star,
    supersampled,
    text_centred,
)
from render.common import z as _z
from render.common import zi as _zi
from render.common import zp as _zp

# --- Geometry (final pixels) ------------------------------------------------------------------------------
WIDTH = 900
STEP = 76                      # distance between neighbouring dots
BOARD_LEFT = (WIDTH - 9 * STEP) / 2    # x of file a
HEADER_H = 64
TRAY_H = 62
BOARD_TOP = HEADER_H + TRAY_H + 52     # y of rank 10
BOARD_BOTTOM = BOARD_TOP + 9 * STEP    # y of rank 1
BORDER = STEP / 2 + 14                 # ornamental border distance from the outer dots
BAR_H = 15                             # a piece's bar
SCALE = SUPERSAMPLE
TOP_TRAY = HEADER_H + 4
BOTTOM_TRAY = BOARD_BOTTOM + 52
LOG_TOP = BOTTOM_TRAY + TRAY_H + 8
HEIGHT = LOG_TOP + 64

# --- Palette: every colour cue is doubled by a shape or a word ----------------------------------------------
BOARD_FILL = (234, 224, 200)
BORDER_INK = (122, 86, 48)
DOT_INK = (60, 52, 44)
WHITE_DOT = (255, 255, 255)
WIN_TINT = (120, 200, 120)     # the viewer's winning dots (Fig. 2's green)
PLACE_WASH = (176, 206, 240)   # the mover's placing areas (Fig. 3's blue)
WHITE_PIECE = (252, 252, 250)
WHITE_EDGE = (40, 40, 44)
BLACK_PIECE = (30, 30, 34)
BLACK_EDGE = (200, 200, 205)
LEG_INK = (214, 60, 30)
TRAVEL_INK = (20, 120, 90)
STAR_FILL = (255, 196, 30)
TRAY_FILL = (236, 230, 218)
ACTIVE_TRAY = (255, 255, 255)
FILES = "abcdefghij"


def dot_centre(dot: str) -> tuple[float, float]:
    """The centre of a dot in the final image (White at the bottom)."""
    x, y = FILES.index(dot[0]), int(dot[1:]) - 1
    return BOARD_LEFT + x * STEP, BOARD_BOTTOM - y * STEP


def tray_centre(seat: int, kind: str) -> tuple[float, float]:
    """Where a travel arrow to ``seat``'s ``kind`` ('hand' / 'ledge') tray ends: the middle of that half."""
    top = BOTTOM_TRAY if seat == 0 else TOP_TRAY
    x = WIDTH * (0.40 if kind == "hand" else 0.75)
    return x, top + TRAY_H / 2


def bar_box(dot: str, index: int, count: int, size: int) -> tuple[float, float, float, float]:
    """The box of the ``index``-th piece (0 = smallest, drawn on top) of a ``count``-piece tower on ``dot``."""
    cx, cy = dot_centre(dot)
    top = cy - count * BAR_H / 2 + index * BAR_H
    half = 13 + 4.4 * size
    return cx - half, top + 0.5, cx + half, top + BAR_H - 0.5



def _zb(b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    return tuple(v * SCALE for v in b)  # type: ignore[return-value]



def _diamond(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, *, fill, outline=None,
             width: int = 1) -> None:
    x, y = centre
    d.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=fill, outline=outline, width=width)


# --------------------------------------------------------------------------------------------------------


def draw(state: QuincalaState, last_turn: Sequence[str] | None = None, names: Sequence[str] | None = None,
         previous: QuincalaState | None = None) -> Image.Image:
    names = list(names) if names else list(SEAT_NAMES)
    viewer = state.seat_to_show
    events = _replay(previous, list(last_turn or ()))
    image = supersampled(WIDTH, HEIGHT, SCALE, BACKGROUND)
    d = ImageDraw.Draw(image)
    _board(d, state, viewer)
    _towers(d, state)
    _trays(d, state, names, viewer)
    _last_turn(d, state, events, list(last_turn or ()))
    _header(d, state, names, viewer)
    _log(d, events, list(last_turn or ()))
    return downsample(image, SCALE)


def _replay(previous: QuincalaState | None, moves: list[str]) -> list[Event]:
    """What the last turn did, from the state before it (knocks and releases need it)."""
    events: list[Event] = []
    if previous is None:
        for m in moves:
            if "-" in m:
                a, b = m.split("-")
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


def _board(d: ImageDraw.ImageDraw, state: QuincalaState, viewer: int) -> None:
    left, right = BOARD_LEFT - BORDER, BOARD_LEFT + 9 * STEP + BORDER
    top, bottom = BOARD_TOP - BORDER, BOARD_BOTTOM + BORDER
    d.rectangle(_zb((left, top, right, bottom)), fill=BOARD_FILL)
    # the placing areas of the player to move, one wash per area with a gap between them (R-P1, R-P2)
    dots = state.placing_dots(viewer)
    area_files = (("a", "e"), ("f", "j"))
    ranks = sorted({int(p[1:]) for p in dots})
    for f0, f1 in area_files:
        x0 = dot_centre(f"{f0}1")[0] - STEP / 2 + 5
        x1 = dot_centre(f"{f1}1")[0] + STEP / 2 - 5
        y0 = dot_centre(f"a{max(ranks)}")[1] - STEP / 2 + 5
        y1 = dot_centre(f"a{min(ranks)}")[1] + STEP / 2 - 5
        rounded_panel(d, _zb((x0, y0, x1, y1)), fill=PLACE_WASH, radius=_zi(12))
    # ornamental border: a double line with diamonds at the corners and the middle of each side
    for inset, w in ((0, 5), (9, 2)):
        d.rectangle(_zb((left + inset, top + inset, right - inset, bottom - inset)), outline=BORDER_INK,
                    width=_zi(w))
    mid_x, mid_y = (left + right) / 2, (top + bottom) / 2
    for p in ((left, top), (right, top), (left, bottom), (right, bottom), (mid_x, top), (mid_x, bottom),
              (left, mid_y), (right, mid_y)):
        _diamond(d, _zp(p), _z(11), fill=BORDER_INK)
        _diamond(d, _zp(p), _z(5), fill=BOARD_FILL)
    # labels on files and ranks, both sides
    for i, f in enumerate(FILES):
        x = BOARD_LEFT + i * STEP
        text_centred(d, (_z(x), _z(top - 18)), f, _zi(21), bold=True, fill=INK)
        text_centred(d, (_z(x), _z(bottom + 18)), f, _zi(21), bold=True, fill=INK)
    for r in range(1, 11):
        y = BOARD_BOTTOM - (r - 1) * STEP
        text_centred(d, (_z(left - 22), _z(y)), str(r), _zi(21), bold=True, fill=INK)
        text_centred(d, (_z(right + 22), _z(y)), str(r), _zi(21), bold=True, fill=INK)
    # black dots
    roles = state.white_dot_roles()
    for r in range(1, 11):
        for f in FILES:
            dot = f"{f}{r}"
            if dot not in roles:
                _diamond(d, _zp(dot_centre(dot)), _z(6), fill=DOT_INK)
    # white dots: large white diamonds; the viewer's two winning dots tinted green (Fig. 2)
    wins = set(state.winning_dots(viewer))
    for dot in sorted(roles):
        c = dot_centre(dot)
        _diamond(d, _zp(c), _z(STEP / 2 - 2), fill=WIN_TINT if dot in wins else WHITE_DOT, outline=INK,
                 width=_zi(2.5))
    # role badges at the block's outer corners, clear of the towers
    for dot in sorted(roles):
        cx, cy = dot_centre(dot)
        sx = -1 if dot[0] == "e" else 1
        sy = 1 if dot[1:] == "5" else -1
        bx, by = cx + sx * (STEP / 2 + 4), cy + sy * (STEP / 2 + 4)
        label = roles[dot]
        win = dot in wins
        box = (bx - 22, by - 12, bx + 22, by + 12)
        rounded_panel(d, _zb(box), fill=WIN_TINT if win else WHITE_DOT, outline=INK, width=_zi(2),
                      radius=_zi(6))
        text_centred(d, _zp((bx, by)), label, _zi(16), bold=True, fill=INK)


def _towers(d: ImageDraw.ImageDraw, state: QuincalaState) -> None:
    immune = set(state.immune_pieces()) | set(state.gained_pieces())
    for dot, pieces in sorted(state.towers().items()):
        n = len(pieces)
        for i, p in enumerate(pieces):
            size = int(p[1:])
            box = bar_box(dot, i, n, size)
            white = p[0] == "w"
            fill, edge = (WHITE_PIECE, WHITE_EDGE) if white else (BLACK_PIECE, BLACK_EDGE)
            rounded_panel(d, _zb(box), fill=fill, outline=edge, width=_zi(1.6), radius=_zi(4))
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            text_centred(d, _zp((cx, cy + 0.5)), str(size), _zi(14), bold=True,
                         fill=INK if white else (255, 255, 255))
            if (dot, size) in immune:
                star(d, _zp((box[2] + 8, cy)), _z(10), fill=STAR_FILL, outline=INK, width=_zi(1.2))


def _trays(d: ImageDraw.ImageDraw, state: QuincalaState, names: list[str], viewer: int) -> None:
    for seat, top in ((1, TOP_TRAY), (0, BOTTOM_TRAY)):
        active = seat == viewer and not state.is_over
        box = (24, top, WIDTH - 24, top + TRAY_H)
        rounded_panel(d, _zb(box), fill=ACTIVE_TRAY if active else TRAY_FILL, outline=INK if active else MUTED,
                      width=_zi(2.5 if active else 1.5), radius=_zi(12))
        swatch = WHITE_PIECE if seat == 0 else BLACK_PIECE
        _diamond(d, _zp((48, top + TRAY_H / 2)), _z(12), fill=swatch,
                 outline=WHITE_EDGE if seat == 0 else BLACK_EDGE, width=_zi(2))
        label = fit_text(f"{names[seat]} ({SEAT_NAMES[seat]})", _zi(19), _z(WIDTH * 0.30 - 70), bold=True)
        d.text(_zp((68, top + TRAY_H / 2)), label, font=_font(19, True), fill=INK, anchor="lm")
        for kind, pieces in (("hand", state.hand(seat)), ("ledge", state.ledge(seat))):
            x0 = WIDTH * (0.30 if kind == "hand" else 0.63)
            d.text(_zp((x0, top + TRAY_H / 2)), f"{kind}:", font=_font(17), fill=MUTED, anchor="lm")
            x = x0 + 62
            if not pieces:
                d.text(_zp((x, top + TRAY_H / 2)), "–", font=_font(17), fill=MUTED, anchor="lm")
            for p in pieces:
                size = int(p[1:])
                w = 20 + 4 * size
                bx = (x, top + TRAY_H / 2 - 10, x + w, top + TRAY_H / 2 + 10)
                white = p[0] == "w"
                rounded_panel(d, _zb(bx), fill=WHITE_PIECE if white else BLACK_PIECE,
                              outline=WHITE_EDGE if white else BLACK_EDGE, width=_zi(1.6), radius=_zi(4))
                text_centred(d, _zp((x + w / 2, top + TRAY_H / 2 + 0.5)), str(size), _zi(14), bold=True,
                             fill=INK if white else (255, 255, 255))
                x += w + 5


def _font(size: int, bold: bool = False):
    from render.common import font
    return font(_zi(size), bold)


def _target(where: str) -> tuple[float, float]:
    if ":" in where:
        kind, colour = where.split(":")
        return tray_centre("wb".index(colour), kind)
    return dot_centre(where)


def _clearance(state: QuincalaState, dot: str, ux: float, uy: float) -> float:
    """How far from ``dot``'s centre, along (ux, uy), the tower drawn there ends (so arrows stop short of it)."""
    if ":" in dot:
        return 26.0
    pieces = state.tower(dot)
    if not pieces:
        return 10.0
    hw = 13 + 4.4 * max(int(p[1:]) for p in pieces) + 16     # room for an immunity star
    hh = len(pieces) * BAR_H / 2 + 4
    return min(hw / abs(ux) if ux else 1e9, hh / abs(uy) if uy else 1e9)


def _dashed(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour, width: float,
            trim_a: float, trim_b: float) -> None:
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    if length < trim_a + trim_b + 24:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    dash, gap, t = 12.0, 8.0, trim_a
    stop = length - trim_b - 20
    while t < stop:
        e = min(t + dash, stop)
        d.line([_zp((x0 + ux * t, y0 + uy * t)), _zp((x0 + ux * e, y0 + uy * e))], fill=colour, width=_zi(width))
        t = e + gap
    arrow(d, _zp((x0 + ux * (length - trim_b - 22), y0 + uy * (length - trim_b - 22))),
          _zp((x1 - ux * trim_b, y1 - uy * trim_b)), fill=colour, width=_zi(width), head=_z(16),
          casing=(255, 255, 255), casing_width=_zi(1.5))


def _unit(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    return (b[0] - a[0]) / length, (b[1] - a[1]) / length


def _last_turn(d: ImageDraw.ImageDraw, state: QuincalaState, events: list[Event], moves: list[str]) -> None:
    """Legs as solid arrows from tower edge to tower edge; travels as dashed arrows (to a dot or a tray)."""
    for e in events:
        if e.kind == "leg":
            a, b = dot_centre(e.frm), dot_centre(e.to)
            ux, uy = _unit(a, b)
            arrow(d, _zp(a), _zp(b), fill=LEG_INK, width=_zi(6), head=_z(20), casing=(255, 255, 255),
                  casing_width=_zi(2), trim_start=_z(_clearance(state, e.frm, ux, uy)),
                  trim_end=_z(_clearance(state, e.to, ux, uy)))
    for e in events:
        if e.kind in ("knock", "release"):
            a, b = dot_centre(e.frm), _target(e.to)
            ux, uy = _unit(a, b)
            _dashed(d, a, b, TRAVEL_INK, 4, _clearance(state, e.frm, ux, uy), _clearance(state, e.to, ux, uy))


def _header(d: ImageDraw.ImageDraw, state: QuincalaState, names: list[str], viewer: int) -> None:
    outcome = state.outcome()
    if outcome is not None:
        if len(outcome.winners) == 1:
            status = f"{names[outcome.winners[0]]} wins"
        else:
            status = "Draw"
        note = outcome_text(state.game, outcome, names)
    else:
        status = f"{names[viewer]} ({SEAT_NAMES[viewer]}) to move"
        note = state.pending() or (f"the move goes on from {state.leg_dot} (or end)" if state.leg_dot else
                                   "green: your winning dots · blue: your placing areas · ★ immune")
    text_centred(d, (_z(WIDTH / 2), _z(22)), fit_text(status, _zi(26), _z(WIDTH - 40), bold=True), _zi(26),
                 bold=True)
    text_centred(d, (_z(WIDTH / 2), _z(50)), fit_text(note, _zi(17), _z(WIDTH - 40)), _zi(17), fill=MUTED)


def _log(d: ImageDraw.ImageDraw, events: list[Event], moves: list[str]) -> None:
    if not moves:
        text_centred(d, (_z(WIDTH / 2), _z(LOG_TOP + 20)),
                     "Reconstructed board (R1): the original figures are unpublished.", _zi(16), fill=MUTED)
        return
    text_centred(d, (_z(WIDTH / 2), _z(LOG_TOP + 16)),
                 fit_text(f"Last turn: {turn_notation(moves)}", _zi(18), _z(WIDTH - 40), bold=True), _zi(18),
                 bold=True)
    words = []
    for e in events:
        to = e.to.replace(":", " ") if ":" in e.to else e.to
        if ":" in e.to:
            kind, colour = e.to.split(":")
            to = f"{SEAT_NAMES['wb'.index(colour)]}'s {kind}"
        if e.kind == "knock":
            words.append(f"× {e.piece} → {to}")
        elif e.kind == "release":
            words.append(f"rel {e.piece} → {to}")
        elif e.kind == "win":
            words.append(f"{e.piece} completes {e.frm}")
    if words:
        text_centred(d, (_z(WIDTH / 2), _z(LOG_TOP + 44)), fit_text(" · ".join(words), _zi(17), _z(WIDTH - 40)),
                     _zi(17), fill=mix(TRAVEL_INK, INK, 0.3))
