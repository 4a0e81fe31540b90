"""The renderers' registry: one entry per game key (``engines.GAMES``), each a module that is a ``Renderer``.

A renderer is typed by ``Renderer`` (mypy checks every entry against it) and checked again when the bot starts
(``bot.registry.check_games``): adding a game adds its module here, under its engine's key, and nothing else in
``render``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image

from engines.base import State
from render import quincala, rincala, roocala, spinca, tintas


class Renderer(Protocol):
    """What ``board_png``, the replay and the render workers use of a game's renderer module."""

    @property
    def TEXTS(self) -> tuple[str, ...]:  # noqa: N802 (a module's constant)
        """The English templates it draws (``render.texts``)."""
        ...

    def draw(self, state: State, last_turn: Sequence[str] = (), names: Sequence[str] | None = None,
             previous: State | None = None) -> Image.Image:
        """The board of ``state``: ``last_turn`` (its moves) highlighted, ``names`` by seat (None: the seat
        names), ``previous`` the state before ``last_turn`` when known."""
        ...

    def palette(self, state: State | None = None) -> Image.Image:
        """The game's fixed palette (a 'P' image, ``render.common.stored_palette``) every board maps onto."""
        ...


RENDERERS: dict[str, Renderer] = {
    "tintas": tintas,
    "rincala": rincala,
    "roocala": roocala,
    "quincala": quincala,
    "spinca": spinca,
}
"""Game key -> its renderer, in the order of ``engines.GAMES``."""

RENDERER_MEMBERS = ("TEXTS", "draw", "palette")
"""The members of ``Renderer``, for the start-up check of modules mypy did not see."""
