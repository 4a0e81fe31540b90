"""The SQL of copying a whole database to another backend (``python -m bot migrate-db``, bot/migrate_db.py).

Reads a database's catalog (``sqlite_master`` or ``information_schema``) into ``Table``s, reads a table's rows in
primary-key order in batches (keyset paging), inserts batches, and makes the identity sequences (PostgreSQL) or
``sqlite_sequence`` (SQLite) continue after the copied ids. The command decides what to copy and when; this
module only speaks SQL.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.db import Database, Tx

BATCH_ROWS = 1000              # rows per INSERT batch (and per read of the source)
SKIPPED_TABLES = ("schema_migrations",)   # each side records its own migrations


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]           # the primary key, in key order (every column when the table has none)
    parents: frozenset[str]        # the other tables its foreign keys reference


async def one(db: Database | Tx, sql: str, params: Sequence[Any] = ()) -> Any:
    """The one row a query always returns (an aggregate, a catalog function)."""
    row = await db.fetchone(sql, params)
    assert row is not None, sql
    return row


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


# ---- the catalog ----

async def tables(db: Database) -> list[Table]:
    """Every table of ``db`` but the skipped ones, with its columns, key and parents, by name."""
    if db.backend == "sqlite":
        return await _sqlite_tables(db)
    found: list[Table] = []
    names = [r[0] for r in await db.fetchall(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        " AND table_type = 'BASE TABLE' ORDER BY table_name")]
    for name in names:
        if name in SKIPPED_TABLES:
            continue
        columns = tuple(r[0] for r in await db.fetchall(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = ? ORDER BY ordinal_position", (name,)))
        key = tuple(r[0] for r in await db.fetchall(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
            " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass(?) AND i.indisprimary"
            " ORDER BY array_position(i.indkey::int2[], a.attnum)", (quote(name),)))
        parents = {r[0] for r in await db.fetchall(
            "SELECT p.relname FROM pg_constraint c JOIN pg_class p ON p.oid = c.confrelid"
            " WHERE c.contype = 'f' AND c.conrelid = to_regclass(?)", (quote(name),))}
        found.append(Table(name, columns, key or columns, frozenset(parents - {name})))
    return found


async def _sqlite_tables(db: Database) -> list[Table]:
    found: list[Table] = []
    names = [r[0] for r in await db.fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    for name in names:
        if name in SKIPPED_TABLES:
            continue
        info = await db.fetchall(f"PRAGMA table_info({quote(name)})")
        columns = tuple(r["name"] for r in info)
        key = tuple(r["name"] for r in sorted((r for r in info if r["pk"]), key=lambda r: r["pk"]))
        parents = {r["table"] for r in await db.fetchall(f"PRAGMA foreign_key_list({quote(name)})")}
        found.append(Table(name, columns, key or columns, frozenset(parents - {name})))
    return found


async def schema_versions(db: Database) -> list[int]:
    return [r[0] for r in await db.fetchall("SELECT version FROM schema_migrations ORDER BY version")]


async def row_count(db: Database, table: str) -> int:
    return int((await one(db, f"SELECT COUNT(*) FROM {quote(table)}"))[0])


async def match_ids(db: Database) -> list[int]:
    return [r[0] for r in await db.fetchall("SELECT id FROM matches ORDER BY id")]


# ---- rows ----

async def rows_in_key_order(tx: Tx, table: Table) -> AsyncIterator[list[tuple[Any, ...]]]:
    """The rows of ``table`` in primary-key order, ``BATCH_ROWS`` at a time (keyset paging: each read is cheap)."""
    cols = ", ".join(quote(c) for c in table.columns)
    keys = ", ".join(quote(c) for c in table.key)
    at = [table.columns.index(c) for c in table.key]
    after: tuple[Any, ...] | None = None
    while True:
        if after is None:
            rows = await tx.fetchall(f"SELECT {cols} FROM {quote(table.name)} ORDER BY {keys} LIMIT ?", (BATCH_ROWS,))
        else:
            marks = ", ".join("?" for _ in table.key)
            rows = await tx.fetchall(f"SELECT {cols} FROM {quote(table.name)} WHERE ({keys}) > ({marks})"
                                     f" ORDER BY {keys} LIMIT ?", (*after, BATCH_ROWS))
        if not rows:
            return
        batch = [tuple(r) for r in rows]
        yield batch
        if len(batch) < BATCH_ROWS:
            return
        after = tuple(batch[-1][i] for i in at)


async def defer_foreign_keys(tx: Tx, backend: str) -> None:
    """On SQLite, check foreign keys at commit: a row may reference a later row of its table."""
    if backend == "sqlite":
        await tx.execute("PRAGMA defer_foreign_keys = ON")


async def insert_rows(tx: Tx, table: Table, batch: list[tuple[Any, ...]]) -> None:
    """Insert ``batch`` (values in ``table.columns`` order) into ``table``."""
    cols = ", ".join(quote(c) for c in table.columns)
    marks = ", ".join("?" for _ in table.columns)
    await tx.executemany(f"INSERT INTO {quote(table.name)} ({cols}) VALUES ({marks})", batch)


# ---- identity sequences ----

async def serial_columns(db: Database) -> list[tuple[str, str]]:
    """(table, column) of every column a new row's id comes from (AUTOINCREMENT, identity or serial)."""
    if db.backend == "sqlite":
        found: list[tuple[str, str]] = []
        for name, sql in await db.fetchall("SELECT name, sql FROM sqlite_master WHERE type = 'table'"):
            if "AUTOINCREMENT" in (sql or "").upper() and name not in SKIPPED_TABLES:
                info = await db.fetchall(f"PRAGMA table_info({quote(name)})")
                found.extend((name, r["name"]) for r in info if r["pk"] == 1)
        return found
    rows = await db.fetchall(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND (is_identity = 'YES' OR column_default LIKE 'nextval(%') ORDER BY table_name")
    return [(r[0], r[1]) for r in rows if r[0] not in SKIPPED_TABLES]


async def high_water(db: Database) -> dict[str, int]:
    """Per table, the highest id its sequence ever gave out (deleted rows' ids are not given out again)."""
    marks: dict[str, int] = {}
    if db.backend == "sqlite":
        if not await db.fetchone("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'"):
            return marks
        for name, seq in await db.fetchall("SELECT name, seq FROM sqlite_sequence"):
            marks[name] = max(marks.get(name, 0), int(seq))
        return marks
    for name, column in await serial_columns(db):
        seq = (await one(db, "SELECT pg_get_serial_sequence(?, ?)", (quote(name), column)))[0]
        if seq:
            last, called = await one(db, f"SELECT last_value, is_called FROM {seq}")
            marks[name] = int(last) if called else int(last) - 1
    return marks


async def continue_sequences(tx: Tx, backend: str, serials: list[tuple[str, str]], marks: dict[str, int]) -> None:
    """Make the next id of every serial column follow both the copied ids and the source's high-water mark."""
    for name, column in serials:
        top = (await one(tx, f"SELECT COALESCE(MAX({quote(column)}), 0) FROM {quote(name)}"))[0]
        last = max(int(top), marks.get(name, 0))
        if backend == "sqlite":
            await tx.execute("DELETE FROM sqlite_sequence WHERE name = ?", (name,))
            if last:
                await tx.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (name, last))
        else:
            await tx.execute("SELECT setval(pg_get_serial_sequence(?, ?), ?, false)", (quote(name), column, last + 1))
