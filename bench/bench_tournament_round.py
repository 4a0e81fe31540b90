"""A tournament's round through the service, on a real database: entries, a round paired and started (its
matches created in one transaction), each result recorded in its match's ending, the next round paired.

    python bench/bench_tournament_round.py [--players 64] [--rounds 2] [--database PATH-or-URL]

Prints, per round, the time to pair and start it (wall and CPU of this process: the pairing runs in a thread)
and the median time of a resignation with its tournament result; run it at ``nice`` on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.model import Person  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.services.tournament_views import TournamentSettings  # noqa: E402
from bot.store import Database  # noqa: E402
from bot.tournaments.model import Format  # noqa: E402

GUILD, CHANNEL = 1, 2


async def bench(where: str | Path, players: int, rounds: int) -> None:
    db = await Database.open(where)
    try:
        services = Services(db, seed_source=random.Random(1))
        settings = TournamentSettings(game="tintas", format=Format.SWISS, rounds=rounds, max_entrants=players,
                                      start_at=None)
        view = await services.tournaments.create(settings, guild_id=GUILD, channel_id=CHANNEL,
                                                 creator=Person(1, "Host"), manager=True, name="Bench")
        started = time.perf_counter()
        for i in range(players - 1):
            await services.tournaments.join(view.id, Person(1000 + i, f"P{i}"), guild_id=GUILD)
        per_entry = (time.perf_counter() - started) / (players - 1) * 1000
        print(f"{players} players: an entry takes {per_entry:.1f} ms")
        await services.tournaments.join(view.id, Person(999, "Last"), guild_id=GUILD)   # full: it starts
        rng = random.Random(2)
        for round_no in range(1, rounds + 1):
            wall, cpu = time.perf_counter(), time.process_time()
            assert await services.tournaments.pair_round(view.id, round_no)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            view = await services.tournaments.read(view.id)
            games = [t for t in view.rounds[round_no - 1].tables if t.match_id is not None]
            print(f"round {round_no}: paired and {len(games)} matches started in {wall * 1000:.0f} ms wall,"
                  f" {cpu * 1000:.0f} ms CPU")
            times = []
            for t in games:
                loser = rng.choice(t.seats)
                one = time.perf_counter()
                await services.play.resign(t.match_id, loser, guild_id=GUILD)   # type: ignore[arg-type]
                times.append(time.perf_counter() - one)
            print(f"round {round_no}: a resignation with its tournament result: median"
                  f" {statistics.median(times) * 1000:.1f} ms, slowest {max(times) * 1000:.1f} ms"
                  " (the round's last one asks for the next round)")
        view = await services.tournaments.read(view.id)
        print(f"status {view.status}, {len(view.standings)} standings rows")
    finally:
        await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--database", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bench(args.database or Path(tmp) / "bench.sqlite3", args.players, args.rounds))


if __name__ == "__main__":
    main()
