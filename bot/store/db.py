"""One aiosqlite connection with WAL, foreign keys, numbered migrations and cancel-safe transactions."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")
BUSY_TIMEOUT_MS = 5000

Row = aiosqlite.Row
T = TypeVar("T")


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every migration file, in order."""
    found = []
    for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
        m = _MIGRATION_NAME.match(path.name)
        if not m:
            raise RuntimeError(f"migration file {path.name} is not named NNN_name.sql")
        found.append((int(m.group(1)), m.group(2), path.read_text(encoding="utf-8")))
    return found


async def _finish(step: Awaitable[T]) -> T:
    """Run ``step`` to its end even if the caller is cancelled meanwhile, then let the cancellation through.

    aiosqlite runs a statement on its own thread: cancelling the awaiting task does not stop it, so a
    ``BEGIN`` or ``COMMIT`` that was awaited when the task was cancelled still happens. Waiting for it keeps
    the connection's state known (and lets the caller roll back what it began).
    """
    task = asyncio.ensure_future(step)
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.done():
                raise
            cancelled = True
            continue
        if cancelled:
            raise asyncio.CancelledError
        return result


class Tx:
    """The statements of one transaction (only the coroutine that opened it holds one)."""

    def __init__(self, conn: aiosqlite.Connection):
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; the number of rows it changed."""
        cur = await self._conn.execute(sql, tuple(params))
        return cur.rowcount

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an INSERT; the new row's id."""
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


class Database:
    """The bot's SQLite database.

    One connection is shared by the whole process, so every statement goes through one lock: a
    transaction from one coroutine must never see statements of another (aiosqlite runs them all on
    one thread, on one connection). ``reads`` counts the statements run outside transactions (tests
    count the reads a command costs).
    """

    def __init__(self, conn: aiosqlite.Connection, path: str):
        self._conn = conn
        self._lock = asyncio.Lock()
        self.path = path
        self.reads = 0

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        """Open (creating the folder and file if needed) and migrate to the latest schema."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)  # we issue BEGIN ourselves
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db = cls(conn, str(path))
        await db.migrate()
        return db

    async def close(self) -> None:
        await self._conn.close()

    async def migrate(self) -> list[int]:
        """Apply the migrations the database has not recorded yet; returns the versions applied."""
        applied: list[int] = []
        async with self.transaction() as tx:
            await tx.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
            done = {r[0] for r in await tx.fetchall("SELECT version FROM schema_migrations")}
            for version, name, sql in migrations():
                if version in done:
                    continue
                for statement in _statements(sql):
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                                 (version, name, datetime.now(UTC).isoformat()))
                applied.append(version)
        if applied:
            log.info("applied migrations %s", applied)
        return applied

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any exception — also when cancelled at any await."""
        async with self._lock:
            try:
                await _finish(self._conn.execute("BEGIN IMMEDIATE"))
            except BaseException:
                await self._rollback_if_open()
                raise
            try:
                yield Tx(self._conn)
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
        """Several statements read as one (no transaction of another coroutine in between); one read."""
        async with self._lock:
            self.reads += 1
            yield Tx(self._conn)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._lock:
            self.reads += 1
            return list(await (await self._conn.execute(sql, tuple(params))).fetchall())

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        async with self._lock:
            self.reads += 1
            return await (await self._conn.execute(sql, tuple(params))).fetchone()


def _statements(sql: str) -> list[str]:
    """Split a migration file into statements, dropping ``--`` comments (our SQL has no '--' or ';' in literals)."""
    body = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    return [s.strip() for s in body.split(";") if s.strip()]
