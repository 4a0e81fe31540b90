"""Strength and speed of the AI (not a test: a full run takes hours).

    python bench/bench_ai.py [--games-list tintas,spinca] [--games 200] [--levels 1,2,3,4,5]
                             [--time-budget 2.0] [--effort-scale 1.0] [--workers 2] [--players 2]
                             [--pairs 5-0,5-1]
    python bench/bench_ai.py --sprt --pairs 2-1,3-2,4-3,5-4 --games 40 --workers 1 [--games-list tintas]
    python bench/bench_ai.py --summary [--sprt] [--record FILE]
    python bench/bench_ai.py --speed [--seconds 3]
    python bench/bench_ai.py --turn-times [--games-list rincala] [--levels 1,5] [--positions 12]

Strength: per game, plays the top level against a uniformly random player, the top level against level 1 and
each level against the one below, seats alternating between games, and prints each pairing's win rate with its
counts (a shared win or a draw counts half). A game reaching its game's ``turn_cap`` (Quincala: 400 turns) is a
draw, as the bot rules it; the engines have no cap, so this script counts the turns (changes of the seat to move).
``--effort-scale`` multiplies every level's iteration count (a reduced run); ``--time-budget`` is the per-turn
safety cap of the search.

``--sprt``: a sequential test per pairing instead of a fixed number of games: games are played ``--workers`` at a
time until the log-likelihood ratio of "the first level scores SPRT_SCORES[1]" against "it scores SPRT_SCORES[0]"
crosses a bound for error rates SPRT_ERRORS (or ``--games`` are played); each row then states the LLR, its
bounds, the verdict so far and a 95 % interval of the score.

Every finished game is appended to ``--record`` (JSON lines) with a fingerprint of the code that played it (the
search, the game's policy and its engine). A run skips the games the record already holds for the same code and
settings, so a long run can be stopped and resumed, and ``--summary`` prints the tables from the record alone.

Speed: per game and player count, random playouts (complete games) per second and atomic plies per second,
plus MCTS iterations per second of a level-5 search from the start position.

Turn times: per game and level, the seconds one whole bot turn takes at the level's fixed effort (p50, p90, max
over ``--positions`` positions met along two-player games that level 1 plays against itself, from the opening to
the end), the iterations it searched, and how often the safety net (``ai.search.SAFETY_NET``) stopped it; the row
``A`` is an analysis (``ai.search.analyse``, the bot's best effort without early stop). One process, one core:
wall-clock seconds (what a player waits on this machine now) and CPU seconds (what a quiet core would take).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import platform
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.pool import end_with_parent  # noqa: E402
from ai.search import LEVELS, SAFETY_NET, Analysis, TurnChoice, analyse, choose_turn, iterations_for, search_turn  # noqa: E402
from engines import GAMES, State  # noqa: E402

RANDOM = 0   # the uniformly random player in a pairing
SPRT_SCORES = (0.5, 0.6)   # --sprt: H0, the first level is no stronger; H1, it scores 60 % (about +70 Elo)
SPRT_ERRORS = 0.05         # --sprt: alpha = beta, the chances of either wrong verdict
Z95 = 1.96                 # a 95 % interval of a score
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_RECORD = ROOT / "bench" / "results" / "ai_strength.jsonl"


def code_fingerprint(key: str) -> str:
    """A short hash of the source files one game's outcomes depend on: its rules, the search, its policy.

    The pool (``ai/pool.py``) only runs searches in processes and never decides a turn, so it is left out: a
    change to the workers' lifecycle keeps the games already recorded."""
    digest = hashlib.sha256()
    searching = [p for p in ROOT.glob("ai/*.py") if p.name != "pool.py"]
    paths = [*searching, ROOT / "ai/policies/__init__.py", ROOT / "ai/policies/common.py",
             ROOT / f"ai/policies/{key}.py", ROOT / "engines/__init__.py", ROOT / "engines/base.py",
             ROOT / f"engines/{key}.py"]
    for path in sorted(p for p in paths if p.exists()):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def player_name(p: int) -> str:
    return "random" if p == RANDOM else f"L{p}"


def play_turn(state: State, player: int, rng: random.Random, seed: int, budget: float, scale: float) -> State:
    """One whole turn by ``player`` (a level, or RANDOM: uniform random atomic moves)."""
    seat = state.to_move
    if player == RANDOM:
        while not state.is_over and state.to_move == seat:
            state = state.play(rng.choice(state.legal_moves()))
        return state
    effort = max(1, round(iterations_for(state.game.key, player) * scale))
    for move in choose_turn(state, level=player, seed=seed, time_budget=budget, iterations=effort):
        state = state.play(move)
    return state


