"""Many people playing at once against the real bot (its command tree, services, dispatcher, render pool),
with Discord replaced by the offline harness the tests use.

    python bench/bench_players.py [--people 16] [--seconds 60] [--game tintas]

Pairs of people play timed matches; each person, when it is their turn, waits a moment and sends /<game> move
with a turn from the autocomplete, as a player would. For every move it measures the time from sending the
command to the new board being posted in the channel, and prints p50 / p95 / max, the moves per second, and the
memory (PSS) of the bot's whole process tree after play: its process and every worker it started
(``bench_memory.py`` measures it against a git revision, over all five games).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_memory import tree_pss, whole_turn  # noqa: E402  (the standard library only)

GUILD = 1000


async def run(game: str, people: int, seconds: float) -> tuple[list[float], dict]:
    # Imported here, not at the top: a render worker ("spawn") imports this script first, as the bot's own import
    # nothing (``python -m bot``); the bot, discord.py and the harness would add MB to every worker measured.
    from bot.config import Config
    from bot.discord.client import GameBot
    from bot.services import Services
    from bot.store import Database
    from tests.bot.discord_harness import FakeDiscord

    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bot.sqlite3")
        config = Config(token=None, database_path=Path(tmp) / "bot.sqlite3", dev_guild_id=None, log_level="WARNING")
        bot = GameBot(config, services=Services(db), sync_commands=False, run_background=True, ai_processes=0)
        latencies: list[float] = []
        async with FakeDiscord(bot, guild_id=GUILD, strict=False) as fake:
            users = [fake.user(100 + i, f"P{i}") for i in range(people)]
            channels = []
            for i in range(0, people, 2):
                channel = 3000 + i
                fake.channel(channel, f"table-{i}")
                channels.append(channel)
                out = await fake.slash(users[i], f"{game} challenge", opponent=users[i + 1], time=3,
                                       channel_id=channel)
                card = next(s for s in out if s.kind == "channel_message")
                await fake.click(users[i + 1], card.button("Accept")["custom_id"], message=card)
            await bot.renders.ready()                     # measure play, not the workers' start-up
            stop = time.perf_counter() + seconds

            async def player(me: dict, channel: int, rng: random.Random) -> None:
                while time.perf_counter() < stop:
                    choices = await fake.autocomplete(me, f"{game} move", "move", move="", channel_id=channel)
                    if not choices or "Not your turn" in choices[0]["name"] or "over" in choices[0]["name"]:
                        if choices and "over" in choices[0]["name"]:
                            return
                        await asyncio.sleep(0.25)               # looking at the channel now and then
                        continue
                    await asyncio.sleep(rng.uniform(0.05, 0.3))          # reading the board, choosing
                    turn = await whole_turn(fake, me, game, channel, choices, rng)
                    if not turn:
                        continue
                    t0 = time.perf_counter()
                    out = await fake.slash(me, f"{game} move", move=turn, channel_id=channel)
                    if any(s.kind == "channel_message" and s.files for s in out):
                        latencies.append((time.perf_counter() - t0) * 1000)
                    # the harness keeps every request and attachment; Discord would not live in the bot's memory
                    fake.requests.clear()
                    fake.sent.clear()
                    fake._attachments.clear()
            await asyncio.gather(*(player(u, channels[i // 2], random.Random(i)) for i, u in enumerate(users)))
            memory = tree_pss()
            await bot.close()
        return latencies, memory


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="tintas")
    ap.add_argument("--people", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=60)
    args = ap.parse_args()
    latencies, memory = asyncio.run(run(args.game, args.people, args.seconds))
    latencies.sort()
    p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)]
    print(f"{os.cpu_count()} cores; {args.people} people, {args.game}, {args.seconds:.0f} s: {len(latencies)} moves "
          f"({len(latencies) / args.seconds:.1f}/s); move to board posted p50 {statistics.median(latencies):.0f} ms, "
          f"p95 {p95:.0f} ms, max {latencies[-1]:.0f} ms; PSS of the bot's process tree {memory['total']:.0f} MB "
          f"({', '.join(memory['processes'])})")


if __name__ == "__main__":
    main()
