"""Marks on a board (render.marks): for every game and variant, a key passed for a cell is drawn at that cell (the
renderer's ``mark_centre``) and nowhere else; the board under other cells is untouched."""

from __future__ import annotations

import importlib
import io
import math
import random
from itertools import accumulate

import pytest
from PIL import Image

from engines import GAMES
from engines.base import State
from engines.steps import step_options
from render import board_png
from render.marks import MARK_FILL, MARK_HEIGHT, MARK_WIDTH, mark_text

CASES = [(game, variant) for game in sorted(GAMES) for variant in (GAMES[game].variants or (None,))]
FILL_DX = MARK_WIDTH / 2 - 5          # a pixel of a one-key mark's gold fill: left of the key, inside the edge


def position(game: str, variant: str | None, seed: int) -> State:
    """A position a few random turns into a game."""
    rng = random.Random(seed)
    state = GAMES[game].new(players=2, seed=seed, variant=variant)
    for _ in range(rng.randrange(2, 9)):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state if not state.is_over else GAMES[game].new(players=2, seed=seed, variant=variant)


def candidate_cells(state: State) -> list[str]:
    """The cells of the first step's options, then every cell any step of a legal move names."""
    cells = [c for option in step_options(state) for c in option.cells]
    game = state.game
    for move in state.legal_moves():
        for index in range(len(list(accumulate(game.move_steps(move))))):
            cells += game.step_cells(move, index)
    return list(dict.fromkeys(cells))


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def at(image: Image.Image, point: tuple[float, float]) -> tuple[int, int, int]:
    return image.getpixel((round(point[0]), round(point[1])))


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_a_mark_is_drawn_at_its_cell_and_nowhere_else(game, variant):
    module = importlib.import_module(f"render.{game}")
    for seed in range(3):
        state = position(game, variant, seed)
        start = GAMES[game].new(players=2, seed=seed, variant=variant)
        cells = dict.fromkeys(candidate_cells(state) + candidate_cells(start))      # the start names other cells
        placed = [(c, module.mark_centre(state, c)) for c in cells]
        placed = [(c, p) for c, p in placed if p is not None]
        marked, there = placed[0]
        # another cell far enough away that the two marks could not overlap
        other, elsewhere = next((c, p) for c, p in placed[1:]
                                if abs(p[0] - there[0]) > MARK_WIDTH or abs(p[1] - there[1]) > MARK_HEIGHT)
        plain = pixels(board_png(state))
        with_x = pixels(board_png(state, marks={marked: ["7"]}))
        with_y = pixels(board_png(state, marks={other: ["7"]}))
        fill = (there[0] - FILL_DX, there[1])
        assert at(with_x, fill) == MARK_FILL != at(plain, fill), (marked, there)   # the key is at its cell...
        assert at(with_x, elsewhere) == at(plain, elsewhere), (marked, other)      # ...and not at another one
        assert at(with_y, fill) == at(plain, fill)
        assert at(with_y, (elsewhere[0] - FILL_DX, elsewhere[1])) == MARK_FILL
        assert with_x.size == plain.size                                          # a mark never moves the board
        far = [(x, y) for x in range(0, plain.width, 16) for y in range(0, plain.height, 16)
               if math.dist((x, y), there) > MARK_WIDTH]
        assert all(with_x.getpixel(p) == plain.getpixel(p) for p in far)          # nothing else changed


def test_several_keys_on_one_cell_are_written_together():
    assert mark_text(["1", "4"]) == "1,4"
    assert mark_text(["1", "2", "3", "4"]) == "1,2,3…"


def test_a_cell_the_board_does_not_draw_is_left_out():
    state = GAMES["roocala"].new(players=2, seed=1, variant="square")
    plain = board_png(state)
    assert board_png(state, marks={"z9": ["1"]}) == plain
    assert board_png(state, marks={}) == plain


def cell_centres(game: str, state: State):
    """Each renderer's own geometry of a cell's centre (not its mark_centre)."""
    module = importlib.import_module(f"render.{game}")
    return {
        "tintas": lambda cell: module.cell_centre(cell),
        "roocala": lambda cell: module.cell_centre(state.variant, cell),
        "quincala": lambda cell: module.dot_centre(cell),
        "spinca": lambda cell: module.cell_centre(cell),
        "rincala": lambda cell: module.hollow_centre("ABCDEFGH".index(cell)),
    }[game]


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_each_mark_sits_on_its_own_cell(game, variant):
    """Of all the cells a turn can name, the one whose centre (in the renderer's own geometry) is nearest to a
    cell's mark is that cell."""
    module = importlib.import_module(f"render.{game}")
    for seed in range(3):
        state = position(game, variant, seed)
        start = GAMES[game].new(players=2, seed=seed, variant=variant)
        cells = list(dict.fromkeys(candidate_cells(state) + candidate_cells(start)))
        centre = cell_centres(game, state)
        for cell in cells:
            mark = module.mark_centre(state, cell)
            assert mark is not None, cell
            nearest = min(cells, key=lambda c: math.dist(centre(c), mark))
            assert nearest == cell, (cell, mark, nearest)
