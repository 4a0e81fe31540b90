"""Right-to-left names cannot reorder a sentence: every game's end sentence, with an Arabic and a Hebrew name,
is laid out left to right with each name as its own run, in its own (right-to-left) order.

The probe: a line as the game draws it must be pixel for pixel the line's pieces (the text before a name, the
name, the text after ...) each drawn on its own by ``draw_name`` and set side by side from left to right in
the sentence's order. Drawn as one right-to-left paragraph (Pillow's choice when the first strong letter is
Arabic), the names swap sides and the words move; drawn word by word, a two-word name has its words swapped.
"""

from __future__ import annotations

import random
import re

import pytest
from PIL import Image, ImageChops, ImageDraw

from engines import GAMES
from render import common, shown_names
from render import spinca as spinca_renderer
from render.common import FSI, PDI, bidi_runs, draw_name, name_length

ARABIC = "محمد الأحمد"
HEBREW = "דוד כהן"
WHITE, BLACK = (255, 255, 255), (0, 0, 0)
SIZE = 24                    # every game draws its end sentence at 24 px


def finished(key: str, seed: int = 3) -> tuple:
    """A finished seeded random 2-player game."""
    game, rng = GAMES[key], random.Random(seed)
    state = game.new(players=2, seed=rng.randrange(1 << 20),
                     variant=rng.choice(game.variants) if game.variants else None)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def end_lines(key: str, state, names: list[str]) -> list[str]:
    """The end sentence as the game's board sets it (its lines)."""
    from render import quincala, rincala, roocala, tintas
    if key == "tintas":
        return tintas.end_sentence(state, names)
    if key == "rincala":
        return rincala.end_lines(state, names)
    if key == "roocala":
        return roocala.status_lines(state, names)
    if key == "quincala":
        return quincala.end_sentence(state, names)
    return spinca_renderer.layout(state, None, names).end_lines


def game_drawing(key: str, line: str, bold: bool) -> Image.Image:
    """``line`` drawn the way the game draws its end lines, white on black, cropped to its ink."""
    if key == "spinca":
        tile, _, _ = spinca_renderer._line_tile(line, SIZE, bold, WHITE, BLACK, "ls", True)
        image = tile.convert("L")
    else:
        image = Image.new("RGB", (900, 80))
        draw_name(ImageDraw.Draw(image), (10, 50), line, SIZE, bold=bold, fill=WHITE, anchor="ls")
        image = image.convert("L")
    box = image.getbbox()
    assert box is not None
    return image.crop(box)


def pieces(line: str) -> list[str]:
    """``line`` cut at the isolate marks round each name: text, name, text ..., marks left out."""
    return [p for p in re.split(f"[{FSI}{PDI}]", line) if p]


def side_by_side(line: str, bold: bool) -> Image.Image:
    """The pieces of ``line`` each drawn alone by ``draw_name``, left to right, cropped to their ink."""
    image = Image.new("RGB", (900, 80))
    d = ImageDraw.Draw(image)
    x = 10.0
    for piece in pieces(line):
        draw_name(d, (x, 50), piece, SIZE, bold=bold, fill=WHITE, anchor="ls")
        x += name_length(piece, SIZE, bold=bold)
    grey = image.convert("L")
    box = grey.getbbox()
    assert box is not None
    return grey.crop(box)


BOLD = {"tintas": False, "rincala": False, "roocala": True, "quincala": True, "spinca": False}


@pytest.mark.parametrize("key", sorted(set(GAMES) - {"rincala"}))
@pytest.mark.parametrize("order", [(ARABIC, HEBREW), (HEBREW, ARABIC)])
def test_end_sentence_keeps_left_to_right_with_each_name_in_its_own_order(key: str, order) -> None:
    for seed in range(40):                    # the first seeded game whose end sentence names a player
        state = finished(key, seed)
        names = shown_names(state, list(order))
        assert names is not None
        lines = end_lines(key, state, names)
        named = [line for line in lines if ARABIC in line or HEBREW in line]
        if named:
            break
    assert named, lines
    for line in named:
        bold = BOLD[key]
        drawn, expected = game_drawing(key, line, bold), side_by_side(line, bold)
        assert drawn.size == expected.size and ImageChops.difference(drawn, expected).getbbox() is None, line


