"""Archiving ended matches: their move log into one verified blob (``archive.py``), their delivered outbox rows
dropped. ``bot.archiver`` decides when; this module does one match at a time, safely against other processes.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from bot.store import archive
from bot.store.db import Database, Row, Tx

log = logging.getLogger(__name__)

ROW_COLUMNS = "ply, turn, seat, move, position, played_at, undone_by, undone_at_ply"
# The outbox is a queue, not a record: once a match is archived its DELIVERED rows go (done, and neither failed
# nor skipped). Rows not yet delivered block archiving; failed and skipped rows stay, to be looked into.
DELIVERED = "done_at IS NOT NULL AND result NOT LIKE 'failed%' AND result NOT LIKE 'skipped%'"


@dataclass(frozen=True)
class Snapshot:
    """What an archive is made from and checked against: the match's set-up, state and stored rows."""
    setup: archive.Setup
    status: str
    position: str | None
    rows: tuple[tuple, ...]       # ROW_COLUMNS of every moves row, in ply order


async def _snapshot(r: Tx, match_id: int) -> Snapshot | None:
    m = await r.fetchone("SELECT game, variant, players, seed, started_at, status, position FROM matches"
                         " WHERE id = ?", (match_id,))
    if m is None or m[4] is None:
        return None
    rows = await r.fetchall(f"SELECT {ROW_COLUMNS} FROM moves WHERE match_id = ? ORDER BY ply", (match_id,))
    return Snapshot(archive.Setup(m[0], m[1], int(m[2]), int(m[3]), m[4]), m[5], m[6],
                    tuple(tuple(x) for x in rows))


def _logged(rows: tuple[tuple, ...]) -> list[archive.LoggedMove]:
    return [archive.LoggedMove(r[0], r[1], r[2], r[3], r[5], r[6], r[7]) for r in rows]


def _blob(snap: Snapshot) -> bytes:
    return archive.verified_blob(snap.setup, _logged(snap.rows), [r[4] for r in snap.rows], snap.position)


class ArchiveStore:
    def __init__(self, db: Database):
        self.db = db

    async def candidates(self, *, ended_before: str, limit: int, skip: frozenset[int] = frozenset()) -> list[int]:
        """Matches to archive, oldest end first: ended (``archive.ENDED``) at or before ``ended_before``, with
        ``moves`` rows still, and every outbox row of theirs delivered (or given up). Found from the ``moves``
        table's key, so the cost follows what is left to archive, not every match ever played."""
        marks = ",".join("?" * len(archive.ENDED))
        rows = await self.db.fetchall(
            "SELECT m.id FROM matches m WHERE m.id IN (SELECT DISTINCT match_id FROM moves)"
            f" AND m.status IN ({marks}) AND m.finished_at <= ?"
            " AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.match_id = m.id AND o.done_at IS NULL)"
            " AND NOT EXISTS (SELECT 1 FROM move_archives a WHERE a.match_id = m.id)"
            f" ORDER BY m.finished_at, m.id LIMIT {int(limit) + len(skip)}", (*archive.ENDED, ended_before))
        return [r[0] for r in rows if r[0] not in skip][:limit]

    async def archive(self, match_id: int, *, now: str) -> str:
        """Archive one ended match; what happened: 'archived', 'already' (another process did, or nothing is
        left), 'not ended', 'busy' (an announcement is still undelivered, or the log changed meanwhile: later).

        Raises ``archive.LogMismatch`` when the log does not reproduce the stored positions: nothing is changed.
        The replay runs off the event loop on a snapshot; the transaction then re-reads the rows and writes only
        if they are exactly the ones verified, so what is archived is what was checked.
        """
        async with self.db.reading() as r:
            snap = await _snapshot(r, match_id)
        if snap is None or snap.status not in archive.ENDED:
            return "not ended"
        if not snap.rows:
            return "already"
        blob = await asyncio.to_thread(_blob, snap)
        async with self.db.transaction() as tx:
            await tx.lock_match(match_id)
            if await _snapshot(tx, match_id) != snap:
                return "busy"
            if await tx.fetchone("SELECT 1 FROM outbox WHERE match_id = ? AND done_at IS NULL LIMIT 1", (match_id,)):
                return "busy"
            written = await tx.execute(
                "INSERT INTO move_archives (match_id, format, log, plies, archived_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (match_id) DO NOTHING", (match_id, archive.FORMAT, blob, len(snap.rows), now))
            if written != 1:
                return "already"
            await tx.execute("DELETE FROM moves WHERE match_id = ?", (match_id,))
            await tx.execute(f"DELETE FROM outbox WHERE match_id = ? AND {DELIVERED}", (match_id,))
        return "archived"

    async def stored(self, match_id: int) -> Row | None:
        """(format, log, plies) of a match's archive, or None."""
        return await self.db.fetchone("SELECT format, log, plies FROM move_archives WHERE match_id = ?", (match_id,))
