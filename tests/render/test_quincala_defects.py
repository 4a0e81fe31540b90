"""Pixel probes for the Quincala board's reported defects (players at 400 px wide, and under simulated colour
blindness). Each probe fails on the renderer before the fix (c630da8): its coordinates hidden under the trays,
no ring on the completed tower, the tint on the wrong player's dots at the end, no winner badge, travel arrows
over towers, five-piece towers spilling out of their dot's area, and a red leg arrow that only hue told apart.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import board_png
from render import quincala as rq
from render.common import BACKGROUND, font, luminance
from tests.render.test_quincala import GAME, black_wins, close, image, position, white_wins

# --- colour-vision simulation (Machado, Oliveira & Fernandes 2009, severity 1, on linear RGB) ---------------
MACHADO = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def simulate(rgb, kind):
    def lin(c):
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    def enc(v):
        v = min(1.0, max(0.0, v))
        return round(255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055))

    r, g, b = (lin(c) for c in rgb)
    return tuple(enc(m[0] * r + m[1] * g + m[2] * b) for m in MACHADO[kind])


def contrast(a, b) -> float:
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def every_vision(a, b) -> float:
    """The lowest contrast of ``a`` against ``b`` under normal vision and the three dichromacies."""
    return min([contrast(a, b)] + [contrast(simulate(a, k), simulate(b, k)) for k in MACHADO])


# --- glyph probe ------------------------------------------------------------------------------------------

def glyph_match(im: Image.Image, text: str, centre, size: int, bold: bool = True) -> float:
    """How well the dark pixels around ``centre`` match ``text`` as the board font draws it (IoU, best of
    a few pixels' shift): near 1 where the label is drawn and visible, near 0 where it is hidden."""
    w, h = round(1.6 * size), size + 2          # the label only, clear of the frame beside it
    cx, cy = round(centre[0]), round(centre[1])
    crop = im.crop((cx - w // 2, cy - h // 2, cx - w // 2 + w, cy - h // 2 + h))
    seen = {(x, y) for y in range(h) for x in range(w) if sum(crop.getpixel((x, y))) < 3 * 137}
    ref = Image.new("L", (w, h), 0)
    ImageDraw.Draw(ref).text((w / 2, h / 2), text, font=font(size, bold), fill=255, anchor="mm")
    want = {(x, y) for y in range(h) for x in range(w) if ref.getpixel((x, y)) > 128}
    best = 0.0
    for dx in range(-4, 5):
        for dy in range(-4, 5):
            moved = {(x + dx, y + dy) for x, y in want}
            best = max(best, len(moved & seen) / len(moved | seen))
    return best


def test_file_letters_and_rank_numbers_are_visible_on_every_side():
    """Moves are typed as `f9-e9`: the letters above and below the board and the numbers either side must
    show (the letters used to be drawn and then covered by the trays)."""
    # a knocked piece travelling off the board to Black's hand: its arrow must not cover the letters either
    prev = GAME.decode(position({"e2": "w3", "e3": "b3", "e5": "b3", "e6": "b3", "c5": "w1 w2"}))
    im = image(board_png(prev.play("e2-e3"), last_turn=["e2-e3"], names=["Ann", "Bob"], previous=prev))
    trays = [rq.tray_box(0), rq.tray_box(1)]
    for f in "abcdefghij":
        for side in ("top", "bottom"):
            x, y = rq.file_label_centre(f, side)
            assert not any(x0 <= x <= x1 and y0 - 12 <= y <= y1 + 12 for x0, y0, x1, y1 in trays), (f, side)
            assert glyph_match(im, f, (x, y), rq.COORD_SIZE) > 0.9, (f, side)
    for r in range(1, 11):
        for side in ("left", "right"):
            assert glyph_match(im, str(r), rq.rank_label_centre(r, side), rq.COORD_SIZE) > 0.9, (r, side)
    # the probe tells letters apart: 'b' is not where 'a' is drawn
    assert glyph_match(im, "b", rq.file_label_centre("a", "top"), rq.COORD_SIZE) < 0.8


def test_at_the_end_the_completed_tower_is_ringed_and_the_winners_dots_stay_tinted():
    prev, moves, done = white_wins()         # White wins on f5; Black is 'to move' in the final code
    assert done.seat_to_show == 1
    im = image(board_png(done, last_turn=moves, names=["Ann", "Bob"], previous=prev))
    # the tint shows the winner's (White's) winning dots: the empty f6 green, e6 (Black's) plain white
    assert close(im.getpixel(rq.dot_centre("f6")), rq.WIN_TINT)
    assert close(im.getpixel(rq.dot_centre("e6")), rq.WHITE_DOT)
    ex, ey = rq.dot_centre("e5")
    below = (rq.tower_height(2) // 2 + rq.STEP_Y // 2 - 6) // 2       # under e5's two-piece tower, in its diamond
    assert close(im.getpixel((ex, ey + below)), rq.WHITE_DOT)
    # a thick gold ring in a dark casing around f5, beside the tower's narrow upper bars
    x0, y0, x1, y1 = rq.ring_box("f5")
    cy = rq.dot_centre("f5")[1] - rq.STEP_Y // 4
    for x in (x0 + 6, x1 - 6):
        assert close(im.getpixel((round(x), cy)), rq.WINNER, 40), x
    for x in (x0 + 1.5, x0 + 10, x1 - 10):
        assert luminance(im.getpixel((round(x), cy))) < 0.05, x
    # a running game rings nothing there
    plain = image(board_png(prev, names=["Ann", "Bob"]))
    assert not close(plain.getpixel((round(x0 + 6), cy)), rq.WINNER, 40)


def test_black_winning_on_whites_home_rings_e5():
    prev, moves, done = black_wins()
    im = image(board_png(done, last_turn=moves, names=["Ann", "Bob"], previous=prev))
    x0, _, _, _ = rq.ring_box("e5")
    assert close(im.getpixel((round(x0 + 6), rq.dot_centre("e5")[1] - rq.STEP_Y // 4)), rq.WINNER, 40)
    assert close(im.getpixel(rq.dot_centre("e6")), rq.WIN_TINT)       # Black's other winning dot


def test_travel_arrows_pass_under_towers():
    """e2-e3 knocks b3, which travels e3 -> e5 straight through e4's tower: the tower stays as it was."""
    prev = GAME.decode(position({"e2": "w3", "e3": "b3", "e4": "w1 w2"}))
    done = prev.play("e2-e3")
    with_turn = image(board_png(done, last_turn=["e2-e3"], previous=prev))
    without = image(board_png(done))
    for i, size in enumerate((1, 2)):
        x0, y0, x1, y1 = rq.bar_box("e4", i, 2, size)
        box = (round(x0) + 2, round(y0) + 2, round(x1) - 2, round(y1) - 2)     # inside the anti-aliased rim
        assert with_turn.crop(box).tobytes() == without.crop(box).tobytes(), size
    # ... and the arrow is there, in the gaps between the towers
    x, _ = rq.dot_centre("e4")
    column = [with_turn.getpixel((x, y)) for y in range(rq.dot_centre("e4")[1], rq.dot_centre("e3")[1])]
    assert any(close(c, rq.TRAVEL_INK, 30) for c in column)


def test_a_tower_of_five_fits_its_dots_area():
    """Five readable bars fit the area of their dot, with clear space to the neighbouring towers."""
    code = position({"c3": "w1 w2 w3 w4 w5", "c4": "b1 b2 b3 b4 b5", "d3": "b1 b2 b3 b4 b5"}, mover="b")
    im = image(board_png(GAME.decode(code)))
    for dot in ("c3", "c4", "d3"):
        cx, cy = rq.dot_centre(dot)
        for i, size in enumerate(range(1, 6)):
            x0, y0, x1, y1 = rq.bar_box(dot, i, 5, size)
            assert cx - rq.STEP_X / 2 < x0 and x1 < cx + rq.STEP_X / 2, (dot, size)
            assert cy - rq.STEP_Y / 2 < y0 and y1 < cy + rq.STEP_Y / 2, (dot, size)
        assert rq.BAR_H >= 24 and rq.numeral_size(4) >= 22      # and the numerals stay readable (a tower of five,
        assert rq.numeral_size(5) >= 17                           # always 1-2-3-4-5, stacks closer)
    board = rq.BOARD_FILL
    # between c3 (below) and c4 (above): rows of plain board across the towers' width
    cx, c3y = rq.dot_centre("c3")
    _, c4y = rq.dot_centre("c4")
    clear = [y for y in range(c4y, c3y) if all(close(im.getpixel((x, y)), board, 8) for x in range(cx - 28, cx + 29))]
    assert len(clear) >= 3
    # between c3 and d3 (side by side): columns of plain board along the towers' height
    dx, _ = rq.dot_centre("d3")
    clear = [x for x in range(cx, dx) if all(close(im.getpixel((x, y)), board, 8) for y in range(c3y - 50, c3y + 51))]
    assert len(clear) >= 4


def test_highlights_read_by_luminance_under_every_colour_blindness():
    """The leg arrow is a light core in a dark casing (it used to be red in a white halo, olive for a
    deuteranope); travels are dark dashes in a white halo; the end ring is gold in a dark casing."""
    prev = GAME.decode(position({"d3": "w1 w3 w4", "d6": "b3", "b7": "b1"}))
    moves = ["d3-d6", "d6-b6", "b6-b7"]
    s = prev
    for m in moves:
        s = s.play(m)
    im = image(board_png(s, last_turn=moves, previous=prev))
    # a cross-section of the horizontal leg d6-b6, over c6 (plain board)
    x, y = rq.dot_centre("c6")
    x += 12
    profile = [im.getpixel((x, y + dy)) for dy in range(-12, 13)]
    core = [c for c in profile if close(c, rq.LEG_INK, 30)]
    assert core, profile
    casing = [c for c in profile if luminance(c) < 0.03]
    assert len(casing) >= 4, profile                     # dark on both sides of the core
    edge = profile[0], profile[-1]
    assert all(close(c, rq.BOARD_FILL, 10) for c in edge)
    assert every_vision(rq.LEG_INK, rq.LEG_CASE) >= 3
    for ground in (rq.BOARD_FILL, rq.PLACE_WASH, rq.WIN_TINT, rq.WHITE_DOT, BACKGROUND):
        assert every_vision(rq.LEG_CASE, ground) >= 3, ground
        assert every_vision(rq.TRAVEL_INK, ground) >= 3, ground
    # a leg and a travel differ in luminance too, not only in hue and dashes
    assert every_vision(rq.LEG_INK, rq.TRAVEL_INK) >= 2.5
    # the completed tower's ring and the ring where a move goes on
    assert every_vision(rq.WINNER, rq.LEG_CASE) >= 3
    # the winning tint stays lighter than black dots and darker than the white dots for everyone
    assert every_vision(rq.WIN_TINT, rq.WHITE_DOT) >= 1.8


def test_the_dot_where_a_move_goes_on_is_ringed():
    state = GAME.decode(position({"c3": "w2 w4"}))
    mid = state.play("c3-c5")
    assert mid.leg_dot == "c5"
    im = image(board_png(mid, last_turn=["c3-c5"], previous=state))
    x0, _, x1, _ = rq.ring_box("c5")
    cy = rq.dot_centre("c5")[1] - rq.STEP_Y // 4
    assert close(im.getpixel((round(x0 + 6), cy)), rq.LEG_INK, 40)
    assert luminance(im.getpixel((round(x0 + 10), cy))) < 0.05
