"""Reading game records: how long the slowest of many mutated and crafted records takes, and whether reading
them in a thread keeps the event loop free.

    python bench/bench_records.py [--records 20000] [--seed 28]

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
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import records  # noqa: E402
from bot.model import BadInput  # noqa: E402
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


# ---- timing ------------------------------------------------------------------------------------------------------
def timed(read: Callable[[bytes], object], data: bytes) -> tuple[float, str]:
    """The CPU time of this thread spent reading ``data`` (on a shared machine the wall clock also counts the
    time spent waiting for a core), and the outcome."""
    start = time.thread_time()
    try:
        read(data)
        outcome = "read"
    except BadInput:
        outcome = "refused"
    except Exception as exc:   # noqa: BLE001 - the bench reports any unexpected failure instead of stopping
        outcome = f"ERROR {type(exc).__name__}: {exc}"
    return time.thread_time() - start, outcome


def syntax(data: bytes) -> object:
    return records.scan(records.decode_text(data))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def summary(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{label:<10} n={len(times):>6}  p50 {ms(p50)}  p99 {ms(p99)}  slowest {ms(ordered[-1])}"


async def loop_gap(datas: list[bytes]) -> float:
    """The longest time between two turns of a ticking coroutine while ``datas`` are read as the bot reads them."""
    gaps = [0.0]
    done = False

    async def ticker() -> None:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--games-per-setup", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}; {args.records:,} records, seed {args.seed}; times are CPU time of the reader")

    setups = [(key, players, variant) for key, game in GAMES.items() for players in game.player_counts
              for variant in (game.variants or (None,))]
    bases = [random_game(key, players, variant, seed) for key, players, variant in setups
             for seed in range(1, args.games_per_setup + 1)]
    turns = [sum(1 for line in b.splitlines() if line[:1].isdigit()) for b in bases]
    print(f"{len(bases)} valid records of {len(setups)} setups: {min(turns)}-{max(turns)} turns, "
          f"{min(map(len, bases)):,}-{max(map(len, bases)):,} characters")

    samples = mutated(bases, args.records, rng)
    by_kind: dict[str, list[tuple[float, float, str, int]]] = defaultdict(list)   # per sample: times, outcome, index
    errors: list[str] = []
    for index, (kind, data) in enumerate(samples):
        scan_time, _ = timed(syntax, data)
        full_time, outcome = timed(records.parse_bytes, data)
        by_kind[kind].append((scan_time, full_time, outcome, index))
        if outcome.startswith("ERROR"):
            errors.append(f"{kind}: {outcome}")

    every = [row for rows in by_kind.values() for row in rows]
    print("\nsyntax pass (decode + tokenize every line; no replay):")
    print("  " + summary("all", [r[0] for r in every]))
    for kind, rows in sorted(by_kind.items()):
        print("  " + summary(kind, [r[0] for r in rows]))
    print("whole read (parse_bytes: syntax, limits and the replay of every turn on the engine):")
    print("  " + summary("all", [r[1] for r in every]))
    for kind, rows in sorted(by_kind.items()):
        read = sum(1 for r in rows if r[2] == "read")
        print("  " + summary(kind, [r[1] for r in rows]) + f"  ({read} read, {len(rows) - read} refused)")
    ranked = sorted(((r[1], kind, r[2], r[3]) for kind, rows in by_kind.items() for r in rows), reverse=True)
    retimed = sorted(((min(timed(records.parse_bytes, samples[index][1])[0] for _ in range(RETIMES)), seconds, kind,
                       outcome, index) for seconds, kind, outcome, index in ranked[:RETIMED]), reverse=True)
    print(f"slowest whole reads: the {RETIMED} slowest first reads, each read {RETIMES} more times; the five whose "
          f"best read is slowest (first read, best of retimes):")
    for again, seconds, kind, outcome, index in retimed[:5]:
        print(f"  {ms(seconds)} ({ms(again)})  {kind:<8} {len(samples[index][1]):>7,} bytes  {outcome[:60]}")
    print(f"unexpected exceptions: {len(errors)}")
    for line in errors[:10]:
        print("  " + line)

    print("\ncrafted lines (appended to a valid Tintas record; best of 3 whole reads; all refused as no tag/turn):")
    base = bases[0]
    for n in CRAFTED_N:
        cells = []
        for line in crafted_lines(n):
            data = (base + line + "\n").encode()
            best, outcome = min(timed(records.parse_bytes, data) for _ in range(3))
            cells.append(f"{len(line):>5} ch {ms(best)}")
        print(f"  n={n:>5}: " + " | ".join(cells))
    print("  old reader (issue 28, the first shape): "
          + ", ".join(f"{chars:,} characters {seconds:g} s" for chars, seconds in OLD_FIGURES))

    slow_datas = [samples[index][1] for _, _, _, index in ranked[:SLOWEST_ON_LOOP]]
    gap = asyncio.run(loop_gap(slow_datas))
    print(f"load average now {os.getloadavg()[0]:.1f}")
    print(f"\nevent loop (wall clock): longest gap between two turns of a ticking coroutine while the "
          f"{len(slow_datas)} slowest records were read in a thread (as the bot reads them): {ms(gap)}")


if __name__ == "__main__":
    main()
