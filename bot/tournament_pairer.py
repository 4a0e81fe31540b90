"""The tournament pairing worker: pairs a round off the event loop when the round before it ended.

Discord-free: it is the dispatcher's worker for the ``TournamentPairing`` announcement (``workers``), beside every
front end, like the bot's turns (``bot.ai_player.AIPlayer.workers``). A Swiss round of a big field takes seconds
to minutes of CPU (bench/bench_tournament_round.py: a 256-player round 2 took 100 s of CPU), so from
PROCESS_FROM entrants the pairing runs in a worker process of its own (one that ends with the bot), which keeps
the event loop's thread free of the GIL; smaller fields pair in a thread (no process start-up). The round is
committed by the service in one transaction guarded by the tournament's current round, so two processes (or a
retry after a crash) pair it once.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.services import Services
from bot.services.announce import Delivered, Handlers, Outgoing, TournamentPairing
from bot.services.tournaments import in_thread
from bot.tournaments.model import Table
from procs import end_with_parent

PROCESS_FROM = 40       # entrants from which a round is paired in a worker process rather than a thread


class TournamentPairer:
    def __init__(self, services: Services, *, process_from: int = PROCESS_FROM):
        self.services = services
        self.process_from = process_from

    @property
    def workers(self) -> Handlers:
        """The announcements this does for the dispatcher, whatever the front end."""
        return {TournamentPairing: self.pair}

    async def pair(self, outgoing: Outgoing[TournamentPairing]) -> Delivered:
        """Pair the round the row announces; the round's transaction marks the row (``completes``)."""
        assert outgoing.tournament_id is not None
        paired = await self.services.tournaments.pair_round(outgoing.tournament_id, outgoing.notice.round,
                                                            completes=outgoing.row_id, compute=self.compute)
        return Delivered("paired" if paired else "skipped: paired already")

    async def compute(self, fn: Callable[..., list[list[Table]]], row: Any, entrants: Sequence[Any],
                      *args: Any) -> list[list[Table]]:
        if len(entrants) < self.process_from:
            return await in_thread(fn, row, entrants, *args)
        return await in_process(fn, row, entrants, *args)


async def in_process(fn: Callable[..., list[list[Table]]], *args: Any) -> list[list[Table]]:
    """``fn(*args)`` in a worker process started for it (and ended after)."""
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=end_with_parent)
    try:
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
