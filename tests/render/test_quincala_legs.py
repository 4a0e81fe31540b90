"""Issue [16]: every leg of a Quincala turn is told in the last-turn line and its arrow shows on the board.

The probes look only at pixels and at the rules' geometry (dot centres): for each leg, the leg colour shows in a
corridor along the straight line between its two dots, away from every other leg's corridor; legs over the
same two dots (there and back, or twice) show as that many separate strokes across the corridor. The turns
come from seeded random games: 4-leg turns after which the mover must place from the ledge, and the turns
whose legs run between wide pieces on neighbouring dots or retrace a leg (before, one of those arrows was
hidden under two wide pieces, and a retraced leg covered the first).
"""

from __future__ import annotations

import math

import pytest
from PIL import Image

from render import board_png
from render import quincala as rq
from tests.render.test_last_turn_names import turns
from tests.render.test_quincala import image

NAMES = ["Ann", "Bob"]
CORRIDOR = 40          # half width of the band along a leg's line where its arrow may run (lanes, offsets)
INK_TOLERANCE = 12     # the leg core is an exact palette colour; the immunity star's gold is 26 away


def legs_of(moves: list[str]) -> list[tuple[str, str]]:
    return [tuple(m.split("-", 1)) for m in moves if "-" in m and m[0].isalpha() and m[1].isdigit()]


def ink_mask(im: Image.Image) -> Image.Image:
    """'1' where a pixel is the legs' core colour."""
    r, g, b = rq.LEG_INK
    bands = [band.point(lambda v, c=c: 255 if abs(v - c) <= INK_TOLERANCE else 0)
             for band, c in zip(im.split(), (r, g, b), strict=True)]
    out = bands[0]
    for band in bands[1:]:
        out = Image.composite(band, Image.new("L", out.size, 0), out)
    return out


def frame(frm: str, to: str) -> tuple[float, float, float, float, float]:
    """The leg's start, unit direction and length (dot centres)."""
    (ax, ay), (bx, by) = rq.dot_centre(frm), rq.dot_centre(to)
    length = math.hypot(bx - ax, by - ay)
    return ax, ay, (bx - ax) / length, (by - ay) / length, length


def distance(x: float, y: float, frm: str, to: str) -> float:
    """From (x, y) to the segment between the two dots' centres."""
    ax, ay, ux, uy, length = frame(frm, to)
    t = min(length, max(0.0, (x - ax) * ux + (y - ay) * uy))
    return math.hypot(x - ax - ux * t, y - ay - uy * t)


def strokes(ink: Image.Image, leg: tuple[str, str], others: list[tuple[str, str]]) -> tuple[int, int]:
    """(leg-coloured pixels in the leg's own corridor, the most separate strokes on one cross-section of it):
    pixels nearer another pair of dots' line are left out."""
    px = ink.load()
    ax, ay, ux, uy, length = frame(*leg)
    count, most = 0, 0
    for t in range(0, round(length) + 1):
        runs, was = 0, False
        for o in range(-CORRIDOR, CORRIDOR + 1):
            x, y = round(ax + ux * t - uy * o), round(ay + uy * t + ux * o)
            on = (0 <= x < ink.width and 0 <= y < ink.height and px[x, y] == 255
                  and all(distance(x, y, *other) > abs(o) for other in others))
            count += on
            runs += on and not was
            was = on
        most = max(most, runs)
    return count, most


def check_every_leg_shows(state, before, moves) -> None:
    im = image(board_png(state, last_turn=moves, names=NAMES, previous=before))
    ink = ink_mask(im)
    legs = legs_of(moves)
    for leg in set(legs):
        pair = set(leg)
        same = sum(set(other) == pair for other in legs)
        others = [other for other in legs if set(other) != pair]
        count, most = strokes(ink, leg, others)
        assert count >= 40, (leg, moves, count)                  # the arrow shows, not only a sliver of it
        assert most >= same, (leg, moves, most, same)            # each leg over these two dots its own stroke


def found_turns(want, seeds=range(60), limit=3):
    """(after, before, moves) of seeded random games' turns that ``want`` accepts."""
    out = []
    for seed in seeds:
        for state, before, moves in turns("quincala", 2, seed=seed):
            if not state.is_over and want(state, before, moves):
                out.append((state, before, moves))
                if len(out) == limit:
                    return out
    return out


@pytest.fixture(scope="module")
def ledge_after_four_legs():
    """4-leg (or longer) turns after which the mover must first place from the ledge."""
    found = found_turns(lambda s, b, m: len(legs_of(m)) >= 4 and s.ledge(s.seat_to_show), limit=4)
    assert len(found) == 4
    return found


def test_every_leg_of_a_turn_before_placing_from_the_ledge_shows(ledge_after_four_legs):
    for state, before, moves in ledge_after_four_legs:
        check_every_leg_shows(state, before, moves)


