"""Time away: ``/settings away:<days>`` pauses a player's clocks in one server; ``away:0`` brings them back.

Per server: the allowance is the server admins' to set and a server's matches are its own business, so an
absence declared in a server pauses that server's matches and counts against that server's allowance.
The allowance is counted over a rolling window of the last ``ALLOWANCE_WINDOW`` (each absence up to its
planned end). Changing when an absence ends (starting, extending, shortening, coming back) moves every
running deadline of the player's turns in this server by exactly the change, in the transaction that stores
the absence, with a notice to each affected match's channel; a turn that reaches an absent player gets its
clock from the end of the absence (``AwayStore.defer_new_clock``). Everything is in the database, so a
restart changes nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.i18n import T
from bot.model import BadInput, NotAllowed, shown
from bot.services.announce import AwayNotice
from bot.services.context import Context, iso
from bot.store.away import AwayPeriod
from bot.store.db import Tx

DEFAULT_AWAY_ALLOWANCE_DAYS = 30          # days of time away per year unless the server's admins set another
ALLOWANCE_WINDOW = timedelta(days=365)    # "per year": a rolling window, not the calendar year
MAX_AWAY_DAYS = 365                       # the longest absence (and the largest allowance) accepted
DAY = timedelta(days=1)


@dataclass(frozen=True)
class AwayStatus:
    until: datetime | None          # None: not away (or just came back)
    left_days: int                  # whole days of the allowance left
    allowance_days: int
    matches: int                    # timed matches of this server the player plays in
    notified: tuple[int, ...] = ()  # the matches told of a change (their outbox rows are pending)


@dataclass(frozen=True)
class AwayChange:
    status: AwayStatus
    soonest: datetime | None        # the soonest deadline or reminder it moved (the scheduler is woken for it)


def _used(periods: list[AwayPeriod], since: datetime, skip: int | None) -> timedelta:
    total = timedelta()
    for p in periods:
        if p.id != skip:
            total += max(p.ends_at - max(p.starts_at, since), timedelta())
    return total


class Away:
    def __init__(self, ctx: Context):
        self.ctx = ctx

    async def status(self, guild_id: int, user_id: int) -> AwayStatus:
        async with self.ctx.db.reading() as r:
            return await self._status(r, guild_id, user_id)

    async def _status(self, tx: Tx, guild_id: int, user_id: int) -> AwayStatus:
        now = self.ctx.clock()
        allowance = await self._allowance(tx, guild_id)
        current = await self.ctx.away.current(tx, guild_id, user_id, iso(now))
        periods = await self.ctx.away.periods_since(tx, guild_id, user_id, iso(now - ALLOWANCE_WINDOW))
        used = _used(periods, now - ALLOWANCE_WINDOW, current.id if current else None)
        if current is not None:   # the part already spent counts; the planned rest is still the player's
            used += now - max(current.starts_at, now - ALLOWANCE_WINDOW)
        left = max(math.floor((timedelta(days=allowance) - used) / DAY), 0)
        matches = await self.ctx.away.timed_matches(tx, guild_id, user_id)
        return AwayStatus(current.ends_at if current else None, left, allowance, len(matches))

    async def _allowance(self, tx: Tx, guild_id: int) -> int:
        days = await self.ctx.away.allowance(tx, guild_id)
        return DEFAULT_AWAY_ALLOWANCE_DAYS if days is None else days

    @staticmethod
    def check_days(days: object) -> None:
        if type(days) is not int or not 0 <= days <= MAX_AWAY_DAYS:
            raise BadInput(T("Time away is 1 to {max} days (0 = back now), not {days}. Nothing was changed.",
                            max=MAX_AWAY_DAYS, days=shown(days)))

    @staticmethod
    def check_allowance(days: object) -> None:
        if type(days) is not int or not 0 <= days <= MAX_AWAY_DAYS:
            raise BadInput(T("The allowance of time away is 0 to {max} days a year, not {days}. Nothing was changed.",
                             max=MAX_AWAY_DAYS, days=shown(days)))

    async def set_allowance(self, guild_id: int, days: int) -> None:
        self.check_allowance(days)
        async with self.ctx.db.transaction() as tx:
            await self.ctx.away.write_allowance(tx, guild_id, days)

    async def until(self, guild_id: int, user_ids: list[int]) -> dict[int, datetime]:
        """Who of ``user_ids`` is away in this server now, and until when."""
        return await self.ctx.away.until(guild_id, sorted(set(user_ids)), self.ctx.now())

    async def set(self, guild_id: int, user_id: int, days: int) -> AwayStatus:
        """Be away for ``days`` from now (extending or shortening an absence), or back now with 0.

        One transaction: the absence, every moved deadline and reminder, and a notice per timed match.
        """
        async with self.ctx.db.transaction() as tx:
            change = await self.set_in(tx, guild_id, user_id, days)
        self.announce(change)
        return change.status

    async def set_in(self, tx: Tx, guild_id: int, user_id: int, days: int) -> AwayChange:
        """``set`` in the caller's transaction; the caller calls ``announce`` once it is committed."""
        self.check_days(days)
        now = self.ctx.clock()
        store = self.ctx.away
        await tx.serialize(f"away:{guild_id}:{user_id}")        # one change of this absence at a time
        for match_id in sorted(await store.timed_matches(tx, guild_id, user_id)):
            await tx.lock_match(match_id)    # a move landing now either comes first (and is shifted) or sees this
        allowance = await self._allowance(tx, guild_id)
        current = await store.current(tx, guild_id, user_id, iso(now))
        if days == 0:
            if current is None:
                raise NotAllowed(T("You are not away in this server; nothing was changed."))
            end = now
        else:
            if allowance == 0:
                raise NotAllowed(T("This server does not allow time away (its admins set the allowance to 0); "
                                   "nothing was changed."))
            end = now + days * DAY
            since = now - ALLOWANCE_WINDOW
            periods = await store.periods_since(tx, guild_id, user_id, iso(since))
            used = _used(periods, since, current.id if current else None)
            spent = now - max(current.starts_at, since) if current else timedelta()
            if used + spent + days * DAY > allowance * DAY:
                left = max(math.floor((allowance * DAY - used - spent) / DAY), 0)
                raise NotAllowed(T("You have {left} days of time away left in this server (it allows "
                                   "{allowance} days in any 365 days); {days} days is more than that. "
                                   "Nothing was changed.", left=left, allowance=allowance, days=days))
        if current is None:
            await store.begin(tx, guild_id, user_id, iso(now), iso(end))
        else:
            await store.set_end(tx, current.id, iso(end))
        moved = await store.shift_clocks(tx, guild_id, user_id, end - (current.ends_at if current else now),
                                         iso(now))
        matches = await store.timed_matches(tx, guild_id, user_id)
        notice = AwayNotice(user_id, iso(end) if days else None)
        for match_id in matches:
            await self.ctx.outbox.add(tx, match_id, [notice], now=iso(now))
        status = await self._status(tx, guild_id, user_id)
        times = [datetime.fromisoformat(t) for _, d, r in moved for t in (d, r) if t]
        return AwayChange(AwayStatus(status.until, status.left_days, status.allowance_days, status.matches,
                                     tuple(matches)), min(times) if times else None)

    def announce(self, change: AwayChange) -> None:
        """Wake the scheduler and the dispatcher for a committed change."""
        if change.soonest is not None:
            self.ctx.events.deadline_set.emit(change.soonest)    # coming back early makes deadlines sooner
        for match_id in change.status.notified:
            self.ctx.events.announcements.emit(match_id)
