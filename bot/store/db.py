"""One aiosqlite connection with WAL, foreign keys, numbered migrations and serialised transactions."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every migration file, in order."""
    found = []
    for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
        m = _MIGRATION_NAME.match(path.name)
        if not m:
            raise RuntimeError(f"migration file {path.name} is not named NNN_name.sql")
        found.append((int(m.group(1)), m.group(2), path.read_text(encoding="utf-8")))
    return found


class Database:
    """The bot's SQLite database.

    One connection is shared by the whole process, so every statement goes through one lock: a
    transaction from one coroutine must never see statements of another (aiosqlite runs them all on
    one thread, on one connection).
    """

    def __init__(self, conn: aiosqlite.Connection):
        self._conn = conn
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        """Open (creating the folder and file if needed) and migrate to the latest schema."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)  # we issue BEGIN ourselves
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 5000")
        db = cls(conn)
        await db.migrate()
        return db

    async def close(self) -> None:
        await self._conn.close()

    async def migrate(self) -> list[int]:
        """Apply the migrations the database has not recorded yet; returns the versions applied."""
        applied: list[int] = []
        async with self.transaction() as conn:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
            rows = await (await conn.execute("SELECT version FROM schema_migrations")).fetchall()
            done = {r[0] for r in rows}
            for version, name, sql in migrations():
                if version in done:
                    continue
                for statement in _statements(sql):
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, datetime.now(UTC).isoformat()))
                applied.append(version)
        if applied:
            log.info("applied migrations %s", applied)
        return applied

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any exception."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            else:
                await self._conn.execute("COMMIT")

    async def fetchall(self, sql: str, params: tuple = ()) -> list[aiosqlite.Row]:
        async with self._lock:
            return list(await (await self._conn.execute(sql, params)).fetchall())

    async def fetchone(self, sql: str, params: tuple = ()) -> aiosqlite.Row | None:
        async with self._lock:
            return await (await self._conn.execute(sql, params)).fetchone()


def _statements(sql: str) -> list[str]:
    """Split a migration file into statements, dropping ``--`` comments (our SQL has no '--' or ';' in literals)."""
    body = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    return [s.strip() for s in body.split(";") if s.strip()]
