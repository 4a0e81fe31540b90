"""Crash safety at a tournament's round boundary: a real process runs a Swiss and is killed with SIGKILL as the
round's last result commits, inside the next round's pairing transaction, or just after it; after a restart the
next round starts exactly once and every announcement is delivered once (tests/bot/tournament_crash_driver.py)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def drive(tmp_path: Path, scenario: str, phase: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tests.bot.tournament_crash_driver", str(tmp_path / "bot.sqlite3"),
                           str(tmp_path / "journal.jsonl"), scenario, phase],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("scenario", ["last_result_committed", "pairing_inside_transaction", "pairing_after_commit"])
def test_a_kill_at_the_round_boundary_starts_the_next_round_exactly_once(tmp_path, scenario):
    crashed = drive(tmp_path, scenario, "run")
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr      # it died where we said, by SIGKILL
    again = drive(tmp_path, scenario, "recover")
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout.strip().splitlines()[-1])
    assert report["current_round"] == 2
    assert [len(r) for r in report["rounds"]] == [2, 2]               # round 2 paired once: two games
    assert sorted(m[1] for m in report["matches"]) == [1, 1, 2, 2]    # no match of a rolled-back pairing
    round_one = {frozenset(seats) for seats in report["rounds"][0]}
    assert not round_one & {frozenset(seats) for seats in report["rounds"][1]}     # no repeat pairing
    posted = Counter(line["row"] for line in report["journal"])
    assert all(n == 1 for n in posted.values()), posted
    assert report["pending"] == []
    kinds = Counter(line["kind"] for line in report["journal"])
    assert kinds["tournament_round"] == 2 and kinds["tournament_standings"] == 2
    starts = [line for line in report["journal"] if line["kind"] == "board" and line["event"] == "start"]
    assert len(starts) == 4                                           # each game's first board, once
    pairings = [r for r in report["outbox"] if r[1] == "tournament_pairing"]
    assert len(pairings) == 2 and all(r[2] in ("paired",) for r in pairings)
