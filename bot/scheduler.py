"""Deadlines as database rows: one task sleeps until the earliest, woken when a sooner one appears.

Nothing lives only in memory: after a restart ``run_due`` catches up on everything that fell due while the
bot was down. Time comes from the service's clock, so tests move a fake clock and call ``run_due``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from bot.service import Match, MatchService

log = logging.getLogger(__name__)

MAX_SLEEP = 3600.0      # re-check at least hourly (cheap), in case a wake-up was missed


class Notifier(Protocol):
    """Where the scheduler's news goes (Discord, or nothing in the terminal)."""

    async def reminder(self, match: Match) -> None: ...

    async def timed_out(self, match: Match) -> None: ...

    async def challenge_expired(self, match: Match) -> None: ...


class Scheduler:
    def __init__(self, service: MatchService, notifier: Notifier):
        self.service = service
        self.notifier = notifier
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        service.on_timers_changed = self.wake

    def wake(self) -> None:
        self._wake.set()

    async def run_due(self) -> list[tuple[str, int]]:
        """Handle everything due now: expired challenges, reminders, deadlines. Returns (kind, match id)."""
        done: list[tuple[str, int]] = []
        due = await self.service.due()
        for match_id in due["expired"]:
            match = await self.service.expire_challenge(match_id)
            if match is not None:
                done.append(("expired", match_id))
                await self._tell(self.notifier.challenge_expired, match)
        for match_id in due["deadline"]:
            match = await self.service.time_out(match_id)
            if match is not None:
                done.append((match.status, match_id))      # 'finished' (forfeit) or 'aborted'
                await self._tell(self.notifier.timed_out, match)
        for match_id in due["remind"]:
            if match_id in {m for _, m in done}:
                continue
            match = await self.service.remind(match_id)
            if match is not None and match.status == "active":
                done.append(("reminded", match_id))
                await self._tell(self.notifier.reminder, match)
        return done

    async def _tell(self, send, match: Match) -> None:
        try:
            await send(match)
        except Exception:   # a failed notice must not stop the clock for other matches
            log.exception("could not send %s for match %s", send.__name__, match.id)

    async def run_forever(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.run_due()
            except Exception:
                log.exception("scheduler pass failed")
            nxt = await self.service.next_due()
            delay = MAX_SLEEP if nxt is None else (nxt - self.service.clock()).total_seconds()
            delay = min(max(delay, 1.0), MAX_SLEEP)   # at least a second: no busy loop on a stuck row
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=delay)
            except TimeoutError:
                pass

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self.run_forever(), name="scheduler")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
