"""Issue [16]: a more compact Quincala board that stays readable on a phone (about 400 px wide): at most 1100 px
high at 800 wide (it was 1286), the smallest piece at least 12 px either way at 400 wide (it was 12 × 10.5), and
every numeral of a tall tower drawn whole in the part of its bar that shows."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw

from render import board_png
from render import quincala as rq
from render.common import font
from tests.render.test_last_turn_names import turns
from tests.render.test_quincala import GAME, image, position

PHONE = 400


def test_every_board_is_at_most_1100_px_high_at_800_wide():
    played = turns("quincala", 2, seed=3)
    for state, before, moves in [played[0], played[40], played[-1]]:
        im = image(board_png(state, last_turn=moves, names=["Ann", "Bob"], previous=before))
        assert im.width == 800 and im.height <= 1100, im.size
    for variant in GAME.variants:
        assert image(board_png(GAME.new(variant=variant))).size == (800, rq.HEIGHT)


def drawn_box(with_piece: Image.Image, without: Image.Image, dot: str) -> tuple[int, int, int, int]:
    """The box of what differs around ``dot`` between two boards (the piece as drawn, edges included)."""
    cx, cy = rq.dot_centre(dot)
    area = (cx - rq.STEP_X // 2, cy - rq.STEP_Y // 2, cx + rq.STEP_X // 2, cy + rq.STEP_Y // 2)
    box = ImageChops.difference(with_piece.crop(area), without.crop(area)).getbbox()
    assert box is not None
    return box


def test_the_smallest_piece_is_at_least_12_px_either_way_on_a_phone():
    empty = image(board_png(GAME.decode(position({}))))
    for piece in ("w1", "b1"):
        im = image(board_png(GAME.decode(position({"c4": piece}))))
        x0, y0, x1, y1 = drawn_box(im, empty, "c4")
        scale = PHONE / im.width
        assert (x1 - x0) * scale >= 12 and (y1 - y0) * scale >= 12, (piece, x1 - x0, y1 - y0)


def ink_iou(im: Image.Image, text: str, centre: tuple[float, float], size: int, ink_is_dark: bool) -> float:
    """How well the numeral ``text`` drawn alone matches the ink around ``centre`` (intersection over union of
    ink pixels, best of a few pixels' shift), inside the numeral's own box: 1 drawn whole, low if covered."""
    f = font(size, True)
    ref = Image.new("L", (60, 60), 0)
    ImageDraw.Draw(ref).text((30, 30), text, font=f, fill=255, anchor="mm")
    bx0, by0, bx1, by1 = ref.getbbox() or (0, 0, 1, 1)
    want = {(x - 30, y - 30) for y in range(by0, by1) for x in range(bx0, bx1) if ref.getpixel((x, y)) > 128}
    best = 0.0
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            cx, cy = round(centre[0]) + dx, round(centre[1]) + dy
            seen = set()
            for y in range(by0 - 30, by1 - 30):
                for x in range(bx0 - 30, bx1 - 30):
                    lum = sum(im.getpixel((cx + x, cy + y)))
                    if (lum < 3 * 140) if ink_is_dark else (lum > 3 * 140):
                        seen.add((x, y))
            best = max(best, len(want & seen) / len(want | seen))
    return best


def test_every_numeral_of_a_tall_tower_is_drawn_whole():
    """A tower of four (numerals at full size) and a tower of five (always 1-2-3-4-5, closer stacked, smaller
    numerals): each numeral shows whole in the part of its bar below the one above."""
    for colour, dark in (("w", True), ("b", False)):
        for sizes in ((2, 3, 4, 5), (1, 2, 3, 4, 5)):
            tower = " ".join(f"{colour}{k}" for k in sizes)
            im = image(board_png(GAME.decode(position({"c4": tower, "c5": tower, "c3": tower}, mover="b"))))
            for i, k in enumerate(sizes):
                iou = ink_iou(im, str(k), rq.numeral_centre("c4", i, len(sizes)), rq.numeral_size(len(sizes)), dark)
                assert iou > 0.8, (colour, sizes, k, iou)
    assert rq.numeral_size(4) >= 22 and rq.numeral_size(5) >= 17
