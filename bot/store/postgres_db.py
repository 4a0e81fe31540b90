"""PostgreSQL through an asyncpg pool, behind the same ``Database``/``Tx`` interface as SQLite.

The stores' SQL is written once with ``?`` placeholders; each string is translated to ``$1, $2 …`` once and
cached. Transactions run concurrently here (several connections, several processes): every read-decide-write
is either a conditional write that reports whether it applied, or locks its match row first
(``Tx.lock_match``). Migrations run under an advisory lock, so processes starting together apply each once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
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

    async def serialize(self, key: str) -> None:
        await self._conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)


class PostgresDatabase(Database):
    """A pool of connections; each transaction holds one connection from BEGIN to COMMIT (READ COMMITTED:
    a conditional UPDATE that waited for another transaction's row re-checks its WHERE on the new row)."""

    backend = "postgres"

    def __init__(self, pool: asyncpg.Pool, url: str):
        self._pool = pool
        self.path = without_password(url)
        self.reads = 0

    @classmethod
    async def connect(cls, url: str) -> PostgresDatabase:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE)
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
