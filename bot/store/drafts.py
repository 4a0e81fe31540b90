"""The picker's partial turns: one row per (match, ply, player) in ``picker_drafts`` (migration 016).

Every write is conditional, so several processes share the drafts: a draft is made or changed only while its
match is still active at its ply, and a pick only if the draft still holds the number of picks it was read
with (of two taps at once, one lands). Expired rows, and rows of plies the match has left, are dropped lazily.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.store.db import Database, Tx


class DraftStore:
    def __init__(self, db: Database):
        self.db = db

    async def start(self, tx: Tx, match_id: int, ply: int, user_id: int, *, expires: str) -> bool:
        """An empty draft of (match, ply, user), replacing one there was; False (nothing written) when the match
        is no longer active at ``ply``."""
        written = await tx.execute(
            "INSERT INTO picker_drafts (match_id, ply, user_id, picks, steps, expires_at)"
            " SELECT id, ply, CAST(? AS BIGINT), '[]', 0, CAST(? AS TEXT) FROM matches"
            " WHERE id = ? AND ply = ? AND status = 'active'"          # the match is still at this ply
            " ON CONFLICT (match_id, ply, user_id) DO UPDATE SET picks = '[]', steps = 0,"
            " expires_at = excluded.expires_at", (user_id, expires, match_id, ply))
        return written > 0

    async def load(self, match_id: int, ply: int, user_id: int, *, now: str) -> list[str] | None:
        """The texts picked in the live draft of (match, ply, user), or None when there is none or it expired."""
        row = await self.db.fetchone(
            "SELECT picks FROM picker_drafts WHERE match_id = ? AND ply = ? AND user_id = ? AND expires_at > ?",
            (match_id, ply, user_id, now))
        return None if row is None else [str(text) for text in json.loads(row[0])]

    async def write(self, tx: Tx, match_id: int, ply: int, user_id: int, picks: Sequence[str], *, steps: int,
                    expires: str, now: str) -> bool:
        """Replace the picks of a live draft that still holds ``steps`` picks, while its match is at ``ply``;
        False (nothing written) otherwise."""
        written = await tx.execute(
            "UPDATE picker_drafts SET picks = ?, steps = ?, expires_at = ?"
            " WHERE match_id = ? AND ply = ? AND user_id = ?"
            " AND steps = ?"                    # no other pick landed since it was read
            " AND expires_at > ?"               # not expired
            " AND ply = (SELECT m.ply FROM matches m WHERE m.id = ? AND m.status = 'active')",   # the match is there
            (json.dumps(list(picks)), len(picks), expires, match_id, ply, user_id, steps, now, match_id))
        return written > 0

    async def drop(self, tx: Tx, match_id: int, ply: int, user_id: int) -> None:
        await tx.execute("DELETE FROM picker_drafts WHERE match_id = ? AND ply = ? AND user_id = ?",
                         (match_id, ply, user_id))

    async def drop_old(self, tx: Tx, match_id: int, ply: int, *, now: str) -> int:
        """Drop every expired draft, and the drafts of ``match_id`` at plies before ``ply``; how many."""
        return await tx.execute("DELETE FROM picker_drafts WHERE expires_at <= ? OR (match_id = ? AND ply < ?)",
                                (now, match_id, ply))
