"""Marks on a board: cells labelled with short keys (the picker's "1", "2" … of its menu), for any game.

The bot passes cells as the notation names them and the key of each; each renderer says where a cell is with
``mark_centre(state, cell) -> (x, y) | None`` (where the board writes the cell's name, so the key takes the name's
place and the piece stays visible; None for a cell it does not draw). This module draws the marks over a finished
board, the same way for every game: adding a game adds only that one function.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from engines.base import State
from render.common import INK, WINNER, Point, font

if TYPE_CHECKING:
    from render.games import Renderer

MARK_FILL = WINNER             # the winner badge's gold: in every game's fixed palette, on no empty cell
MARK_EDGE = INK
MARK_INK = INK
MARK_SIZE = 24                 # the key's text (bold): as large as the cell names it covers
MARK_HEIGHT = 34               # the pill's height
MARK_WIDTH = 50                # its least width (a cell name such as "D3" or "1b2" fits under it)
MARK_PAD = 6                   # text to the pill's ends
MAX_KEYS = 3                   # keys written on one cell before "…" (several options can share a cell)

Marks = Mapping[str, Sequence[str]]      # cell -> the keys of the options that involve it


def mark_text(keys: Sequence[str]) -> str:
    """The keys of one cell as written on it: ``1,4`` (at most MAX_KEYS, then ``…``)."""
    shown = ",".join(keys[:MAX_KEYS])
    return shown + "…" if len(keys) > MAX_KEYS else shown


def draw_mark(draw: ImageDraw.ImageDraw, centre: Point, text: str) -> None:
    """One mark: a gold pill with a dark edge and the text in the middle."""
    x, y = centre
    f = font(MARK_SIZE, True)
    half = max(MARK_WIDTH, f.getlength(text) + 2 * MARK_PAD) / 2
    draw.rounded_rectangle((x - half, y - MARK_HEIGHT / 2, x + half, y + MARK_HEIGHT / 2), radius=MARK_HEIGHT // 2,
                           fill=MARK_FILL, outline=MARK_EDGE, width=2)
    draw.text((x, y), text, font=f, fill=MARK_INK, anchor="mm")


def draw_marks(image: Image.Image, state: State, marks: Marks, where: Callable[[State, str], Point | None]) -> None:
    """Draw ``marks`` on ``image`` (the board of ``state``) at the points ``where`` gives; cells it does not
    place are left out."""
    draw = ImageDraw.Draw(image)
    for cell, keys in marks.items():
        centre = where(state, cell)
        if centre is not None and keys:
            draw_mark(draw, centre, mark_text(keys))


def apply_marks(renderer: Renderer, image: Image.Image, state: State, marks: Marks | None) -> Image.Image:
    """``image`` with ``marks`` drawn where the renderer's ``mark_centre`` places them (a copy; unchanged when
    there are none)."""
    if not marks:
        return image
    marked = image.convert("RGB")
    draw_marks(marked, state, marks, renderer.mark_centre)
    return marked
