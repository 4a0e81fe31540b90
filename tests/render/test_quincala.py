"""The Quincala board image: a valid, small, deterministic PNG whose pixels mean something."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engines import GAMES
from render import board_png
from render import quincala as rq
from render.common import MAX_PNG_BYTES

GAME = GAMES["quincala"]
FILES = "abcdefghij"
DOTS = [f"{f}{r}" for r in range(1, 11) for f in FILES]


def position(board: dict[str, str], mover: str = "w", immune: str = "-") -> str:
    """A full 5-size code: the pieces a test does not place stand as towers on a1-d1 / j10-g10."""
    counts = {f"{c}{s}": 4 for c in "wb" for s in range(1, 6)}
    cells = {d: p.split() for d, p in board.items()}
    for ps in cells.values():
        for p in ps:
            counts[p] -= 1
    for c, spots in (("w", ["a1", "b1", "c1", "d1"]), ("b", ["j10", "i10", "h10", "g10"])):
        for spot in spots:
            tower = [f"{c}{s}" for s in range(1, 6) if counts[f"{c}{s}"] > 0]
            for p in tower:
                counts[p] -= 1
            if tower:
                cells[spot] = tower
    dots = ["".join(sorted(cells[d], key=lambda p: int(p[1]))) if d in cells else "." for d in DOTS]
    return " ".join(["5", ",".join(dots), "-", "-", "-", "-", mover, "place", immune, "-/0"])


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def close(a, b, tol=30) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("variant", ["5", "4", "3"])
def test_valid_png_within_limits_and_deterministic(variant):
    s = GAME.new(variant=variant)
    t = s.play(s.legal_moves()[0])
    png = board_png(t, last_turn=[s.legal_moves()[0]], names=["Ann", "Bob"], previous=s)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) <= MAX_PNG_BYTES
    im = image(png)
    assert 800 <= im.width <= 1000
    assert png == board_png(t, last_turn=[s.legal_moves()[0]], names=["Ann", "Bob"], previous=s)
    assert board_png(GAME.new(variant=variant))[:8] == b"\x89PNG\r\n\x1a\n"


def test_white_dots_placing_wash_and_winning_tint_follow_the_player_to_move():
    white_view = image(board_png(GAME.decode(position({}, mover="w"))))
    black_view = image(board_png(GAME.decode(position({}, mover="b"))))
    # White's winning dots are f5 and f6 (green for White), e5 and e6 plain white
    for dot in ("f5", "f6"):
        assert close(white_view.getpixel(tuple(map(round, rq.dot_centre(dot)))), rq.WIN_TINT)
        assert close(black_view.getpixel(tuple(map(round, rq.dot_centre(dot)))), rq.WHITE_DOT)
    for dot in ("e5", "e6"):
        assert close(white_view.getpixel(tuple(map(round, rq.dot_centre(dot)))), rq.WHITE_DOT)
        assert close(black_view.getpixel(tuple(map(round, rq.dot_centre(dot)))), rq.WIN_TINT)
    # the placing areas of the player to move are washed blue: a point between dots of ranks 2-3
    x, y = rq.dot_centre("g3")
    between = (round(x + rq.STEP / 2 - 14), round(y - rq.STEP / 2 + 14))
    assert close(white_view.getpixel(between), rq.PLACE_WASH, 12)
    assert not close(black_view.getpixel(between), rq.PLACE_WASH, 12)
    x, y = rq.dot_centre("g8")
    between = (round(x + rq.STEP / 2 - 14), round(y - rq.STEP / 2 + 14))
    assert close(black_view.getpixel(between), rq.PLACE_WASH, 12)
    assert not close(white_view.getpixel(between), rq.PLACE_WASH, 12)


def test_tower_bars_show_each_piece_colour_in_size_order():
    im = image(board_png(GAME.decode(position({"c5": "w1 b3 w5"}))))
    for i, (p, fill) in enumerate((("w1", rq.WHITE_PIECE), ("b3", rq.BLACK_PIECE), ("w5", rq.WHITE_PIECE))):
        x0, y0, x1, y1 = rq.bar_box("c5", i, 3, int(p[1]))
        # sample beside the numeral, inside the bar
        assert close(im.getpixel((round(x0 + 6), round((y0 + y1) / 2))), fill, 40), p
    # the largest piece's bar is the widest
    assert rq.bar_box("c5", 2, 3, 5)[2] - rq.bar_box("c5", 2, 3, 5)[0] > rq.bar_box("c5", 0, 3, 1)[2] - \
        rq.bar_box("c5", 0, 3, 1)[0]


def test_immune_piece_gets_a_star():
    plain = image(board_png(GAME.decode(position({"c4": "w3"}, mover="b"))))
    marked = image(board_png(GAME.decode(position({"c4": "w3"}, mover="b", immune="c4:3"))))
    x0, y0, x1, y1 = rq.bar_box("c4", 0, 1, 3)
    spot = (round(x1 + 8), round((y0 + y1) / 2) + 1)
    assert close(marked.getpixel(spot), rq.STAR_FILL, 40)
    assert not close(plain.getpixel(spot), rq.STAR_FILL, 40)


def test_last_turn_draws_leg_and_travel_arrows():
    prev = GAME.decode(position({"d3": "w1 w3 w4", "d6": "b3", "b7": "b1"}))
    moves = ["d3-d6", "d6-b6", "b6-b7"]
    s = prev
    for m in moves:
        s = s.play(m)
    with_turn = image(board_png(s, last_turn=moves, previous=prev))
    without = image(board_png(s))
    x, y = rq.dot_centre("d4")          # the first leg d3-d6 passes over d4
    assert close(with_turn.getpixel((round(x), round(y + rq.STEP / 2))), rq.LEG_INK, 40)
    assert not close(without.getpixel((round(x), round(y + rq.STEP / 2))), rq.LEG_INK, 40)
    # the knocked b1 travels b7 -> e5: somewhere on that line is the travel colour
    (ax, ay), (bx, by) = rq.dot_centre("b7"), rq.dot_centre("e5")
    hits = sum(close(with_turn.getpixel((round(ax + (bx - ax) * t / 40), round(ay + (by - ay) * t / 40))),
                     rq.TRAVEL_INK, 40) for t in range(8, 30))
    assert hits >= 5
    # the same image without ``previous`` still shows the legs (from the move strings)
    legs_only = image(board_png(s, last_turn=moves))
    assert close(legs_only.getpixel((round(x), round(y + rq.STEP / 2))), rq.LEG_INK, 40)


def test_finished_game_renders():
    prev = GAME.decode(position({"e5": "b1 b2 b3 b5", "f6": "w1 w2 w3 w4", "c5": "b4", "c4": "w5",
                                 "a5": "w2 w4", "c6": "b5"}))
    s = prev.play("c4-c5")
    png = board_png(s, last_turn=["c4-c5"], names=["Ann", "Bob"], previous=prev)
    assert len(png) <= MAX_PNG_BYTES and image(png).width == rq.WIDTH


def test_a_finished_game_states_its_outcome_with_the_players_names(monkeypatch):
    prev = GAME.decode(position({"e5": "b1 b2 b3 b5", "f6": "w1 w2 w3 w4", "c5": "b4", "c4": "w5",
                                 "a5": "w2 w4", "c6": "b5"}))
    said: list[str] = []
    monkeypatch.setattr(rq, "fit_text", lambda text, *a, **k: said.append(text) or text)
    board_png(prev.play("c4-c5"), last_turn=["c4-c5"], names=["Ann", "Bob"], previous=prev)
    assert "Bob wins" in said and "Bob wins with a complete tower on Ann's home dot e5." in said
    assert "Last turn: c4-c5" in said
