"""Searches off the event loop: a process pool with a safety net and cancellation per match.

Pickling decision: the state itself is sent to the worker. Every engine's states pickle and unpickle to an equal
position that carries its history too (Rincala's and Roocala's repetition records, whether a Quincala player has
begun the turn), so the worker searches exactly the position the bot holds; ``tests/ai`` checks this for every
game. (Replaying ``(game, players, variant, seed, moves)`` would cost a whole replay per call for no gain.)

Time: a search's strength is its level's fixed number of iterations; its ``time_budget`` is a safety net that the
worker counts from the moment it starts the search, so time spent queued behind other searches never shortens
one. The caller waits without a limit while the call is queued; once the worker has started it (the worker
writes the start time into shared memory), the caller gives up ``margin`` seconds past the safety net — a hang
detector for a worker that stopped answering, which then raises ``TimeoutError``. A worker that dies (killed, out
of memory) fails its calls with ``WorkerLost``.

Lifecycle: the workers start with the first search, not with the pool (a bot nobody plays against and asks for
no analysis holds no AI worker: 2 x ~24 MB PSS on the 2-core machine), and end after ``IDLE_END`` seconds
without a search; the next search starts them again (the spawn is queued time, which never counts against it). A
watcher thread, alive as long as the pool, waits on the workers' process sentinels: when one dies it starts
fresh workers at once, so the pool is ``up()`` again without waiting for a search to notice. The watcher also
owns the workers it starts: ``procs.kill_with_parent`` follows the thread that started a worker.

Cancellation: the pool shares an array of flags with its workers (shared memory, no sockets, no manager
process); each call owns one slot until its worker has finished, and the worker looks at its flag every
``CHECK_EVERY`` iterations. ``cancel(match_id)`` raises the flags of that match's calls, and so does
cancelling the awaiting task.

Workers are started with "spawn": no copy of the bot's threads, sockets or event loop, and no socket to a fork
server either. The program that creates an ``AIPool`` must guard its entry point (``if __name__ == "__main__"``
or ``python -m``), as spawning requires. Workers end with the process that started them (``end_with_parent``).
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ai.search import SAFETY_NET, Analysis, SearchCancelled, TurnChoice, analyse, search_turn
from engines import State
from procs import alive, end_with_parent

MAX_WORKERS = 2        # searches at once, at most: each takes a core, and the host's other cores draw boards
DEFAULT_MARGIN = 5.0   # seconds past the safety net before the caller calls a started search hung
HANG_POLL = 0.5        # seconds between two looks at whether a queued call has started (for the hang detector)
SLOTS = 256            # calls that may be queued or running at once
IDLE_END = 300.0       # seconds without a search after which the workers end (the next search starts them again)
WATCH_TICK = 1.0       # seconds the watcher waits on the workers' sentinels before it looks at idleness and close

_flags: ctypes.Array[Any] | None = None     # in a worker: the shared cancel flags
_started: ctypes.Array[Any] | None = None   # in a worker: when it started each slot's search (time.monotonic)


def default_workers() -> int:
    """As many workers as fit the host: one per core, at most ``MAX_WORKERS``."""
    return max(1, min(MAX_WORKERS, os.cpu_count() or 1))


class WorkerLost(Exception):
    """The worker process running (or about to run) the search died; the pool has started fresh workers."""


class _SlotToken:
    """A cancel token in a worker: flag ``slot`` of the shared array."""

    def __init__(self, slot: int):
        self.slot = slot

    def is_set(self) -> bool:
        assert _flags is not None, "a slot token is used in a worker, after _init_worker"
        return bool(_flags[self.slot])


def _init_worker(flags: ctypes.Array[Any], started: ctypes.Array[Any]) -> None:
    """Runs in each worker at start: follow the parent, keep the shared arrays, import the engines and the search."""
    global _flags, _started
    end_with_parent()
    _flags, _started = flags, started
    import ai.search  # noqa: F401
    import engines  # noqa: F401


def _noop() -> int:
    return os.getpid()




def _begin(slot: int) -> _SlotToken:
    """The worker starts the call of ``slot``: tell the caller when (its hang detector counts from now)."""
    assert _started is not None, "a search runs in a worker, after _init_worker"
    _started[slot] = time.monotonic()
    return _SlotToken(slot)


def _search_turn(state: State, level: int, seed: int, time_budget: float, iterations: int | None,
                 slot: int) -> TurnChoice:
    return search_turn(state, level=level, seed=seed, time_budget=time_budget, cancel=_begin(slot),
                       iterations=iterations)


def _analyse(state: State, top: int, seed: int, time_budget: float, iterations: int | None, slot: int) -> Analysis:
    return analyse(state, top=top, seed=seed, time_budget=time_budget, cancel=_begin(slot), iterations=iterations)


class AIPool:
    """Runs searches in worker processes. Use one per bot; ``close()`` at shutdown."""

    def __init__(self, max_workers: int | None = None, margin: float = DEFAULT_MARGIN, *,
                 idle_end: float = IDLE_END):
        """``max_workers``: None for ``default_workers()``; ``idle_end``: seconds without a search after which
        the workers end."""
        self._ctx = multiprocessing.get_context("spawn")
        self._flags = self._ctx.RawArray("b", SLOTS)
        self._started = self._ctx.RawArray("d", SLOTS)
        self._free = list(range(SLOTS - 1, -1, -1))
        self.workers = default_workers() if max_workers is None else max_workers
        self._margin = margin
        self._idle_end = idle_end
        self._lock = threading.Lock()
        self._running: dict[Any, set[int]] = {}   # match id -> slots of its queued or running calls
        self._closed = False
        self._pids: list[Future[int]] = []         # each worker's pid once started (``up`` watches them)
        self._executor: ProcessPoolExecutor | None = None    # no workers until the first search
        self._last_call = time.monotonic()          # when the latest call was made or finished
        self._watcher = threading.Thread(target=self._watch, name="ai-pool-watcher", daemon=True)
        self._watcher.start()

    def up(self) -> bool:
        """Whether the pool can think: it was not closed, and no worker it started failed or has died (a worker
        still starting counts: a call waits for it, and that wait never counts against the search). A health
        check; it asks no worker, so a pool busy searching is up."""
        return not self._closed and all(not f.done() or (f.exception() is None and alive(f.result()))
                                        for f in self._pids)

    async def ready(self) -> None:
        """Start the workers now if none run, and wait until each has started (as after a first search)."""
        with self._lock:
            self._executor_for_call()
            pids = list(self._pids)
        await asyncio.gather(*(asyncio.wrap_future(f) for f in pids))

    def _start(self) -> ProcessPoolExecutor:
        """A fresh executor with every worker started now (not one by one as calls arrive)."""
        executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=self._ctx, initializer=_init_worker,
                                       initargs=(self._flags, self._started))
        self._pids = [executor.submit(_noop) for _ in range(self.workers)]
        return executor

    def _executor_for_call(self) -> ProcessPoolExecutor:
        """The running executor, started first if the pool has none (the first search, or one after idling).
        Called with the lock held."""
        if self._closed:
            raise RuntimeError("the AI pool is closed")    # as an executor shut down refuses work
        if self._executor is None:
            self._executor = self._start()
        self._last_call = time.monotonic()
        return self._executor

    def _watch(self) -> None:
        """The watcher thread: start fresh workers at once when one dies, end them all after ``idle_end`` seconds
        without a call, stop when the pool is closed."""
        while not self._closed:
            executor = self._executor
            processes = getattr(executor, "_processes", None) or {}   # pid -> Process; the executor's own table
            sentinels = [process.sentinel for process in tuple(processes.values())]
            died = multiprocessing.connection.wait(sentinels, timeout=WATCH_TICK) if sentinels else []
            if not sentinels:
                time.sleep(WATCH_TICK)
            if self._closed or executor is None:
                continue
            if died:
                self._restart(executor)
            else:
                self._end_if_idle(executor)

    def _end_if_idle(self, executor: ProcessPoolExecutor) -> None:
        """End the workers of ``executor`` when no call is queued or running and none came for ``idle_end``."""
        with self._lock:
            idle = time.monotonic() - self._last_call
            if self._executor is not executor or self._running or idle < self._idle_end:
                return
            self._executor, self._pids = None, []
        executor.shutdown(wait=True)

    async def search_turn(self, state: State, *, level: int, seed: int, time_budget: float = SAFETY_NET,
                          match_id: Any = None, iterations: int | None = None) -> TurnChoice:
        """``ai.search.search_turn`` in a worker. Raises SearchCancelled after ``cancel(match_id)`` (when the
        awaiting task is cancelled: CancelledError), WorkerLost when the worker died, TimeoutError when a started
        search overran ``time_budget + margin`` (a hung worker)."""
        return await self._run(_search_turn, (state, level, seed, time_budget, iterations), time_budget, match_id)

    async def analyse(self, state: State, *, top: int = 3, seed: int = 0, time_budget: float = SAFETY_NET,
                      match_id: Any = None, iterations: int | None = None) -> Analysis:
        """``ai.search.analyse`` (an analysis, a hint) in a worker; raises like ``search_turn``."""
        return await self._run(_analyse, (state, top, seed, time_budget, iterations), time_budget, match_id)

    async def _run(self, fn: Any, args: tuple[Any, ...], time_budget: float, match_id: Any) -> Any:
        """``fn(*args, slot)`` in a worker, holding a cancel slot until the worker is done with it."""
        with self._lock:
            executor = self._executor_for_call()
            if not self._free:
                raise RuntimeError(f"more than {SLOTS} AI searches at once")
            slot = self._free.pop()
            self._flags[slot] = 0
            self._started[slot] = 0.0
            self._running.setdefault(match_id, set()).add(slot)
        try:
            future = executor.submit(functools.partial(fn, *args, slot))
        except BrokenProcessPool as broken:   # a worker died before this call: fail it like one it was running
            future = Future()
            future.set_exception(broken)
        future.add_done_callback(lambda _: self._release(match_id, slot))
        try:
            return await self._wait(future, slot, time_budget + self._margin)
        except BrokenProcessPool:
            self._restart(executor)
            raise WorkerLost("an AI worker process died") from None
        except BaseException:
            self._flags[slot] = 1   # hung, or the awaiting task was cancelled: stop the worker's search
            raise

    async def _wait(self, future: Future[Any], slot: int, limit: float) -> Any:
        """The call's result; no limit while it is queued, ``limit`` seconds once its worker started it."""
        waiting = asyncio.wrap_future(future)
        try:
            while True:
                done, _ = await asyncio.wait({waiting}, timeout=HANG_POLL)
                if done:
                    return waiting.result()
                started = self._started[slot]
                if started and time.monotonic() - started > limit:
                    raise TimeoutError(f"an AI search ran {limit:.0f} s without finishing")
        finally:
            waiting.cancel()    # no longer awaited (hung, cancelled): a call still queued never starts

    def _restart(self, broken: ProcessPoolExecutor) -> None:
        """Replace ``broken`` (a worker died: the executor refuses all work) with fresh workers, once."""
        with self._lock:
            if self._executor is not broken or self._closed:
                return
            self._executor = self._start()
        broken.shutdown(wait=False, cancel_futures=True)

    def _release(self, match_id: Any, slot: int) -> None:
        """The worker is done with ``slot`` (only now may another call reuse it). Runs in any thread."""
        with self._lock:
            slots = self._running.get(match_id)
            if slots is not None:
                slots.discard(slot)
                if not slots:
                    del self._running[match_id]
            self._free.append(slot)
            self._last_call = time.monotonic()

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
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


__all__ = ["AIPool", "SearchCancelled", "WorkerLost", "default_workers"]
