"""The Tintas board image: a valid, small, deterministic PNG whose pixels show the position."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engines import GAMES
from render import board_png
from render.common import MAX_PNG_BYTES
from render.tintas import EMPTY_FILL, FILL, PIECE_RADIUS, draw, parse, piece_centre

GAME = GAMES["tintas"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def play_turns(seed: int):
    """A deterministic random game, turn by turn: yields (state before, moves of the turn, state after)."""
    rng = random.Random(seed)
    state = GAME.new(seed=seed)
    while not state.is_over:
        before, turn = state, []
        while True:
            moves = state.legal_moves()
            move = rng.choice(moves)
            if turn and "end" in moves and len(moves) > 1 and rng.random() < 0.7:
                move = rng.choice([m for m in moves if m != "end"])   # prefer chaining, for longer paths
            turn.append(move)
            state = state.play(move)
            if state.is_over or state.to_move != before.to_move or move == "end":
                break
        yield before, turn, state


def mid_game():
    """A position after a turn that collected 2 or more pieces, with the state before it."""
    for seed in range(1, 50):
        for i, (before, turn, after) in enumerate(play_turns(seed)):
            cells = [m for m in turn if m != "end"]
            if i >= 6 and len(cells) >= 2 and not after.is_over:
                return before, turn, after
    raise AssertionError("no mid-game turn with a chain found")


def finished():
    *_, (before, turn, after) = play_turns(11)
    return before, turn, after


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def picture(state, last_turn=None, names=None, previous=None) -> Image.Image:
    """The image before PNG encoding: the pixel checks skip the (slow, optimising) encoder."""
    return draw(state, list(last_turn or ()), names, previous)


def near(a, b, tol=18) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def sample_points(label: str):
    """Two points inside a piece's disc but off its centred letter (left of it and below it)."""
    x, y = piece_centre(label)
    return [(round(x - 0.68 * PIECE_RADIUS), round(y)), (round(x), round(y + 0.78 * PIECE_RADIUS))]


@pytest.fixture(scope="module")
def positions():
    opening = GAME.new(seed=3)
    before, turn, after = mid_game()
    fb, ft, fa = finished()
    return {"opening": (None, [], opening), "mid": (before, turn, after), "finished": (fb, ft, fa)}


@pytest.mark.parametrize("which", ["opening", "mid", "finished"])
def test_valid_png_within_limits(positions, which):
    before, turn, state = positions[which]
    png = board_png(state, last_turn=turn, previous=before, names=["Ann", "Bob"])
    assert png.startswith(PNG_SIGNATURE)
    assert len(png) <= MAX_PNG_BYTES
    image = decode(png)
    assert 800 <= image.width <= 1000
    assert image.height > image.width // 2


def test_identical_bytes_for_identical_input(positions):
    before, turn, state = positions["mid"]
    a = board_png(state, last_turn=turn, previous=before, names=["Ann", "Bob"])
    again = GAME.decode(state.encode())
    b = board_png(again, last_turn=list(turn), previous=GAME.decode(before.encode()), names=("Ann", "Bob"))
    assert a == b


@pytest.mark.parametrize("which", ["opening", "mid"])
def test_piece_colours_at_cell_centres(positions, which):
    _, _, state = positions[which]
    # the opening's PNG is the palette-quantised fallback of to_png: colours must survive it too
    image = decode(board_png(state)) if which == "opening" else picture(state)
    cells, pawn, *_ = parse(state.encode())
    for label, letter in cells.items():
        if letter == "." or label == pawn:
            continue
        for point in sample_points(label):
            pixel = image.getpixel(point)
            nearest = min(FILL, key=lambda c: sum((p - q) ** 2 for p, q in zip(pixel, FILL[c], strict=True)))
            assert nearest == letter, (label, letter, pixel)
            assert near(pixel, FILL[letter]), (label, letter, pixel)


def test_empty_cells_and_pawn(positions):
    _, _, state = positions["mid"]
    image = picture(state)
    cells, pawn, *_ = parse(state.encode())
    empty = [label for label, letter in cells.items() if letter == "." and label != pawn]
    assert empty
    for label in empty:
        for point in sample_points(label):
            assert near(image.getpixel(point), EMPTY_FILL), label
    assert pawn is not None
    x, y = piece_centre(pawn)
    pixel = image.getpixel((round(x), round(y)))
    assert not near(pixel, EMPTY_FILL, 60) and sum(pixel) < 200, pixel   # the dark pawn


def test_last_turn_marks_emptied_cells(positions):
    before, turn, state = positions["mid"]
    plain = picture(state)
    marked = picture(state, last_turn=turn, previous=before)
    cells, pawn, *_ = parse(state.encode())
    collected = [m for m in turn if m != "end"]
    assert len(collected) >= 2
    for label in collected:
        assert cells[label] == "."
        if label == pawn:
            continue
        point = sample_points(label)[0]
        assert plain.getpixel(point) != marked.getpixel(point), label
    # without the previous state the cells are still marked (a plain dashed ring)
    unknown = picture(state, last_turn=turn)
    assert unknown.tobytes() != plain.tobytes()


def test_names_and_turn_change_the_image(positions):
    _, _, state = positions["mid"]
    default = picture(state).tobytes()
    named = picture(state, names=["Ann", "Bob"]).tobytes()
    assert default != named
    assert picture(state, names=["Ann", "Bob"]).tobytes() == named
    long_name = picture(state, names=["Ann", "Zoë with a very long display name indeed, much too long"])
    assert long_name.tobytes() != named


def test_chain_and_finished_render(positions):
    _, _, state = positions["finished"]
    assert state.is_over
    assert picture(state, names=["Ann", "Bob"]).size[0] <= 1000
    # a position inside a chain: the header says who continues with which colour
    for before, turn, _after in play_turns(5):
        s = before
        for move in turn[:-1]:
            s = s.play(move)
            if s.encode().split()[5] != "-" and not s.is_over:
                assert picture(s).tobytes() != picture(before).tobytes()
                return
    pytest.skip("no chain position in this game")
