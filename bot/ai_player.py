"""The bot's own seats: search a turn off the event loop, then submit it through the play service.

Discord-free: it is the dispatcher's worker for the ``BotTurn`` announcement (``workers``), beside every front
end, which therefore never plays the bot's turns itself. With an ``AIPool`` the search runs in a worker process
(the default for the bot); without one it runs in a thread, which keeps the event loop free too.

A level plays its fixed number of iterations; the time budget is only a safety net. When a search does not run
at its level's full effort — the safety net stopped it, its worker died, or a started search hung — that is a
fallback: logged (WARNING, or ERROR when no search result came back at all) and counted in
``boardgames_ai_fallbacks_total``. A bot turn then plays what the search found, or a quick level-1 turn when it
found nothing; an analysis answers "try again".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from ai.pool import WorkerLost
from ai.search import SAFETY_NET, Analysis, ScoredTurn, SearchCancelled, TurnChoice, analyse, choose_turn, search_turn
from bot.metrics import AI_FALLBACKS, AI_QUEUE
from bot.model import Match, ServiceError, TurnResult
from bot.services import Services
from bot.services.announce import BotTurn, Delivered, Handlers, Outgoing
from engines import State

log = logging.getLogger(__name__)

TIME_BUDGET = SAFETY_NET       # seconds a bot turn's search may run, a safety net (its level's effort ends it sooner)
ANALYSIS_BUDGET = SAFETY_NET   # the same for an analysis or a hint (Discord waits 15 minutes after a defer)
FALLBACK_LEVEL = 1             # the quick turn the bot plays when its search came back with nothing
FALLBACK_BUDGET = 5.0          # seconds that quick turn may search, a safety net (it needs a few milliseconds)
ANALYSIS_TOP = 3               # how many best turns an analysis shows
FALLBACK_KINDS = ("turn", "analysis")
FALLBACK_REASONS = ("safety_net", "worker_lost", "hung")

for _kind in FALLBACK_KINDS:           # /metrics shows every count from the start, at 0
    for _reason in FALLBACK_REASONS:
        AI_FALLBACKS.labels(kind=_kind, reason=_reason)


def turn_seed(match_seed: int, ply: int) -> int:
    """Fixed per match and position, so a replayed match gets the same bot moves."""
    return (match_seed * 1_000_003 + ply) & 0x7FFFFFFF


class AIPlayer:
    def __init__(self, services: Services, pool: Any = None, *, time_budget: float = TIME_BUDGET,
                 analysis_budget: float = ANALYSIS_BUDGET, thinking: Callable[[Match], None] | None = None):
        self.services = services
        self.pool = pool
        self.time_budget = time_budget
        self.analysis_budget = analysis_budget
        self.thinking = thinking      # told when a bot turn's search starts (the terminal says so)
        services.events.match_ended.subscribe(self.cancel)

    @property
    def workers(self) -> Handlers:
        """The announcements this does for the dispatcher, whatever the front end."""
        return {BotTurn: self.bot_turn}

    async def bot_turn(self, outgoing: Outgoing[BotTurn]) -> Delivered:
        """Play the bot's turn the row announces; the move's transaction marks the row (``completes``)."""
        result = await self.play(outgoing.match_id, ply=outgoing.notice.ply, completes=outgoing.row_id)
        return Delivered("played" if result else "skipped: the match moved on")

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
        state = match.position
        try:
            if self.pool is not None:
                choice: TurnChoice = await self.pool.search_turn(state, level=seat.ai_level, seed=seed,
                                                                 time_budget=self.time_budget, match_id=match.id)
            else:
                choice = await asyncio.to_thread(search_turn, state, level=seat.ai_level, seed=seed,
                                                 time_budget=self.time_budget)
        except (WorkerLost, TimeoutError) as exc:   # never leave the match stuck on the bot: play a quick turn
            fell_back("turn", exc, f"bot turn in match {match.id}: {exc}; playing a quick level-{FALLBACK_LEVEL} turn")
            return await asyncio.to_thread(choose_turn, state, level=FALLBACK_LEVEL, seed=seed,
                                           time_budget=FALLBACK_BUDGET)
        if choice.out_of_time:
            fell_back("turn", None, f"bot turn in match {match.id} (level {seat.ai_level}) was stopped by its "
                      f"{self.time_budget:.0f} s safety net after {choice.iterations} iterations")
        return choice.moves

    async def best_turns(self, state: State, *, seed: int, match_id: Any = None) -> list[ScoredTurn]:
        """The analysis of ``state`` (``ai.search.analyse``), in the pool like the bot's own turns; raises
        TimeoutError when no analysis came back (its worker died or hung)."""
        try:
            if self.pool is not None:
                analysis: Analysis = await self.pool.analyse(state, top=ANALYSIS_TOP, seed=seed,
                                                             time_budget=self.analysis_budget, match_id=match_id)
            else:
                analysis = await asyncio.to_thread(analyse, state, top=ANALYSIS_TOP, seed=seed,
                                                   time_budget=self.analysis_budget)
        except (WorkerLost, TimeoutError) as exc:
            fell_back("analysis", exc, f"analysis: {exc}")
            raise TimeoutError(str(exc)) from exc
        if analysis.out_of_time:
            fell_back("analysis", None, f"an analysis was stopped by its {self.analysis_budget:.0f} s safety net "
                      f"after {analysis.iterations} iterations")
        return analysis.turns

    async def play(self, match_id: int, *, ply: int, completes: int | None = None) -> TurnResult | None:
        """Play the bot's turn of ``match_id`` at ``ply``; None if the match ended or moved on meanwhile."""
        match = await self.services.queries.get(match_id)
        seat = match.ai_to_move
        if match.status != "active" or seat is None or match.ply != ply:
            return None
        if self.thinking is not None:
            self.thinking(match)
        try:
            moves = await self.choose(match)
            return await self.services.play.submit_turn(match, seat.user_id, moves, guild_id=match.row.guild_id,
                                                        expected_ply=ply, completes=completes)
        except SearchCancelled:
            if await self._still_to_play(match_id, ply):
                raise       # stopped (the bot is shutting down), not overtaken: the turn stays to be played
            log.info("bot turn in match %s not played: the match ended or moved on", match_id)
            return None
        except ServiceError as exc:   # the match ended or moved on meanwhile
            log.info("bot turn in match %s not played: %s", match_id, exc)
            return None

    async def _still_to_play(self, match_id: int, ply: int) -> bool:
        """Whether the bot's turn at ``ply`` is still to play (a search was stopped without the match moving)."""
        match = await self.services.queries.get(match_id, position=False)
        return match.status == "active" and match.ply == ply and match.ai_to_move is not None


def fell_back(kind: str, error: BaseException | None, message: str) -> None:
    """Log and count a search that did not run at its level's full effort (``error``: why nothing came back;
    None: the safety net stopped it and it answered with what it had found)."""
    if error is None:
        reason = "safety_net"
    else:
        reason = "worker_lost" if isinstance(error, WorkerLost) else "hung"
    AI_FALLBACKS.labels(kind=kind, reason=reason).inc()
    log.log(logging.WARNING if error is None else logging.ERROR, "AI fallback (%s): %s", reason, message)
