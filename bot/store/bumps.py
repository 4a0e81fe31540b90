"""When each match's board was last bumped (re-posted at the bottom of its channel)."""

from __future__ import annotations

from bot.store.db import Tx


class BumpStore:
    async def claim(self, tx: Tx, match_id: int, *, now: str, since: str) -> str | None:
        """Record a bump at ``now`` unless the last one was after ``since``: None when recorded, else the time of
        the last bump. One conditional write: of two processes bumping at once, one records it."""
        taken = await tx.execute(
            "INSERT INTO match_bumps (match_id, bumped_at) VALUES (?, ?) ON CONFLICT (match_id)"
            " DO UPDATE SET bumped_at = excluded.bumped_at WHERE match_bumps.bumped_at <= ?", (match_id, now, since))
        if taken:
            return None
        row = await tx.fetchone("SELECT bumped_at FROM match_bumps WHERE match_id = ?", (match_id,))
        assert row is not None, "a bump that was not taken is a later bump's row"
        return str(row[0])
