"""Time away: each player's absences per server, the server's allowance, and moving the clocks they pause.

An absence shifts the deadline (and reminder) of every match of that server where the absent player is to
move by exactly the time the absence adds or removes, so the time that remained is kept: starting an
absence until E moves a deadline D to D + (E - now); coming back early moves it back by what was not used.
Times are ISO UTC text; the arithmetic is done here in Python (portable SQL).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.store.db import Database, Tx


@dataclass(frozen=True)
class AwayPeriod:
    id: int
    starts_at: datetime
    ends_at: datetime


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _shift(when: str | None, delta: timedelta) -> str | None:
    return None if when is None else _iso(datetime.fromisoformat(when) + delta)


class AwayStore:
    def __init__(self, db: Database):
        self.db = db

    async def allowance(self, tx: Tx, guild_id: int) -> int | None:
        """The server's yearly allowance in days (None = the default)."""
        row = await tx.fetchone("SELECT away_allowance_days FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return None if row is None else row[0]

    async def write_allowance(self, tx: Tx, guild_id: int, days: int) -> None:
        await tx.execute("INSERT INTO guild_settings (guild_id, away_allowance_days) VALUES (?, ?)"
                         " ON CONFLICT (guild_id) DO UPDATE SET away_allowance_days = excluded.away_allowance_days",
                         (guild_id, days))

    async def current(self, tx: Tx, guild_id: int, user_id: int, now: str) -> AwayPeriod | None:
        row = await tx.fetchone("SELECT id, starts_at, ends_at FROM away_periods WHERE guild_id = ? AND user_id = ?"
                                " AND starts_at <= ? AND ends_at > ? ORDER BY ends_at DESC LIMIT 1",
                                (guild_id, user_id, now, now))
        return None if row is None else AwayPeriod(row[0], datetime.fromisoformat(row[1]),
                                                   datetime.fromisoformat(row[2]))

    async def periods_since(self, tx: Tx, guild_id: int, user_id: int, since: str) -> list[AwayPeriod]:
        rows = await tx.fetchall("SELECT id, starts_at, ends_at FROM away_periods WHERE guild_id = ? AND user_id = ?"
                                 " AND ends_at > ? ORDER BY starts_at", (guild_id, user_id, since))
        return [AwayPeriod(r[0], datetime.fromisoformat(r[1]), datetime.fromisoformat(r[2])) for r in rows]

    async def begin(self, tx: Tx, guild_id: int, user_id: int, starts_at: str, ends_at: str) -> int:
        return await tx.insert("INSERT INTO away_periods (guild_id, user_id, starts_at, ends_at) VALUES (?, ?, ?, ?)",
                               (guild_id, user_id, starts_at, ends_at))

    async def set_end(self, tx: Tx, period_id: int, ends_at: str) -> None:
        await tx.execute("UPDATE away_periods SET ends_at = ? WHERE id = ?", (ends_at, period_id))

    async def until(self, guild_id: int, user_ids: list[int], now: str) -> dict[int, datetime]:
        """Who of ``user_ids`` is away in this server now, and until when."""
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await self.db.fetchall(
            f"SELECT user_id, MAX(ends_at) FROM away_periods WHERE guild_id = ? AND user_id IN ({marks})"
            " AND starts_at <= ? AND ends_at > ? GROUP BY user_id", (guild_id, *user_ids, now, now))
        return {r[0]: datetime.fromisoformat(r[1]) for r in rows}

    async def shift_clocks(self, tx: Tx, guild_id: int, user_id: int, delta: timedelta, now: str
                           ) -> list[tuple[int, str, str | None]]:
        """Move the running deadline and reminder of every match of this server where ``user_id`` is to move
        by ``delta`` (a deadline already passed is left to the scheduler). (match id, deadline, reminder)."""
        rows = await tx.fetchall(
            "SELECT m.id, m.deadline_at, m.remind_at FROM matches m JOIN participants p ON p.match_id = m.id"
            " AND p.seat = m.to_move WHERE p.user_id = ? AND m.guild_id = ? AND m.status = 'active'"
            " AND m.deadline_at > ?", (user_id, guild_id, now))
        moved = []
        for match_id, deadline, remind in rows:
            new_deadline, new_remind = _shift(deadline, delta), _shift(remind, delta)
            assert new_deadline is not None
            if await tx.execute("UPDATE matches SET deadline_at = ?, remind_at = ? WHERE id = ? AND deadline_at = ?",
                                (new_deadline, new_remind, match_id, deadline)) == 1:
                moved.append((match_id, new_deadline, new_remind))
        return moved

    async def timed_matches(self, tx: Tx, guild_id: int, user_id: int) -> list[int]:
        """The active timed matches of this server ``user_id`` plays in (whose clocks an absence pauses)."""
        rows = await tx.fetchall(
            "SELECT m.id FROM matches m JOIN participants p ON p.match_id = m.id WHERE p.user_id = ?"
            " AND m.guild_id = ? AND m.status = 'active' AND m.time_per_move IS NOT NULL ORDER BY m.id",
            (user_id, guild_id))
        return [r[0] for r in rows]

    async def defer_new_clock(self, tx: Tx, match_id: int, now: str) -> None:
        """A turn just came to a player (its clock set from ``now``): if they are away, the clock starts when
        they are back, with the full time."""
        row = await tx.fetchone(
            "SELECT m.guild_id, p.user_id, m.deadline_at, m.remind_at FROM matches m JOIN participants p"
            " ON p.match_id = m.id AND p.seat = m.to_move WHERE m.id = ? AND m.status = 'active'", (match_id,))
        if row is None or row[2] is None:
            return
        away = await self.current(tx, row[0], row[1], now)
        if away is not None:
            delta = away.ends_at - datetime.fromisoformat(now)
            await tx.execute("UPDATE matches SET deadline_at = ?, remind_at = ? WHERE id = ?",
                             (_shift(row[2], delta), _shift(row[3], delta), match_id))
