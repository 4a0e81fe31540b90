"""The storage interface: one ``Database`` (SQLite or PostgreSQL) with cancel-safe transactions and migrations.

The stores (``matches.py``, ``outbox.py`` …) hold all SQL, written once with ``?`` placeholders in syntax both
backends accept; the services, the scheduler and the dispatcher see only ``Database`` and ``Tx`` and never know
which backend is underneath. ``Database.open`` picks it from the location: a plain path or ``sqlite:///…``
(SQLite, ``sqlite_db.py``) or ``postgresql://…`` (PostgreSQL through asyncpg, ``postgres_db.py``).
"""

from __future__ import annotations

import asyncio
import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, TypeVar

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
# PostgreSQL's twin of every migration: the same NNN_name, the same meaning, PostgreSQL's types (BIGINT ids,
# identity columns, DOUBLE PRECISION). A new SQLite migration needs its twin here (a test checks it).
POSTGRES_MIGRATIONS_DIR = MIGRATIONS_DIR / "postgres"
_MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")
POSTGRES_SCHEMES = ("postgresql://", "postgres://")

Row = Any     # aiosqlite.Row or asyncpg.Record: both give r[0], r["name"], tuple(r) and dict(r)
T = TypeVar("T")


def migrations(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, str, str]]:
    """(version, name, sql) of every migration file of ``directory``, in order."""
    found = []
    for path in sorted(directory.glob("*.sql")):
        m = _MIGRATION_NAME.match(path.name)
        if not m:
            raise RuntimeError(f"migration file {path.name} is not named NNN_name.sql")
        found.append((int(m.group(1)), m.group(2), path.read_text(encoding="utf-8")))
    return found


def _statements(sql: str) -> list[str]:
    """Split a migration file into statements, dropping ``--`` comments (our SQL has no '--' or ';' in literals;
    a ``$$``-quoted function body is kept whole, its ';' included)."""
    body = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    statements, current = [], ""
    for n, piece in enumerate(body.split("$$")):     # odd pieces are inside $$ … $$
        parts = [piece] if n % 2 else piece.split(";")
        current += ("$$" if n else "") + parts[0]
        for part in parts[1:]:
            statements.append(current)
            current = part
    return [s.strip() for s in [*statements, current] if s.strip()]


async def _finish(step: Awaitable[T]) -> T:
    """Run ``step`` to its end even if the caller is cancelled meanwhile, then let the cancellation through.

    A ``BEGIN`` or ``COMMIT`` that was sent when the task was cancelled may still happen (aiosqlite runs it on
    its own thread; a PostgreSQL server may already have it). Waiting for it keeps the connection's state
    known (and lets the caller roll back what it began).
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


def is_postgres(where: str | Path) -> bool:
    return isinstance(where, str) and where.startswith(POSTGRES_SCHEMES)


def sqlite_path(where: str | Path) -> str:
    """The file of a SQLite location: a plain path, ``sqlite:///relative/path`` or ``sqlite:////abs/path``."""
    text = str(where)
    if text.startswith("sqlite://"):
        rest = text[len("sqlite://"):]
        if not rest.startswith("/"):
            raise ValueError(f"a SQLite URL is sqlite:///relative/path or sqlite:////absolute/path, not {text!r}")
        return rest[1:] or ":memory:"
    return text


class Tx(ABC):
    """The statements of one transaction (only the coroutine that opened it holds one)."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; the number of rows it changed."""

    @abstractmethod
    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an INSERT into a table whose key is ``id``; the new row's id."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    @abstractmethod
    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    async def lock_match(self, match_id: int) -> None:
        """Hold the match row until the transaction ends, so a read-decide-write on it is not interleaved with
        another transaction's (SQLite transactions are serial already: nothing to do there)."""

    @abstractmethod
    async def lock_free_matches(self, match_ids: Sequence[int]) -> list[int]:
        """Hold those of these match rows no other transaction holds, skipping the others (``FOR UPDATE SKIP
        LOCKED``): several processes claiming work each take different matches instead of queueing on one lock.
        SQLite transactions are serial already: all of them, in order."""

    @abstractmethod
    async def lock_free_tournaments(self, tournament_ids: Sequence[int]) -> list[int]:
        """``lock_free_matches`` for tournament rows (a tournament's outbox rows are claimed by its row)."""

    @abstractmethod
    async def serialize(self, key: str) -> None:
        """Transactions that call this with the same ``key`` run one after another, from here to their end
        (a read-decide-write on rows that may not exist yet; SQLite transactions are serial already)."""


class Database(ABC):
    """The bot's database. ``reads`` counts the reads run outside transactions (tests count what a command
    costs); ``path`` is where it lives (a file, or a URL without its password)."""

    backend: str
    path: str
    reads: int

    @staticmethod
    async def open(where: str | Path) -> Database:
        """Open (creating a SQLite file and its folder if needed) and migrate to the latest schema."""
        if is_postgres(where):
            from bot.store.postgres_db import PostgresDatabase
            return await PostgresDatabase.connect(str(where))
        from bot.store.sqlite_db import SqliteDatabase
        return await SqliteDatabase.connect(sqlite_path(where))

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def migrate(self) -> list[int]:
        """Apply the migrations the database has not recorded yet; returns the versions applied."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """BEGIN … COMMIT, or ROLLBACK on any exception — also when cancelled at any await."""

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Tx]:
        """Several statements read as one (one consistent view); one read."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def ping(self) -> None:
        """One round trip to the database (the readiness probe): raises when it does not answer."""
        await self.fetchone("SELECT 1")

    @abstractmethod
    async def listen(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` whenever another process commits announcements or deadlines, until cancelled (and once
        on each (re)connection, for what was committed unheard)."""


async def apply_migrations(tx: Tx, found: list[tuple[int, str, str]], now: str) -> list[int]:
    """Record-and-apply, the same on both backends: ``schema_migrations`` (version, name, applied_at)."""
    await tx.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                     " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
    done = {r[0] for r in await tx.fetchall("SELECT version FROM schema_migrations")}
    applied: list[int] = []
    for version, name, sql in found:
        if version in done:
            continue
        for statement in _statements(sql):
            await tx.execute(statement)
        await tx.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                         (version, name, now))
        applied.append(version)
    return applied

