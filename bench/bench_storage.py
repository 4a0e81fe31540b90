"""Database size per finished match: every game played to its end through the services, then measured.

    python bench/bench_storage.py [--matches 20] [--games tintas rincala ...]

Plays ``--matches`` random matches of each game to the end the way ``/move`` does (random legal turns from the
game's own suggestions, rated, so ratings and the record of events are written too), delivers every
announcement (so the outbox is as it is in use), then ``VACUUM``s and prints the file size per match, and the
stored bytes per match of the move log and of the other tables (the sum of the columns' lengths, which is what
grows with the log). Matches are played in one run, game by game, on one machine: compare rows of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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
    total = " + ".join(f"COALESCE(LENGTH(CAST({c} AS TEXT)), 0)" for c in cols)
    row = await db.fetchone(f"SELECT COALESCE(SUM({total}), 0) FROM {table}")
    return int(row[0]) if row else 0


async def measure(game_key: str, matches: int, seed: int) -> tuple[float, float, float, float]:
    """(file KB per match, move-log KB per match, other tables KB per match, plies per match)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "size.sqlite3"
        db = await Database.open(path)
        services = Services(db, seed_source=random.Random(seed))
        rng = random.Random(seed)
        ids = [await play_out(services, game_key, rng) for _ in range(matches)]
        async with db.transaction() as tx:     # announcements delivered, as in use
            await tx.execute("UPDATE outbox SET done_at = created_at, result = 'sent', message_id = 1")
        plies = (await db.fetchone("SELECT COUNT(*) FROM moves"))[0]
        moves = await table_bytes(db, "moves")
        tables = [r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'"
                                                  " AND name NOT LIKE 'sqlite_%'")]
        other = sum([await table_bytes(db, t) for t in tables if t != "moves"])
        await db.close()
        import sqlite3
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("VACUUM")
        size = path.stat().st_size
    n = len(ids)
    return size / n / 1024, moves / n / 1024, other / n / 1024, plies / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=20)
    ap.add_argument("--games", nargs="+", default=sorted(GAMES), choices=sorted(GAMES))
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{args.matches} finished rated matches per game, SQLite after VACUUM")
    print(f"{'game':>10} {'file KB/match':>14} {'moves KB/match':>15} {'other KB/match':>15} {'plies/match':>12}")
    for key in args.games:
        size, moves, other, plies = asyncio.run(measure(key, args.matches, args.seed))
        print(f"{key:>10} {size:>14.1f} {moves:>15.1f} {other:>15.1f} {plies:>12.1f}")


if __name__ == "__main__":
    main()
