"""The Spinca board image: valid, small, deterministic, and showing what the position holds."""

import io
import math
import random

import pytest
from PIL import Image

from engines import GAMES
from render import board_png
from render import spinca as R
from render.common import MAX_PNG_BYTES

GAME = GAMES["spinca"]
P71 = "2 WBB./BW../..../..../W../.../.../../.. 1 1c1"
P73 = "3 WWW./WWW./WWW./..../WB./WW./.../R./.. 1 -"
FULL4 = "4 BWWB/WWBB/WBWB/WWBB/BWB/WWB/WBB/WW/WB 2 3b2"


def image(state, **kw) -> Image.Image:
    data = board_png(state, **kw)
    assert data.startswith(b"\x89PNG") and len(data) <= MAX_PNG_BYTES
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def close(a, b, tol=12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def random_state(players: int, turns: int, seed: int):
    rng = random.Random(seed)
    s = prev = GAME.new(players)
    move = None
    for _ in range(turns):
        prev, move = s, rng.choice(s.legal_moves())
        s = s.play(move)
    return s, prev, move


@pytest.mark.parametrize("players, turns", [(2, 0), (2, 14), (3, 20), (4, 29), (3, 29)])
def test_png_is_valid_small_and_phone_sized(players, turns):
    s, prev, move = random_state(players, turns, seed=players * 100 + turns)
    img = image(s, last_turn=[move] if move else None, previous=prev if move else None)
    assert 800 <= img.width <= 1000 and img.height <= 1100


def test_identical_input_gives_identical_bytes():
    s, prev, move = random_state(3, 17, seed=9)
    a = board_png(s, last_turn=[move], names=["Ann", "Bob", "Cy"], previous=prev)
    b = board_png(GAME.decode(s.encode()), last_turn=[move], names=["Ann", "Bob", "Cy"],
                  previous=GAME.decode(prev.encode()))
    assert a == b


@pytest.mark.parametrize("code", [P71, P73, FULL4])
def test_marbles_show_their_colours_in_every_view(code):
    s = GAME.decode(code)
    img = image(s)
    for cell in [c for c in R.NAMES]:
        colour = s.colour_at(cell)
        px = img.getpixel(R.swatch_point(cell))
        if colour:
            assert close(px, R.FILL[colour]), (cell, px)
        else:
            assert not any(close(px, f, 30) for f in R.FILL.values()), (cell, px)
    for face in R.FACE_NAMES:
        for slot, cell in enumerate(s.face_cells(face)):
            x, y = R.face_centre(face, slot, s.players)
            px = img.getpixel((round(x - R.FACE_D * 0.33), round(y)))     # left of the letter
            colour = s.colour_at(cell)
            assert close(px, R.FILL[colour]) if colour else not close(px, R.FILL["B"], 60), (face, cell)


def test_from_above_shows_the_top_marbles():
    s = GAME.decode("3 WWWW/WWWW/WWWW/WWWW/WWW/WWW/WWW/RB/.. 1 -")
    img = image(s)
    for cell, colour in (("3a1", "R"), ("3b1", "B")):
        x, y = R.above_centre(cell)
        assert close(img.getpixel((round(x - R.ABOVE_U * 0.36), round(y))), R.FILL[colour])


def test_locked_marbles_carry_the_plus_badge():
    s = GAME.decode(P71)                       # 1c1 locked
    img = image(s)
    assert close(img.getpixel(R.badge_point("1c1")), R.LOCK_FILL, 20)
    for cell in ("1a1", "1b1", "1a2", "1b2", "2a1"):
        assert not close(img.getpixel(R.badge_point(cell)), R.LOCK_FILL, 40), cell
    t = s.play("1b1-1c2 2a1")
    img = image(t)
    for cell in ("1b1", "1c2", "2a1"):
        assert close(img.getpixel(R.badge_point(cell)), R.LOCK_FILL, 20), cell
    assert not close(img.getpixel(R.badge_point("1c1")), R.LOCK_FILL, 40)


def test_last_turn_highlights_the_slide_tumble_and_placement():
    s = GAME.decode(P71)
    t = s.play("1b1-1c2 2a1")
    plain = image(t)
    marked = image(t, last_turn=["1b1-1c2 2a1"], previous=s)
    # the placed marble wears a gold ring just outside its rim
    x, y = R.cell_centre("2a1")
    ring = (round(x - R.RADIUS - 2.5), round(y))
    assert close(marked.getpixel(ring), R.PLACED_RING, 25)
    assert not close(plain.getpixel(ring), R.PLACED_RING, 60)
    # the slide arrow leads from 1b1 (a marble tumbled into it) towards 1c2: its shaft's middle, between them
    (xa, ya), (xb, yb) = R.slide_arrow_ends("1b1", "1c2", "tumbled")
    assert R.cell_centre("1b1")[0] < xa < xb < R.cell_centre("1c2")[0]
    assert R.cell_centre("1b1")[1] > ya > yb > R.cell_centre("1c2")[1]
    back = (R.SLIDE_HEAD + 4) / math.hypot(xb - xa, yb - ya)         # on the shaft, just before the head
    mid = (round(xb - (xb - xa) * back), round(yb - (yb - ya) * back))
    assert close(marked.getpixel(mid), R.SLIDE_INK, 30) and not close(plain.getpixel(mid), R.SLIDE_INK, 60)
    # the tumbled marble (2a1 dropped into 1b1) carries a blue "↓" badge
    x, y = R.tumble_badge_centre("1b1", mirrored=True)     # left of the marble: the arrow leaves on its right
    assert R.mirrored_badges(("1b1", "1c2")) == ("1b1",)
    badge = (round(x - 7), round(y))
    assert close(marked.getpixel(badge), R.TUMBLE_FILL, 30)
    assert not close(plain.getpixel(badge), R.TUMBLE_FILL, 60)
    # without ``previous`` the tumble is read off the locked set: same board (only the panel's words differ)
    # (compared before PNG encoding, whose palette depends on the whole picture)
    box = (0, 0, R.WIDTH, round(R.panel_top(t.players)) - 4)
    guessed = R.draw(t, ["1b1-1c2 2a1"], None, None).crop(box)
    assert guessed.tobytes() == R.draw(t, ["1b1-1c2 2a1"], None, s).crop(box).tobytes()
    # other cells are unchanged by the highlighting
    x, y = R.cell_centre("1d4")
    assert marked.getpixel((round(x), round(y))) == plain.getpixel((round(x), round(y)))


def test_double_tumble_marks_both_landings():
    s = GAME.decode(P73)
    t = s.play("1c1-1d1 1a4")
    img = image(t, last_turn=["1c1-1d1 1a4"], previous=s)
    for cell in ("1c1", "2b1"):
        x, y = R.tumble_badge_centre(cell, cell in R.mirrored_badges(("1c1", "1d1")))
        assert close(img.getpixel((round(x - 7), round(y))), R.TUMBLE_FILL, 30), cell


def test_names_change_the_picture_and_default_to_seat_names():
    s = GAME.new(4)
    assert board_png(s) == board_png(s, names=list(GAME.seat_names(4)))
    assert board_png(s) != board_png(s, names=["Ann", "Bob", "Cy", "Di"])


def test_colours_are_distinct_from_each_other_and_the_background():
    from render.common import BACKGROUND, luminance
    fills = list(R.FILL.values()) + [BACKGROUND]
    lum = sorted(luminance(c) for c in R.FILL.values())
    assert lum[1] - lum[0] > 0.05 and lum[2] - lum[1] > 0.5          # black, red, white by lightness too
    assert len(set(fills)) == 4
