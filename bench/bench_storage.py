"""Database size per finished match, as played and after the archiver: every game played to its end, measured twice.

    python bench/bench_storage.py [--matches 20] [--games tintas rincala ...] [--postgres | --database-url URL]

Plays ``--matches`` random matches of each game to the end the way ``/move`` does (random legal turns from the
game's own suggestions, rated, so ratings and the record of events are written too), delivers every
announcement (so the outbox is as it is in use), and measures: BEFORE (as played) and AFTER the archiver
(``bot.archiver.archive_all``: every match's log into one verified compressed row, its delivered outbox rows
gone). SQLite: the file size after ``VACUUM`` less the size of an empty migrated database (the schema's own
pages), per match, and the stored bytes per match of the move log (``moves`` and ``move_archives``) and of the
other tables (the sum of the columns' lengths). PostgreSQL (``--postgres`` starts a throw-away server the way
the tests do; ``--database-url`` uses a database you give, which is left with the matches; what it held before
counts for nothing, as only the growth is measured):
``pg_total_relation_size`` of every table (with indexes and TOAST) after ``VACUUM FULL``, less what it was
before the game's matches (after one warm-up match, so each table's first 8 KB pages are not counted), per
match. Compare rows of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import sqlite3
import sys
import tempfile
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.archiver import archive_all  # noqa: E402
from bot.model import Person  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.store import Database  # noqa: E402
from engines import GAMES  # noqa: E402

MAX_TURNS = 2000     # a random game that has not ended by then is resigned (none has, so far)


async def play_out(services: Services, game_key: str, rng: random.Random) -> int:
    """One rated 2-player match played to its end with random legal turns; its id."""
    ann, bob = Person(1, "Ann"), Person(2, "Bob")
    match = await services.challenges.challenge(game_key, guild_id=1, channel_id=1, challenger=ann,
                                                opponents=[bob], days_per_move=3)
    match = await services.challenges.accept(match.id, bob, guild_id=1)
    for _ in range(MAX_TURNS):
        if match.status != "active":
            break
        who = match.to_move_user
        assert who is not None
        value, _ = rng.choice(GAMES[game_key].turn_suggestions(match.position, "", 40))
        match = (await services.play.submit_turn(match.id, who.user_id, value, guild_id=1)).match
    else:
        match = await services.play.resign(match.id, match.to_move_user.user_id, guild_id=1)  # type: ignore[union-attr]
    return match.id


async def table_bytes(db: Database, table: str) -> int:
    cols = [r[1] for r in await db.fetchall(f"PRAGMA table_info({table})")]
    total = " + ".join(f"COALESCE(LENGTH({c}), 0)" if c == "log" else f"COALESCE(LENGTH(CAST({c} AS TEXT)), 0)"
                       for c in cols)
    row = await db.fetchone(f"SELECT COALESCE(SUM({total}), 0) FROM {table}")
    return int(row[0]) if row else 0


LOG_TABLES = ("moves", "move_archives")


async def column_bytes(db: Database) -> tuple[int, int]:
    """(bytes of the move log's columns, bytes of every other table's columns)."""
    tables = [r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'"
                                              " AND name NOT LIKE 'sqlite_%'")]
    sizes = {t: await table_bytes(db, t) for t in tables}
    log = sum(sizes[t] for t in LOG_TABLES)
    return log, sum(sizes.values()) - log


def vacuumed_size(path: Path) -> int:
    """The database's size after VACUUM (in WAL mode VACUUM writes to the log: checkpointed after it)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages, size = conn.execute("PRAGMA page_count").fetchone()[0], conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()
    return int(pages) * int(size)


async def play_all(db: Database, game_key: str, matches: int, seed: int) -> list[int]:
    services = Services(db, seed_source=random.Random(seed))
    rng = random.Random(seed)
    ids = [await play_out(services, game_key, rng) for _ in range(matches)]
    async with db.transaction() as tx:     # announcements delivered, as in use
        await tx.execute("UPDATE outbox SET done_at = created_at, result = 'sent', message_id = 1")
    return ids


