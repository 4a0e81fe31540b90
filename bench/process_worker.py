"""One bot process without Discord: the real scheduler and dispatcher over a shared database, and optionally a
player making moves in a share of the matches. ``bench_processes.py`` and ``tests/bot/test_multiprocess.py`` start
several of these on one database and kill some.

    python bench/process_worker.py URL --out FILE [--lease 120] [--matches LO HI --seconds 30 --rate 10]

Every delivery is recorded in the table ``deliveries`` of the same database (no unique key, so a row delivered
twice shows as two lines); ``again`` is 1 when that outbox row had been delivered before — Discord's
``enforce_nonce`` would answer such a post with the message already made instead of a second one. The process
runs until SIGTERM, then writes a JSON summary (its move latencies in ms among it) to ``--out``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.dispatcher import Delivered, Dispatcher  # noqa: E402
from bot.model import Match, ServiceError  # noqa: E402
from bot.scheduler import Scheduler  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.store import Database  # noqa: E402
from bot.store.rows import OutboxRow  # noqa: E402
from engines import GAMES  # noqa: E402

DELIVERIES = ("CREATE TABLE IF NOT EXISTS deliveries (outbox_id BIGINT NOT NULL, kind TEXT NOT NULL,"
              " match_id BIGINT NOT NULL, pid BIGINT NOT NULL, at TEXT NOT NULL, again INTEGER NOT NULL)")
DELIVERIES_INDEX = "CREATE INDEX IF NOT EXISTS deliveries_outbox ON deliveries (outbox_id)"


async def create_deliveries(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.serialize("deliveries-table")     # processes starting together create it once
        await tx.execute(DELIVERIES)
        await tx.execute(DELIVERIES_INDEX)


def iso(when: datetime) -> str:
    return when.isoformat(timespec="seconds")


async def fill(db: Database, count: int, *, game_key: str = "tintas", remind_in: timedelta = timedelta(hours=19),
               deadline_in: timedelta = timedelta(days=1)) -> list[int]:
    """``count`` active timed matches of two players each (their own users, in one of 50 channels), ids in a row
    after the existing ones, with reminders and deadlines ``remind_in``/``deadline_in`` from now (spread over a
    few hours so they do not all fall due at once). Returns their ids."""
    start = GAMES[game_key].new(players=2, seed=1)
    code = start.encode()
    now = datetime.now(UTC)
    stamp = iso(now)
    async with db.transaction() as tx:
        base = (await tx.fetchone("SELECT COALESCE(MAX(id), 0) FROM matches"))[0]
        rows, people = [], []
        for i in range(count):
            mid = base + i + 1
            spread = timedelta(seconds=i % 4000)
            rows.append((mid, game_key, None, 2, 1, 100 + i % 50, "active", i, 0, 0, code, start.to_move,
                         1000 + mid, stamp, stamp, 3 * 86400, iso(now + deadline_in + spread),
                         iso(now + remind_in + spread)))
            people += [(mid, 10_000 + 2 * mid, "A", 0, 1, 0), (mid, 10_001 + 2 * mid, "B", 1, 1, 1)]
        await tx.executemany(
            "INSERT INTO matches (id, game, variant, players, guild_id, channel_id, status, seed, ply, turn, position,"
            " to_move, created_by, created_at, started_at, time_per_move, deadline_at, remind_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        await tx.executemany("INSERT INTO participants (match_id, user_id, name, invited_order, accepted, seat)"
                             " VALUES (?, ?, ?, ?, ?, ?)", people)
        if db.backend == "postgres":      # ids were given: the identity continues after them
            await tx.execute("SELECT setval(pg_get_serial_sequence('matches', 'id'), (SELECT MAX(id) FROM matches))")
    return [base + i + 1 for i in range(count)]


def recorder(db: Database, delay: float = 0.0):
    """The front end's ``deliver``: one line in ``deliveries`` per call, and a fake message id; ``delay`` seconds
    stand for the post's round trip to Discord."""
    pid = os.getpid()

    async def deliver(row: OutboxRow) -> Delivered:
        if delay:
            await asyncio.sleep(delay)
        async with db.transaction() as tx:
            before = await tx.fetchone("SELECT COUNT(*) FROM deliveries WHERE outbox_id = ?", (row.id,))
            await tx.execute("INSERT INTO deliveries (outbox_id, kind, match_id, pid, at, again)"
                             " VALUES (?, ?, ?, ?, ?, ?)",
                             (row.id, row.kind, row.match_id, pid, datetime.now(UTC).isoformat(),
                              1 if before and before[0] else 0))
        return Delivered("sent", message_id=10**15 + row.id)
    return deliver


