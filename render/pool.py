"""Renders off the event loop and outside the bot's GIL: a process pool sized to the cores.

A board costs milliseconds of pure Python and Pillow work; in threads, fifty at once share one core under the
GIL and every turn waits for the others. Worker processes (started with "spawn": no copy of the bot's threads
or sockets) draw in parallel, each keeping its own cached board layers and sprites, and the bot process
holds no canvases. States are sent pickled (they pickle with their history). ``processes=0`` draws in a
thread instead (tests, the terminal).
"""

from __future__ import annotations

import asyncio
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor

from engines import State
from render import board_png
from render.replay import DEFAULT_BUDGET
from render.texts import install

Texts = Mapping[str, Mapping[str, str]]    # {language: {English template: translation}} (render.texts)
PR_SET_PDEATHSIG = 1   # prctl(2): the signal this process gets when the thread that created it ends


def end_with_parent() -> None:
    """Make this worker process end when its parent does, however the parent ends (SIGKILL included): on Linux
    by the kernel (``kill_with_parent``), everywhere by a watchdog thread (``exit_with_parent``). The same
    functions live in ``ai.pool`` (the layer rules keep ``ai`` and ``render`` apart).
    """
    parent = multiprocessing.parent_process()
    if parent is None or parent.pid is None:    # not a multiprocessing child: nothing to follow
        return
    kill_with_parent(parent.pid)
    exit_with_parent(parent)


def kill_with_parent(parent_pid: int) -> None:
    """Linux: have the kernel send SIGKILL to this process when its parent dies (``PR_SET_PDEATHSIG``; strictly,
    when the parent's thread that started it ends: the pools start their workers when created, from threads
    that live as long as the bot). If the parent died before that took effect, this process has been
    re-parented already: it exits at once."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent_pid:      # the parent died before prctl took effect
        _exit_now()


def _exit_now() -> None:
    """End this process at once, without clean-up: its parent is gone, nothing waits for its answers."""
    os.kill(os.getpid(), signal.SIGKILL)


def exit_with_parent(parent: multiprocessing.process.BaseProcess) -> None:
    """A watchdog thread that ends this process once ``parent`` is gone: ``parent.join()`` returns at EOF of the
    pipe multiprocessing keeps from the parent, that is, when the parent has ended."""

    def watch() -> None:
        parent.join()
        _exit_now()

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def _warm(texts: Texts | None = None) -> None:
    """Runs in each worker at start: take the translations of the board texts, import every renderer and
    build its fixed palette and cached layers (a second or so per game), so no player's board pays for it."""
    end_with_parent()
    import importlib

    from engines import GAMES
    install(texts)
    for key, game in GAMES.items():
        importlib.import_module(f"render.{key}")
        for variant in game.variants or (None,):
            board_png(game.new(players=min(game.player_counts), seed=0, variant=variant))


def _ready() -> bool:
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
        self._started: list = []
        if self._executor is not None:   # start every worker now (the pool would start them one by one, late)
            self._started = [self._executor.submit(_ready) for _ in range(count)]

    async def ready(self) -> None:
        """Wait until every worker has started and built its caches."""
        await asyncio.gather(*(asyncio.wrap_future(f) for f in self._started))

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
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