def play_game(task: tuple) -> dict:
    """Plays one game; ``score`` is player ``a``'s (1 win, 0.5 shared win or draw, 0 loss)."""
    key, players, a, b, index, budget, scale = task
    start = time.perf_counter()
    game = GAMES[key]
    variant = game.variants[0] if game.variants else None
    rng = random.Random(index * 7919 + 17)
    state = game.new(players=players, seed=1000 + index, variant=variant)
    a_seat = index % players                       # seats alternate between games
    cap = game.turn_cap
    turns = 0                                      # whole turns: changes of the seat to move
    while not state.is_over and (cap is None or turns < cap):
        seat = state.to_move
        player = a if seat == a_seat else b
        state = play_turn(state, player, rng, rng.randrange(1 << 30), budget, scale)
        turns += state.to_move != seat
    teams = game.teams.get(players)
    a_seats = next((set(t) for t in teams if a_seat in t), {a_seat}) if teams else {a_seat}
    winners = set(state.winners) if state.is_over else set(range(players))   # at the turn cap: a draw
    if not winners & a_seats:
        score = 0.0
    else:
        score = 1.0 if winners <= a_seats else 0.5
    return {"game": key, "players": players, "a": a, "b": b, "index": index, "time_budget": budget,
            "effort_scale": scale, "score": score, "turns": turns, "seconds": round(time.perf_counter() - start, 2)}


def same_setting(record: dict, key: str, players: int, a: int, b: int, args) -> bool:
    return (record["game"], record["players"], record["a"], record["b"], record["time_budget"],
            record["effort_scale"]) == (key, players, a, b, args.time_budget, args.effort_scale)


def read_record(path: Path) -> list[dict]:
    """The recorded games played by the current code of their game (rows of older code stay in the file, unused)."""
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    current = {key: code_fingerprint(key) for key in GAMES}
    kept: dict[tuple, dict] = {}      # one row per game: two runs at once may both have played it (same result)
    for row in rows:
        if row.get("code") == current.get(row.get("game")):
            kept.setdefault((row["game"], row["players"], row["a"], row["b"], row["index"], row["time_budget"],
                             row["effort_scale"]), row)
    return list(kept.values())


def print_row(key: str, a: int, b: int, rows: list[dict], seconds: float, note: str = "") -> None:
    w = sum(1 for r in rows if r["score"] == 1.0)
    d = sum(1 for r in rows if r["score"] == 0.5)
    n = len(rows)
    score = (w + 0.5 * d) / n if n else 0.0
    turns = sum(r["turns"] for r in rows) / n if n else 0.0
    print(f"{key:10} {player_name(a) + ' v ' + player_name(b):14} {score:7.1%} {w:4} {d:4} {n - w - d:4} {n:4} "
          f"{turns:6.0f} {seconds:7.0f}s{note}", flush=True)


def sprt_llr(scores: list[float]) -> float:
    """The log-likelihood ratio of H1 against H0 (``SPRT_SCORES``), normal approximation of the per-game score
    (draws count half). A virtual win and loss are added, so a few games of one result do not decide alone."""
    padded = [*scores, 0.0, 1.0]
    n = len(padded)
    mean = sum(padded) / n
    variance = sum((x - mean) ** 2 for x in padded) / n
    s0, s1 = SPRT_SCORES
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def sprt_bounds() -> tuple[float, float]:
    return math.log(SPRT_ERRORS / (1 - SPRT_ERRORS)), math.log((1 - SPRT_ERRORS) / SPRT_ERRORS)


def sprt_verdict(scores: list[float]) -> str | None:
    """"stronger" (H1 accepted), "not stronger" (H0 accepted), or None while undecided."""
    llr = sprt_llr(scores)
    lower, upper = sprt_bounds()
    return "stronger" if llr >= upper else "not stronger" if llr <= lower else None


def sprt_note(rows: list[dict]) -> str:
    scores = [r["score"] for r in rows]
    if not scores:
        return ""
    n, p = len(scores), sum(scores) / len(scores)
    centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)                 # Wilson's interval
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
    lower, upper = sprt_bounds()
    verdict = sprt_verdict(scores) or "undecided"
    return (f"  SPRT llr {sprt_llr(scores):+.2f} in ({lower:.2f}, {upper:.2f}): {verdict}; "
            f"score 95% CI {max(0.0, centre - half):.0%}-{min(1.0, centre + half):.0%}")


