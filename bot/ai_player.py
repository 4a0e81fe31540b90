"""The bot's own seats: search a turn off the event loop, then submit it through the play service.

Discord-free: the dispatcher (a ``bot_turn`` announcement) and the terminal both use it. With an ``AIPool`` the
search runs in a worker process (the default for the bot); without one it runs in a thread, which keeps the
event loop free too.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ai.search import ScoredTurn, SearchCancelled, best_turns, choose_turn
from bot.metrics import AI_QUEUE
from bot.model import Match, ServiceError, TurnResult
from bot.services import Services
from engines import State

log = logging.getLogger(__name__)

TIME_BUDGET = 2.0     # seconds of search per turn at most (the search's own effort table usually ends sooner)
FALLBACK_BUDGET = 0.5
ANALYSIS_BUDGET = 3.0  # seconds an analysis or a hint searches at most (Discord waits 15 minutes after a defer)
ANALYSIS_TOP = 3       # how many best turns an analysis shows


def turn_seed(match_seed: int, ply: int) -> int:
    """Fixed per match and position, so a replayed match gets the same bot moves."""
    return (match_seed * 1_000_003 + ply) & 0x7FFFFFFF


class AIPlayer:
    def __init__(self, services: Services, pool: Any = None, *, time_budget: float = TIME_BUDGET,
                 analysis_budget: float = ANALYSIS_BUDGET):
        self.services = services
        self.pool = pool
        self.time_budget = time_budget
        self.analysis_budget = analysis_budget
        services.events.match_ended.subscribe(self.cancel)

    def cancel(self, match_id: int) -> None:
        if self.pool is not None:
            self.pool.cancel(match_id)

    async def choose(self, match: Match) -> list[str]:
        with AI_QUEUE.track_inprogress():    # searches of this process waiting for or running in the pool
            return await self._search(match)

    async def _search(self, match: Match) -> list[str]:
        seat = match.ai_to_move
        assert seat is not None and seat.ai_level is not None
        seed = turn_seed(match.row.seed, match.ply)
        try:
            if self.pool is not None:
                return await self.pool.choose_turn(match.position, level=seat.ai_level, seed=seed,
                                                   time_budget=self.time_budget, match_id=match.id)
            return await asyncio.to_thread(choose_turn, match.position, level=seat.ai_level, seed=seed,
                                           time_budget=self.time_budget)
        except TimeoutError:   # never leave the match stuck on the bot: play a quick level-1 turn
            log.warning("bot search in match %s overran its budget; playing a quick turn", match.id)
            return await asyncio.to_thread(choose_turn, match.position, level=1, seed=seed,
                                           time_budget=FALLBACK_BUDGET)

    async def best_turns(self, state: State, *, seed: int, match_id: Any = None) -> list[ScoredTurn]:
        """The analysis of ``state`` (``ai.search.best_turns``), in the pool like the bot's own turns; a search
        that overruns its budget raises TimeoutError."""
        if self.pool is not None:
            return await self.pool.best_turns(state, top=ANALYSIS_TOP, seed=seed, time_budget=self.analysis_budget,
                                              match_id=match_id)
        return await asyncio.to_thread(best_turns, state, top=ANALYSIS_TOP, seed=seed,
                                       time_budget=self.analysis_budget)

    async def play(self, match_id: int, *, ply: int, completes: int | None = None) -> TurnResult | None:
        """Play the bot's turn of ``match_id`` at ``ply``; None if the match ended or moved on meanwhile."""
        match = await self.services.queries.get(match_id)
        seat = match.ai_to_move
        if match.status != "active" or seat is None or match.ply != ply:
            return None
        try:
            moves = await self.choose(match)
            return await self.services.play.submit_turn(match, seat.user_id, moves, guild_id=match.row.guild_id,
                                                        expected_ply=ply, completes=completes)
        except (SearchCancelled, ServiceError) as exc:   # the match ended or moved on meanwhile
            log.info("bot turn in match %s not played: %s", match_id, exc)
            return None
