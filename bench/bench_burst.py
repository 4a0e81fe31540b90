"""Whole turns with their boards, one at a time and in a burst of simultaneous moves in different matches.

    python bench/bench_burst.py [--game tintas] [--burst 50] [--turns 100]

A whole turn is what a player waits for: the services read, validate and commit the move (with its
announcements), then the board is drawn. Rows, measured side by side in one run:
- single: one turn after another (median and p95 ms);
- burst: ``--burst`` moves in ``--burst`` matches submitted at the same moment; each turn's time runs from
  the burst's start to its own board (p50 / p95 / max), with the renders in threads (sharing the GIL) and in
  the render process pool (``render.pool.RenderPool``, one process per core), as the bot does.
Also prints the resident memory of this process (the bot's side: canvases live in the pool's workers).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import platform
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.model import Match, Person  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.store import Database  # noqa: E402
from engines import GAMES  # noqa: E402
from render.pool import RenderPool  # noqa: E402

TABLES = itertools.count(1000)     # every match its own channel, so /move finds it without the match option


async def matches(services: Services, game_key: str, count: int, rng: random.Random) -> list[Match]:
    out = []
    for i in range(count):
        a, b = Person(2 * i + 1, f"A{i}"), Person(2 * i + 2, f"B{i}")
        match = await services.challenges.challenge(game_key, guild_id=1, channel_id=next(TABLES), challenger=a,
                                                    opponents=[b], days_per_move=3)
        match = await services.challenges.accept(match.id, b, guild_id=1)
        for _ in range(rng.randrange(2, 8)):       # a little into the game, as most boards are
            if match.status != "active":
                break
            value, _ = rng.choice(GAMES[game_key].turn_suggestions(match.position, "", 25))
            match = (await services.play.submit_turn(match, match.to_move_user.user_id, value, guild_id=1)).match
        out.append(match)
    return out


async def turn(services: Services, pool: RenderPool, match: Match, rng: random.Random) -> Match:
    """One whole turn as /move does it: find, play and commit, then draw the board."""
    who = match.to_move_user
    assert who is not None
    value, _ = rng.choice(GAMES[match.row.game].turn_suggestions(match.position, "", 25))
    found = await services.queries.find_match(match.row.game, who.user_id, guild_id=1,
                                              channel_id=match.row.channel_id)
    new = (await services.play.submit_turn(found, who.user_id, value, guild_id=1)).match
    await pool.board(new.position, last_turn=new.last_turn, names=new.names, previous=new.previous)
    return new


async def single(game_key: str, turns: int, pool: RenderPool) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "b.sqlite3")
        services = Services(db, seed_source=random.Random(1))
        rng = random.Random(2)
        (match,) = await matches(services, game_key, 1, rng)
        match = await turn(services, pool, match, rng)        # warm the pool's workers
        times = []
        while len(times) < turns:
            while match.status != "active":
                (match,) = await matches(services, game_key, 1, rng)
            t0 = time.perf_counter()
            match = await turn(services, pool, match, rng)
            times.append((time.perf_counter() - t0) * 1000)
        await db.close()
    return times


async def burst(game_key: str, size: int, pool: RenderPool, rounds: int = 3) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "b.sqlite3")
        services = Services(db, seed_source=random.Random(1))
        rng = random.Random(3)
        times: list[float] = []
        for _ in range(rounds):
            live = [m for m in await matches(services, game_key, size, rng) if m.status == "active"]
            await asyncio.gather(*(pool.board(m.position) for m in live[:4]))   # warm the workers
            t0 = time.perf_counter()

            async def timed(m: Match, start: float = t0) -> None:
                await turn(services, pool, m, random.Random(m.id))
                times.append((time.perf_counter() - start) * 1000)
            await asyncio.gather(*(timed(m) for m in live))
        await db.close()
    return times


def p(xs: list[float], q: float) -> float:
    return sorted(xs)[max(0, int(len(xs) * q) - 1)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="tintas", choices=sorted(GAMES))
    ap.add_argument("--burst", type=int, default=50)
    ap.add_argument("--turns", type=int, default=100)
    args = ap.parse_args()
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}; {args.game}")
    threads, processes = RenderPool(0), RenderPool(None)
    try:
        for name, pool in (("threads", threads), ("processes", processes)):
            s = asyncio.run(single(args.game, args.turns, pool))
            print(f"single turn, renders in {name:<9}: median {statistics.median(s):7.1f} ms  p95 {p(s, .95):7.1f} ms")
        for name, pool in (("threads", threads), ("processes", processes)):
            b = asyncio.run(burst(args.game, args.burst, pool))
            print(f"burst of {args.burst}, renders in {name:<9}: p50 {p(b, .5):7.1f} ms  p95 {p(b, .95):7.1f} ms  "
                  f"max {max(b):7.1f} ms")
    finally:
        processes.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"this process (the bot's side): peak resident memory {rss:.0f} MB")


if __name__ == "__main__":
    main()