@pytest.mark.parametrize("order", [(ARABIC, HEBREW), (HEBREW, ARABIC)])
def test_rincala_sets_each_name_of_its_status_line_as_its_own_run(order) -> None:
    """Rincala names its players only in the status line ("Game over: A and B share the win"), set run by
    run from left to right: each name must be a run of its own, whole, so no name can move the words."""
    from render import rincala
    for seed in range(40):
        state = finished("rincala", seed)
        if len(state.outcome().winners) == 2:      # a shared win names both
            break
    names = shown_names(state, list(order))
    assert names is not None
    runs, _ = rincala.status(state, names)
    assert [text for text, _, is_name in runs if is_name] == names          # whole, isolated, in seat order
    assert all(not common.has_rtl(text) for text, _, is_name in runs if not is_name)
    line = "".join(text for text, _, _ in runs)
    assert [t for t, rtl in bidi_runs(line) if rtl] == [ARABIC, HEBREW] if order[0] == ARABIC \
        else [HEBREW, ARABIC]


@pytest.mark.parametrize("name", [ARABIC, HEBREW])
def test_a_right_to_left_name_alone_reads_right_to_left_and_arabic_is_joined(name: str) -> None:
    """The probe's reference is itself right: a name's first word is drawn on the right, and Arabic letters are
    shaped (joined), so the name is narrower than its letters set one by one."""
    first, second = name.split(" ")
    image = Image.new("L", (600, 80))
    draw_name(ImageDraw.Draw(image), (10, 50), name, SIZE, fill=255, anchor="ls")
    width = name_length(name, SIZE)
    second_width = name_length(second, SIZE)
    left = image.crop((0, 0, round(10 + second_width), 80))      # the second word, on the left
    alone = Image.new("L", (600, 80))
    draw_name(ImageDraw.Draw(alone), (10, 50), second, SIZE, fill=255, anchor="ls")
    assert ImageChops.difference(left, alone.crop((0, 0, round(10 + second_width), 80))).getbbox() is None
    assert width > name_length(first, SIZE) + second_width        # (the space between them)
    if name == ARABIC:
        loose = sum(name_length(c, SIZE) for c in name.replace(" ", ""))
        assert abs(name_length(name.replace(" ", ""), SIZE) - loose) > 1   # shaped forms, not isolated ones


def test_bidi_runs_keep_the_sentence_left_to_right() -> None:
    line = f"{FSI}{ARABIC}{PDI} wins with a complete tower on {FSI}{HEBREW}{PDI}."
    runs = [(text.strip(FSI + PDI), rtl) for text, rtl in bidi_runs(line) if text.strip(FSI + PDI)]
    assert runs == [(ARABIC, True), (" wins with a complete tower on ", False), (HEBREW, True), (".", False)]
    # two right-to-left names side by side stay in the sentence's order, each on its own
    runs = [(text.strip(FSI + PDI), rtl) for text, rtl in bidi_runs(f"{FSI}{ARABIC}{PDI}, {FSI}{HEBREW}{PDI}")
            if text.strip(FSI + PDI)]
    assert runs == [(ARABIC, True), (", ", False), (HEBREW, True)]
    # a left-to-right name holding an Arabic word keeps its own order
    parts = [t.strip(FSI + PDI) for t, _ in bidi_runs(f"{FSI}Ann محمد{PDI} x")]
    assert [t for t in parts if t] == ["Ann ", "محمد", " x"]


def test_an_isolated_name_stays_closed_when_shortened() -> None:
    name = common.isolate(ARABIC + " " + ARABIC + " " + ARABIC)
    short = common.fit_name(name, SIZE, 120)
    assert short.startswith(FSI) and short.endswith(PDI) and short != name
    assert name_length(short, SIZE) <= 120
