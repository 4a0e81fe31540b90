"""PostgreSQL through an asyncpg pool, behind the same ``Database``/``Tx`` interface as SQLite.

The stores' SQL is written once with ``?`` placeholders; each string is translated to ``$1, $2 …`` once and
cached. Transactions run concurrently here (several connections, several processes): every read-decide-write
is either a conditional write that reports whether it applied, or locks its match row first
(``Tx.lock_match``). Migrations run under an advisory lock, so processes starting together apply each once.

Every process holds one more connection, outside the pool, that LISTENs on ``WAKE_CHANNEL``: the triggers of
migration 011 NOTIFY it from every transaction that adds announcements or sets a deadline, on commit, so
every process's dispatcher and scheduler wake for work another process wrote (``listen``). The planner's
statistics are PostgreSQL's autovacuum's business (it ANALYZEs a table once enough of it changed).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import asyncpg

from bot.config import without_password
from bot.store.db import POSTGRES_MIGRATIONS_DIR, Database, Row, Tx, _finish, apply_migrations, migrations

log = logging.getLogger(__name__)

POOL_SIZE = 10                     # connections per process (a transaction holds one until it ends)
MIGRATION_LOCK = 0x626F617264      # the advisory lock key processes migrating at once queue on ("board")
WAKE_CHANNEL = "boardgames_wake"   # NOTIFY'd on the commit of announcements and deadlines (migration 011)
LISTEN_CHECK = 5.0                 # seconds between two looks at whether the listening connection still answers
LISTEN_TIMEOUT = 5.0               # seconds a connection or that look may take before it counts as lost
LISTEN_RETRY = (1.0, 2.0, 5.0, 10.0)   # seconds before connecting again, after 1, 2, 3… failed tries


@lru_cache(maxsize=2048)
def translate(sql: str) -> str:
    """``?`` placeholders to ``$1 … $n``, outside quoted literals and identifiers."""
    out: list[str] = []
    n = 0
    quote: str | None = None
    for ch in sql:
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


def rowcount(status: str) -> int:
    """The rows a statement changed, from its command status ('UPDATE 3', 'INSERT 0 1', 'DELETE 0')."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresTx(Tx):
    def __init__(self, conn: asyncpg.Connection):
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return rowcount(await self._conn.execute(translate(sql), *params))

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        new_id = await self._conn.fetchval(translate(sql + " RETURNING id"), *params)
        assert new_id is not None
        return int(new_id)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        if batch:
            await self._conn.executemany(translate(sql), batch)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self._conn.fetchrow(translate(sql), *params)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self._conn.fetch(translate(sql), *params))

    async def lock_match(self, match_id: int) -> None:
        await self._conn.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id)

    async def lock_free_matches(self, match_ids: Sequence[int]) -> list[int]:
        rows = await self._conn.fetch("SELECT id FROM matches WHERE id = ANY($1::bigint[]) ORDER BY id"
                                      " FOR UPDATE SKIP LOCKED", list(match_ids))
        return [r[0] for r in rows]

    async def lock_free_tournaments(self, tournament_ids: Sequence[int]) -> list[int]:
        rows = await self._conn.fetch("SELECT id FROM tournaments WHERE id = ANY($1::bigint[]) ORDER BY id"
                                      " FOR UPDATE SKIP LOCKED", list(tournament_ids))
        return [r[0] for r in rows]

    async def serialize(self, key: str) -> None:
        await self._conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)


class PostgresDatabase(Database):
    """A pool of connections; each transaction holds one connection from BEGIN to COMMIT (READ COMMITTED:
    a conditional UPDATE that waited for another transaction's row re-checks its WHERE on the new row)."""

    backend = "postgres"

    def __init__(self, pool: asyncpg.Pool, url: str):
        self._pool = pool
        self._url = url
        self.path = without_password(url)
        self.reads = 0

    @classmethod
    async def connect(cls, url: str) -> PostgresDatabase:
        pool = await asyncpg.create_pool(url, min_size=0, max_size=POOL_SIZE)   # no floor: an outage logs no retries
        assert pool is not None
        db = cls(pool, url)
        try:
            await db.migrate()
        except BaseException:
            await pool.close()
            raise
        return db

    async def close(self) -> None:
        await self._pool.close()

    async def listen(self, wake: Callable[[], None]) -> None:
        """LISTEN on ``WAKE_CHANNEL`` over a connection of its own, calling ``wake`` per notification and once
        on each (re)connection (what was committed while nobody listened). A lost connection (the server
        restarting) is logged once, then tried again until it answers. Runs until cancelled."""
        failures = 0
        while True:
            try:
                conn = await asyncpg.connect(self._url, timeout=LISTEN_TIMEOUT)
            except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
                if not failures:
                    log.warning("cannot listen for other processes' commits (%s); trying again", type(exc).__name__)
                await asyncio.sleep(LISTEN_RETRY[min(failures, len(LISTEN_RETRY) - 1)])
                failures += 1
                continue
            try:
                await conn.add_listener(WAKE_CHANNEL, lambda *_: wake())
                if failures:
                    log.info("listening for other processes' commits again")
                failures = 0
                wake()
                await self._while_answering(conn)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
                log.warning("lost the connection listening for other processes' commits (%s); reconnecting",
                            type(exc).__name__)
                failures = 1
            finally:
                conn.terminate()

    @staticmethod
    async def _while_answering(conn: asyncpg.Connection) -> None:
        """Return (raise) once ``conn`` stops answering: notifications come only while it is open."""
        while not conn.is_closed():
            await asyncio.sleep(LISTEN_CHECK)
            await conn.fetchval("SELECT 1", timeout=LISTEN_TIMEOUT)
        raise asyncpg.InterfaceError("the connection was closed")

    async def migrate(self) -> list[int]:
        async with self.transaction() as tx:
            await tx.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            applied = await apply_migrations(tx, migrations(POSTGRES_MIGRATIONS_DIR), datetime.now(UTC).isoformat())
        if applied:
            log.info("applied migrations %s", applied)
        return applied

    @asynccontextmanager
    async def _within(self, begin: str) -> AsyncIterator[Tx]:
        conn = await self._pool.acquire()
        try:
            try:
                await _finish(conn.execute(begin))
            except BaseException:
                await self._rollback_if_open(conn)
                raise
            try:
                yield PostgresTx(conn)
            except BaseException:
                await self._rollback_if_open(conn)
                raise
            try:
                await _finish(conn.execute("COMMIT"))
            except BaseException:
                await self._rollback_if_open(conn)
                raise
        finally:
            await _finish(self._pool.release(conn))

    @staticmethod
    async def _rollback_if_open(conn: asyncpg.Connection) -> None:
        if conn.is_closed() or not conn.is_in_transaction():
            return
        try:
            await _finish(conn.execute("ROLLBACK"))
        except asyncio.CancelledError:
            raise
        except Exception:   # the connection is broken: dropping it ends the transaction on the server
            log.exception("rollback failed")
            conn.terminate()

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        return self._within("BEGIN")

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Tx]:
        self.reads += 1
        async with self._within("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") as tx:
            yield tx

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self.reads += 1
        return list(await self._pool.fetch(translate(sql), *params))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        self.reads += 1
        return await self._pool.fetchrow(translate(sql), *params)
