"""SQLite: one aiosqlite connection with WAL, foreign keys and serial (BEGIN IMMEDIATE) transactions.

SQLite plans queries from the statistics ``ANALYZE`` stores, and never gathers them by itself: without them a
player's matches among 10,000 active ones are looked up through the wrong index (4.8–8.5 ms instead of
0.008 ms). So the statistics are gathered at start-up and again whenever the matches grew a lot since
(``STATS_GROWTH``), checked every ``STATS_CHECK_COMMITS`` commits; ``analysis_limit`` keeps each ``ANALYZE``
to a sample, so it costs milliseconds however large the database. (PostgreSQL's autovacuum does this there.)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.db import Database, Row, Tx, _finish, apply_migrations, migrations

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
STATS_CHECK_COMMITS = 500     # commits between two looks at whether the matches grew (the first commit looks)
STATS_GROWTH = 2.0            # gather the statistics again once the matches are this many times more than then
STATS_MIN_MATCHES = 100       # below this the plan hardly matters: no statistics are gathered
ANALYSIS_LIMIT = 1000         # rows of each index ANALYZE samples (SQLite's "analysis_limit"): milliseconds


class SqliteTx(Tx):
    def __init__(self, conn: aiosqlite.Connection):
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = await self._conn.execute(sql, tuple(params))
        return cur.rowcount

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = await self._conn.execute(sql, tuple(params))
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, [tuple(r) for r in rows])

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        cur = await self._conn.execute(sql, tuple(params))
        return await cur.fetchone()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        cur = await self._conn.execute(sql, tuple(params))
        return list(await cur.fetchall())

    async def lock_match(self, match_id: int) -> None:
        """Nothing to do: a SQLite transaction (BEGIN IMMEDIATE) holds the whole database."""

    async def lock_free_matches(self, match_ids: Sequence[int]) -> list[int]:
        """All of them: a SQLite transaction holds the whole database."""
        return list(match_ids)

    async def lock_free_tournaments(self, tournament_ids: Sequence[int]) -> list[int]:
        """All of them: a SQLite transaction holds the whole database."""
        return list(tournament_ids)

    async def serialize(self, key: str) -> None:
        """Nothing to do: SQLite transactions run one after another already."""


class SqliteDatabase(Database):
    """One connection is shared by the whole process, so every statement goes through one lock: a
    transaction from one coroutine must never see statements of another (aiosqlite runs them all on
    one thread, on one connection). Writers of other processes wait for ``BEGIN IMMEDIATE``."""

    backend = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str):
        self._conn = conn
        self._lock = asyncio.Lock()
        self.path = path
        self.reads = 0
        self._commits_to_check = 1          # the first commit (the migration at start-up) looks
        self._matches_analyzed = 0          # the matches there were when the statistics were last gathered

    @classmethod
    async def connect(cls, path: str) -> SqliteDatabase:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)  # we issue BEGIN ourselves
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db = cls(conn, path)
        await db.migrate()
        return db

    async def close(self) -> None:
        await self._conn.close()

    async def listen(self, wake: Callable[[], None]) -> None:
        """Nothing to listen to: SQLite serves one process, whose services wake its loops after each commit."""

    async def migrate(self) -> list[int]:
        async with self.transaction() as tx:
            applied = await apply_migrations(tx, migrations(), datetime.now(UTC).isoformat())
        if applied:
            log.info("applied migrations %s", applied)
        return applied

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._lock:
            try:
                await _finish(self._conn.execute("BEGIN IMMEDIATE"))
            except BaseException:
                await self._rollback_if_open()
                raise
            try:
                yield SqliteTx(self._conn)
            except BaseException:
                await self._rollback_if_open()
                raise
            try:
                await _finish(self._conn.execute("COMMIT"))
            except BaseException:
                await self._rollback_if_open()
                raise
            self._commits_to_check -= 1
            if self._commits_to_check <= 0:
                self._commits_to_check = STATS_CHECK_COMMITS
                await _finish(self._keep_statistics())

    async def _keep_statistics(self) -> None:
        """Gather the planner's statistics if the matches grew ``STATS_GROWTH`` times since they last were (the
        highest id: one look-up, where counting would read them all). Runs holding the lock."""
        row = await (await self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM matches")).fetchone()
        matches = row[0] if row else 0
        if matches < max(STATS_MIN_MATCHES, STATS_GROWTH * self._matches_analyzed):
            return
        await self._conn.execute(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}")
        await self._conn.execute("ANALYZE")
        self._matches_analyzed = matches
        log.info("gathered SQLite's statistics at %d matches", matches)

    async def _rollback_if_open(self) -> None:
        if self._conn.in_transaction:
            try:
                await _finish(self._conn.execute("ROLLBACK"))
            except asyncio.CancelledError:
                raise
            except Exception:   # the connection is gone; nothing left to undo
                log.exception("rollback failed")

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Tx]:
        async with self._lock:
            self.reads += 1
            yield SqliteTx(self._conn)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._lock:
            self.reads += 1
            return list(await (await self._conn.execute(sql, tuple(params))).fetchall())

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        async with self._lock:
            self.reads += 1
            return await (await self._conn.execute(sql, tuple(params))).fetchone()