def test_a_leg_between_wide_pieces_on_neighbouring_dots_shows():
    def wide_neighbours(state, before, moves) -> bool:
        for frm, to in legs_of(moves):
            (ax, ay), (bx, by) = rq.dot_centre(frm), rq.dot_centre(to)
            if abs(ax - bx) == rq.STEP_X and ay == by:
                widest = [max(int(p[1]) for p in state.tower(d)) if state.tower(d) else 0 for d in (frm, to)]
                if min(widest) >= 4:
                    return True
        return False

    found = found_turns(wide_neighbours, limit=2)
    assert found
    for turn in found:
        check_every_leg_shows(*turn)


def test_retraced_legs_show_side_by_side():
    def retraced(state, before, moves) -> bool:
        pairs = [frozenset(leg) for leg in legs_of(moves)]
        return len(set(pairs)) < len(pairs)

    found = found_turns(retraced, limit=3)
    assert len(found) == 3
    for turn in found:
        check_every_leg_shows(*turn)


class Drawn:
    """Every text the board draws: (baseline, left, right, text)."""

    def __init__(self, monkeypatch):
        self.parts: list[tuple[int, float, float, str]] = []
        label, name = rq._label, rq._name

        def spy_label(img, x, baseline, text, size, **k):
            width = rq._length(text, size, k.get("bold", False))
            left = x - width / 2 if k.get("align") == "m" else x
            self.parts.append((round(baseline), left, left + width, text))
            label(img, x, baseline, text, size, **k)

        def spy_name(img, x, baseline, text, size, **k):
            self.parts.append((round(baseline), x, x + rq._name_length(text, size, k.get("bold", False)), text))
            name(img, x, baseline, text, size, **k)

        monkeypatch.setattr(rq, "_label", spy_label)
        monkeypatch.setattr(rq, "_name", spy_name)

    def line(self, start: str) -> tuple[str, float, float]:
        """The line that starts with ``start``, and how far left and right it reaches."""
        rows: dict[int, list[tuple[float, float, str]]] = {}
        for y, left, right, text in self.parts:
            rows.setdefault(y, []).append((left, right, text))
        for parts in rows.values():
            parts.sort()
            text = "".join(t for _, _, t in parts)
            if text.startswith(start):
                return text, parts[0][0], max(r for _, r, _ in parts)
        raise AssertionError(f"no line starts with {start!r}")


def test_the_last_turn_line_tells_every_leg_and_fits_the_board(monkeypatch, ledge_after_four_legs):
    """The line names the player who moved and holds the whole turn in the §7 notation, every leg in it, inside
    the image even for the longest turn of the seeded games (placements, a home flush and legs)."""
    longest = max((t for seed in range(12) for t in turns("quincala", 2, seed=seed) if not t[0].is_over),
                  key=lambda t: rq._length(rq.turn_notation(t[2]), rq.TEXT_SIZE, True))
    names = ["Annabelle", "Bartholomew"]
    for state, before, moves in [*ledge_after_four_legs, longest]:
        drawn = Drawn(monkeypatch)
        rq.draw(state, moves, names, before)
        line, left, right = drawn.line("Last turn by ")
        who, rest = line[len("Last turn by "):].split(": ", 1)
        assert names[before.to_move].startswith(who.rstrip("…")), who      # shortened only when room is short
        told = rest.split(" · ")[0]
        assert told == rq.turn_notation(moves), (told, moves)
        path = told.split(" ; ")[-1]
        for frm, to in legs_of(moves):
            assert f"{frm}-{to}" in path, (frm, to, told)
        assert 0 <= left and right <= rq.WIDTH, (line, left, right)


def crosses_a_tag(frm: str, to: str) -> bool:
    (ax, ay), (bx, by) = rq.dot_centre(frm), rq.dot_centre(to)
    boxes = [rq.role_tag_box(dot) for dot in ("e5", "f5", "e6", "f6")]
    return any(x0 <= ax + (bx - ax) * i / 50 <= x1 and y0 <= ay + (by - ay) * i / 50 <= y1
               for i in range(51) for x0, y0, x1, y1 in boxes)


def unbroken(ink: Image.Image, leg: tuple[str, str]) -> float:
    """The share of the leg's line, from the first to the last point where its arrow shows, along which it
    shows (within 8 px of the line)."""
    px = ink.load()
    ax, ay, ux, uy, length = frame(*leg)
    shown = [t for t in range(round(length) + 1)
             if any(px[round(ax + ux * t - uy * o), round(ay + uy * t + ux * o)] == 255 for o in range(-8, 9))]
    assert shown, leg
    return len(shown) / (shown[-1] - shown[0] + 1)


def test_a_leg_across_a_white_dots_role_tag_shows_whole():
    """The role tags stand on the corners between the white dots and their neighbours, where diagonal legs
    run: the tag's clear margin used to cut the middle out of such a leg (it is drawn over the tag now)."""
    found = found_turns(lambda s, b, m: any(crosses_a_tag(*leg) for leg in legs_of(m)), seeds=range(30), limit=3)
    assert len(found) == 3
    for state, before, moves in found:
        ink = ink_mask(image(board_png(state, last_turn=moves, names=NAMES, previous=before)))
        for leg in legs_of(moves):
            if crosses_a_tag(*leg):
                assert unbroken(ink, leg) > 0.95, (leg, moves)
