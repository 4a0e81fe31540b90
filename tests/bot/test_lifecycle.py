"""A real bot process stops cleanly on SIGTERM (as ``docker stop`` sends it) and leaves its database whole; killed
with SIGKILL, it takes its worker processes with it.

The process runs the production lifecycle (``bot.__main__.serve``) with real render and AI worker processes;
only the gateway connection is stood in for (see ``lifecycle_driver``).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from ai.pool import default_workers
from bot.ai_player import AIPlayer
from bot.dispatcher import Delivered, Dispatcher
from bot.services import Services
from bot.store import Database
from tests.bot.health_support import allow_loopback, sample
from tests.processes import alive, command, descendants

ROOT = Path(__file__).resolve().parents[2]
HANG = 20.0            # seconds: a hang detector, not a speed requirement (Docker kills after 10 s)
START = 120.0          # spawning the worker processes on a busy machine
GONE = 30.0            # seconds the workers get to end after the bot was killed: a hang detector, not a speed claim


@pytest.fixture(autouse=True)
def loopback(monkeypatch):
    allow_loopback(monkeypatch)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def start_bot(db_path: Path, journal: Path, port: int) -> subprocess.Popen:
    """The bot's production lifecycle in a process of its own (``lifecycle_driver``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    return subprocess.Popen([sys.executable, "-m", "tests.bot.lifecycle_driver", str(db_path), str(journal),
                             str(port)], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


async def test_sigterm_stops_the_bot_cleanly_and_promptly(tmp_path):
    db_path, journal, port = tmp_path / "bot.sqlite3", tmp_path / "journal.jsonl", free_port()
    proc = start_bot(db_path, journal, port)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()          # blocks until set up (or the process died)
        assert line.strip() == "READY", proc.stderr.read() if proc.stderr else ""
        assert fetch(port, "/healthz")[0] == 200
        status, body = fetch(port, "/readyz")
        assert status == 200, body
        metrics = fetch(port, "/metrics")[1]
        assert (sample(metrics, "boardgames_turns_total", game="tintas") or 0) >= 1
        assert sample(metrics, "boardgames_ai_fallbacks_total", kind="turn", reason="safety_net") == 0

        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = proc.stderr.read() if proc.stderr else ""
    assert code == 0, err
    assert "SIGTERM: stopping" in err and "stopped" in err
    assert "Traceback" not in err, err

    # The database is whole and consistent: every stored turn is in the move log, and a restarted process
    # delivers whatever was still to tell (the bot's turn, if SIGTERM came while it was thinking, and boards).
    db = await Database.open(db_path)
    try:
        assert (await db.fetchone("PRAGMA integrity_check"))[0] == "ok"
        services = Services(db)
        ai = AIPlayer(services)

        async def deliver(row):
            if row.kind == "bot_turn":
                await ai.play(row.match_id, ply=int(row.payload["ply"]), completes=row.id)
                return Delivered("played")
            return Delivered("sent")
        dispatcher = Dispatcher(services, deliver)
        await dispatcher.release_dead_claims()       # the stopped process's claims, if any, are taken back
        for _ in range(10):
            if not await dispatcher.deliver_pending():
                break
        assert await services.outbox.pending() == []
        (match_id, status, ply), = [tuple(r) for r in await db.fetchall("SELECT id, status, ply FROM matches")]
        assert status == "active" and ply >= 2           # Ann's move and the bot's answer
        (moves,) = await db.fetchone("SELECT COUNT(*) FROM moves WHERE match_id = ?", (match_id,))
        assert moves == ply
    finally:
        await db.close()


def test_sigkill_of_the_bot_ends_its_worker_processes(tmp_path):
    """Killed with SIGKILL (no clean-up can run), the bot leaves no process behind: its render and AI workers
    end with it, and so does multiprocessing's resource tracker once no process holds its pipe."""
    proc = start_bot(tmp_path / "bot.sqlite3", tmp_path / "journal.jsonl", free_port())
    workers: dict[int, int] = {}
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()          # blocks until set up (or the process died)
        assert line.strip() == "READY", proc.stderr.read() if proc.stderr else ""
        workers = descendants(proc.pid)
        commands = [command(pid) for pid in workers]
        spawned = [c for c in commands if "multiprocessing.spawn" in c]
        assert len(spawned) >= 1 + default_workers(), commands   # the render worker, an AI worker per core (cap)
        assert any("resource_tracker" in c for c in commands), commands

        proc.kill()
        proc.wait()
        deadline = time.monotonic() + GONE
        while any(alive(pid, started) for pid, started in workers.items()) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [command(pid) for pid, started in workers.items() if alive(pid, started)]
        assert left == [], f"still running {GONE:.0f} s after the bot was killed: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid, started in workers.items():   # a failed run leaves no orphans behind either
            if alive(pid, started):
                os.kill(pid, signal.SIGKILL)
