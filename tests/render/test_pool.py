"""The render pool's workers start lean (no board drawn ahead) and read the stored palettes: every game's
first board in a fresh worker is the board the renderer draws in this process, in every language."""

from __future__ import annotations

import asyncio
import importlib
import io

import pytest
from PIL import Image

from bot.i18n import board_texts
from engines import GAMES
from render import board_png
from render.common import stored_palette
from render.pool import RenderPool
from render.texts import install
from tools.palettes import sampled


@pytest.mark.parametrize("game", list(GAMES))
def test_the_stored_palette_is_the_one_the_sample_boards_give(game):
    """Boards map onto the stored palette; it must be the renderer's own median cut of its samples (rebuild
    it with tools/palettes.py after changing colours or samples)."""
    assert bytes(stored_palette(game).getpalette() or []) == sampled(game)


def test_a_renderer_maps_onto_its_stored_palette():
    for key in GAMES:
        assert importlib.import_module(f"render.{key}").palette(None) is stored_palette(key)


def _positions() -> list[tuple[str, object, str]]:
    """Per game, a position a few turns in (its first board in the worker), in German and in English."""
    out = []
    for key, game in GAMES.items():
        state = game.new(players=max(game.player_counts), seed=5, variant=(game.variants or (None,))[-1])
        for _ in range(3):
            state = state.play(state.legal_moves()[0])
        out += [(key, state, "de"), (key, state, "en")]
    return out


def _pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.size, image.tobytes()


def test_each_games_first_board_in_a_fresh_worker_is_the_board_drawn_here():
    texts = board_texts()

    async def draw_all() -> list[bytes]:
        pool = RenderPool(1, texts=texts)
        try:
            await pool.ready()
            return [await pool.board(state, names=["Ann", "Bob", "Cy", "Di"][:state.players], language=lang)
                    for _, state, lang in _positions()]
        finally:
            pool.close()
    drawn = asyncio.run(draw_all())
    install(texts)
    try:
        for png, (key, state, lang) in zip(drawn, _positions(), strict=True):
            here = board_png(state, names=["Ann", "Bob", "Cy", "Di"][:state.players], language=lang)
            assert _pixels(png) == _pixels(here), (key, lang)
            assert png == here, (key, lang)
    finally:
        install(None)
