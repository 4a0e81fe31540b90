"""A tournament's Discord posts on the real front end (offline Discord: tests/bot/discord_harness.py), with the
render pool in worker processes as the bot runs it: the time from a round's pairing to its pairings post (its
boards delivered first), and from a resignation's commit to the standings image posted after it.

    python bench/bench_tournament_posts.py [--players 8 64] [--results 5]

Prints per field size: the pairings post's time, and the median and worst time from a result to its standings
post (the issue asks ≤ 5 s after the result post). Run it at ``nice`` on a shared machine and quote ``uptime``.
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

import discord  # noqa: E402

from bot.config import Config  # noqa: E402
from bot.discord.client import GameBot  # noqa: E402
from bot.discord.tournament_sheet import STANDINGS_FILE  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.store import Database  # noqa: E402
from tests.bot.discord_harness import FakeDiscord  # noqa: E402

GUILD = 1000
MANAGER = discord.Permissions.text() | discord.Permissions(view_channel=True, manage_guild=True)


def standings_posts(fake: FakeDiscord) -> int:
    return sum(1 for s in fake.sent if s.kind == "channel_message" and any(n == STANDINGS_FILE for n, _ in s.files))


async def bench(players: int, results: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.sqlite3")
        config = Config(token=None, database_path=db.path, dev_guild_id=None, log_level="WARNING")
        bot = GameBot(config, services=Services(db, seed_source=random.Random(1)), sync_commands=False,
                      run_background=False, ai_processes=0, render_processes=1)
        try:
            async with FakeDiscord(bot, guild_id=GUILD, timeout=120) as fake:
                await bot.renders.ready()
                root = fake.user(9, "Root", permissions=MANAGER)
                people = [fake.user(100 + i, f"Player {i}") for i in range(players)]
                await fake.slash(root, "tournament create", name="Bench", game="tintas", format="swiss", rounds=3,
                                 min_players=players, max_players=players)
                for p in people[:-1]:
                    await fake.slash(p, "tournament join", tournament="#1")
                began = time.perf_counter()
                await fake.slash(people[-1], "tournament join", tournament="#1")    # full: starts, pairs, posts
                await bot.dispatcher.deliver_pending()
                pairing = time.perf_counter() - began
                view = await bot.services.tournaments.view(1, guild_id=GUILD)
                times = []
                for table in view.rounds[0].tables[:results]:
                    if table.match_id is None:
                        continue
                    before = standings_posts(fake)
                    began = time.perf_counter()
                    await bot.services.play.resign(table.match_id, table.seats[1], guild_id=GUILD)
                    await bot.dispatcher.deliver_pending()      # the result's board, its replay, the standings
                    assert standings_posts(fake) == before + 1
                    times.append(time.perf_counter() - began)
                print(f"{players} players: round 1 paired, its {len(view.rounds[0].tables)} tables' boards and "
                      f"the pairings posted in {pairing:.2f} s; a result to its standings post (board, replay and "
                      f"image included): median {statistics.median(times):.2f} s, worst {max(times):.2f} s "
                      f"({len(times)} results)")
                await fake.settle()
        finally:
            await bot.close()
            await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[8, 64])
    parser.add_argument("--results", type=int, default=5)
    args = parser.parse_args()
    for players in args.players:
        asyncio.run(bench(players, args.results))


if __name__ == "__main__":
    main()
