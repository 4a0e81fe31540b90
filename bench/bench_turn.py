"""A whole turn through the services (read, validate, commit with its announcements), with the scheduler and the
dispatcher running, beside many other active matches.

    python bench/bench_turn.py [--turns 200] [--active 10 10000] [--game tintas]

For each count of other active matches (each with a deadline and a reminder the scheduler watches), plays
``--turns`` turns of one match the way ``/move`` does (``find_match`` then ``submit_turn``) and prints the
median and p95 in ms, and how many database reads and misses of the positions cache a turn cost. The rows
are measured in one run, side by side, so the machine's noise hits them alike, and each row's median is
given against the first row's (the goal: 10,000 active matches within 20 % of ten). The database is filled,
then opened again as the bot starts on it (SQLite gathers its planner's statistics then, and again whenever
the matches grow a lot while it runs). The render is not included (``bench_games.py`` measures it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.process_worker import fill  # noqa: E402
from bot.dispatcher import Delivered, Dispatcher  # noqa: E402
from bot.model import Person  # noqa: E402
from bot.scheduler import Scheduler  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.store import Database  # noqa: E402
from bot.store.rows import OutboxRow  # noqa: E402
from engines import GAMES  # noqa: E402


async def measure(game_key: str, active: int, turns: int) -> tuple[float, float, float, float]:
    async def deliver(row: OutboxRow) -> Delivered:   # Discord stands aside: the announcement is only marked
        return Delivered("sent")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        db = await Database.open(path)
        await fill(db, active, game_key=game_key)   # deadlines a day away: none falls due meanwhile
        await db.close()
        db = await Database.open(path)              # the bot starting on a database of that many matches
        services = Services(db, seed_source=random.Random(2))
        scheduler, dispatcher = Scheduler(services), Dispatcher(services, deliver)
        scheduler.start()
        dispatcher.start()
        rng = random.Random(3)
        ann, bob = Person(1, "Ann"), Person(2, "Bob")
        times: list[float] = []
        reads: list[int] = []
        match = None
        try:
            while len(times) < turns:
                if match is None or match.status != "active":
                    match = await services.challenges.challenge(game_key, guild_id=1, channel_id=1, challenger=ann,
                                                                opponents=[bob], days_per_move=3)
                    match = await services.challenges.accept(match.id, bob, guild_id=1)
                    await asyncio.sleep(0.05)      # let the loops settle on the new deadlines
                who = match.to_move_user
                assert who is not None
                value, _ = rng.choice(GAMES[game_key].turn_suggestions(match.position, "", 25))
                before = db.reads
                t0 = time.perf_counter()
                found = await services.queries.find_match(game_key, who.user_id, guild_id=1, channel_id=1)
                match = (await services.play.submit_turn(found, who.user_id, value, guild_id=1)).match
                times.append((time.perf_counter() - t0) * 1000)
                reads.append(db.reads - before)
                await asyncio.sleep(0)             # the scheduler and dispatcher get their turn, as in the bot
        finally:
            await dispatcher.stop()
            await scheduler.stop()
            misses = services.ctx.positions.misses
            await db.close()
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1], statistics.mean(reads), misses / turns


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="tintas", choices=sorted(GAMES))
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--active", type=int, nargs="+", default=[10, 10_000])
    args = ap.parse_args()
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{args.game}, {args.turns} turns per row, scheduler and dispatcher running")
    print(f"{'active matches':>15} {'turn med ms':>12} {'vs first':>9} {'turn p95 ms':>12} {'reads/turn':>11} "
          f"{'cache misses/turn':>18}")
    first: float | None = None
    for count in args.active:
        med, p95, reads, misses = asyncio.run(measure(args.game, count, args.turns))
        first = first or med
        print(f"{count:>15,} {med:>12.2f} {med / first:>8.2f}x {p95:>12.2f} {reads:>11.1f} {misses:>18.2f}")


if __name__ == "__main__":
    main()
