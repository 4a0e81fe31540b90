"""Several bot processes on one PostgreSQL database ([12] "Several processes" / "Measure").

    python bench/bench_processes.py [--processes 4] [--per-process 2500] [--seconds 30] [--rate 10]
                                    [--database-url postgresql://…] [--sqlite-compare 2025] [--kill-lease 10]

Each process is ``bench/process_worker.py``: the real scheduler and dispatcher, a stub delivery that records every
post in the table ``deliveries``, and a player making ``--rate`` moves a second in its own share of the matches.

1. moves: latency of a move (find the match, submit the turn) p50/p95, all processes merged and each.
2. catch-up: all processes were down for a day — every reminder fell due a day ago, a quarter of the deadlines
   passed; all start together; seconds until every one is handled (and delivered). ``--sqlite-compare N`` runs
   the same catch-up with ONE process on SQLite with N due reminders beside it.
3. kill: while every process is busy (moves, due reminders and deadlines), one is SIGKILLed; the others go on
   past its lease; every announcement and deadline is counted.

Without ``--database-url`` a throw-away server is started from the Debian binaries (tests/postgres_server.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.process_worker import create_deliveries, fill, iso  # noqa: E402
from bot.store import Database  # noqa: E402

HANG = 1800.0     # give up on a phase after this (a hang, not a figure)


class Workers:
    def __init__(self, url: str, folder: Path, count: int, *extra: str, shares: list[tuple[int, int]] | None = None):
        self.outs = [folder / f"worker{i}-{time.monotonic_ns()}.json" for i in range(count)]
        self.procs = []
        for i, out in enumerate(self.outs):
            args = [sys.executable, str(ROOT / "bench" / "process_worker.py"), url, "--out", str(out), *extra]
            if shares:
                args += ["--matches", str(shares[i][0]), str(shares[i][1])]
            self.procs.append(subprocess.Popen(args, cwd=ROOT))
        self.started = time.perf_counter()

    async def ready(self) -> None:
        while not all(o.with_suffix(".ready").exists() for o in self.outs):
            await asyncio.sleep(0.05)

    def kill(self, i: int) -> None:
        self.procs[i].send_signal(signal.SIGKILL)
        self.procs[i].wait()

    def stop(self) -> list[dict]:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        summaries = []
        for p, out in zip(self.procs, self.outs, strict=True):
            code = p.wait(timeout=120)
            summaries.append(json.loads(out.read_text()) if code == 0 else {"killed": True, "latencies_ms": []})
        return summaries


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * q) - 1)] if ordered else float("nan")


async def due_left(db: Database) -> tuple[int, int]:
    """(matches with a due reminder or deadline, undelivered outbox rows)."""
    now = iso(datetime.now(UTC))
    row = await db.fetchone("SELECT (SELECT COUNT(*) FROM matches WHERE status = 'active' AND (remind_at <= ?"
                            " OR deadline_at <= ?)), (SELECT COUNT(*) FROM outbox WHERE done_at IS NULL)", (now, now))
    assert row is not None
    return int(row[0]), int(row[1])


async def mark(db: Database) -> tuple[int, int]:
    """The last outbox id and event id: what a phase adds comes after."""
    row = await db.fetchone("SELECT (SELECT COALESCE(MAX(id), 0) FROM outbox),"
                            " (SELECT COALESCE(MAX(id), 0) FROM match_events)")
    assert row is not None
    return int(row[0]), int(row[1])


async def counts(db: Database, since: tuple[int, int], killed_pid: int | None = None,
                 checked: int | None = None) -> dict[str, int]:
    """What a phase wrote and delivered, and everything done twice or never. ``checked``: the last outbox id when
    everything was seen delivered; rows after it were written by moves still being played while the processes
    were being stopped (a stop leaves them for the next start), so they are counted apart, not as missing."""
    ob, ev = since
    rows = await db.fetchall("SELECT id, match_id, kind, payload, done_at FROM outbox WHERE id > ?", (ob,))
    lines = await db.fetchall("SELECT outbox_id, pid, again FROM deliveries WHERE outbox_id > ? ORDER BY at", (ob,))
    events = await db.fetchall("SELECT match_id FROM match_events WHERE id > ? AND action IN ('timeout', 'abort')",
                               (ev,))
    times = Counter(r[0] for r in lines)
    first: dict[int, int] = {}
    for outbox_id, pid, _ in lines:
        first.setdefault(outbox_id, pid)
    twice = [i for i, n in times.items() if n > 1]
    reminders = Counter(r[1] for r in rows if r[2] == "reminder")
    results = Counter(r[1] for r in rows if r[2] == "board" and json.loads(r[3]).get("event") == "result")
    forfeits = Counter(r[0] for r in events)
    return {
        "announcements written": len(rows),
        "delivered (marked done)": sum(1 for r in rows if r[4] is not None),
        "delivery calls": len(lines),
        "duplicates (an outbox id delivered twice)": len(twice),
        "  of which posted by the killed process, not marked (nonce repeat)":
            sum(1 for i in twice if killed_pid is not None and first[i] == killed_pid),
        "missing (written, never delivered)": sum(1 for r in rows if r[0] not in times
                                                  and (checked is None or r[0] <= checked)),
        "written while stopping (left for the next start)": sum(1 for r in rows if r[0] not in times
                                                                and checked is not None and r[0] > checked),
        "reminders": sum(reminders.values()),
        "reminders applied twice (matches)": sum(1 for n in reminders.values() if n > 1),
        "forfeits": sum(forfeits.values()),
        "forfeits applied twice (matches)": sum(1 for n in forfeits.values() if n > 1),
        "result boards written twice (matches)": sum(1 for n in results.values() if n > 1),
    }


async def moves(url: str, folder: Path, ids: list[int], args: argparse.Namespace) -> None:
    per = len(ids) // args.processes
    shares = [(ids[i * per], ids[(i + 1) * per - 1]) for i in range(args.processes)]
    workers = Workers(url, folder, args.processes, "--seconds", str(args.seconds), "--rate", str(args.rate),
                      shares=shares)
    await workers.ready()
    await asyncio.sleep(args.seconds + 1)
    summaries = workers.stop()
    merged = [x for s in summaries for x in s["latencies_ms"]]
    print(f"\n1. moves: {args.processes} processes x {per:,} active matches, {args.rate:g} moves/s each for "
          f"{args.seconds:g} s, scheduler and dispatcher running in each")
    print(f"{'':>10} {'moves':>7} {'p50 ms':>8} {'p95 ms':>8} {'refused':>8}")
    for i, s in enumerate(summaries):
        lat = s["latencies_ms"]
        print(f"{'process ' + str(i + 1):>10} {len(lat):>7} {statistics.median(lat):>8.2f} {pct(lat, 0.95):>8.2f}"
              f" {len(s['errors']):>8}")
    print(f"{'all':>10} {len(merged):>7} {statistics.median(merged):>8.2f} {pct(merged, 0.95):>8.2f}")


async def day_down(db: Database, forfeit_every: int | None = 4) -> None:
    """Every reminder fell due during a day of downtime (a day ago … an hour ago), and the deadline of every
    ``forfeit_every``-th match passed."""
    now = datetime.now(UTC)
    async with db.transaction() as tx:
        rows = await tx.fetchall("SELECT id FROM matches WHERE status = 'active' ORDER BY id")
        await tx.executemany("UPDATE matches SET remind_at = ? WHERE id = ?",
                             [(iso(now - timedelta(days=1) + timedelta(seconds=(i * 7) % 82800)), r[0])
                              for i, r in enumerate(rows)])
        if forfeit_every:
            await tx.executemany("UPDATE matches SET deadline_at = ? WHERE id = ?",
                                 [(iso(now - timedelta(hours=2)), r[0]) for i, r in enumerate(rows)
                                  if i % forfeit_every == 0])


async def catch_up(url: str, folder: Path, processes: int, label: str, forfeit_every: int | None = 4) -> None:
    db = await Database.open(url)
    try:
        await day_down(db, forfeit_every)
        since = await mark(db)
        due, _ = await due_left(db)
        workers = Workers(url, folder, processes)
        handled_at = delivered_at = None
        while delivered_at is None and time.perf_counter() - workers.started < HANG:
            await asyncio.sleep(0.25)
            left, pending = await due_left(db)
            now = time.perf_counter() - workers.started
            if left == 0 and handled_at is None:
                handled_at = now
            if handled_at is not None and pending == 0:
                delivered_at = now
        workers.stop()
        c = await counts(db, since)
    finally:
        await db.close()
    assert handled_at is not None and delivered_at is not None, "the catch-up did not finish"
    done = c["reminders"] + c["forfeits"]
    print(f"\n2. catch-up after a day down, {label}: {due:,} matches due, from the start of the processes")
    print(f"   reminders {c['reminders']:,}, forfeits {c['forfeits']:,}: all handled in {handled_at:.1f} s "
          f"({done / handled_at:,.0f}/s), all delivered in {delivered_at:.1f} s; "
          f"duplicates {c['duplicates (an outbox id delivered twice)']}, "
          f"reminders twice {c['reminders applied twice (matches)']}, forfeits twice "
          f"{c['forfeits applied twice (matches)']}, missing {c['missing (written, never delivered)']}")


async def kill(url: str, folder: Path, ids: list[int], args: argparse.Namespace) -> None:
    db = await Database.open(url)
    try:
        await day_down(db, forfeit_every=10)
        since = await mark(db)
        per = len(ids) // args.processes
        shares = [(ids[i * per], ids[(i + 1) * per - 1]) for i in range(args.processes)]
        workers = Workers(url, folder, args.processes, "--seconds", "3600", "--rate", str(args.rate),
                          "--lease", str(args.kill_lease), shares=shares)
        await workers.ready()
        await asyncio.sleep(args.kill_after)
        victim = workers.procs[0].pid
        held = await db.fetchone("SELECT COUNT(*) FROM outbox WHERE done_at IS NULL AND claimed_by LIKE ?",
                                 (f"%:{victim}:%",))
        left_at_kill = await due_left(db)
        workers.kill(0)
        killed_at = time.perf_counter()
        checked = since[0]
        while time.perf_counter() - killed_at < HANG:
            await asyncio.sleep(0.25)
            checked = (await mark(db))[0]       # first: every row up to it is delivered if nothing is left below
            if await due_left(db) == (0, 0) and time.perf_counter() - killed_at > args.kill_lease + 1:
                break
        finished = time.perf_counter() - killed_at
        workers.stop()
        c = await counts(db, since, victim, checked)
    finally:
        await db.close()
    print(f"\n3. kill -9 of process 1 of {args.processes}, {args.kill_after:g} s after all were ready (moves at "
          f"{args.rate:g}/s each, every reminder and 1 deadline in 10 due); lease {args.kill_lease:g} s")
    print(f"   at the kill: {left_at_kill[0]:,} matches still due, {left_at_kill[1]:,} rows undelivered, "
          f"{held[0] if held else 0} rows claimed by the killed process; all done {finished:.1f} s after the kill")
    for name, value in c.items():
        print(f"   {name:<66} {value:>7,}")


async def run(args: argparse.Namespace) -> None:
    server = None
    folder = Path(tempfile.mkdtemp(prefix="bench-processes-"))
    url = args.database_url
    if url is None:
        from tests.postgres_server import PostgresServer
        server = PostgresServer()
        server.start()
        _, url = server.new_database()
    try:
        db = await Database.open(url)
        await create_deliveries(db)
        t0 = time.perf_counter()
        ids = await fill(db, args.processes * args.per_process)
        await db.close()
        print(f"filled {len(ids):,} active timed matches in {time.perf_counter() - t0:.1f} s")
        await moves(url, folder, ids, args)
        await catch_up(url, folder, args.processes, f"{args.processes} processes on PostgreSQL")
        if args.sqlite_compare:
            lite = str(folder / "compare.sqlite3")
            db = await Database.open(lite)
            await create_deliveries(db)
            await fill(db, args.sqlite_compare)
            await db.close()
            await catch_up(lite, folder, 1, "1 process on SQLite", forfeit_every=None)
        await kill(url, folder, ids, args)
    finally:
        if server is not None:
            server.stop()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--processes", type=int, default=4)
    ap.add_argument("--per-process", type=int, default=2500, help="active matches each process plays in")
    ap.add_argument("--seconds", type=float, default=30.0, help="how long the moves are measured")
    ap.add_argument("--rate", type=float, default=10.0, help="moves a second per process")
    ap.add_argument("--database-url", help="an existing PostgreSQL database (default: a throw-away server)")
    ap.add_argument("--sqlite-compare", type=int, default=2025, metavar="N",
                    help="the catch-up of N due reminders by one process on SQLite, for comparison (0: skip)")
    ap.add_argument("--kill-lease", type=float, default=10.0, help="the dispatcher's lease in the kill phase, s")
    ap.add_argument("--kill-after", type=float, default=3.0, help="seconds of work before the kill")
    args = ap.parse_args()
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{args.processes} processes")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