async def archive(db: Database) -> int:
    tally = await archive_all(Services(db), after=timedelta(0))    # the delay is for live play, not for a bench
    if tally.failed:
        raise SystemExit(f"matches {tally.failed} did not reproduce their positions")
    return tally.archived


@dataclass
class Figures:
    size: float        # KB per match: file (SQLite, less the empty schema) or relations (PostgreSQL)
    log: float         # KB per match of the move log's columns (SQLite only)
    other: float       # KB per match of the other tables' columns (SQLite only)


async def measure_sqlite(game_key: str, matches: int, seed: int) -> tuple[Figures, Figures, float]:
    """(before, after, plies per match)."""
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.sqlite3"
        await (await Database.open(empty)).close()
        base = vacuumed_size(empty)
        path = Path(tmp) / "size.sqlite3"
        db = await Database.open(path)
        ids = await play_all(db, game_key, matches, seed)
        plies = (await db.fetchone("SELECT COUNT(*) FROM moves"))[0]
        figures = []
        for step in ("before", "after"):
            if step == "after":
                db = await Database.open(path)
                assert await archive(db) == len(ids)
            log, other = await column_bytes(db)
            await db.close()
            size = vacuumed_size(path) - base
            figures.append(Figures(*(x / len(ids) / 1024 for x in (size, log, other))))
    return figures[0], figures[1], plies / len(ids)


async def relations_size(db: Database) -> int:
    for table in [r[0] for r in await db.fetchall("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]:
        await db.fetchone(f"VACUUM FULL {table}")      # outside a transaction: one statement on the pool
    row = await db.fetchone("SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
                            " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'"
                            " AND c.relkind = 'r'")
    return int(row[0]) if row else 0


async def measure_postgres(url: str, game_key: str, matches: int, seed: int) -> tuple[Figures, Figures, float]:
    db = await Database.open(url)
    try:
        await play_all(db, game_key, 1, seed + 1)     # a warm-up match (archived): every table and index has its
        await archive(db)                             # first pages, so what follows is the growth per match
        base = await relations_size(db)
        plies0 = (await db.fetchone("SELECT COUNT(*) FROM moves"))[0]
        ids = await play_all(db, game_key, matches, seed)
        plies = (await db.fetchone("SELECT COUNT(*) FROM moves"))[0] - plies0
        before = await relations_size(db) - base
        assert await archive(db) == len(ids)
        after = await relations_size(db) - base
    finally:
        await db.close()
    n = len(ids)
    return Figures(before / n / 1024, 0.0, 0.0), Figures(after / n / 1024, 0.0, 0.0), plies / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=20)
    ap.add_argument("--games", nargs="+", default=sorted(GAMES), choices=sorted(GAMES))
    ap.add_argument("--seed", type=int, default=7)
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--postgres", action="store_true", help="measure on a throw-away PostgreSQL server")
    where.add_argument("--database-url", default=None, help="measure on this (empty) PostgreSQL database")
    args = ap.parse_args()
    server = None
    if args.postgres:
        from tests.postgres_server import PostgresServer
        server = PostgresServer()
        server.start()
    kind = "SQLite file after VACUUM, less the empty schema" if server is None and args.database_url is None \
        else "PostgreSQL pg_total_relation_size of every table after VACUUM FULL"
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{args.matches} finished rated matches per game; {kind}; KB per finished match")
    print(f"{'game':>10} {'plies/match':>12} {'before':>8} {'after':>8}"
          + ("" if server or args.database_url else f" {'log before':>11} {'log after':>10} {'other before':>13}"
                                                     f" {'other after':>12}"))
    try:
        for key in args.games:
            if server is not None or args.database_url:
                url = args.database_url or server.url(server.new_database()[0])   # type: ignore[union-attr]
                before, after, plies = asyncio.run(measure_postgres(url, key, args.matches, args.seed))
                print(f"{key:>10} {plies:>12.1f} {before.size:>8.1f} {after.size:>8.1f}")
                continue
            before, after, plies = asyncio.run(measure_sqlite(key, args.matches, args.seed))
            print(f"{key:>10} {plies:>12.1f} {before.size:>8.1f} {after.size:>8.1f} {before.log:>11.1f}"
                  f" {after.log:>10.1f} {before.other:>13.1f} {after.other:>12.1f}")
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
