"""Colour letters in the board's language (issue [16]): German boards showed English letters (Y for Gelb,
P for Lila). A piece's letter comes from the translation of its colour's letter template; within a game the
letters of every language stay distinct (the letter is the colour cue for players who cannot tell the fills)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.i18n import board_texts
from engines import GAMES
from render import board_png, texts
from render import tintas as rt
from render.common import colour_letter


@pytest.fixture
def catalog():
    """The bot's own tables (its German catalog), as the render processes get them."""
    texts.install(board_texts())
    yield
    texts.install(None)


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_game_s_colour_letters_are_distinct_in_every_language(catalog, language):
    with texts.speaking(language):
        letters = [colour_letter(t) for t in rt.LETTERS.values()]
    assert len(set(letters)) == len(letters) == 7 and all(1 <= len(x) <= 2 for x in letters), letters


def test_a_german_tintas_board_draws_german_letters(catalog):
    with texts.speaking("de"):
        assert rt.shown_letter("Y") == "Ge" and rt.shown_letter("P") == "L" and rt.shown_letter("G") == "Gn"
    state = GAMES["tintas"].new(seed=1)
    en = Image.open(io.BytesIO(board_png(state))).convert("RGB")
    de = Image.open(io.BytesIO(board_png(state, language="de"))).convert("RGB")
    cells = rt.parse(state.encode())[0]
    for label, letter in cells.items():
        if letter not in "YP":
            continue
        x, y = rt.piece_centre(label)
        box = (round(x) - 14, round(y) - 10, round(x) + 14, round(y) + 10)    # the letter inside the piece
        assert ImageChops.difference(en.crop(box), de.crop(box)).getbbox() is not None, label
    for label, letter in cells.items():
        if letter in "ROBW":                  # the same letter in both languages: the same pixels
            x, y = rt.piece_centre(label)
            box = (round(x) - 14, round(y) - 10, round(x) + 14, round(y) + 10)
            assert ImageChops.difference(en.crop(box), de.crop(box)).getbbox() is None, label
