"""The bot's own seats: search a turn off the event loop, then submit it through the match service.

Discord-free: the Discord client and the terminal both use it. With an ``AIPool`` the search runs in a worker
process (the default for the bot); without one it runs in a thread, which keeps the event loop free too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from ai.search import SearchCancelled, choose_turn
from bot.service import MatchService, ServiceError, TurnResult

log = logging.getLogger(__name__)

TIME_BUDGET = 2.0     # seconds of search per turn at most (the search's own effort table usually ends sooner)


def turn_seed(match_seed: int, ply: int) -> int:
    """Fixed per match and position, so a replayed match gets the same bot moves."""
    return (match_seed * 1_000_003 + ply) & 0x7FFFFFFF


class AIPlayer:
    def __init__(self, service: MatchService, pool=None, *, time_budget: float = TIME_BUDGET):
        self.service = service
        self.pool = pool
        self.time_budget = time_budget
        service.on_match_ended = self.cancel

    def cancel(self, match_id: int) -> None:
        if self.pool is not None:
            self.pool.cancel(match_id)

    async def choose(self, match) -> list[str]:
        seat = match.ai_to_move
        seed = turn_seed(match.row.seed, match.ply)
        if self.pool is not None:
            return await self.pool.choose_turn(match.state, level=seat.ai_level, seed=seed,
                                               time_budget=self.time_budget, match_id=match.id)
        return await asyncio.to_thread(choose_turn, match.state, level=seat.ai_level, seed=seed,
                                       time_budget=self.time_budget)

    async def turns(self, match_id: int) -> AsyncIterator[TurnResult]:
        """Play the bot's turns while one of its seats is to move; yields each stored turn."""
        while True:
            match = await self.service.get(match_id)
            seat = match.ai_to_move
            if match.status != "active" or seat is None:
                return
            try:
                try:
                    moves = await self.choose(match)
                except TimeoutError:   # never leave the match stuck on the bot: play a quick level-1 turn
                    log.warning("bot search in match %s overran its budget; playing a quick turn", match_id)
                    moves = await asyncio.to_thread(choose_turn, match.state, level=1,
                                                    seed=turn_seed(match.row.seed, match.ply), time_budget=0.5)
                result = await self.service.submit_turn(match_id, seat.user_id, moves,
                                                        guild_id=match.row.guild_id, expected_ply=match.ply)
            except (SearchCancelled, ServiceError) as exc:   # the match ended or moved on meanwhile
                log.info("bot turn in match %s not played: %s", match_id, exc)
                return
            yield result
