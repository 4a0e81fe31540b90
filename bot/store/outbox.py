"""The outbox: what must be told, written in the transaction of the change that causes it.

A dispatcher claims due rows with a lease (so several processes never deliver one row twice, and the rows of
a process that died are taken over once its lease runs out), delivers them, and marks each done with what
happened. All rows of one match are claimed together and delivered in order; a tournament's rows (which have no
match) the same, per tournament.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.store.db import Database, Tx
from bot.store.rows import OutboxRow

COLUMNS = "id, match_id, kind, payload, created_at, due_at, expires_at, attempts, tournament_id"
CANDIDATES = 4     # matches looked at per match claimed: those another claimer holds are skipped, not waited for
CLAIM_TRIES = 5    # looks again when every match seen was claimed by another in the meantime


class Told(Protocol):
    """What a row is written from: a typed notice (``bot.services.announce``), or a raw ``rows.Announcement``."""
    @property
    def kind(self) -> str: ...

    @property
    def expires_at(self) -> str | None: ...

    def to_payload(self) -> Mapping[str, Any]: ...


def _row(r) -> OutboxRow:
    return OutboxRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], r[7], r[8])


def _only(match_id: int | None, tournament_id: int | None) -> tuple[str, tuple]:
    """The filter to one match's or one tournament's rows (none: every row)."""
    if match_id is not None:
        return " AND match_id = ?", (match_id,)
    if tournament_id is not None:       # every row of the tournament, those delivered with a match's too
        return " AND tournament_id = ?", (tournament_id,)
    return "", ()


class OutboxStore:
    def __init__(self, db: Database):
        self.db = db

    async def add(self, tx: Tx, match_id: int | None, items: Sequence[Told], *, now: str,
                  tournament_id: int | None = None) -> list[int]:
        """Write ``items`` as rows of a match, or (``match_id`` None) of the tournament ``tournament_id``. With
        both, a tournament's row is delivered in the match's order (a result's standings after its result post)."""
        assert match_id is not None or tournament_id is not None or not items
        ids = []
        for item in items:
            ids.append(await tx.insert(
                "INSERT INTO outbox (match_id, tournament_id, kind, payload, created_at, due_at, expires_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, tournament_id, item.kind, json.dumps(dict(item.to_payload()), sort_keys=True), now, now,
                 item.expires_at)))
        return ids

    async def claim(self, *, now: str, until: str, owner: str, match_id: int | None = None,
                    matches: int = 8, tournament_id: int | None = None) -> list[OutboxRow]:
        """Claim every due row of up to ``matches`` matches none of whose rows another owner holds — and, with
        room left, of tournaments (a tournament's rows, which have no match, are held as a match's are).
        ``match_id`` or ``tournament_id``: that one's rows only."""
        if tournament_id is not None:
            return await self._claim("tournament_id", now=now, until=until, owner=owner, only=tournament_id,
                                     matches=matches)
        rows = await self._claim("match_id", now=now, until=until, owner=owner, only=match_id, matches=matches)
        room = matches - len({r.match_id for r in rows})
        if match_id is None and room > 0:
            rows += await self._claim("tournament_id", now=now, until=until, owner=owner, only=None, matches=room)
        return rows

    async def _claim(self, column: str, *, now: str, until: str, owner: str, only: int | None,
                     matches: int) -> list[OutboxRow]:
        """Claim the due rows of up to ``matches`` of the groups ``column`` names (a match's, a tournament's).

        Each claimer holds the rows of the groups it claims for (``lock_free_matches``: on PostgreSQL ``FOR UPDATE
        SKIP LOCKED``), so concurrent dispatchers take different groups side by side; once held, a statement that
        sees every claim committed before the lock was had drops the groups claimed meanwhile.
        """
        assert column in ("match_id", "tournament_id")
        def own(alias: str = "") -> str:     # a tournament's row with a match is claimed with that match
            return "" if column == "match_id" else f" AND {alias}match_id IS NULL"
        one = "" if only is None else f" AND o.{column} = ?"
        params: tuple = (now, now) if only is None else (now, now, only)
        for _ in range(CLAIM_TRIES):    # another claimer took the groups seen meanwhile: look again
            async with self.db.transaction() as tx:
                found = await tx.fetchall(
                    f"SELECT DISTINCT o.{column} FROM outbox o WHERE o.{column} IS NOT NULL AND o.done_at IS NULL"
                    f" AND o.due_at <= ?{own('o.')} AND NOT EXISTS (SELECT 1 FROM outbox h"
                    f" WHERE h.{column} = o.{column}{own('h.')}"
                    f" AND h.done_at IS NULL AND h.claimed_until > ?){one} ORDER BY o.{column}"
                    f" LIMIT {int(matches) * CANDIDATES}", params)
                if not found:
                    return []
                lock = tx.lock_free_matches if column == "match_id" else tx.lock_free_tournaments
                ids = await lock([r[0] for r in found])
                if ids:     # held now, so no claim on them can come in; one claimed before the lock was had shows
                    marks = ",".join("?" * len(ids))
                    held = {r[0] for r in await tx.fetchall(
                        f"SELECT DISTINCT {column} FROM outbox WHERE {column} IN ({marks}) AND done_at IS NULL"
                        f" AND claimed_until > ?{own()}", (*ids, now))}
                    ids = [i for i in ids if i not in held][:matches]
                if not ids:
                    continue
                marks = ",".join("?" * len(ids))
                await tx.execute("UPDATE outbox SET claimed_until = ?, claimed_by = ? WHERE done_at IS NULL"
                                 f" AND due_at <= ? AND {column} IN ({marks}){own()}", (until, owner, now, *ids))
                rows = await tx.fetchall(f"SELECT {COLUMNS} FROM outbox WHERE claimed_by = ? AND claimed_until = ?"
                                         f" AND done_at IS NULL AND {column} IN ({marks}){own()} ORDER BY id",
                                         (owner, until, *ids))
            if rows:
                return [_row(r) for r in rows]
        return []

    async def done(self, tx: Tx | None, row_id: int, *, now: str, result: str = "sent",
                   message_id: int | None = None, owner: str | None = None) -> bool:
        """Mark a row delivered; False if it was delivered already (or, given ``owner``, another owns it)."""
        guard = "" if owner is None else " AND claimed_by = ?"
        params: tuple = (now, result, message_id, row_id) + (() if owner is None else (owner,))
        # an interaction's token is kept only until its reply is done (or given up): no credential lingers
        sql = ("UPDATE outbox SET done_at = ?, result = ?, message_id = ?, claimed_until = NULL,"
               " payload = CASE WHEN kind = 'reply' THEN '{}' ELSE payload END"
               f" WHERE id = ? AND done_at IS NULL{guard}")
        if tx is not None:
            return await tx.execute(sql, params) == 1
        async with self.db.transaction() as own:
            return await own.execute(sql, params) == 1

    async def renew(self, owner: str, match_ids: Sequence[int], *, until: str,
                    tournament_ids: Sequence[int] = ()) -> int:
        """Extend ``owner``'s claims on the undelivered rows of these matches (and tournaments) to ``until``
        (their delivery takes long); a row another owner took, or given back (a retry), stays as it is. Returns
        the rows renewed."""
        renewed = 0
        for column, ids in (("match_id", match_ids), ("tournament_id", tournament_ids)):
            if not ids:
                continue
            marks = ",".join("?" * len(ids))
            own = "" if column == "match_id" else " AND match_id IS NULL"
            async with self.db.transaction() as tx:
                renewed += await tx.execute(
                    f"UPDATE outbox SET claimed_until = ? WHERE claimed_by = ? AND done_at IS NULL"
                    f" AND claimed_until IS NOT NULL AND {column} IN ({marks}){own}", (until, owner, *ids))
        return renewed

    async def retry(self, row_id: int, *, at: str) -> None:
        """Deliver again at ``at`` (a failure that may pass: a network error, a rate limit)."""
        async with self.db.transaction() as tx:
            await tx.execute("UPDATE outbox SET attempts = attempts + 1, due_at = ?, claimed_until = NULL"
                             " WHERE id = ? AND done_at IS NULL", (at, row_id))

    async def release(self, owner: str) -> int:
        """Give up every claim of ``owner`` (a process starting again under the name it had)."""
        async with self.db.transaction() as tx:
            return await tx.execute("UPDATE outbox SET claimed_until = NULL WHERE claimed_by = ? AND done_at IS NULL",
                                    (owner,))

    async def claim_owners(self, prefix: str) -> list[str]:
        """The owners named ``prefix``… (a host's processes) that hold claims on undelivered rows."""
        rows = await self.db.fetchall(
            "SELECT DISTINCT claimed_by FROM outbox WHERE done_at IS NULL AND claimed_by LIKE ?", (prefix + "%",))
        return [r[0] for r in rows]

    async def backlog(self, now: str) -> tuple[int, str | None]:
        """(how many undelivered rows are due at ``now``, when the earliest of them fell due)."""
        row = await self.db.fetchone("SELECT COUNT(*), MIN(due_at) FROM outbox WHERE done_at IS NULL AND due_at <= ?",
                                     (now,))
        return (row[0] or 0, row[1]) if row else (0, None)

    async def next_due(self) -> str | None:
        """When the earliest undelivered row is due (or its claim runs out)."""
        row = await self.db.fetchone(
            "SELECT MIN(CASE WHEN claimed_until > due_at THEN claimed_until ELSE due_at END) FROM outbox"
            " WHERE done_at IS NULL")
        return row[0] if row else None

    async def pending(self, match_id: int | None = None, *, tournament_id: int | None = None) -> list[OutboxRow]:
        only, params = _only(match_id, tournament_id)
        rows = await self.db.fetchall(f"SELECT {COLUMNS} FROM outbox WHERE done_at IS NULL{only} ORDER BY id", params)
        return [_row(r) for r in rows]

    async def delivered(self, match_id: int | None = None, *,
                        tournament_id: int | None = None) -> list[tuple[int, str, str, int | None]]:
        """(id, kind, result, message id) of the rows done, in order."""
        only, params = _only(match_id, tournament_id)
        rows = await self.db.fetchall(f"SELECT id, kind, result, message_id FROM outbox WHERE done_at IS NOT NULL"
                                      f"{only} ORDER BY id", params)
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    async def board_before(self, match_id: int, row_id: int) -> tuple[bool, int | None] | None:
        """The board row of ``match_id`` written last before row ``row_id``: (whether it is done, the message
        it posted), or None without one (a reply links the board of the change it confirms)."""
        row = await self.db.fetchone("SELECT done_at, message_id FROM outbox WHERE match_id = ? AND kind = 'board'"
                                     " AND id < ? ORDER BY id DESC LIMIT 1", (match_id, row_id))
        return None if row is None else (row[0] is not None, row[1])
