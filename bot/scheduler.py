"""Deadlines as database rows: one task sleeps until the earliest, woken only when a sooner one appears.

Nothing lives only in memory: after a restart ``run_due`` catches up on everything that fell due while the
bot was down. Each notice is written to the outbox in the transaction that handles it; the dispatcher
delivers it. Time comes from the services' clock, so tests move a fake clock and call ``run_due``.

The loop never dies: a failing query is logged and retried with backoff; a failing match is skipped for
that pass and retried later, without holding up the others.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.events import together
from bot.loop import WakeableLoop
from bot.metrics import SCHEDULER_LAG
from bot.model import Match
from bot.services import Services

log = logging.getLogger(__name__)

MAX_SLEEP = 3600.0      # re-check at least hourly (cheap), in case a wake-up was missed
MIN_SLEEP = 1.0         # no busy loop on a row that stays due
BACKOFF = (1.0, 5.0, 30.0, 120.0)   # after consecutive failing passes


class Scheduler(WakeableLoop):
    name = "scheduler"
    min_sleep = MIN_SLEEP
    max_sleep = MAX_SLEEP

    def __init__(self, services: Services):
        super().__init__()
        self.services = services
        self._next: datetime | None = None      # when the loop means to wake up next
        self._unsubscribe = together(services.events.deadline_set.subscribe(self.deadline_set),
                                     services.events.elsewhere.subscribe(lambda _: self._wake.set()))  # others'
        self.failures = 0

    def deadline_set(self, when: datetime | None) -> None:
        """A deadline was set: wake up only if it is sooner than the one we sleep towards."""
        if when is not None and (self._next is None or when < self._next):
            self._next = when
            self._wake.set()

    async def run_due(self) -> list[tuple[str, int]]:
        """Handle everything due now: expired challenges, deadlines, reminders, tournaments' starts and round
        deadlines. Returns (kind, match id) — (kind, tournament id) for a start, (kind, match id) adjudicated.

        A match that fails is logged and left for the next pass; the others go on.
        """
        clocks = self.services.clocks
        done: list[tuple[str, int]] = []
        due = await clocks.due()
        steps: list[tuple[str, Callable[[int], Awaitable[Match | None]]]] = [
            ("expired", clocks.expire_challenge), ("deadline", clocks.time_out), ("remind", clocks.remind)]
        for kind, step in steps:
            for match_id in due[kind]:
                if kind == "remind" and match_id in {m for _, m in done}:
                    continue
                try:
                    match = await step(match_id)
                except Exception:
                    log.exception("scheduler: %s of match %s failed; retrying on the next pass", kind, match_id)
                    continue
                if match is None:
                    continue
                done.append(({"deadline": match.status, "remind": "reminded"}.get(kind, kind), match_id))
        tournaments = self.services.tournaments
        for step_name, tournament_step in (("tournament_start", tournaments.start_due),
                                           ("adjudicated", tournaments.adjudicate_due)):
            try:
                done += [(step_name, i) for i in await tournament_step()]
            except Exception:
                log.exception("scheduler: tournaments' %s failed; retrying on the next pass", step_name)
        for user_id in await self.services.digests.due():
            try:
                if await self.services.digests.send(user_id) is not None:
                    done.append(("digest", user_id))
            except Exception:
                log.exception("scheduler: the digest of user %s failed; retrying on the next pass", user_id)
        return done

    async def pass_once(self) -> float:
        """One pass: handle what is due, then find the next time; seconds to sleep. Never raises (but
        cancellation): a failing query is logged and retried after a growing pause."""
        try:
            await self.observe_lag()
            await self.run_due()
            nxt = await self.services.clocks.next_due()
            nxt = min((t for t in (nxt, await self.services.digests.next_due(),
                                   await self.services.tournaments.next_due()) if t), default=None)
        except asyncio.CancelledError:
            raise
        except Exception:
            delay = BACKOFF[min(self.failures, len(BACKOFF) - 1)]
            self.failures += 1
            self._next = None
            log.exception("scheduler pass failed; retrying in %.0f s", delay)
            return delay
        self.failures = 0
        self._next = nxt
        delay = MAX_SLEEP if nxt is None else (nxt - self.services.clock()).total_seconds()
        return min(max(delay, MIN_SLEEP), MAX_SLEEP)

    async def observe_lag(self) -> None:
        """The metric: how late this pass acts on the earliest due deadline, reminder or expiry."""
        earliest = await self.services.clocks.next_due()
        now = self.services.clock()
        if earliest is not None and earliest <= now:
            SCHEDULER_LAG.observe((now - earliest).total_seconds())
