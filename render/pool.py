"""Renders off the event loop and outside the bot's GIL: a process pool sized to the cores.

A board costs milliseconds of pure Python and Pillow work; in threads, fifty at once share one core under the
GIL and every turn waits for the others. Worker processes (started with "spawn": no copy of the bot's threads
or sockets) draw in parallel, each keeping its own cached board layers and sprites, and the bot process
holds no canvases. States are sent pickled (they pickle with their history). ``processes=0`` draws in a
thread instead (tests, the terminal).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor

from engines import State
from render import board_png
from render.replay import DEFAULT_BUDGET
from render.texts import install

Texts = Mapping[str, Mapping[str, str]]    # {language: {English template: translation}} (render.texts)


def _warm(texts: Texts | None = None) -> None:
    """Runs in each worker at start: take the translations of the board texts, import every renderer and
    build its fixed palette and cached layers (a second or so per game), so no player's board pays for it."""
    import importlib

    from engines import GAMES
    install(texts)
    for key, game in GAMES.items():
        importlib.import_module(f"render.{key}")
        for variant in game.variants or (None,):
            board_png(game.new(players=min(game.player_counts), seed=0, variant=variant))


def _ready() -> int:
    return os.getpid()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _board(state: State, last_turn: Sequence[str], names: Sequence[str] | None, previous: State | None,
           language: str = "en") -> bytes:
    return board_png(state, last_turn=last_turn, names=names, previous=previous, language=language)


def _replay(game: str, frames: list, names: Sequence[str] | None, language: str, budget: int) -> bytes:
    from render.replay import replay_gif
    return replay_gif(game, frames, names, language, budget=budget)


class RenderPool:
    def __init__(self, processes: int | None = None, texts: Texts | None = None):
        """``texts``: the translations of the board texts by language (``render.texts``), for every worker."""
        count = (os.cpu_count() or 1) if processes is None else processes
        if not count:
            install(texts)          # drawn in threads of this process
        self._executor = ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_warm, initargs=(texts,)) if count else None
        self._started: list = []      # each worker's pid, once it has warmed up
        self._closed = False
        if self._executor is not None:   # start every worker now (the pool would start them one by one, late)
            self._started = [self._executor.submit(_ready) for _ in range(count)]

    async def ready(self) -> None:
        """Wait until every worker has started and built its caches."""
        await asyncio.gather(*(asyncio.wrap_future(f) for f in self._started))

    def up(self) -> bool:
        """Whether the pool can draw: every worker has warmed up and none has died or been shut down (a health
        check; it asks no worker, so a busy pool is up)."""
        if self._executor is None:
            return True
        return not self._closed and all(f.done() and f.exception() is None and _alive(f.result())
                                        for f in self._started)

    async def board(self, state: State, *, last_turn: Sequence[str] = (), names: Sequence[str] | None = None,
                    previous: State | None = None, language: str = "en") -> bytes:
        if self._executor is None:
            return await asyncio.to_thread(_board, state, list(last_turn), names, previous, language)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, _board, state, list(last_turn), names, previous, language)

    async def replay(self, game: str, frames: list, names: Sequence[str] | None, language: str = "en", *,
                     budget: int = DEFAULT_BUDGET) -> bytes:
        """An animated replay (see ``render.replay``) of at most ``budget`` bytes, its words in ``language``."""
        if self._executor is None:
            return await asyncio.to_thread(_replay, game, frames, names, language, budget)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, _replay, game, frames, names, language, budget)

    def close(self) -> None:
        self._closed = True
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
