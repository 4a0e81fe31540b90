"""Rincala board image: the ring of eight hollows, the last turn's sowings, the players' captures.

Hollow A sits at twelve o'clock and the letters run clockwise (spec B.3). Each hollow is drawn as an upright
capsule holding its stack bottom → top, every piece in its colour *and* with its letter, the height below
and full stacks (8) marked. Inside the ring a grey arrow shows the clockwise direction, and one coloured arc
per sowing of the last turn runs from its numbered start hollow through its drops (a dot in the colour of
each dropped piece). Pieces collected at the end of the turn are drawn as dashed ghosts on top of the stacks
they came from.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.base import IllegalMove, outcome_text
from engines.rincala import FULL, HOLLOWS, RincalaState, Sowing, points
from render.common import BACKGROUND, HIGHLIGHT, INK, MUTED, contrast_ink, disc, fit_text, font, mix, text_centred

# --- geometry (pixels) ------------------------------------------------------------------------------------
WIDTH = 900
PIECE_W, PIECE_H, PIECE_GAP = 64, 19, 2
CAP_W, CAP_HEAD, CAP_FOOT, CAP_PAD = 88, 30, 28, 6
CAP_H = CAP_HEAD + FULL * (PIECE_H + PIECE_GAP) + CAP_FOOT + 2 * CAP_PAD
RING = 360                                  # centre of the ring to the centre of a hollow
TOP = 58                                    # the status bar above the ring
CX, CY = WIDTH // 2, TOP + 8 + RING + CAP_H // 2
PANEL_TOP = CY + RING + CAP_H // 2 + 18
ARC_OUTER, ARC_STEP = 224, 14               # radius of the first sowing's arc, and the spacing of the next
LAP_STEP = 12                               # how far inside a sowing's second lap runs
LINE_H = 26                                 # a line of the "Last turn" list
CW_ARROW_R = 62

# --- palette ----------------------------------------------------------------------------------------------
PIECE_FILL = {"R": (206, 52, 42), "G": (0, 150, 105), "Y": (245, 200, 40), "W": (252, 252, 248)}
PIECE_EDGE = (60, 52, 44)
HOLLOW_FILL = (224, 208, 178)
HOLLOW_EDGE = (150, 124, 90)
SOWING_COLOURS = [(230, 60, 40), (40, 110, 220), (150, 70, 190), (230, 140, 0), (20, 150, 160),
                  (200, 60, 140), (90, 90, 90)]


def angle(hollow: int) -> float:
    """Screen angle in degrees (clockwise from +x, as Pillow measures): A at -90, +45 per hollow."""
    return -90.0 + 45.0 * hollow


def point(deg: float, radius: float) -> tuple[float, float]:
    return CX + radius * math.cos(math.radians(deg)), CY + radius * math.sin(math.radians(deg))


def hollow_box(hollow: int) -> tuple[int, int, int, int]:
    x, y = point(angle(hollow), RING)
    return round(x - CAP_W / 2), round(y - CAP_H / 2), round(x + CAP_W / 2), round(y + CAP_H / 2)


def piece_box(hollow: int, slot: int) -> tuple[int, int, int, int]:
    """The rectangle of the piece at height ``slot`` (0 = bottom) of a hollow's stack."""
    x0, _, x1, y1 = hollow_box(hollow)
    bottom = y1 - CAP_FOOT - CAP_PAD - slot * (PIECE_H + PIECE_GAP)
    left = (x0 + x1 - PIECE_W) // 2
    return left, bottom - PIECE_H, left + PIECE_W, bottom


