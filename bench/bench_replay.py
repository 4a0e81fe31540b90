"""The whole game as an animation: how long a replay takes to draw and encode, and how large it is.

    python bench/bench_replay.py [--turns 60 400] [--budget BYTES] [--against main] [--repeat 3] [GAME[:VARIANT] ...]

Plays a seeded random game of each game (every game by default, and Quincala with 4 sizes) up to each
``--turns`` (a turn that would end the game is avoided while another exists, so long games can be had; a
game that still ends sooner prints the turns it reached), warms the renderer (its cached layers and palette,
as a render worker has them), then times ``render.replay.replay_gif`` ``--repeat`` times and prints the
median seconds, the frames and the bytes. ``--against REV`` also times that revision's ``render/replay.py``
(with this tree's boards) on the same turns, in the same run, so the machine's noise hits both alike.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engines import GAMES  # noqa: E402
from render import board_png  # noqa: E402
from render.replay import DEFAULT_BUDGET, replay_gif  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Dee"]
DEFAULT_GAMES = [*GAMES, "quincala:4"]


def frames_of(game_key: str, turns: int, seed: int = 3, variant: str | None = None) -> list:
    """(after, before, moves) per whole turn of a seeded random game, the start first; turns that end the
    game are avoided while others exist."""
    game = GAMES[game_key]
    rng = random.Random(seed)
    state = game.new(players=min(game.player_counts), seed=seed, variant=variant)
    frames: list = [(state, None, [])]
    while not state.is_over and len(frames) <= turns:
        before, seat, moves = state, state.to_move, []
        while not state.is_over and state.to_move == seat:
            legal = state.legal_moves()
            going = [m for m in legal if not state.play(m).is_over]
            move = rng.choice(going or legal)
            moves.append(move)
            state = state.play(move)
        frames.append((state, before, moves))
    return frames


def old_replay(rev: str) -> Callable[..., bytes]:
    """``replay_gif`` of ``render/replay.py`` at ``rev`` (drawing with this tree's renderers)."""
    source = subprocess.run(["git", "show", f"{rev}:render/replay.py"], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout
    path = Path(tempfile.mkdtemp()) / "replay_old.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("replay_old", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.replay_gif


def timed(make: Callable[..., bytes], repeat: int, *args: object, **kwargs: object) -> tuple[float, bytes]:
    """The median seconds of ``make(*args, **kwargs)`` over ``repeat`` runs, and what it made."""
    times, gif = [], b""
    for _ in range(repeat):
        t0 = time.perf_counter()
        gif = make(*args, **kwargs)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), gif


def line(label: str, seconds: float, gif: bytes) -> str:
    return f"{label} {seconds:6.2f} s {len(gif) / 1024:9,.0f} KB {Image.open(io.BytesIO(gif)).n_frames:4} frames"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*", help="GAME or GAME:VARIANT (default: every game, and quincala:4)")
    ap.add_argument("--turns", type=int, nargs="+", default=[60, 400])
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    ap.add_argument("--against", help="a git revision whose render/replay.py is timed on the same turns")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    old = old_replay(args.against) if args.against else None
    print(f"replay_gif, median of {args.repeat}, budget {args.budget:,} bytes"
          + (f"; before = render/replay.py at {args.against}" if old else ""))
    for spec in args.games or DEFAULT_GAMES:
        key, _, variant = spec.partition(":")
        for turns in args.turns:
            frames = frames_of(key, turns, variant=variant or None)
            board_png(frames[0][0])                 # warm: cached layers and palette, as in a render worker
            names = NAMES[: frames[0][0].players]
            label = f"{spec:<11} {len(frames) - 1:>3} turns"
            seconds, gif = timed(replay_gif, args.repeat, key, frames, names, budget=args.budget)
            if old is not None:
                before, old_gif = timed(old, args.repeat, key, frames, names)
                print(f"{label}  before {line('', before, old_gif)}  after {line('', seconds, gif)}")
            else:
                print(f"{label} {line('', seconds, gif)}")


if __name__ == "__main__":
    main()
