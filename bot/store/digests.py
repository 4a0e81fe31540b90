"""The daily digest's settings per player: the hour, the time zone, and when the next one is due."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.db import Database, Tx


@dataclass(frozen=True)
class DigestRow:
    hour: int
    timezone: str
    next_at: str | None        # None: the player has no digest


class DigestStore:
    def __init__(self, db: Database):
        self.db = db

    async def get(self, user_id: int) -> DigestRow | None:
        row = await self.db.fetchone("SELECT hour, timezone, next_at FROM user_digests WHERE user_id = ?", (user_id,))
        return None if row is None else DigestRow(row[0], row[1], row[2])

    async def read(self, tx: Tx, user_id: int) -> DigestRow | None:
        row = await tx.fetchone("SELECT hour, timezone, next_at FROM user_digests WHERE user_id = ?", (user_id,))
        return None if row is None else DigestRow(row[0], row[1], row[2])

    async def save(self, tx: Tx, user_id: int, hour: int, timezone: str, next_at: str | None) -> None:
        await tx.execute("INSERT INTO user_digests (user_id, hour, timezone, next_at) VALUES (?, ?, ?, ?)"
                         " ON CONFLICT (user_id) DO UPDATE SET hour = excluded.hour, timezone = excluded.timezone,"
                         " next_at = excluded.next_at", (user_id, hour, timezone, next_at))

    async def claim(self, tx: Tx, user_id: int, *, due: str, following: str) -> bool:
        """Take the digest due at ``due`` (moving it to ``following``); False if another process took it."""
        return await tx.execute("UPDATE user_digests SET next_at = ? WHERE user_id = ? AND next_at = ?",
                                (following, user_id, due)) == 1

    async def due(self, now: str, limit: int) -> list[int]:
        rows = await self.db.fetchall("SELECT user_id FROM user_digests WHERE next_at <= ? ORDER BY next_at LIMIT ?",
                                      (now, limit))
        return [r[0] for r in rows]

    async def next_due(self) -> str | None:
        row = await self.db.fetchone("SELECT MIN(next_at) FROM user_digests")
        return row[0] if row else None

    async def their_turn(self, tx: Tx, user_id: int) -> list[int]:
        """Every active match (in every server) where ``user_id`` is to move, the nearest deadline first."""
        rows = await tx.fetchall(
            "SELECT m.id FROM matches m JOIN participants p ON p.match_id = m.id AND p.seat = m.to_move"
            " WHERE p.user_id = ? AND m.status = 'active'"
            " ORDER BY CASE WHEN m.deadline_at IS NULL THEN 1 ELSE 0 END, m.deadline_at, m.id", (user_id,))
        return [r[0] for r in rows]
