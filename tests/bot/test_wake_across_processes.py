"""Every live process delivers every announcement (PostgreSQL, real processes, real SIGKILL).

Process A (tests/bot/crash_driver.py) plays a move and dies; process B (bench/process_worker.py, the real
dispatcher and scheduler) is already running and idle, and posts the move's board: at once when A died before
claiming it (B hears A's commit: LISTEN/NOTIFY), within the lease when A died holding it.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench.process_worker import create_deliveries
from bot.dispatcher import IDLE_SLEEP, LEASE
from bot.store import Database
from tests.bot.crash_driver import HOLDING

ROOT = Path(__file__).resolve().parents[2]
STARTUP = 60.0        # a hang detector for starting a process on a loaded machine, not a speed limit
# B must post well before its dispatcher would look again by itself (IDLE_SLEEP): only A's commit can wake it
HEARD = IDLE_SLEEP / 3
TAKEN_OVER = LEASE.total_seconds() + 30.0     # the lease, and generous seconds for a loaded machine


def start_b(url: str, out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "bench/process_worker.py", url, "--out", str(out)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def start_a(url: str, journal: Path, scenario: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.bot.crash_driver", url, str(journal), scenario, "run"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


async def wait_for(what, timeout: float, why: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = await what()
        if found:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {why}")


async def ready(out: Path) -> bool:
    return out.with_suffix(".ready").exists()


async def boards_posted_by_b(db: Database, b: subprocess.Popen) -> list[tuple]:
    """The (outbox id, event, ply) of the boards B posted of the move: its rows in ``deliveries``."""
    rows = await db.fetchall("SELECT d.outbox_id, o.payload FROM deliveries d JOIN outbox o ON o.id = d.outbox_id"
                             " WHERE d.pid = ? AND o.kind = 'board'", (b.pid,))
    return [(r[0], r[1]) for r in rows if '"event": "turn"' in r[1]]


def stop(*processes: subprocess.Popen) -> None:
    for p in processes:
        if p.poll() is None:
            p.kill()
            p.wait()


async def test_a_process_killed_after_its_commit_has_its_board_posted_by_a_live_one_at_once(postgres_server,
                                                                                            tmp_path):
    """A dies right after the commit, before claiming anything; B's loops sleep (IDLE_SLEEP) and nothing of
    B's own wakes them: only the NOTIFY of A's commit can."""
    name, url = postgres_server.new_database()
    db = await Database.open(url)
    a = b = None
    try:
        await create_deliveries(db)
        b = start_b(url, tmp_path / "b.json")
        await wait_for(lambda: ready(tmp_path / "b.json"), STARTUP, "B to start and listen")
        a = start_a(url, tmp_path / "journal.jsonl", "move_after_commit")
        assert a.wait(timeout=STARTUP) == -signal.SIGKILL, a.stderr.read().decode() if a.stderr else ""
        posted = await wait_for(lambda: boards_posted_by_b(db, b), HEARD, "B to post the board of A's move")
        assert len(posted) == 1
        await wait_for(lambda: nothing_pending(db), HEARD, "B to deliver the rest")
    finally:
        stop(*(p for p in (a, b) if p is not None))
        await db.close()
        postgres_server.drop(name)


async def nothing_pending(db: Database) -> bool:
    row = await db.fetchone("SELECT COUNT(*) FROM outbox WHERE done_at IS NULL")
    return row is not None and row[0] == 0


async def test_a_process_killed_holding_its_claim_has_its_board_posted_by_a_live_one_within_the_lease(
        postgres_server, tmp_path):
    """A claims its move's rows and is killed before posting; B, started meanwhile and idle, takes them over
    once A's lease runs out (it sleeps until then), and posts the board once."""
    name, url = postgres_server.new_database()
    db = await Database.open(url)
    journal = tmp_path / "journal.jsonl"
    a = b = None
    try:
        await create_deliveries(db)
        a = start_a(url, journal, "move_held")
        await wait_for(lambda: holding(journal), STARTUP, "A to claim its move's rows")
        b = start_b(url, tmp_path / "b.json")
        await wait_for(lambda: ready(tmp_path / "b.json"), STARTUP, "B to start and listen")
        held = await db.fetchall("SELECT id FROM outbox WHERE done_at IS NULL AND claimed_by LIKE ?",
                                 (f"%:{a.pid}:%",))
        assert held, "A holds no claim"
        a.send_signal(signal.SIGKILL)
        assert a.wait(timeout=STARTUP) == -signal.SIGKILL
        posted = await wait_for(lambda: boards_posted_by_b(db, b), TAKEN_OVER, "B to take over A's claim")
        assert len(posted) == 1
        await wait_for(lambda: nothing_pending(db), TAKEN_OVER, "B to deliver the rest")
        assert not journal.exists() or "turn" not in journal.read_text()      # A posted nothing of the move
    finally:
        stop(*(p for p in (a, b) if p is not None))
        await db.close()
        postgres_server.drop(name)


async def holding(journal: Path) -> bool:
    return journal.with_suffix(HOLDING).exists()
