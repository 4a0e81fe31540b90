"""SQLite: one aiosqlite connection with WAL, foreign keys and serial (BEGIN IMMEDIATE) transactions."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.db import Database, Row, Tx, _finish, apply_migrations, migrations

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000


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
