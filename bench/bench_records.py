"""Reading game records: how long the slowest of many mutated and crafted records takes, and whether reading
them in a thread keeps the event loop free.

    python bench/bench_records.py [--records 20000] [--seed 28] [--rev main] [--no-freeze]

Plays seeded random games of every game, player count and variant to their end (or the game's turn cap), writes
their records, and mutates them: random character edits, duplicated / removed / swapped lines, the crafted
lines that made the old regular expression backtrack (issue 28), huge names, many turns and byte flips; a few
stay valid. Each record is timed twice: the syntax pass (``decode_text`` + ``scan``: every line tokenized, the
part that used to backtrack) and the whole read (``parse_bytes``: with the replay of every turn on the engine).
Times are the CPU time of the reading thread (``time.thread_time``): the machine is shared, and its wall clock
also counts waiting for a core. Prints the slowest, p50 and p99 of both, per kind of mutation, the crafted lines
for several lengths, and the longest gap of the event loop (wall clock) while the slowest records are read with
``asyncio.to_thread`` as the bot does.
Any exception other than a refusal (BadInput) is counted and shown: there must be none.

The reading is done by a worker process per tree: this one, and with ``--rev`` a git worktree of that revision
beside it, in ONE run: each record goes to both workers in turn (who goes first alternates), so the machine's
noise hits both alike. Each worker also counts the CPU time its reading thread spent in the garbage collector
during each read (``gc.callbacks``): a full collection (generation 2) walks every object of the process, so
its cost is the size of the process's heap more than the record's, and it lands in whichever read allocates
when it falls due. Each worker ``gc.freeze()``s its start-up heap (the modules, the samples) before reading, as
the bot does once it has started (``bot.__main__.freeze_start_up_heap``); ``--no-freeze`` reads without that.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import platform
import random
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot import records  # noqa: E402
from bot.services.play import play_turn  # noqa: E402
from engines import GAMES  # noqa: E402

# What the old reader (the backtracking turn-line regular expression) took on the crafted line, as
# measured in issue 28 (characters -> seconds); this tree no longer has that reader.
OLD_FIGURES = [(907, 0.9), (1807, 6.5), (3967, 68.0)]
CRAFTED_N = (10, 100, 300, 1000, 1320)       # 1,320: the 3,967-character line
ALPHABET = "{}:,. \t\"\\[]0123456789abcPlayer-/é名\u00a0"
SLOWEST_ON_LOOP = 20                         # the slowest records read again in a thread beside a ticking loop
RETIMES = 3                                  # the slowest are read again so often: the best is their own cost,
                                             # the first figure also holds what the shared machine did meanwhile
RETIMED = 20                                 # so many of the slowest first reads are read again: on a loaded machine
                                             # the first figure ranks by load as much as by cost


def crafted_lines(n: int) -> list[str]:
    """The shapes of line that cost the old reader seconds (the first is the issue's)."""
    return [
        "1." + " " * n + "P:" + " " * n + "a {" + "a" * n,
        "1." + " " * n + "P:" + " " * n + "a" + " " * n,
        "1. P:" + " a" * n + " {" + "}" * n,
        "1." + " " * n + "P" * n + " {x}",
        '[A "' + '\\"' * n + "x",
        "[A" + " " * n + '"' + "\\" * (2 * n) + '\\"]',
    ]


def random_game(key: str, players: int, variant: str | None, seed: int) -> str:
    """The record of a random game played to its end or its game's turn cap, each turn one submission."""
    game = GAMES[key]
    rng = random.Random(seed)
    state = game.new(players=players, seed=seed, variant=variant)
    start, turns, states = state, [], [state]
    cap = game.turn_cap or records.MAX_RECORD_TURNS
    while not state.is_over and len(turns) < cap:
        seat = state.to_move
        assert seat is not None
        moves = [rng.choice(state.legal_moves())]
        probe = state.play(moves[0])
        while not probe.is_over and probe.to_move == seat and rng.random() < 0.7:
            moves.append(rng.choice(probe.legal_moves()))
            probe = probe.play(moves[-1])
        played, after = play_turn(state, seat, moves)
        state = after[-1]
        turns.append(records.RecordTurn(len(turns) + 1, seat, tuple(played), state.encode()))
        states.append(state)
    names = tuple(f"Player {chr(65 + i)}" for i in range(players))
    return records.write(records.GameRecord(key, start.variant, players, start.encode(), turns,
                                            tuple(game.seat_names(players)), names,
                                            {"Date": "2026-11-26", "Result": "*", "Termination": "-"}, states))


# ---- mutations ---------------------------------------------------------------------------------------------------
def edit(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 5)):
        at = rng.randrange(len(chars) + 1)
        op = rng.random()
        if op < 0.4 and at < len(chars):
            chars[at] = rng.choice(ALPHABET)
        elif op < 0.7:
            chars.insert(at, rng.choice(ALPHABET))
        elif at < len(chars):
            del chars[at]
    return "".join(chars)


