"""Searches off the event loop: a process pool with a time budget and cancellation per match.

Pickling decision: the state itself is sent to the worker. Every engine's states pickle and unpickle to an equal
position that carries its history too (Rincala's and Roocala's repetition records, whether a Quincala player has
begun the turn), so the worker searches exactly the position the bot holds; ``tests/ai`` checks this for every
game. (Replaying ``(game, players, variant, seed, moves)`` would cost a whole replay per call for no gain.)

Cancellation: the pool shares an array of flags with its workers (shared memory, no sockets, no manager
process); each call owns one slot until its worker has finished, and the worker looks at its flag every
``CHECK_EVERY`` iterations. ``cancel(match_id)`` raises the flags of that match's calls, and so does
cancelling the awaiting task. The worker honours ``time_budget``; the caller also waits at most
``time_budget + margin`` and then cancels the search and raises ``TimeoutError``.

Workers are started with "spawn": no copy of the bot's threads, sockets or event loop, and no socket to a fork
server either. The program that creates an ``AIPool`` must guard its entry point (``if __name__ == "__main__"``
or ``python -m``), as spawning requires.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ai.search import ScoredTurn, SearchCancelled, best_turns, choose_turn
from engines import State

DEFAULT_MARGIN = 1.0   # seconds the caller waits beyond the budget (process hand-over, pickling)
SLOTS = 256            # calls that may be queued or running at once

_flags: ctypes.Array[Any] | None = None   # in a worker: the shared cancel flags


class _SlotToken:
    """A cancel token in a worker: flag ``slot`` of the shared array."""

    def __init__(self, slot: int):
        self.slot = slot

    def is_set(self) -> bool:
        assert _flags is not None, "a slot token is used in a worker, after _init_worker"
        return bool(_flags[self.slot])


def _init_worker(flags: ctypes.Array[Any]) -> None:
    """Runs in each worker at start: keep the shared flags, import the engines and the search once."""
    global _flags
    _flags = flags
    import ai.search  # noqa: F401
    import engines  # noqa: F401


def _noop() -> int:
    return os.getpid()


def _search(state: State, level: int, seed: int, time_budget: float, slot: int,
            iterations: int | None) -> list[str]:
    return choose_turn(state, level=level, seed=seed, time_budget=time_budget, cancel=_SlotToken(slot),
                       iterations=iterations)


def _best_turns(state: State, top: int, seed: int, time_budget: float, slot: int,
                iterations: int | None) -> list[ScoredTurn]:
    return best_turns(state, top=top, seed=seed, time_budget=time_budget, cancel=_SlotToken(slot),
                      iterations=iterations)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class AIPool:
    """Runs ``choose_turn`` in worker processes. Use one per bot; ``close()`` at shutdown."""

    def __init__(self, max_workers: int = 1, margin: float = DEFAULT_MARGIN):
        ctx = multiprocessing.get_context("spawn")
        self._flags = ctx.RawArray("b", SLOTS)
        self._free = list(range(SLOTS - 1, -1, -1))
        self._executor = ProcessPoolExecutor(max_workers=max_workers, mp_context=ctx,
                                             initializer=_init_worker, initargs=(self._flags,))
        self._margin = margin
        self._lock = threading.Lock()
        self._running: dict[Any, set[int]] = {}   # match id -> slots of its queued or running calls
        self._closed = False
        # start the workers now, not on the first move; each answers its pid (``up`` watches them)
        self._started = [self._executor.submit(_noop) for _ in range(max_workers)]

    def up(self) -> bool:
        """Whether the pool can think: its workers started, none has died, it was not closed (a health check; it
        asks no worker, so a pool busy searching is up)."""
        return not self._closed and all(f.done() and f.exception() is None and _alive(f.result())
                                        for f in self._started)

    async def choose_turn(self, state: State, *, level: int, seed: int, time_budget: float = 2.0,
                          match_id: Any = None, iterations: int | None = None) -> list[str]:
        """``ai.search.choose_turn`` in a worker. Raises SearchCancelled after ``cancel(match_id)`` (when the
        awaiting task is cancelled: CancelledError), TimeoutError past ``time_budget + margin``."""
        return await self._run(_search, (state, level, seed, time_budget), time_budget, match_id, iterations)

    async def best_turns(self, state: State, *, top: int = 3, seed: int = 0, time_budget: float = 3.0,
                         match_id: Any = None, iterations: int | None = None) -> list[ScoredTurn]:
        """``ai.search.best_turns`` (an analysis, a hint) in a worker; raises like ``choose_turn``."""
        return await self._run(_best_turns, (state, top, seed, time_budget), time_budget, match_id, iterations)

    async def _run(self, fn: Any, args: tuple[Any, ...], time_budget: float, match_id: Any,
                   iterations: int | None) -> Any:
        """``fn(*args, slot, iterations)`` in a worker, holding a cancel slot until the worker is done with it."""
        with self._lock:
            if not self._free:
                raise RuntimeError(f"more than {SLOTS} AI searches at once")
            slot = self._free.pop()
            self._flags[slot] = 0
            self._running.setdefault(match_id, set()).add(slot)
        future = self._executor.submit(functools.partial(fn, *args, slot, iterations))
        future.add_done_callback(lambda _: self._release(match_id, slot))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), time_budget + self._margin)
        except BaseException:
            self._flags[slot] = 1   # timeout, cancellation of the awaiting task: stop the worker's search
            raise

    def _release(self, match_id: Any, slot: int) -> None:
        """The worker is done with ``slot`` (only now may another call reuse it). Runs in any thread."""
        with self._lock:
            slots = self._running.get(match_id)
            if slots is not None:
                slots.discard(slot)
                if not slots:
                    del self._running[match_id]
            self._free.append(slot)

    def cancel(self, match_id: Any) -> int:
        """Stop every queued or running search of ``match_id`` (say, the match ended); returns how many."""
        with self._lock:
            slots = tuple(self._running.get(match_id, ()))
            for slot in slots:
                self._flags[slot] = 1
        return len(slots)

    def close(self) -> None:
        """Stop all searches and the worker processes."""
        self._closed = True
        with self._lock:
            for slots in self._running.values():
                for slot in slots:
                    self._flags[slot] = 1
        self._executor.shutdown(wait=True, cancel_futures=True)


__all__ = ["AIPool", "SearchCancelled"]
