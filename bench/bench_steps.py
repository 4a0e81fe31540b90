"""Taps per turn when a turn is built step by step (engines.steps), per game, over seeded random games.

    python bench/bench_steps.py [--games 20] [--seed 1]

Plays ``--games`` random games of each game (every variant and player count in turn); at every turn the moves
of the turn are chosen at random and entered through ``step_path``, one tap per option picked (a narrowing
group is a tap too; ``end``, where a player stops an optional continuation, is one tap). Prints per game the
median and the maximum taps per turn, the mean and largest number of options a step showed, and the time a
step query took (p50/p95, without any image).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import GAMES, State  # noqa: E402
from engines.steps import step_options, step_path  # noqa: E402

MAX_TURNS = 200       # turns per game at most (a random game may wander)


def one_turn(state: State, rng: random.Random, taps: list[int], widths: list[int], times: list[float]) -> State:
    """Play one random turn from ``state`` through the steps; record its taps, the widths and times of steps."""
    mover, turn, count = state.to_move, (), 0
    current = state
    while not current.is_over and current.to_move == mover:
        move = rng.choice(current.legal_moves())
        started = time.perf_counter()
        path = step_path(state, move, turn)
        times.append((time.perf_counter() - started) / len(path))
        for chosen in ("", *(o.text for o in path[:-1])):
            widths.append(len(step_options(state, turn, chosen)))
        count += len(path)
        turn += (move,)
        current = current.play(move)
    taps.append(count)
    return current


def bench_game(key: str, games: int, rng: random.Random) -> str:
    game = GAMES[key]
    cases = [(v, p) for v in game.variants or (None,) for p in game.player_counts]
    taps: list[int] = []
    widths: list[int] = []
    times: list[float] = []
    for i in range(games):
        variant, players = cases[i % len(cases)]
        state = game.new(players=players, seed=rng.randrange(1 << 30), variant=variant)
        for _ in range(MAX_TURNS):
            if state.is_over:
                break
            state = one_turn(state, rng, taps, widths, times)
    p95 = sorted(times)[int(0.95 * (len(times) - 1))] * 1000
    return (f"{game.title:<9} turns {len(taps):>5}  taps/turn median {statistics.median(taps):>4.1f} max {max(taps):>3}"
            f"  options/step mean {statistics.mean(widths):>4.1f} max {max(widths):>2}"
            f"  step query p50 {statistics.median(times) * 1000:.2f} ms p95 {p95:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{args.games} random games per game, seed {args.seed}")
    for key in GAMES:
        print(bench_game(key, args.games, rng), flush=True)


if __name__ == "__main__":
    main()