async def play(services: Services, lo: int, hi: int, seconds: float, rate: float, rng: random.Random,
               latencies: list[float], errors: list[str]) -> None:
    """Moves at a steady ``rate`` per second in random matches of ``lo..hi``, each timed the way ``/move`` runs
    (find the match, then submit the turn), until ``seconds`` have passed."""
    known: dict[int, Match] = {}
    pool = list(range(lo, hi + 1))
    start = time.perf_counter()
    tick = 0
    while pool and time.perf_counter() - start < seconds:
        tick += 1
        wait = start + tick / rate - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        mid = rng.choice(pool)
        match = known.get(mid) or await services.queries.get(mid)
        who = match.to_move_user
        if match.status != "active" or who is None:
            pool.remove(mid)
            continue
        value, _ = rng.choice(GAMES[match.row.game].turn_suggestions(match.position, "", 25))
        t0 = time.perf_counter()
        try:
            found = await services.queries.find_match(match.row.game, who.user_id, guild_id=match.row.guild_id,
                                                      channel_id=match.row.channel_id)
            known[mid] = (await services.play.submit_turn(found, who.user_id, value,
                                                          guild_id=match.row.guild_id)).match
        except ServiceError as exc:       # the scheduler forfeited it meanwhile, or another turn came first
            errors.append(type(exc).__name__)
            known.pop(mid, None)
            continue
        latencies.append((time.perf_counter() - t0) * 1000)


async def main(args: argparse.Namespace) -> None:
    db = await Database.open(args.url)
    await create_deliveries(db)
    services = Services(db)
    scheduler = Scheduler(services)
    dispatcher = Dispatcher(services, recorder(db, args.delay), lease=timedelta(seconds=args.lease))
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    latencies: list[float] = []
    errors: list[str] = []
    listening = asyncio.Event()       # on PostgreSQL: hearing the other processes' commits
    services.events.elsewhere.subscribe(lambda _: listening.set())
    scheduler.start()
    dispatcher.start()
    if db.backend == "postgres":
        await listening.wait()
    Path(args.out).with_suffix(".ready").write_text(dispatcher.owner)
    mover = None
    if args.matches:
        mover = asyncio.create_task(play(services, args.matches[0], args.matches[1], args.seconds, args.rate,
                                         random.Random(os.getpid()), latencies, errors))
    await stop.wait()
    if mover is not None:
        mover.cancel()
        await asyncio.gather(mover, return_exceptions=True)
    await dispatcher.stop()
    await scheduler.stop()
    await db.close()
    Path(args.out).write_text(json.dumps({
        "pid": os.getpid(), "owner": dispatcher.owner, "latencies_ms": latencies, "errors": errors,
        "delivered": dispatcher.delivered}))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("url", help="postgresql://… or a SQLite path")
    ap.add_argument("--out", required=True, help="the JSON summary, written at SIGTERM (FILE.ready at start)")
    ap.add_argument("--lease", type=float, default=120.0, help="the dispatcher's lease in seconds")
    ap.add_argument("--delay", type=float, default=0.0, help="seconds each delivery takes")
    ap.add_argument("--matches", type=int, nargs=2, metavar=("LO", "HI"), help="play moves in matches LO..HI")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--rate", type=float, default=10.0, help="moves per second")
    return ap.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
