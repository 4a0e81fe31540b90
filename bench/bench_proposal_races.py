"""Proposals decide once: the decline-versus-last-acceptance race and simultaneous acceptances, many rounds.

    python bench/bench_proposal_races.py [--rounds 200] [--simultaneous 20] [--backends sqlite postgres]

The same races as tests/bot/test_proposal_races.py (which runs 30 rounds of each): a 3-player Rincala match,
two service stacks on two connections to one database (PostgreSQL: a throw-away server started the way the
tests start it). Prints, per backend and kind (draw, takeback), the rounds run and the violations found: a
decline acknowledged and the proposal carried out, the last acceptance acknowledged and not carried out, both
or neither answer acknowledged, a decline announced other than once; and the acceptances lost of two at once.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.services import Services  # noqa: E402
from bot.store import Database  # noqa: E402
from tests.bot.test_proposal_races import acceptances_at_once, decline_against_last_acceptance  # noqa: E402
from tests.conftest import FakeClock  # noqa: E402

KINDS = ("draw", "takeback")


async def run(where: str, kind: str, rounds: int, simultaneous: int) -> tuple[list[str], list[int], float]:
    clock = FakeClock()
    one, two = await Database.open(where), await Database.open(where)
    try:
        services = Services(one, clock=clock, seed_source=random.Random(7))
        other = Services(two, clock=clock, seed_source=random.Random(8))
        started = time.perf_counter()
        violations = await decline_against_last_acceptance(services, other, kind, rounds)
        lost = await acceptances_at_once(services, other, kind, simultaneous)
        return violations, lost, time.perf_counter() - started
    finally:
        await one.close()
        await two.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--simultaneous", type=int, default=20)
    ap.add_argument("--backends", nargs="+", choices=("sqlite", "postgres"), default=["sqlite", "postgres"])
    args = ap.parse_args()
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"{'backend':>9} {'kind':>9} {'rounds':>7} {'violations':>11} {'at once':>8} {'lost':>5} {'seconds':>8}")
    server = None
    try:
        for backend in args.backends:
            for n, kind in enumerate(KINDS):
                if backend == "postgres":
                    if server is None:
                        from tests.postgres_server import PostgresServer
                        server = PostgresServer()
                        server.start()
                    where = server.new_database()[1]
                    violations, lost, seconds = asyncio.run(run(where, kind, args.rounds, args.simultaneous))
                else:
                    with tempfile.TemporaryDirectory() as folder:
                        where = str(Path(folder) / f"races{n}.sqlite3")
                        violations, lost, seconds = asyncio.run(run(where, kind, args.rounds, args.simultaneous))
                print(f"{backend:>9} {kind:>9} {args.rounds:>7} {len(violations):>11} {args.simultaneous:>8}"
                      f" {len(lost):>5} {seconds:>8.1f}")
                for line in violations[:5]:
                    print(f"{'':>10}{line}")
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
