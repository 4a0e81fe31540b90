"""Copy a whole database to another backend (``python -m bot migrate-db --from <url> --to <url>``) and verify it.

Every table of the schema but ``schema_migrations`` is copied, found in the source's catalog (``sqlite_master`` or
``information_schema``), so a table a later migration adds is copied without a change here. Tables go parents
first (from their foreign keys), rows in primary-key order with their ids, in batches, all in ONE transaction on
the target: a failure leaves the target as it was. The identity sequences (PostgreSQL) and ``sqlite_sequence``
(SQLite) then continue after the copied ids. Verification reads the committed target through a fresh connection:
row counts and a checksum per table equal the source's, and every match's move log replays to its stored
position (the services' own check). The bot must be stopped meanwhile: nothing else may write to either side.
The SQL (catalog, batches, sequences) is in bot/store/copy.py; this module decides, checks and reports.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from bot.config import HIDDEN, passwords, without_password
from bot.store.copy import (
    Table,
    continue_sequences,
    defer_foreign_keys,
    high_water,
    insert_rows,
    match_ids,
    row_count,
    rows_in_key_order,
    schema_versions,
    serial_columns,
    tables,
)
from bot.store.db import Database, is_postgres, sqlite_path

FLOAT_DIGITS = 12              # significant digits a float keeps in the checksum (both sides store IEEE doubles)
PROGRESS_EVERY = 500           # matches replayed between two progress lines

EXIT_OK = 0
EXIT_FAILED = 1                # the copy failed (rolled back) or did not verify
EXIT_REFUSED = 2               # nothing was written
KNOWN_SCHEMES = ("sqlite:///", "postgresql://", "postgres://")   # a location without '://' is a SQLite file
_SCHEME = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://")
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")   # what SQLite writes beside a database file

Say = Callable[[str], None]


class Refused(Exception):
    """The migration cannot start; nothing was written to the target."""


class CopyFailed(Exception):
    """The copy failed part-way; its transaction was rolled back."""


class NotVerified(Exception):
    """The copy was committed but does not match the source."""


def describe(where: str | Path) -> str:
    """A location as the messages name it (no password, whatever its scheme)."""
    return without_password(str(where))


def same_place(a: str | Path, b: str | Path) -> bool:
    """Whether two locations are one database (one file, or one server database)."""
    if is_postgres(a) != is_postgres(b):
        return False
    if not is_postgres(a):
        pa, pb = sqlite_path(a), sqlite_path(b)
        return pa == pb if ":memory:" in (pa, pb) else Path(pa).resolve() == Path(pb).resolve()

    def key(url: str) -> tuple[Any, ...]:
        parts = urlsplit(url)
        query = dict(parse_qsl(parts.query))
        host = parts.hostname or query.get("host", "localhost")
        return host, parts.port or int(query.get("port", 5432)), parts.path.strip("/")

    return key(str(a)) == key(str(b))


def copy_order(found: Sequence[Table]) -> list[Table]:
    """Parents before the tables that reference them (ties by name); a reference cycle is refused."""
    by_name = {t.name: t for t in found}
    done: list[Table] = []
    placed: set[str] = set()
    while len(done) < len(found):
        ready = [t for t in found if t.name not in placed and all(p in placed or p not in by_name for p in t.parents)]
        if not ready:
            cycle = sorted(t.name for t in found if t.name not in placed)
            raise Refused(f"the foreign keys of tables {', '.join(cycle)} form a cycle; cannot order the copy")
        for t in sorted(ready, key=lambda t: t.name):
            done.append(t)
            placed.add(t.name)
    return done


# ---- checksums ----

def normalized(value: Any) -> bytes:
    """One value as the checksum sees it, the same from either backend."""
    if value is None:
        return b"N"
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        return b"i" + str(value).encode()
    if isinstance(value, float):
        return b"f" + format(value, f".{FLOAT_DIGITS}g").encode()
    if isinstance(value, str):
        data = value.encode("utf-8")
        return b"s" + str(len(data)).encode() + b":" + data
    if isinstance(value, bytes | bytearray | memoryview):
        data = bytes(value)
        return b"b" + str(len(data)).encode() + b":" + data
    raise TypeError(f"a value of type {type(value).__name__} cannot be compared across backends")


async def checksum(db: Database, table: Table) -> tuple[int, str]:
    """(rows, SHA-256 of every row's normalized values in primary-key order)."""
    digest = hashlib.sha256()
    count = 0
    async with db.reading() as tx:
        async for batch in rows_in_key_order(tx, table):
            for row in batch:
                digest.update(b"|".join(normalized(v) for v in row) + b"\n")
            count += len(batch)
    return count, digest.hexdigest()


# ---- the migration ----

def _usable(where: str, role: str) -> None:
    """Refuse a location that cannot be one: an unknown scheme (it would be taken for a file name), a malformed
    SQLite URL, a source file that does not exist (opening it would create an empty one), or a target file
    that could not be created (a folder, or under a file)."""
    scheme = _SCHEME.match(where)
    if scheme and not where.startswith(KNOWN_SCHEMES) and not where.startswith("sqlite://"):
        raise Refused(f"the {role} URL {describe(where)} has the unknown scheme {scheme['scheme']!r}: migrate-db"
                      " copies between sqlite:///path and postgresql://… (or postgres://…) databases")
    if is_postgres(where):
        return
    try:
        path = sqlite_path(where)
    except ValueError as exc:
        raise Refused(f"the {role} URL is unusable: {without_password(str(exc))}") from None
    if role == "source" and (path == ":memory:" or not Path(path).is_file()):
        raise Refused(f"the source database {describe(where)} does not exist")
    if role == "target" and path != ":memory:":
        _creatable(Path(path), where)


def _creatable(path: Path, where: str) -> None:
    """A SQLite target must be a file, or a new one whose nearest existing folder is a writable folder."""
    if path.exists():
        if not path.is_file():
            raise Refused(f"the target database {describe(where)} is not a file")
        return
    parent = next(p for p in path.absolute().parents if p.exists())
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise Refused(f"the target database {describe(where)} cannot be created: {parent} is not a writable folder")


def _new_files(where: str) -> list[Path]:
    """What opening a SQLite target would create (its file, side files and missing folders, innermost first);
    removed again when nothing may be left behind."""
    if is_postgres(where) or sqlite_path(where) == ":memory:":
        return []
    path = Path(sqlite_path(where)).absolute()
    if path.exists():
        return []
    folders = [p for p in path.parents if not p.exists()]
    return [path, *(path.with_name(path.name + side) for side in SQLITE_SIDE_FILES), *folders]


def _remove(created: list[Path]) -> None:
    for path in created:
        if path.is_dir():
            path.rmdir()
        else:
            path.unlink(missing_ok=True)


async def _open(where: str, role: str) -> Database:
    try:
        return await Database.open(where)
    except Exception as exc:
        raise Refused(f"cannot open the {role} database {describe(where)}: {type(exc).__name__}:"
                      f" {masked(str(exc), where)}") from None


async def _check(source: Database, target: Database) -> list[Table]:
    """The tables to copy, in copy order, once the two schemas agree and the target is empty."""
    src_versions, dst_versions = await schema_versions(source), await schema_versions(target)
    if src_versions != dst_versions:
        raise Refused(f"the schema versions differ: migrations {sorted(set(src_versions) - set(dst_versions))} only"
                      f" in the source, {sorted(set(dst_versions) - set(src_versions))} only in the target"
                      " (migrate with the code of the newer one)")
    src_tables, dst_tables = await tables(source), await tables(target)
    dst_by_name = {t.name: t for t in dst_tables}
    if set(dst_by_name) != {t.name for t in src_tables}:
        src_names = {t.name for t in src_tables}
        raise Refused(f"the tables differ: only in the source {sorted(src_names - set(dst_by_name))},"
                      f" only in the target {sorted(set(dst_by_name) - src_names)}")
    for table in src_tables:
        if set(table.columns) != set(dst_by_name[table.name].columns):
            raise Refused(f"the columns of table {table.name} differ: source {list(table.columns)},"
                          f" target {list(dst_by_name[table.name].columns)}")
    matches = await row_count(target, "matches") if "matches" in dst_by_name else 0
    if matches:
        raise Refused(f"the target already holds {matches} matches; migrate only into an empty database")
    for table in dst_tables:
        rows = await row_count(target, table.name)
        if rows:
            raise Refused(f"the target is not empty: table {table.name} holds {rows} rows;"
                          " migrate only into an empty database")
    return copy_order(src_tables)


async def _copy(source: Database, target: Database, order: list[Table], say: Say) -> None:
    serials = await serial_columns(target)
    marks = await high_water(source)
    current = ""
    try:
        async with target.transaction() as dst, source.reading() as src:
            await defer_foreign_keys(dst, target.backend)
            for table in order:
                current = table.name
                copied = 0
                async for batch in rows_in_key_order(src, table):
                    await insert_rows(dst, table, batch)
                    copied += len(batch)
                say(f"copied {table.name}: {copied} rows")
            current = "(identity sequences)"
            await continue_sequences(dst, target.backend, serials, marks)
    except Exception as exc:
        raise CopyFailed(f"copying table {current} failed ({type(exc).__name__}: {exc}); the copy was rolled back,"
                         f" the target holds nothing of it") from exc


async def _verify(source: Database, where: str, order: list[Table], say: Say) -> None:
    """Compare every table with the source, then replay every match on a fresh connection to the target."""
    from bot.services import Services

    target = await Database.open(where)
    try:
        problems: list[str] = []
        for table in order:
            (n_src, sum_src), (n_dst, sum_dst) = await checksum(source, table), await checksum(target, table)
            if n_src != n_dst:
                problems.append(f"table {table.name}: {n_src} rows in the source, {n_dst} in the target")
            elif sum_src != sum_dst:
                problems.append(f"table {table.name}: the rows differ from the source's (checksum)")
            else:
                say(f"verified {table.name}: {n_dst} rows, checksum {sum_dst[:12]}")
        services = Services(target)
        ids = await match_ids(target)
        for n, match_id in enumerate(ids, 1):
            try:
                ok = await services.queries.log_reproduces_position(match_id)
            except Exception as exc:
                ok = False
                problems.append(f"match #{match_id}: its move log cannot be replayed ({type(exc).__name__}: {exc})")
            else:
                if not ok:
                    problems.append(f"match #{match_id}: replaying its move log does not reproduce its stored position")
            if n % PROGRESS_EVERY == 0:
                say(f"replayed {n} of {len(ids)} matches")
        say(f"replayed {len(ids)} matches")
        if problems:
            raise NotVerified("; ".join(problems))
    finally:
        await target.close()


async def migrate_db(source_url: str, target_url: str, *, say: Say = print) -> None:
    """Copy ``source_url`` into the empty ``target_url`` and verify it; raises ``Refused`` (nothing written),
    ``CopyFailed`` (rolled back) or ``NotVerified`` (the copy is committed but differs). A SQLite target that
    did not exist is removed again unless the copy was committed."""
    _usable(source_url, "source")
    _usable(target_url, "target")
    if same_place(source_url, target_url):
        raise Refused(f"the source and the target are the same database ({describe(source_url)})")
    source = await _open(source_url, "source")
    try:
        created = _new_files(target_url)
        try:
            order = await _fill(source, source_url, target_url, say)
        except (Refused, CopyFailed):
            _remove(created)
            raise
        await _verify(source, target_url, order, say)
    finally:
        await source.close()


async def _fill(source: Database, source_url: str, target_url: str, say: Say) -> list[Table]:
    """Open the target, check it, copy into it; the tables copied, in copy order."""
    target = await _open(target_url, "target")
    try:
        order = await _check(source, target)
        say(f"copying {describe(source_url)} ({source.backend}) to {describe(target_url)} ({target.backend}):"
            f" {len(order)} tables")
        await _copy(source, target, order, say)
    finally:
        await target.close()
    return order


def masked(text: str, *urls: str) -> str:
    """``text`` with every password of ``urls`` hidden (an error message may echo a location)."""
    for secret in sorted({p for url in urls for p in passwords(url)}, key=len, reverse=True):
        text = text.replace(secret, HIDDEN)
    return text


async def run(source_url: str, target_url: str, *, say: Say = print) -> int:
    """The command: progress and a summary on stdout, a refusal or failure as one line on stderr; the exit code.
    No password of either location is ever printed."""

    def tell(text: str) -> None:
        say(masked(text, source_url, target_url))

    def complain(text: str) -> None:
        print(masked(text, source_url, target_url), file=sys.stderr)

    try:
        await migrate_db(source_url, target_url, say=tell)
    except Refused as exc:
        complain(f"migrate-db refused: {exc}. Nothing was written.")
        return EXIT_REFUSED
    except CopyFailed as exc:
        complain(f"migrate-db failed: {exc}. Fix the cause and rerun.")
        return EXIT_FAILED
    except NotVerified as exc:
        complain(f"migrate-db copied everything but verification FAILED: {exc}. The target keeps the copy: do not"
                 " run the bot on it; drop it (or delete the file), fix the source and rerun.")
        return EXIT_FAILED
    tell(f"migrated and verified: {describe(source_url)} -> {describe(target_url)}")
    return EXIT_OK
