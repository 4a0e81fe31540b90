"""Speed figures for every registered game: move generation, random games, rendering, a whole turn.

    python bench/bench_games.py [GAME ...] [--seconds S]

Prints, per game: legal-move generation per position (µs), random complete games per second, one board
render (ms), and one whole turn through the match services including the SQLite commit and the render
(median and p95, ms). Figures depend on the machine; the first line says which.
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

from bot.model import Person  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.store import Database  # noqa: E402
from engines import GAMES  # noqa: E402
from render import board_png  # noqa: E402


def random_game(game, rng, players, variant):
    state = game.new(players=players, seed=rng.randrange(1 << 30), variant=variant)
    positions = [state]
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
        positions.append(state)
    return positions


def bench_engine(game, seconds):
    rng = random.Random(1)
    players, variant = min(game.player_counts), (game.variants[0] if game.variants else None)
    games, plies, start = 0, 0, time.perf_counter()
    sample = []
    while time.perf_counter() - start < seconds:
        positions = random_game(game, rng, players, variant)
        games += 1
        plies += len(positions) - 1
        if len(sample) < 2000:
            sample.extend(positions[::3])
    elapsed = time.perf_counter() - start
    codes = [s.encode() for s in sample[:2000]]
    fresh = [game.decode(c) for c in codes]  # decoded states: no cached move lists
    t0 = time.perf_counter()
    for s in fresh:
        s.legal_moves()
    legal_us = (time.perf_counter() - t0) / len(fresh) * 1e6
    return games / elapsed, plies / max(games, 1), legal_us, sample


def bench_render(sample, rounds=20):
    times = []
    for state in sample[len(sample) // 2: len(sample) // 2 + rounds]:
        t0 = time.perf_counter()
        png = board_png(state)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), len(png)


async def bench_turns(game, turns):
    """Whole turns through the services: load, play, commit to SQLite, render the new board."""
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.sqlite3")
        services = Services(db, seed_source=random.Random(2))
        rng = random.Random(3)
        people = [Person(i + 1, f"P{i + 1}") for i in range(min(game.player_counts))]
        teams = game.teams.get(len(people))
        times = []
        match = None
        while len(times) < turns:
            if match is None or match.status != "active":
                match = await services.challenges.challenge(game.key, guild_id=1, channel_id=1,
                                                            challenger=people[0], opponents=people[1:],
                                                            partner=people[teams[0][1]] if teams else None)
                for p in people[1:]:
                    match = await services.challenges.accept(match.id, p, guild_id=1)
            value, _ = rng.choice(game.turn_suggestions(match.state, "", 25))
            t0 = time.perf_counter()
            result = await services.play.submit_turn(match.id, match.to_move_user.user_id, value, guild_id=1)
            match = result.match
            await asyncio.to_thread(board_png, match.state, last_turn=match.last_turn, names=match.names,
                                    previous=match.previous)
            times.append((time.perf_counter() - t0) * 1000)
        await db.close()
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*")
    ap.add_argument("--seconds", type=float, default=3.0, help="random-game time per game")
    ap.add_argument("--turns", type=int, default=60, help="services turns per game")
    args = ap.parse_args()
    print(f"machine: {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    print(f"{'game':<10} {'legal µs':>9} {'games/s':>9} {'plies/g':>8} {'render ms':>10} {'png KB':>7} "
          f"{'turn med ms':>12} {'turn p95 ms':>12}")
    for key in args.games or list(GAMES):
        game = GAMES[key]
        per_sec, plies, legal_us, sample = bench_engine(game, args.seconds)
        render_ms, size = bench_render(sample)
        med, p95 = asyncio.run(bench_turns(game, args.turns))
        print(f"{key:<10} {legal_us:>9.1f} {per_sec:>9.0f} {plies:>8.1f} {render_ms:>10.1f} {size / 1024:>7.0f} "
              f"{med:>12.1f} {p95:>12.1f}")


if __name__ == "__main__":
    main()
