"""A picker step's time, with its preview image, and the taps a turn takes through the picker, per game.

    python bench/bench_picker.py [--matches 4] [--turns 6] [--seed 1]

Drives the real command tree offline (the tests' Discord harness, SQLite, boards drawn in a thread): for each
game, ``--matches`` matches of ``--turns`` turns; at every turn the player to move presses Play and picks options
at random until the Confirm step, then confirms. A step is one select pick, timed from the interaction to the
picker's answer, which includes its preview image (the board with the next step's options marked by their
menu numbers, or after the last pick the board after the turn), drawn as the bot draws it. Taps count Play,
every pick and Confirm. Prints p50/p95 of a step and the median and maximum taps per turn, per game and overall. No
Discord network time is included; the machine's load is printed, since steps are timed on the wall clock.
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
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.store import Database  # noqa: E402
from engines import GAMES  # noqa: E402
from tests.bot.discord_harness import FakeDiscord  # noqa: E402
from tests.bot.support import GUILD, cards, make_bot  # noqa: E402
from tests.conftest import FakeClock  # noqa: E402

SELECT = 3      # Discord's component type of a select menu


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))]


async def run(matches: int, turns: int, seed: int) -> None:
    folder = tempfile.mkdtemp(prefix="bench-picker-")
    db = await Database.open(str(Path(folder) / "bench.sqlite3"))
    steps: dict[str, list[float]] = {g: [] for g in GAMES}
    taps: dict[str, list[int]] = {g: [] for g in GAMES}
    rng = random.Random(seed)
    async with FakeDiscord(make_bot(db, FakeClock()), guild_id=GUILD) as fake:
        ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
        queries = fake.client.services.queries
        for game in sorted(GAMES):
            for _ in range(matches):
                card = cards(await fake.slash(ann, f"{game} challenge", opponent=bob))[0]
                await fake.click(bob, card.button("Accept")["custom_id"], message=card)
                match_id = (await queries.matches_of(11, guild_id=GUILD, game=game))[0].id
                for _ in range(turns):
                    match = await queries.get(match_id)
                    if match.is_over:
                        break
                    who = match.to_move_user.user_id
                    out = await fake.click(who, f"pl:{match_id}", message=fake.message(match.row.board_message_id))
                    picker = [s for s in out if s.ephemeral and s.message_id][-1].message_id
                    tapped = 2          # Play and Confirm
                    while True:
                        menu = next((c for c in fake.message(picker).components if c["type"] == SELECT), None)
                        if menu is None:
                            break
                        start = time.perf_counter()
                        await fake.select(who, menu["custom_id"], [rng.choice(menu["options"])["value"]],
                                          message=picker)
                        steps[game].append(time.perf_counter() - start)
                        tapped += 1
                    await fake.click(who, f"pk:{match_id}:{match.ply}:c", message=picker)
                    taps[game].append(tapped)
                await fake.client.services.play.resign(match_id, 11, guild_id=GUILD)
    await db.close()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {matches} matches x {turns} turns a game")
    for game in sorted(GAMES):
        s, t = steps[game], taps[game]
        print(f"{game:9} steps {len(s):4}  p50 {1000 * statistics.median(s):6.1f} ms  p95 {1000 * p95(s):6.1f} ms"
              f"   taps a turn: median {statistics.median(t):4.1f}  max {max(t):3d}  ({len(t)} turns)")
    every = [x for v in steps.values() for x in v]
    print(f"{'all':9} steps {len(every):4}  p50 {1000 * statistics.median(every):6.1f} ms"
          f"  p95 {1000 * p95(every):6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=4, help="matches a game (default 4)")
    parser.add_argument("--turns", type=int, default=6, help="turns a match (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random picks (default 1)")
    args = parser.parse_args()
    asyncio.run(run(args.matches, args.turns, args.seed))


if __name__ == "__main__":
    main()