# --- drawing ----------------------------------------------------------------------------------------------
def draw(state: RincalaState, last_turn: list[str], names: list[str] | None,
         previous: RincalaState | None) -> Image.Image:
    names = list(names) if names else list(state.game.seat_names(state.players))
    sowings = replay(previous, last_turn)
    lines = [part for line in turn_lines(last_turn, sowings) for part in wrap(line, font(17), WIDTH - 48)]
    height = PANEL_TOP + 44 * state.players + (30 + LINE_H * len(lines) if lines else 0) + 24
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(image)
    draw_status(d, state, names)
    draw_clockwise_arrow(d)
    for k, sowing in enumerate(sowings):
        draw_sowing(d, k, sowing)
    starts = {s.start: k for k, s in enumerate(sowings)}
    collected = dict(sowings[-1].captures) if sowings else {}
    for hollow in range(8):
        draw_hollow(d, state.board[hollow], hollow, starts.get(hollow), collected.get(hollow))
    draw_players(d, state, names)
    if lines:
        y = PANEL_TOP + 44 * state.players + 6
        d.text((24, y), "Last turn", font=font(18, True), fill=INK)
        for i, line in enumerate(lines):
            d.text((24, y + 30 + LINE_H * i), line, font=font(17), fill=INK)
    return image


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
    if not sowings:
        return [", ".join(moves)] if moves else []
    lines = []
    for k, s in enumerate(sowings):
        drops = ", ".join(f"{c}→{HOLLOWS[h]}" + (" (empty)" if h in s.empty_drops else "") for h, c in s.drops)
        line = f"{k + 1}. {s.move}: {drops}"
        if s.skipped:
            line += " · jumped full " + ", ".join(dict.fromkeys(HOLLOWS[h] for h in s.skipped))
        if s.captures:
            line += " · collected " + ", ".join(f"{c} from {HOLLOWS[h]}" for h, c in s.captures)
        lines.append(line)
    return lines


def draw_status(d: ImageDraw.ImageDraw, state: RincalaState, names: list[str]) -> None:
    """Whose turn (and "must move again" inside a forced continuation), or the result and why."""
    d.text((24, 16), "Rincala", font=font(26, True), fill=INK)
    x, room = 170, WIDTH - 170 - 24
    again = "  — must move again" if state.pending() else ""
    outcome = state.outcome()
    if outcome is not None:
        won = [names[w] for w in outcome.winners]
        text = f"Game over: {won[0]} wins" if len(won) == 1 else f"Game over: {' and '.join(won)} share the win"
        sub = outcome_text(state.game, outcome, names)
    else:
        text = f"{names[state.seat]} to move"
        sub = "First turn: exactly one move." if state.phase == "first" else ""
    text = fit_text(text, 22, room - font(22, True).getlength(again), bold=True)
    d.text((x, 14), text, font=font(22, True), fill=INK)
    if again:
        d.text((x + font(22, True).getlength(text), 14), again, font=font(22, True), fill=HIGHLIGHT)
    if sub:
        d.text((x, 40), fit_text(sub, 15, room), font=font(15), fill=MUTED)


def draw_clockwise_arrow(d: ImageDraw.ImageDraw) -> None:
    r = CW_ARROW_R
    d.arc((CX - r, CY - r, CX + r, CY + r), start=-60, end=230, fill=MUTED, width=4)
    arrowhead(d, 230, r, +1, MUTED, 12)
    text_centred(d, (CX, CY), "clockwise", 15, fill=MUTED)


def arrowhead(d: ImageDraw.ImageDraw, deg: float, radius: float, direction: int, colour, size: float) -> None:
    """A triangle at ``deg`` on a circle, pointing along it (clockwise for +1)."""
    tip = point(deg, radius)
    rad = math.radians(deg)
    tx, ty = -math.sin(rad) * direction, math.cos(rad) * direction        # tangent, in the direction
    nx, ny = math.cos(rad), math.sin(rad)                                  # outward normal
    base = (tip[0] - tx * size, tip[1] - ty * size)
    d.polygon([tip, (base[0] + nx * size * 0.6, base[1] + ny * size * 0.6),
               (base[0] - nx * size * 0.6, base[1] - ny * size * 0.6)], fill=colour)