def pairings(levels: list[int]) -> list[tuple[int, int]]:
    top = max(levels)
    out = [(top, RANDOM), (top, min(levels))]
    ordered = sorted(levels)
    out += [(hi, lo) for lo, hi in zip(ordered, ordered[1:], strict=False) if (hi, lo) not in out]
    return out


def parse_pairs(text: str) -> list[tuple[int, int]]:
    """``5-0,5-1`` -> [(5, RANDOM), (5, 1)]: 0 stands for the uniformly random player."""
    return [(int(a), int(b)) for a, b in (part.split("-") for part in text.split(","))]


def run_strength(args) -> None:
    levels = [int(x) for x in args.levels.split(",")]
    chosen = parse_pairs(args.pairs) if args.pairs else pairings(levels)
    record_path = Path(args.record)
    recorded = read_record(record_path)
    print(f"# {platform.node()} {platform.python_version()} cpus={os.cpu_count()} workers={args.workers} "
          f"games/pairing={args.games} time_budget={args.time_budget}s effort_scale={args.effort_scale} "
          f"players={args.players} record={record_path}", flush=True)
    print(f"{'game':10} {'pairing':14} {'score':>7} {'W':>4} {'D':>4} {'L':>4} {'n':>4} {'turns':>6} "
          f"{'time':>8}", flush=True)
    record_path.parent.mkdir(parents=True, exist_ok=True)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.workers, initializer=end_with_parent) as pool, record_path.open("a") as out:
        for key in args.games_list.split(","):
            players = args.players if args.players in GAMES[key].player_counts else 2
            code = code_fingerprint(key)
            for a, b in chosen:
                rows = [r for r in recorded if same_setting(r, key, players, a, b, args) and r["index"] < args.games]
                done = {r["index"] for r in rows}
                tasks = [(key, players, a, b, i, args.time_budget, args.effort_scale)
                         for i in range(args.games) if i not in done]
                while tasks and not (args.sprt and sprt_verdict([r["score"] for r in rows])):
                    batch, tasks = (tasks[:args.workers], tasks[args.workers:]) if args.sprt else (tasks, [])
                    for row in pool.imap_unordered(play_game, batch, chunksize=1):
                        row["code"] = code
                        out.write(json.dumps(row) + "\n")
                        out.flush()
                        rows.append(row)
                print_row(key, a, b, rows, sum(r["seconds"] for r in rows), sprt_note(rows) if args.sprt else "")


def run_summary(args) -> None:
    """The tables of every recorded setting played by the current code, without playing."""
    rows = read_record(Path(args.record))
    codes = " ".join(f"{key}={code_fingerprint(key)}" for key in GAMES)
    print(f"# recorded games of the current code ({codes}) in {args.record}; time = summed game seconds")
    print(f"{'game':10} {'pairing':14} {'score':>7} {'W':>4} {'D':>4} {'L':>4} {'n':>4} {'turns':>6} "
          f"{'time':>8}  players/budget/scale")
    settings = sorted({(r["game"], r["players"], r["time_budget"], r["effort_scale"], r["a"], r["b"]) for r in rows},
                      key=lambda s: (list(GAMES).index(s[0]), s[1:4], -s[4], s[5]))
    for key, players, budget, scale, a, b in settings:
        group = [r for r in rows if (r["game"], r["players"], r["time_budget"], r["effort_scale"], r["a"], r["b"])
                 == (key, players, budget, scale, a, b)]
        print_row(key, a, b, group, sum(r["seconds"] for r in group),
                  f"  {players}p/{budget}s/x{scale}" + (sprt_note(group) if args.sprt else ""))


def run_speed(args) -> None:
    print(f"# {platform.node()} {platform.python_version()} one core; random playouts from new(seed)")
    print(f"{'game':10} {'p':>2} {'variant':8} {'playouts/s':>10} {'plies/s':>9} {'plies':>6} {'L5 it/s':>8}")
    for key in args.games_list.split(","):
        game = GAMES[key]
        for players in game.player_counts:
            for variant in game.variants or (None,):
                rng = random.Random(1)
                cap = game.turn_cap
                n = plies = 0
                start = time.perf_counter()
                while time.perf_counter() - start < args.seconds:
                    state = game.new(players=players, seed=rng.randrange(1 << 30), variant=variant)
                    turns = 0                      # whole turns, for the game's turn cap (a draw)
                    while not state.is_over and (cap is None or turns < cap):
                        seat = state.to_move
                        state = state.play(rng.choice(state.legal_moves()))
                        plies += 1
                        turns += state.to_move != seat
                    n += 1
                elapsed = time.perf_counter() - start
                iters = iterations_for(key, 5)
                state = game.new(players=players, seed=3, variant=variant)
                start = time.perf_counter()
                choose_turn(state, level=5, seed=1, time_budget=60.0, iterations=iters)
                its = iters / (time.perf_counter() - start)
                print(f"{key:10} {players:2} {variant or '-':8} {n / elapsed:10.0f} {plies / elapsed:9.0f} "
                      f"{plies / n:6.0f} {its:8.0f}", flush=True)


