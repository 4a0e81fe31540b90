"""Board rendering, this tree against another git revision, side by side on the same positions in one run.

    python bench/bench_render.py [--rev HEAD~1] [--positions 40] [GAME ...]

Two worker processes load the renderers (one from this tree, one from a worktree of ``--rev``); every
position goes to both in turn, so the machine's noise hits both alike. Prints per game the median and p95
render time (ms, including the PNG), the median PNG size and width, the speed-up, and on how many positions
this tree's PNG is larger than the other's (``larger``: 0 means no board grew). Positions come from
seeded random games of the current engines, each with its last turn and the position before it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engines import GAMES  # noqa: E402

WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from engines import GAMES
from render import board_png
from PIL import Image
import io
for line in sys.stdin:
    job = json.loads(line)
    game = GAMES[job["game"]]
    state = game.decode(job["code"])
    previous = game.decode(job["previous"]) if job["previous"] else None
    t0 = time.perf_counter()
    png = board_png(state, last_turn=job["last_turn"], names=job["names"], previous=previous)
    ms = (time.perf_counter() - t0) * 1000
    width = Image.open(io.BytesIO(png)).width
    print(json.dumps({"ms": ms, "bytes": len(png), "width": width}), flush=True)
"""


def positions(game_key: str, count: int, seed: int = 1) -> list[dict]:
    game = GAMES[game_key]
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < count:
        players = rng.choice(game.player_counts)
        variant = rng.choice(game.variants) if game.variants else None
        state = game.new(players=players, seed=rng.randrange(1 << 30), variant=variant)
        names = [f"Player {i + 1}" for i in range(players)]
        stop = rng.randrange(1, 60)
        turn_start, last_turn, last_seat = state, [], None
        for _ in range(stop):
            if state.is_over:
                break
            mover = state.to_move
            move = rng.choice(state.legal_moves())
            if mover != last_seat:
                turn_start, last_turn = state, []
            last_seat = mover
            state = state.play(move)
            last_turn.append(move)
        out.append({"game": game_key, "code": state.encode(), "previous": turn_start.encode(),
                    "last_turn": last_turn, "names": names})
    return out


def worker(path: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", WORKER, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, cwd=path)


def ask(proc: subprocess.Popen, job: dict) -> dict:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(job) + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*")
    ap.add_argument("--rev", default="c630da8", help="the revision to compare with (default: before this wave)")
    ap.add_argument("--positions", type=int, default=40)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "rev"
        subprocess.run(["git", "worktree", "add", "--detach", str(other), args.rev], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            new, old = worker(ROOT), worker(other)
            print(f"render ms (median / p95, PNG included), this tree against {args.rev}, same positions, one run")
            print(f"{'game':<10} {'old med':>8} {'old p95':>8} {'new med':>8} {'new p95':>8} {'speed-up':>9} "
                  f"{'old KB':>7} {'new KB':>7} {'old px':>7} {'new px':>7} {'larger':>7}")
            for key in args.games or list(GAMES):
                jobs = positions(key, args.positions)
                ask(new, jobs[0]), ask(old, jobs[0])          # warm both (fonts, caches, imports)
                a, b = [], []
                for job in jobs:
                    a.append(ask(old, job))
                    b.append(ask(new, job))
                om = [r["ms"] for r in a]
                nm = [r["ms"] for r in b]

                def p95(xs: list[float]) -> float:
                    return sorted(xs)[max(0, int(len(xs) * 0.95) - 1)]
                print(f"{key:<10} {statistics.median(om):>8.1f} {p95(om):>8.1f} {statistics.median(nm):>8.1f} "
                      f"{p95(nm):>8.1f} {statistics.median(om) / statistics.median(nm):>8.1f}x "
                      f"{statistics.median(r['bytes'] for r in a) / 1024:>7.0f} "
                      f"{statistics.median(r['bytes'] for r in b) / 1024:>7.0f} "
                      f"{a[0]['width']:>7} {b[0]['width']:>7} "
                      f"{sum(y['bytes'] > x['bytes'] for x, y in zip(a, b, strict=True)):>4}/{len(b)}")
            for proc in (new, old):
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait()
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, capture_output=True)


if __name__ == "__main__":
    main()