def draw_sowing(d: ImageDraw.ImageDraw, k: int, s: Sowing) -> None:
    colour = SOWING_COLOURS[k % len(SOWING_COLOURS)]
    radius = ARC_OUTER - ARC_STEP * k
    start = angle(s.start)
    for step in range(1, len(s.path) + 1):  # one segment per hollow passed; a second lap runs further in
        r = radius - LAP_STEP * (step // 8)
        a, b = sorted((start + 45 * (step - 1) * s.direction, start + 45 * step * s.direction))
        if step == len(s.path):             # leave room for the arrowhead
            a, b = (a, b - 3) if s.direction > 0 else (a + 3, b)
        d.arc((CX - r, CY - r, CX + r, CY + r), start=a, end=b, fill=colour, width=4)
    arrowhead(d, start + 45 * len(s.path) * s.direction, radius - LAP_STEP * (len(s.path) // 8),
              s.direction, colour, 14)
    for step, (_, dropped) in enumerate(s.path, 1):   # a dot per drop, in the dropped piece's colour
        if dropped:
            centre = point(start + 45 * step * s.direction, radius - LAP_STEP * (step // 8))
            disc(d, centre, 7, fill=PIECE_FILL[dropped], outline=PIECE_EDGE, width=2)
    disc(d, point(start, radius), 12, fill=colour, outline=BACKGROUND, width=2)    # the numbered start
    text_centred(d, point(start, radius), str(k + 1), 15, bold=True, fill=(255, 255, 255))


def draw_hollow(d: ImageDraw.ImageDraw, stack: str, hollow: int, start_of: int | None,
                collected: str | None) -> None:
    box = hollow_box(hollow)
    full = len(stack) >= FULL
    edge = SOWING_COLOURS[start_of % len(SOWING_COLOURS)] if start_of is not None else HOLLOW_EDGE
    d.rounded_rectangle(box, radius=26, fill=HOLLOW_FILL, outline=INK if full else edge,
                        width=5 if full or start_of is not None else 2)
    x0, y0, x1, y1 = box
    text_centred(d, ((x0 + x1) / 2, y0 + 4), HOLLOWS[hollow], 24, bold=True, anchor="mt")
    for slot, colour in enumerate(stack):
        draw_piece(d, piece_box(hollow, slot), colour)
    if collected:
        draw_piece(d, piece_box(hollow, len(stack)), collected, ghost=True)
    foot = ((x0 + x1) / 2, y1 - CAP_FOOT / 2 - 3)
    if full:
        d.rounded_rectangle((x0 + 8, y1 - CAP_FOOT - 2, x1 - 8, y1 - 6), radius=6, fill=INK)
        text_centred(d, foot, f"FULL {len(stack)}", 16, bold=True, fill=(255, 255, 255))
    else:
        text_centred(d, foot, str(len(stack)), 16)


def draw_piece(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: str, ghost: bool = False) -> None:
    """A piece: its colour and its letter. A ghost (collected this turn) is paler inside a dashed frame."""
    fill = PIECE_FILL[colour]
    x0, y0, x1, y1 = box
    if ghost:
        fill = mix(fill, HOLLOW_FILL, 0.5)
        dashed_rectangle(d, box, HIGHLIGHT)
        d.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), radius=3, fill=fill)
    else:
        d.rounded_rectangle(box, radius=5, fill=fill, outline=PIECE_EDGE, width=1)
    text_centred(d, ((x0 + x1) / 2, (y0 + y1) / 2), colour, 14, bold=True, fill=contrast_ink(fill))


def dashed_rectangle(d: ImageDraw.ImageDraw, box, colour, dash: int = 5) -> None:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, 2 * dash):
        d.line((x, y0, min(x + dash, x1), y0), fill=colour, width=2)
        d.line((x, y1, min(x + dash, x1), y1), fill=colour, width=2)
    for y in range(y0, y1, 2 * dash):
        d.line((x0, y, x0, min(y + dash, y1)), fill=colour, width=2)
        d.line((x1, y, x1, min(y + dash, y1)), fill=colour, width=2)


def draw_players(d: ImageDraw.ImageDraw, state: RincalaState, names: list[str]) -> None:
    y = PANEL_TOP
    d.line((24, y - 8, WIDTH - 24, y - 8), fill=HOLLOW_EDGE, width=1)
    for seat, caps in enumerate(state.captured):
        mark = ""
        if state.is_over and seat in state.winners:
            mark = "★ "
        elif seat == state.to_move:
            mark = "▶ "
        colour = HIGHLIGHT if mark else INK
        d.text((24, y + 8), mark, font=font(20, True), fill=colour)
        d.text((52, y + 8), fit_text(names[seat], 20, 230, bold=True), font=font(20, True), fill=INK)
        score = f"{points(caps)} pts"
        d.text((290, y + 8), score, font=font(20, True), fill=INK)
        x = 380
        for c in caps:                          # at most 20: four pieces always stay on the board
            draw_piece(d, (x, y + 8, x + 20, y + 8 + PIECE_H + 4), c)
            x += 22
        if not caps:
            d.text((x, y + 10), "nothing collected yet", font=font(16), fill=MUTED)
        y += 44


def wrap(text: str, f, width: float, indent: str = "     ") -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` pixels; later lines indented."""
    lines, line = [], ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and f.getlength(trial) > width:
            lines.append(line)
            trial = indent + word
        line = trial
    return [*lines, line] if line else lines


__all__ = ["draw", "hollow_box", "piece_box"]
