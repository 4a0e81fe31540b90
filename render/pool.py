"""Renders off the event loop and outside the bot's GIL: a process pool sized to the cores.

A board costs milliseconds of pure Python and Pillow work; in threads, fifty at once share one core under the
GIL and every turn waits for the others. Worker processes (started with "spawn": no copy of the bot's threads
or sockets) draw in parallel, each keeping its own cached board layers and sprites, and the bot process
holds no canvases. States are sent pickled (they pickle with their history). ``processes=0`` draws in a
thread instead (tests, the terminal).

A worker starts lean: it imports the renderers and reads their stored palettes, and builds a game's layers
and sprites when it draws that game's first board (a few tenths of a second), so a game nobody plays costs
no memory, and the first board after a start waits for no game but its own. Every cached layer is held once
per worker, so the pool leaves a core to the AI workers (``CORES_FOR_THE_AI``); ``bench/bench_memory.py``
measures the whole tree.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor

from engines import State
from procs import alive, end_with_parent
from render import board_png
from render.games import RENDERERS
from render.replay import DEFAULT_BUDGET
from render.standings import Sheet, standings_png
from render.texts import install

Texts = Mapping[str, Mapping[str, str]]    # {language: {English template: translation}} (render.texts)


CORES_FOR_THE_AI = 1    # cores the default pool leaves to the AI workers (it keeps at least one process)


def default_processes() -> int:
    """The pool's size unless the bot asks for one: a process per core but ``CORES_FOR_THE_AI``, at least one.
    On 2 cores one render process draws 16 players' boards with time to spare, and each further one would hold
    its own copy of every cached layer (tens of MB once all five games are played)."""
    return max(1, (os.cpu_count() or 1) - CORES_FOR_THE_AI)


MMAP_THRESHOLD = 128 * 1024    # bytes: glibc's own default, kept fixed (see _return_freed_buffers)
_M_MMAP_THRESHOLD = -3         # mallopt's parameter number (malloc.h)


def _return_freed_buffers() -> None:
    """Let the C allocator give a freed image buffer back to the system (glibc only; elsewhere nothing).

    glibc raises its mmap threshold to the size of every mmapped block freed, up to 32 MB, so after the
    first board the canvases and layers (0.1-17 MB each) come from the heap, and a heap freed in the middle
    stays with the process: most of a worker's memory after play was freed buffers. Fixing the threshold
    maps each big buffer on its own and unmaps it when Pillow frees it.
    """
    import ctypes.util
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
        if libc is not None and hasattr(libc, "mallopt"):
            libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    except OSError:
        pass


def _start(texts: Texts | None = None) -> None:
    """Runs in each worker at start: take the translations of the board texts, import every renderer and read
    its stored palette. Layers and sprites are built by each game's first board (see the module's docstring)."""
    end_with_parent()
    _return_freed_buffers()
    install(texts)
    for renderer in RENDERERS.values():
        renderer.palette(None)


def _ready() -> int:
    return os.getpid()




def _board(state: State, last_turn: Sequence[str], names: Sequence[str] | None, previous: State | None,
           language: str = "en", marks: Mapping[str, Sequence[str]] | None = None) -> bytes:
    return board_png(state, last_turn=last_turn, names=names, previous=previous, language=language, marks=marks)


def _replay(game: str, frames: list, names: Sequence[str] | None, language: str, budget: int) -> bytes:
    from render.replay import replay_gif
    return replay_gif(game, frames, names, language, budget=budget)


def _standings(sheet: Sheet) -> bytes:
    return standings_png(sheet)


class RenderPool:
    def __init__(self, processes: int | None = None, texts: Texts | None = None):
        """``texts``: the translations of the board texts by language (``render.texts``), for every worker."""
        count = default_processes() if processes is None else processes
        if not count:
            install(texts)          # drawn in threads of this process
        self._executor = ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start, initargs=(texts,)) if count else None
        self._started: list = []      # each worker's pid, once it has started
        self._closed = False
        if self._executor is not None:   # start every worker now (the pool would start them one by one, late)
            self._started = [self._executor.submit(_ready) for _ in range(count)]

    async def ready(self) -> None:
        """Wait until every worker has started (imported the renderers, read their palettes)."""
        await asyncio.gather(*(asyncio.wrap_future(f) for f in self._started))

    def up(self) -> bool:
        """Whether the pool can draw: every worker has warmed up and none has died or been shut down (a health
        check; it asks no worker, so a busy pool is up)."""
        if self._executor is None:
            return True
        return not self._closed and all(f.done() and f.exception() is None and alive(f.result())
                                        for f in self._started)

    async def board(self, state: State, *, last_turn: Sequence[str] = (), names: Sequence[str] | None = None,
                    previous: State | None = None, language: str = "en",
                    marks: Mapping[str, Sequence[str]] | None = None) -> bytes:
        """A board (``render.board_png``); ``marks``: keys written on cells (``render.marks``)."""
        if self._executor is None:
            return await asyncio.to_thread(_board, state, list(last_turn), names, previous, language, marks)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, _board, state, list(last_turn), names, previous, language,
                                          marks)

    async def replay(self, game: str, frames: list, names: Sequence[str] | None, language: str = "en", *,
                     budget: int = DEFAULT_BUDGET) -> bytes:
        """An animated replay (see ``render.replay``) of at most ``budget`` bytes, its words in ``language``."""
        if self._executor is None:
            return await asyncio.to_thread(_replay, game, frames, names, language, budget)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, _replay, game, frames, names, language, budget)

    async def standings(self, sheet: Sheet) -> bytes:
        """A tournament's standings image (``render.standings``): its words come translated in ``sheet``."""
        if self._executor is None:
            return await asyncio.to_thread(_standings, sheet)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, _standings, sheet)

    def close(self) -> None:
        self._closed = True
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
