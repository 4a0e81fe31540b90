"""Tournament figures: pairing a Swiss round, drawing the standings image, and the pairings checker on many events.

    python bench/bench_tournament.py [--players 256] [--rounds 3] [--image 64] [--check 0] [--seed 1]

``--players``/``--rounds``: a seeded Swiss of that many players is paired round by round through
bot.tournaments.swiss (results drawn with Elo odds, draws, forfeits, requested byes and withdrawals, as in
tests/bot/tournaments/simulate.py); each round's pairing time is printed, wall and CPU (CPU is the figure on a
shared machine; round 1 is a plain split, later rounds run the Dutch engine's matchings). ``--image``: the median
time to draw the standings image with a crosstable of that many entrants, PNG included, and its size.
``--pods N``: CPU time to pair each round of a pod event of N players, tables of 3 and of 4.
``--check N``: N generated events (6-14 players, 3-6 rounds) exported to TRF16 and re-paired by the library's
checker; prints the discrepancies.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from caissify_pairings.fpc import check_trf  # noqa: E402

from bot.tournaments import pods, roundrobin, scoring, swiss, trf  # noqa: E402
from bot.tournaments.model import Entrant, Table  # noqa: E402
from render.standings import Row, Sheet, standings_png  # noqa: E402
from tests.bot.tournaments import simulate  # noqa: E402


def bench_pairing(players: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(i, rng.randint(1000, 2200)) for i in range(1, players + 1)]
    ratings = {e.id: e.rating for e in entrants}
    tables: list[Table] = []
    for r in range(1, rounds + 1):
        for i, e in enumerate(entrants):
            if r > 1 and e.plays(r) and rng.random() < simulate.WITHDRAW_RATE:
                entrants[i] = replace(e, withdrawn_round=r)
        half = {e.id for e in entrants if e.plays(r) and rng.random() < simulate.HALF_BYE_RATE}
        t0, c0 = time.perf_counter(), time.process_time()
        paired = swiss.pair_round(entrants, tables, r, rounds, half_byes=half)
        took, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(f"swiss pairing  players={players:4d} round={r}  {took:8.2f} s  (CPU {cpu:.2f} s; {len(paired)} tables)",
              flush=True)
        tables += [simulate.play(t, rng, ratings) for t in paired]


def bench_pods(players: int, size: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(i, rng.randint(1000, 2200)) for i in range(1, players + 1)]
    tables: list[Table] = []
    for r in range(1, rounds + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        paired = pods.pair_pods(entrants, tables, r, size)
        took, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(f"pod pairing  players={players:4d} size={size} round={r}  {took:6.2f} s  (CPU {cpu:.2f} s)", flush=True)
        tables += [t.finish(tuple(rng.sample(range(1, len(t.seats) + 1), len(t.seats)))) if len(t.seats) > 1 else t
                   for t in paired]


def bench_image(entrants_count: int, seed: int, repeats: int = 5) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(i, rng.randint(1000, 2200)) for i in range(1, entrants_count + 1)]
    ratings = {e.id: e.rating for e in entrants}
    tables = [simulate.play(t, rng, ratings) for r in roundrobin.schedule(entrants) for t in r]
    rows = scoring.standings(entrants, tables)
    order = [row.entrant for row in rows]
    sheet = Sheet("Standings", ("#", "Name", "Points", "SB", "BH-1", "DE", "Wins"), tuple(
        Row(str(row.rank), f"Player number {row.entrant} with a longish name", scoring.figure(row.points),
            (scoring.figure(row.sonneborn_berger), scoring.figure(row.buchholz_cut1),
             scoring.figure(row.direct_encounter), str(row.wins))) for row in rows),
        scoring.crosstable(order, tables))
    times, cpu, png = [], [], b""
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        png = standings_png(sheet)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    print(f"standings image  entrants={entrants_count}  median {statistics.median(times) * 1000:7.1f} ms  "
          f"(CPU {statistics.median(cpu) * 1000:.0f} ms; {len(png) // 1024} KB, {repeats} draws)", flush=True)


def bench_check(events: int, seed: int) -> None:
    bad, rounds_checked, t0 = 0, 0, time.perf_counter()
    for k in range(events):
        players, rounds = 6 + (seed + k) % 9, 3 + (seed + k) % 4
        entrants, tables = simulate.swiss_event(seed * 100_000 + k, players, rounds)
        report = check_trf(trf.export(f"event {k}", entrants, {}, tables, rounds))
        rounds_checked += report["summary"]["rounds_checked"]
        if report["summary"]["total_discrepancies"]:
            bad += 1
            print(f"  event {k}: {[r['discrepancies'] for r in report['rounds'] if not r['match']]}", flush=True)
    print(f"checker  events={events}  rounds={rounds_checked}  events with a discrepancy: {bad}  "
          f"({time.perf_counter() - t0:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--image", type=int, default=64)
    parser.add_argument("--check", type=int, default=0)
    parser.add_argument("--pods", type=int, default=64, help="players of a pod event (tables of 4), 0: none")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.image:
        bench_image(args.image, args.seed)
    if args.pods:
        for size in (3, 4):
            bench_pods(args.pods, size, args.rounds, args.seed)
    if args.check:
        bench_check(args.check, args.seed)
    if args.players:
        bench_pairing(args.players, args.rounds, args.seed)


if __name__ == "__main__":
    main()
