"""The daily digest: one direct message a day, at the hour a player picks in their time zone, listing every
match (in every server) where it is their move.

Exactly once: the next due time is stored per player and taken by a conditional UPDATE (``… WHERE next_at =
<the due time read>``) in the transaction that writes the digest to the outbox, so several processes and
restarts neither double nor skip it. The outbox row is anchored on the first match it lists (a digest is only
written when one exists), so the dispatcher's leases, retries and exactly-once delivery apply unchanged.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from functools import lru_cache

from bot.i18n import T
from bot.model import BadInput, shown
from bot.services.announce import Digest
from bot.services.context import Context, iso
from bot.store.db import Tx

DEFAULT_DIGEST_HOUR = 8          # local time, when a player chooses the digest without an hour
DEFAULT_TIMEZONE = "UTC"
DIGEST_BATCH = 200               # players handled per scheduler pass


# Files of the zone database that are no place's time: the zone of a build machine ("Factory", whose
# abbreviation is "-00"), this machine's own setting ("localtime", different on every host) and a POSIX default.
NOT_TIME_ZONES = frozenset({"Factory", "localtime", "posixrules"})


@lru_cache(maxsize=1)
def time_zones() -> frozenset[str]:
    """The IANA time zone names a player may choose."""
    return frozenset(zoneinfo.available_timezones() - NOT_TIME_ZONES)


@lru_cache(maxsize=1)
def _zones_by_folded_name() -> dict[str, str]:
    return {zone.casefold(): zone for zone in time_zones()}


def check_hour(hour: object) -> int:
    if type(hour) is not int or not 0 <= hour <= 23:
        raise BadInput(T("The digest hour is a whole hour from 0 to 23, not {hour}. Nothing was changed.",
                         hour=shown(hour)))
    return hour


def check_zone(zone: object) -> str:
    """The IANA name of a time zone, spelled as IANA spells it ('europe/berlin' is Europe/Berlin)."""
    found = _zones_by_folded_name().get(zone.strip().casefold()) if isinstance(zone, str) else None
    if found is None:
        raise BadInput(T("{zone} is not a time zone I know — choose one from the list, like Europe/Berlin or "
                         "America/New_York. Nothing was changed.", zone=repr(shown(zone))))
    return found


def next_at(now: datetime, hour: int, zone: str) -> datetime:
    """The first moment after ``now`` when it is ``hour``:00 in ``zone`` (UTC)."""
    tz = zoneinfo.ZoneInfo(zone)
    day = now.astimezone(tz).date()
    for offset in range(3):
        candidate = datetime.combine(day + timedelta(days=offset), time(hour), tzinfo=tz).astimezone(UTC)
        if candidate > now:
            return candidate
    raise AssertionError("an hour recurs every day")


@dataclass(frozen=True)
class DigestChoice:
    hour: int
    timezone: str
    next_at: datetime | None       # None: no digest


class Digests:
    def __init__(self, ctx: Context):
        self.ctx = ctx

    async def choice(self, user_id: int) -> DigestChoice:
        row = await self.ctx.digests.get(user_id)
        if row is None:
            return DigestChoice(DEFAULT_DIGEST_HOUR, DEFAULT_TIMEZONE, None)
        return DigestChoice(row.hour, row.timezone, datetime.fromisoformat(row.next_at) if row.next_at else None)

    async def choose(self, user_id: int, *, on: bool | None, hour: int | None, timezone: str | None) -> DigestChoice:
        """Turn the digest on (``on``), or change its hour or zone (kept for later if it is off)."""
        async with self.ctx.db.transaction() as tx:
            choice = await self.choose_in(tx, user_id, on=on, hour=hour, timezone=timezone)
        self.announce(choice)
        return choice

    async def choose_in(self, tx: Tx, user_id: int, *, on: bool | None, hour: int | None,
                        timezone: str | None) -> DigestChoice:
        """``choose`` in the caller's transaction; the caller calls ``announce`` once it is committed."""
        if hour is not None:
            check_hour(hour)
        zone = check_zone(timezone) if timezone is not None else None
        row = await self.ctx.digests.read(tx, user_id)
        new_hour = hour if hour is not None else row.hour if row else DEFAULT_DIGEST_HOUR
        new_zone = zone or (row.timezone if row else DEFAULT_TIMEZONE)
        active = on if on is not None else bool(row and row.next_at)
        due = next_at(self.ctx.clock(), new_hour, new_zone) if active else None
        if on:
            await self.ctx.settings.write_notify(tx, user_id, "digest")
        await self.ctx.digests.save(tx, user_id, new_hour, new_zone, iso(due) if due else None)
        return DigestChoice(new_hour, new_zone, due)

    def announce(self, choice: DigestChoice) -> None:
        """Wake the scheduler for a committed choice."""
        if choice.next_at is not None:
            self.ctx.events.deadline_set.emit(choice.next_at)

    async def due(self) -> list[int]:
        return await self.ctx.digests.due(self.ctx.now(), DIGEST_BATCH)

    async def next_due(self) -> datetime | None:
        when = await self.ctx.digests.next_due()
        return datetime.fromisoformat(when) if when else None

    async def send(self, user_id: int) -> list[int] | None:
        """Take a due digest and write it to the outbox; the matches it lists ([] on a day with none), or None
        if it was not due (or another process took it)."""
        now = self.ctx.clock()
        async with self.ctx.db.transaction() as tx:
            row = await self.ctx.digests.read(tx, user_id)
            if row is None or row.next_at is None or row.next_at > iso(now):
                return None
            following = next_at(now, row.hour, row.timezone)
            if not await self.ctx.digests.claim(tx, user_id, due=row.next_at, following=iso(following)):
                return None
            ids = await self.ctx.digests.their_turn(tx, user_id)
            if ids:
                await self.ctx.outbox.add(tx, ids[0], [Digest(user_id, tuple(ids))], now=iso(now))
        self.ctx.events.deadline_set.emit(following)
        if ids:
            self.ctx.events.announcements.emit(ids[0])
        return ids
