"""The AI pool's time rules with real worker processes: a level is a fixed amount of search, so a seed gives the
same turn however loaded the host; time spent queued never counts against a search; a worker that dies is
replaced, and one that stops answering is called hung only past its safety net, counted from its start."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from ai.pool import MAX_WORKERS, AIPool, SearchCancelled, WorkerLost, default_workers
from ai.search import SAFETY_NET, search_turn
from engines import GAMES
from tests.ai.test_search import random_position
from tests.processes import command, cpu_ticks, descendants

HANG = 60.0          # seconds: a hang detector for the waits below, not a speed requirement


async def search_started(pool: AIPool) -> None:
    """Returns once a worker of ``pool`` has started one of its calls."""
    while not any(pool._started[slot] for slots in pool._running.values() for slot in slots):
        await asyncio.sleep(0.01)


@contextmanager
def busy_host() -> Iterator[None]:
    """Every core of the host spinning in another process while the block runs."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 1)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def pool_workers(before: set[int]) -> list[int]:
    """The worker processes this test process started since ``before`` (its children then), not counting
    multiprocessing's resource tracker (started with the first pool)."""
    return [pid for pid in descendants(os.getpid()) if pid not in before and "multiprocessing.spawn" in command(pid)]


def test_the_pool_takes_a_core_each_up_to_its_cap():
    assert default_workers() == max(1, min(MAX_WORKERS, os.cpu_count() or 1))


@pytest.mark.parametrize("key", ["rincala", "roocala"])
def test_a_seed_gives_the_same_turn_however_loaded_and_whatever_the_safety_net(key):
    state = random_position(key, 2, None, 31)
    quiet = search_turn(state, level=2, seed=7, time_budget=SAFETY_NET)
    with busy_host():
        loaded = search_turn(state, level=2, seed=7, time_budget=10 * SAFETY_NET)
    assert not quiet.out_of_time and not loaded.out_of_time
    assert (loaded.moves, loaded.iterations) == (quiet.moves, quiet.iterations)


async def test_time_spent_queued_does_not_count_against_a_search():
    """One worker, busy with a long search: the next call waits in the queue longer than its whole time budget
    (and the hang margin), then still searches its full effort and finds the turn it finds alone."""
    pool = AIPool(max_workers=1, margin=0.2)
    try:
        blocker = asyncio.create_task(pool.search_turn(GAMES["spinca"].new(players=2, seed=22), level=5, seed=1,
                                                       time_budget=HANG, iterations=10**7, match_id="blocker"))
        state = random_position("tintas", 2, None, 5)
        budget = 3.0
        queued = asyncio.create_task(pool.search_turn(state, level=2, seed=3, time_budget=budget, iterations=40))
        await asyncio.sleep(budget + 1.0)       # queued all this time behind the blocker
        assert not queued.done()
        pool.cancel("blocker")
        choice = await asyncio.wait_for(queued, HANG)
        assert not choice.out_of_time
        assert choice.moves == search_turn(state, level=2, seed=3, iterations=40).moves
        with pytest.raises(SearchCancelled):
            await blocker
    finally:
        pool.close()


async def test_a_killed_worker_fails_its_search_and_the_pool_starts_fresh_ones():
    before = set(descendants(os.getpid()))
    pool = AIPool(max_workers=2)
    try:
        state = random_position("rincala", 2, None, 8)
        assert (await pool.search_turn(state, level=1, seed=1)).moves    # the workers are up
        searching = asyncio.create_task(pool.search_turn(state, level=1, seed=1, iterations=10**7))
        await asyncio.wait_for(search_started(pool), HANG)   # (an idle worker that dies is replaced at once)
        for pid in pool_workers(before):
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(WorkerLost):
            await asyncio.wait_for(searching, HANG)
        again = await asyncio.wait_for(pool.search_turn(state, level=1, seed=1), HANG)
        assert again.moves == search_turn(state, level=1, seed=1).moves
    finally:
        pool.close()


async def test_a_worker_killed_between_searches_is_replaced_at_once_without_a_search():
    """Nothing is asked of the pool after the kill: its watcher sees the worker's death and starts fresh workers,
    so the pool is up again (health checks say so) before any search would have noticed."""
    before = set(descendants(os.getpid()))
    pool = AIPool(max_workers=2)
    try:
        await pool.ready()
        old = pool_workers(before)
        assert len(old) == 2 and pool.up()
        os.kill(old[0], signal.SIGKILL)
        fresh: list[int] = []
        deadline = time.monotonic() + HANG
        while time.monotonic() < deadline and not (pool.up() and len(fresh) == 2):
            await asyncio.sleep(0.05)
            fresh = [pid for pid in pool_workers(before) if pid not in old]
        assert len(fresh) == 2 and pool.up()
        await asyncio.wait_for(pool.ready(), HANG)         # the fresh workers answer
    finally:
        pool.close()


async def test_workers_start_with_the_first_search_and_end_after_idling():
    """A pool nobody asks holds no worker process; one that idled ``idle_end`` seconds gives them back, and the
    next search starts fresh ones and finds the same turn."""
    before = set(descendants(os.getpid()))
    pool = AIPool(max_workers=1, idle_end=0.5)
    state = random_position("rincala", 2, None, 8)
    try:
        assert pool_workers(before) == [] and pool.up()
        first = await asyncio.wait_for(pool.search_turn(state, level=1, seed=1), HANG)
        assert len(pool_workers(before)) == 1
        deadline = time.monotonic() + HANG
        while pool_workers(before) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert pool_workers(before) == [] and pool.up()
        again = await asyncio.wait_for(pool.search_turn(state, level=1, seed=1), HANG)
        assert again.moves == first.moves == search_turn(state, level=1, seed=1).moves
    finally:
        pool.close()


async def test_a_closed_pool_refuses_a_search_and_starts_no_worker_for_it():
    before = set(descendants(os.getpid()))
    pool = AIPool(max_workers=1)
    pool.close()
    with pytest.raises(RuntimeError, match="closed"):
        await pool.search_turn(random_position("rincala", 2, None, 8), level=1, seed=1)
    assert pool_workers(before) == [] and not pool.up()


async def test_a_started_search_that_stops_answering_is_called_hung_past_its_safety_net():
    """The worker is frozen (SIGSTOP) in the middle of a search: the caller gives up ``margin`` seconds past the
    search's time budget, counted from when the worker started it, and raises TimeoutError."""
    before = set(descendants(os.getpid()))
    pool = AIPool(max_workers=1, margin=0.5)
    frozen: list[int] = []
    try:
        state = GAMES["spinca"].new(players=2, seed=22)
        await pool.search_turn(state, level=1, seed=1)                     # the worker is up
        (worker,) = pool_workers(before)
        idle = cpu_ticks(worker)
        search = asyncio.create_task(pool.search_turn(state, level=5, seed=1, time_budget=1.0, iterations=10**7))
        deadline = time.monotonic() + HANG
        while cpu_ticks(worker) < idle + 5 and time.monotonic() < deadline:   # it is searching
            await asyncio.sleep(0.02)
        os.kill(worker, signal.SIGSTOP)
        frozen.append(worker)
        await asyncio.wait({search}, timeout=HANG)      # (not wait_for: its own timeout is a TimeoutError too)
        assert search.done() and isinstance(search.exception(), TimeoutError)
    finally:
        for pid in frozen:
            os.kill(pid, signal.SIGCONT)
        pool.close()
