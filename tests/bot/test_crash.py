"""Crash safety: a real process drives the services and is killed with SIGKILL at chosen points; after a restart
every announcement is delivered exactly once and every match continues (tests/bot/crash_driver.py)."""

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
    return subprocess.run([sys.executable, "-m", "tests.bot.crash_driver", str(tmp_path / "bot.sqlite3"),
                           str(tmp_path / "journal.jsonl"), scenario, phase],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def crash_then_recover(tmp_path: Path, scenario: str) -> dict:
    crashed = drive(tmp_path, scenario, "run")
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr      # it died where we said, by SIGKILL
    again = drive(tmp_path, scenario, "recover")
    assert again.returncode == 0, again.stderr
    return json.loads(again.stdout.strip().splitlines()[-1])


def assert_exactly_once(report: dict) -> None:
    posted = Counter(line["row"] for line in report["journal"])
    assert all(n == 1 for n in posted.values()), posted
    assert report["pending"] == []                       # nothing left undelivered
    delivered = {r[0] for r in report["outbox"] if r[1] != "bot_turn"}
    assert set(posted) == delivered                      # and everything that was to be told, was


def boards(report: dict) -> list[dict]:
    return [line for line in report["journal"] if line["kind"] == "board"]


async def test_a_move_committed_just_before_a_kill_is_announced_after_the_restart(tmp_path):
    report = crash_then_recover(tmp_path, "move_after_commit")
    assert_exactly_once(report)
    assert [b["event"] for b in boards(report)] == ["start", "turn"]
    assert boards(report)[-1]["ply"] == 1
    assert [line["kind"] for line in report["journal"]][-1] == "reply"   # the mover's 'thinking…' is completed


async def test_a_kill_after_posting_before_marking_does_not_post_twice(tmp_path):
    report = crash_then_recover(tmp_path, "move_after_post")
    assert_exactly_once(report)
    assert [b["event"] for b in boards(report)] == ["start", "turn"]
    done = {r[0]: r[2] for r in report["outbox"]}
    assert all(result.startswith("sent") for result in done.values())


async def test_a_kill_while_the_bot_thinks_lets_the_bot_move_after_the_restart(tmp_path):
    report = crash_then_recover(tmp_path, "bot_thinking")
    assert_exactly_once(report)
    (match_id, status, ply), = report["matches"]
    assert status == "active" and ply >= 2                # the human's move and the bot's answer
    plies = [b["ply"] for b in boards(report)]
    assert plies == sorted(set(plies)) and plies[-1] == ply
    played = [r for r in report["outbox"] if r[1] == "bot_turn"]
    assert [r[2] for r in played].count("played") >= 1 and all(r[2] for r in played)


async def test_a_kill_inside_the_finishing_transaction_leaves_nothing_half_done(tmp_path):
    report = crash_then_recover(tmp_path, "resign_inside_transaction")
    (match_id, status, ply), = report["matches"]
    assert status == "active" and report["ratings"] == []   # neither the result nor its rating
    assert [b["event"] for b in boards(report)] == ["start"]
    assert_exactly_once(report)


async def test_a_kill_after_rating_the_finishing_move_leaves_the_match_running_and_unrated(tmp_path):
    """The move that ends the game, its result and its rating are one transaction: killed once it is rated (before
    the commit), none of them is stored — never a finished match without its rating."""
    report = crash_then_recover(tmp_path, "finishing_move_inside_transaction")
    (match_id, status, ply), = report["matches"]
    assert status == "active" and report["ratings"] == []
    assert {b["event"] for b in boards(report)} <= {"start", "turn"} and boards(report)[-1]["ply"] == ply
    assert_exactly_once(report)


async def test_a_kill_after_the_finishing_commit_keeps_result_rating_and_announcement(tmp_path):
    report = crash_then_recover(tmp_path, "resign_after_commit")
    (match_id, status, ply), = report["matches"]
    assert status == "finished"
    assert report["ratings"] == [[match_id, 2]]            # rated once, with the result
    assert [b["event"] for b in boards(report)] == ["start", "result"]
    assert_exactly_once(report)


async def test_a_kill_while_creating_a_bot_match_leaves_no_stranded_challenge(tmp_path):
    report = crash_then_recover(tmp_path, "bot_challenge_inside_transaction")
    assert report["matches"] == [] and report["journal"] == [] and report["outbox"] == []


@pytest.mark.parametrize("scenario", ["bot_challenge_after_commit"])
async def test_a_bot_match_created_just_before_a_kill_starts_and_the_bot_plays(tmp_path, scenario):
    report = crash_then_recover(tmp_path, scenario)
    assert_exactly_once(report)
    (match_id, status, ply), = report["matches"]
    assert status == "active"
    assert boards(report)[0]["event"] == "start"
    bot_turns = [r for r in report["outbox"] if r[1] == "bot_turn"]
    assert ply == len(bot_turns)          # if the bot moves first it has moved; nobody waits on a silent bot