def sample_positions(key: str, count: int, seed: int) -> list[State]:
    """``count`` positions spread over two-player games that level 1 plays against itself (never a finished one)."""
    game = GAMES[key]
    variant = game.variants[0] if game.variants else None
    games: list[list[State]] = []
    total = 0
    while total < 2 * count:          # whole games until there are enough positions to spread
        state = game.new(players=2, seed=seed + len(games), variant=variant)
        line = []
        turns = 0
        while not state.is_over and (game.turn_cap is None or turns < game.turn_cap):
            line.append(state)
            seat = state.to_move
            for move in choose_turn(state, level=1, seed=seed + len(line), iterations=iterations_for(key, 1)):
                state = state.play(move)
            turns += state.to_move != seat
        games.append(line)
        total += len(line)
    flat = [s for line in games for s in line]
    return [flat[i * len(flat) // count] for i in range(count)]


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_turn_times(args) -> None:
    levels = [int(x) for x in args.levels.split(",")]
    print(f"# {platform.node()} {platform.python_version()} cpus={os.cpu_count()} load={os.getloadavg()[0]:.1f} "
          f"one core; {args.positions} positions per game; safety net {SAFETY_NET:.0f} s", flush=True)
    print(f"{'game':10} {'level':>5} {'iters':>6} {'n':>3} {'p50 s':>7} {'p90 s':>7} {'max s':>7} {'cpu p50':>7} "
          f"{'cpu max':>7} {'it p50':>7} {'net':>4}", flush=True)
    for key in args.games_list.split(","):
        positions = sample_positions(key, args.positions, seed=7)
        for level in [*levels, 0]:             # 0: the analysis
            seconds, cpu, iterations, hits = [], [], [], 0
            for i, state in enumerate(positions):
                start, start_cpu = time.perf_counter(), time.process_time()
                found: TurnChoice | Analysis = (search_turn(state, level=level, seed=i) if level
                                                 else analyse(state, seed=i))
                seconds.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                iterations.append(found.iterations)
                hits += found.out_of_time
            effort = iterations_for(key, level or 5)
            print(f"{key:10} {level or 'A':>5} {effort:6} {len(seconds):3} {quantile(seconds, 0.5):7.2f} "
                  f"{quantile(seconds, 0.9):7.2f} {max(seconds):7.2f} {quantile(cpu, 0.5):7.2f} {max(cpu):7.2f} "
                  f"{quantile(iterations, 0.5):7.0f} {hits:4}",
                  flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--speed", action="store_true", help="measure playouts per second instead")
    parser.add_argument("--turn-times", action="store_true", help="measure the seconds of a bot turn per level")
    parser.add_argument("--positions", type=int, default=12, help="--turn-times: positions per game")
    parser.add_argument("--seconds", type=float, default=3.0, help="--speed: seconds per game")
    parser.add_argument("--games-list", default=",".join(GAMES), help="comma-separated game keys")
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--levels", default=",".join(map(str, LEVELS)), help="levels to compare, e.g. 1,3,5")
    parser.add_argument("--time-budget", type=float, default=SAFETY_NET, help="per-turn safety net (seconds)")
    parser.add_argument("--sprt", action="store_true", help="a sequential test per pairing (see above)")
    parser.add_argument("--pairs", default="", help="only these pairings, e.g. 5-0,5-1,2-1 (0 = random)")
    parser.add_argument("--effort-scale", type=float, default=1.0, help="multiply every level's iterations")
    parser.add_argument("--workers", type=int, default=2, help="games played in parallel")
    parser.add_argument("--players", type=int, default=2, help="players per game where the game allows it")
    parser.add_argument("--record", default=str(DEFAULT_RECORD), help="JSON-lines file of finished games")
    parser.add_argument("--summary", action="store_true", help="print the recorded tables and stop")
    args = parser.parse_args()
    if args.speed:
        run_speed(args)
    elif args.turn_times:
        run_turn_times(args)
    elif args.summary:
        run_summary(args)
    else:
        run_strength(args)


if __name__ == "__main__":
    main()