def shuffle_lines(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        op = rng.random()
        if op < 0.4:
            lines.insert(j, lines[i])
        elif op < 0.7 and len(lines) > 1:
            del lines[i]
        else:
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines) + "\n"


def crafted(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    line = rng.choice(crafted_lines(rng.randint(1, 1320)))
    lines.insert(rng.randrange(len(lines) + 1), line)
    return "\n".join(lines) + "\n"


def huge_name(text: str, rng: random.Random) -> str:
    name = "".join(rng.choice("abc de\"\\名") for _ in range(rng.randint(1000, 1900)))
    value = name.replace("\\", "\\\\").replace('"', '\\"')      # at most 3,800 characters: under MAX_LINE
    return "\n".join(f'[Player1 "{value}"]' if line.startswith("[Player1 ") else line
                     for line in text.splitlines()) + "\n"


def many_turns(text: str, rng: random.Random) -> str:
    """Well-formed turn lines past the end: over a cap, at a limit, or just many."""
    body = text.rstrip("\n").split("\n")
    last = body[-1]
    seat = last.split(": ", 1)[0].split(". ", 1)[-1] if ". " in last else "Player 1"
    count = rng.choice([401, records.MAX_RECORD_TURNS + 1, records.MAX_RECORD_TURNS, rng.randint(10, 3000)])
    start = sum(1 for line in body if line[:1].isdigit()) + 1
    moves = ", ".join(["a"] * rng.choice([1, 1, 3]))
    body += [f"{start + i}. {seat}: {moves} {{x}}" for i in range(count)]
    return "\n".join(body) + "\n"


def flip_bytes(data: bytes, rng: random.Random) -> bytes:
    raw = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        raw[rng.randrange(len(raw))] = rng.randrange(256)
    return bytes(raw)


TEXT_MUTATIONS: dict[str, tuple[float, Callable[[str, random.Random], str]]] = {
    "edit": (0.30, edit), "lines": (0.20, shuffle_lines), "crafted": (0.15, crafted), "name": (0.10, huge_name),
    "turns": (0.10, many_turns), "valid": (0.05, lambda text, rng: text),
}
BYTE_SHARE = 0.10


def mutated(bases: list[str], count: int, rng: random.Random) -> list[tuple[str, bytes]]:
    kinds = list(TEXT_MUTATIONS) + ["bytes"]
    weights = [w for w, _ in TEXT_MUTATIONS.values()] + [BYTE_SHARE]
    out = []
    for _ in range(count):
        kind = rng.choices(kinds, weights)[0]
        base = rng.choice(bases)
        if kind == "bytes":
            out.append((kind, flip_bytes(base.encode(), rng)))
        else:
            out.append((kind, TEXT_MUTATIONS[kind][1](base, rng).encode("utf-8", "surrogatepass")))
    return out


# ---- timing, in a worker process per tree --------------------------------------------------------------------------
WORKER = r"""
import asyncio, gc, json, pickle, sys, threading, time
sys.path.insert(0, sys.argv[1])
from bot import records
from bot.model import BadInput

with open(sys.argv[2], "rb") as f:
    bases, samples = pickle.load(f)
spent = {"gc": 0.0, "full": 0, "at": 0.0}
reader = threading.get_ident()


def collecting(phase, info):        # the reading thread's CPU time in the collector
    if threading.get_ident() != reader:
        return
    if phase == "start":
        spent["at"] = time.thread_time()
    else:
        spent["gc"] += time.thread_time() - spent["at"]
        spent["full"] += info["generation"] == 2


gc.callbacks.append(collecting)
gc.collect()
if sys.argv[3] == "freeze":
    gc.freeze()


def timed(read, data):
    gc_before, full_before = spent["gc"], spent["full"]
    start = time.thread_time()
    try:
        read(data)
        outcome = "read"
    except BadInput:
        outcome = "refused"
    except Exception as exc:   # the bench reports any unexpected failure instead of stopping
        outcome = f"ERROR {type(exc).__name__}: {exc}"
    return time.thread_time() - start, outcome, spent["gc"] - gc_before, spent["full"] - full_before


def syntax(data):
    return records.scan(records.decode_text(data))


async def loop_gap(datas):
    gaps, done = [0.0], False

    async def ticker():
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(0)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    task = asyncio.create_task(ticker())
    for data in datas:
        try:
            await asyncio.to_thread(records.parse_bytes, data)
        except BadInput:
            pass
    done = True
    await task
    return max(gaps)


for line in sys.stdin:
    job = json.loads(line)
    if job["op"] == "read":
        data = samples[job["i"]][1]
        scan_time = timed(syntax, data)[0]
        full_time, outcome, gc_time, full = timed(records.parse_bytes, data)
        out = {"scan": scan_time, "full": full_time, "outcome": outcome, "gc": gc_time, "gen2": full}
    elif job["op"] == "best":
        out = {"best": min(timed(records.parse_bytes, samples[job["i"]][1])[0] for _ in range(job["times"]))}
    elif job["op"] == "crafted":
        data = (bases[0] + job["line"] + "\n").encode()
        out = {"best": min(timed(records.parse_bytes, data)[0] for _ in range(3))}
    else:
        reader = None          # reads happen in other threads now: no collector accounting
        out = {"gap": asyncio.run(loop_gap([samples[i][1] for i in job["ids"]]))}
    print(json.dumps(out), flush=True)
"""


class Worker:
    """A process reading records with the ``bot.records`` of one tree."""

    def __init__(self, label: str, tree: Path, samples: Path, freeze: bool):
        self.label = label
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(tree), str(samples),
                                      "freeze" if freeze else "-"], cwd=tree, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def ask(self, **job: object) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def summary(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{label:<10} n={len(times):>6}  p50 {ms(p50)}  p99 {ms(p99)}  slowest {ms(ordered[-1])}"


def report(worker: Worker, samples: list[tuple[str, bytes]], results: list[dict]) -> None:
    by_kind: dict[str, list[tuple[dict, int]]] = defaultdict(list)
    for index, ((kind, _), result) in enumerate(zip(samples, results, strict=True)):
        by_kind[kind].append((result, index))
    every = [row for rows in by_kind.values() for row in rows]
    print(f"\n==== {worker.label}")
    print("syntax pass (decode + tokenize every line; no replay):")
    print("  " + summary("all", [r["scan"] for r, _ in every]))
    for kind, rows in sorted(by_kind.items()):
        print("  " + summary(kind, [r["scan"] for r, _ in rows]))
    print("whole read (parse_bytes: syntax, limits and the replay of every turn on the engine):")
    print("  " + summary("all", [r["full"] for r, _ in every]))
    for kind, rows in sorted(by_kind.items()):
        read = sum(1 for r, _ in rows if r["outcome"] == "read")
        print("  " + summary(kind, [r["full"] for r, _ in rows]) + f"  ({read} read, {len(rows) - read} refused)")
    full_gcs = [r for r, _ in every if r["gen2"]]
    print(f"garbage collector inside the reads: {sum(r['gc'] for r, _ in every) * 1000:.0f} ms in all; "
          f"{len(full_gcs)} reads held a full collection"
          + (f" (each {ms(min(r['gc'] for r in full_gcs))} to {ms(max(r['gc'] for r in full_gcs))})"
             if full_gcs else ""))
    ranked = sorted(((r["full"], index) for r, index in every), reverse=True)
    retimed = sorted(((worker.ask(op="best", i=index, times=RETIMES)["best"], index)
                      for _, index in ranked[:RETIMED]), reverse=True)
    print(f"slowest first reads (CPU time, of which in the collector), the {RETIMED} slowest read "
          f"{RETIMES} more times (best):")
    for _, index in ranked[:5]:
        r = results[index]
        print(f"  {ms(r['full'])} (gc {ms(r['gc'])})  {samples[index][0]:<8} {len(samples[index][1]):>7,} bytes  "
              f"{r['outcome'][:60]}")
    print("  their best retimes, slowest first:")
    for again, index in retimed[:5]:
        print(f"  {ms(again)}  first {ms(results[index]['full'])}  {samples[index][0]:<8} "
              f"{len(samples[index][1]):>7,} bytes  {results[index]['outcome'][:40]}")
    errors = [f"{samples[i][0]}: {r['outcome']}" for r, i in every if r["outcome"].startswith("ERROR")]
    print(f"unexpected exceptions: {len(errors)}")
    for line in errors[:10]:
        print("  " + line)
    print("crafted lines (appended to a valid Tintas record; best of 3 whole reads; all refused as no tag/turn):")
    for n in CRAFTED_N:
        cells = [f"{len(line):>5} ch {ms(worker.ask(op='crafted', line=line)['best'])}" for line in crafted_lines(n)]
        print(f"  n={n:>5}: " + " | ".join(cells))
    gap = worker.ask(op="gap", ids=[index for _, index in ranked[:SLOWEST_ON_LOOP]])["gap"]
    print(f"event loop (wall clock): longest gap between two turns of a ticking coroutine while the "
          f"{SLOWEST_ON_LOOP} slowest records were read in a thread (as the bot reads them): {ms(gap)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--games-per-setup", type=int, default=3)
    parser.add_argument("--rev", default=None, help="also time the reader of this git revision, in the same run")
    parser.add_argument("--no-freeze", dest="freeze", action="store_false",
                        help="read without gc.freeze() of each worker's start-up heap (the bot freezes its own)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}; {args.records:,} records, seed {args.seed}; times are CPU time of the reader"
          + ("; start-up heaps frozen" if args.freeze else "; start-up heaps NOT frozen"))

    setups = [(key, players, variant) for key, game in GAMES.items() for players in game.player_counts
              for variant in (game.variants or (None,))]
    bases = [random_game(key, players, variant, seed) for key, players, variant in setups
             for seed in range(1, args.games_per_setup + 1)]
    turns = [sum(1 for line in b.splitlines() if line[:1].isdigit()) for b in bases]
    print(f"{len(bases)} valid records of {len(setups)} setups: {min(turns)}-{max(turns)} turns, "
          f"{min(map(len, bases)):,}-{max(map(len, bases)):,} characters")
    samples = mutated(bases, args.records, rng)

    with tempfile.TemporaryDirectory(prefix="bench-records-") as tmp:
        stored = Path(tmp) / "samples.pickle"
        stored.write_bytes(pickle.dumps((bases, samples)))
        trees = [("this tree", ROOT)]
        if args.rev:
            other = Path(tmp) / "rev"
            subprocess.run(["git", "worktree", "add", "--detach", str(other), args.rev], cwd=ROOT, check=True,
                           capture_output=True)
            trees.insert(0, (f"revision {args.rev}", other))
        try:
            workers = [Worker(label, tree, stored, args.freeze) for label, tree in trees]
            results: list[list[dict]] = [[] for _ in workers]
            for index in range(len(samples)):
                order = range(len(workers)) if index % 2 == 0 else reversed(range(len(workers)))
                for w in order:       # who reads first alternates: the noise of the moment hits both alike
                    results[w].append(workers[w].ask(op="read", i=index))
            for worker, found in zip(workers, results, strict=True):
                report(worker, samples, found)
            for worker in workers:
                worker.close()
        finally:
            if args.rev:
                subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, capture_output=True)
    print("\nold reader (issue 28, the first crafted shape): "
          + ", ".join(f"{chars:,} characters {seconds:g} s" for chars, seconds in OLD_FIGURES))
    print(f"load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
