"""Board images: state in, PNG bytes out. Pillow only; never imports discord.

Each game has a module ``render/<game key>.py`` that is a ``render.games.Renderer`` (``draw(state, last_turn,
names, previous) -> Image``, ``palette(state) -> Image``: its fixed palette, ``render.common.stored_palette``;
``TEXTS``), listed under its engine's key in ``render.games.RENDERERS``; ``board_png`` finds it by the state's
game key, so adding a game adds no code here.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import State
from render.common import palette_png, player_names
from render.games import RENDERERS
from render.texts import speaking, tr


def board_png(state: State, *, last_turn: Sequence[str] | None = None,
              names: Sequence[str] | None = None, previous: State | None = None, language: str = "en") -> bytes:
    """The board image of ``state`` as PNG bytes: identical bytes for identical input.

    ``last_turn`` is the moves of the turn just played (highlighted), ``names`` the players' display names
    by seat, ``previous`` the state before ``last_turn`` when known (Tintas needs it to start the path),
    ``language`` the language of its words (see ``render.texts``).
    """
    renderer = RENDERERS[state.game.key]
    with speaking(language):
        shown = shown_names(state, names)
        image = renderer.draw(state, list(last_turn or ()), shown, previous)
    return palette_png(image, renderer.palette(state))


def shown_names(state: State, names: Sequence[str] | None) -> list[str] | None:
    """``names`` as the renderers draw them (``render.common.player_names``: drawable, never blank,
    isolated), with the seat names of ``state``'s game in the render language for names with nothing
    visible. Call it inside ``speaking``."""
    if not names:
        return None
    seats = [tr(seat) for seat in state.game.seat_names(state.players)]
    return player_names(names, seats)


__all__ = ["board_png", "shown_names"]
