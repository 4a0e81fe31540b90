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
from render import rincala as ri
from render import spinca as rs
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


def test_spinca_letters_are_distinct_and_german_black_is_s(catalog):
    for language in ("en", "de"):
        with texts.speaking(language):
            letters = [rs._letter(c) for c in rs.LETTERS]
        assert len(set(letters)) == 3, letters
    with texts.speaking("de"):
        assert rs._letter("B") == "S" and rs._letter("W") == "W"


def test_a_german_spinca_board_draws_german_letters(catalog):
    """The exploded level's marbles carry the letter under their cell name: Schwarz's differs, Weiß's not."""
    game = GAMES["spinca"]
    state = game.new(players=2, seed=1)
    while not ({"W", "B"} <= {state.colour_at(c) for c in rs.NAMES}):
        state = state.play(state.legal_moves()[0])
    en = Image.open(io.BytesIO(board_png(state))).convert("RGB")
    de = Image.open(io.BytesIO(board_png(state, language="de"))).convert("RGB")
    for cell in rs.NAMES:
        colour = state.colour_at(cell)
        if colour is None:
            continue
        x, y = rs.cell_centre(cell)
        box = (round(x) - 10, round(y + rs.LETTER_DY) - 10, round(x) + 10, round(y + rs.LETTER_DY) + 10)
        changed = ImageChops.difference(en.crop(box), de.crop(box)).getbbox() is not None
        assert changed == (colour == "B"), (cell, colour)


def test_rincala_letters_are_distinct_and_german_on_its_pieces(catalog):
    for language in ("en", "de"):
        with texts.speaking(language):
            letters = [ri.letter(c) for c in ri.LETTERS]
        assert len(set(letters)) == 4, letters
    state = GAMES["rincala"].new(players=2, seed=1)
    en = Image.open(io.BytesIO(board_png(state))).convert("RGB")
    de = Image.open(io.BytesIO(board_png(state, language="de"))).convert("RGB")
    for hollow, stack in enumerate(state.board):
        for slot, colour in enumerate(stack):
            x0, y0, x1, y1 = ri.piece_box(hollow, slot)
            changed = ImageChops.difference(en.crop((x0, y0, x1, y1)), de.crop((x0, y0, x1, y1))).getbbox()
            assert (changed is not None) == (colour in "GY"), (hollow, slot, colour)    # Gn, Ge; R and W stay
