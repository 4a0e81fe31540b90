"""The whole game as an animation: how long a replay takes to draw and encode, and how large it is.

    python bench/bench_replay.py [--turns 60] [GAME ...]

Plays a seeded random game of each game up to ``--turns`` turns, warms the renderer (its cached layers and
palette, as a render worker has them), then times ``render.replay.replay_gif`` three times and prints the
median, the frame count and the size.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import GAMES  # noqa: E402
from render import board_png  # noqa: E402
from render.replay import replay_gif  # noqa: E402


def frames_of(game_key: str, turns: int, seed: int = 3) -> list:
    game = GAMES[game_key]
    rng = random.Random(seed)
    state = game.new(players=min(game.player_counts), seed=seed)
    frames: list = [(state, None, [])]
    while not state.is_over and len(frames) <= turns:
        before, seat, moves = state, state.to_move, []
        while not state.is_over and state.to_move == seat:
            move = rng.choice(state.legal_moves())
            moves.append(move)
            state = state.play(move)
        frames.append((state, before, moves))
    return frames


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*")
    ap.add_argument("--turns", type=int, default=60)
    args = ap.parse_args()
    for key in args.games or list(GAMES):
        frames = frames_of(key, args.turns)
        board_png(frames[0][0])                     # warm: cached layers and palette, as in a render worker
        times, size = [], 0
        for _ in range(3):
            t0 = time.perf_counter()
            size = len(replay_gif(key, frames, ["Ann", "Bob", "Cy", "Dee"][: frames[0][0].players]))
            times.append(time.perf_counter() - t0)
        print(f"{key:<10} {len(frames) - 1:>3} turns: {statistics.median(times):.2f} s, {size / 1024:,.0f} KB")


if __name__ == "__main__":
    main()
