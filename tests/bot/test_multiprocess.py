"""Several bot processes on one PostgreSQL database: every reminder, forfeit and announcement happens exactly
once, also when one process is killed (SIGKILL) while it holds claimed work — another takes it over when the
lease runs out. Real processes (bench/process_worker.py), a real server, a real kill."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.process_worker import create_deliveries, fill
from bot.services import Services
from bot.store import Database
from bot.store.rows import Announcement
from engines import GAMES

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 3
LEASE = 3.0                 # seconds: short, so the test sees the take-over soon
DELIVERY = 0.05             # seconds each post takes, so a process is killed while it holds claims
REMINDED, FORFEITED = 40, 20
BOARDS_PER_MATCH = 3
HANG = 60.0                 # a hang detector, not a speed limit


def iso(when: datetime) -> str:
    return when.isoformat(timespec="seconds")


async def prepare(url: str) -> tuple[list[int], list[int]]:
    """40 matches whose reminder is due, 20 whose deadline passed after both players moved, and pending
    boards in the outbox of every one."""
    db = await Database.open(url)
    try:
        await create_deliveries(db)
        ids = await fill(db, REMINDED + FORFEITED)
        services = Services(db, seed_source=random.Random(5))
        rng = random.Random(6)
        reminded, forfeited = ids[:REMINDED], ids[REMINDED:]
        for mid in forfeited:          # both have moved: running out of time is a loss, not an abort
            for _ in range(2):
                match = await services.queries.get(mid)
                who = match.to_move_user
                assert who is not None
                value, _ = rng.choice(GAMES["tintas"].turn_suggestions(match.position, "", 25))
                await services.play.submit_turn(match, who.user_id, value, guild_id=1)
        past = datetime.now(UTC) - timedelta(hours=1)
        async with db.transaction() as tx:
            for mid in ids:
                await services.outbox.add(tx, mid, [Announcement("board", {"event": "test", "n": n})
                                                    for n in range(BOARDS_PER_MATCH)], now=iso(past))
            await tx.executemany("UPDATE matches SET remind_at = ? WHERE id = ?", [(iso(past), m) for m in reminded])
            await tx.executemany("UPDATE matches SET deadline_at = ? WHERE id = ? AND status = 'active'",
                                 [(iso(past), m) for m in forfeited])
        return reminded, forfeited
    finally:
        await db.close()


def start_worker(url: str, out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "bench/process_worker.py", url, "--out", str(out), "--lease", str(LEASE),
                             "--delay", str(DELIVERY)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


async def wait_for(what, timeout: float = HANG):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = await what()
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError("timed out waiting")


async def test_a_killed_process_work_is_done_once_by_the_others(postgres_server, tmp_path):
    name, url = postgres_server.new_database()
    workers: list[subprocess.Popen] = []
    try:
        reminded, forfeited = await prepare(url)
        workers = [start_worker(url, tmp_path / f"w{i}.json") for i in range(WORKERS)]
        by_pid = {w.pid: w for w in workers}
        db = await Database.open(url)
        try:
            async def a_worker_holding_claims() -> int | None:
                rows = await db.fetchall("SELECT DISTINCT claimed_by FROM outbox WHERE done_at IS NULL"
                                         " AND claimed_by IS NOT NULL")
                pids = [int(r[0].split(":")[1]) for r in rows]
                return next((p for p in pids if p in by_pid), None)

            victim_pid = await wait_for(a_worker_holding_claims)
            victim = by_pid[victim_pid]
            victim.send_signal(signal.SIGKILL)
            assert victim.wait(timeout=HANG) == -signal.SIGKILL
            held = {r[0] for r in await db.fetchall("SELECT id FROM outbox WHERE done_at IS NULL AND claimed_by LIKE ?",
                                                    (f"%:{victim_pid}:%",))}
            assert held, "the killed process held no claim"

            async def all_done() -> bool:
                row = await db.fetchone(
                    "SELECT (SELECT COUNT(*) FROM outbox WHERE done_at IS NULL),"
                    " (SELECT COUNT(*) FROM matches WHERE status = 'active' AND (remind_at <= ? OR deadline_at <= ?))",
                    (iso(datetime.now(UTC)), iso(datetime.now(UTC))))
                return row is not None and row[0] == 0 and row[1] == 0

            await wait_for(all_done)
            survivors = [w for w in workers if w is not victim]
            for w in survivors:
                w.send_signal(signal.SIGTERM)
            for w in survivors:
                assert w.wait(timeout=HANG) == 0, w.stderr.read().decode() if w.stderr else ""

            outbox = await db.fetchall("SELECT id, match_id, kind, payload, result FROM outbox ORDER BY id")
            deliveries = await db.fetchall("SELECT outbox_id, pid, again FROM deliveries ORDER BY at")
            events = await db.fetchall("SELECT match_id, action FROM match_events WHERE action IN ('timeout', 'abort')")
            statuses = dict(await db.fetchall("SELECT id, status FROM matches"))
            rated = Counter(r[0] for r in await db.fetchall("SELECT match_id FROM rating_changes"))
        finally:
            await db.close()
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
                w.wait()
        postgres_server.drop(name)

    # every announcement delivered, and none twice — but the posts the killed process made and could not mark
    assert all(r[4] == "sent" for r in outbox)
    times = Counter(d[0] for d in deliveries)
    assert set(times) == {r[0] for r in outbox}
    lines: dict[int, list[tuple[int, int]]] = {}
    for outbox_id, pid, again in deliveries:
        lines.setdefault(outbox_id, []).append((pid, again))
    assert all([again for _, again in seen] == [0] + [1] * (len(seen) - 1) for seen in lines.values())
    first = {i: seen[0][0] for i, seen in lines.items()}
    twice = {i for i, n in times.items() if n > 1}
    assert all(n <= 2 for n in times.values()), times
    assert twice <= held and all(first[i] == victim_pid for i in twice)   # Discord's nonce makes them one post

    # every due reminder once, every due forfeit once (with its result and rating once)
    reminders = Counter(r[1] for r in outbox if r[2] == "reminder")
    assert reminders == Counter(reminded)
    results = Counter(r[1] for r in outbox if r[2] == "board" and json.loads(r[3]).get("event") == "result")
    assert results == Counter(forfeited)
    assert Counter(m for m, _ in events) == Counter(forfeited) and {a for _, a in events} == {"timeout"}
    assert all(statuses[m] == "finished" for m in forfeited) and all(statuses[m] == "active" for m in reminded)
    assert rated == Counter({m: 2 for m in forfeited})
