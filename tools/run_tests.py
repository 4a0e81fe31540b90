"""The whole test suite (``make test``) as a few pytest processes side by side, each over a fixed group of files.

The suite's tests mostly wait (databases, worker processes, a browser), so one process used about 60 % of one
core: groups side by side finish the same tests in less time. Each group keeps pytest's own order within it (files
alphabetically), every test file is in exactly one group (checked here: a new file lands in a group without an
edit), and each process starts its own throw-away PostgreSQL server. The run fails when any group fails, and an
empty group fails too (pytest's exit 5).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
SECOND = ("test_i", "test_t")   # tests/bot/test_*.py from the first name up to the second run in the second
                                 # group, the others (before and after that range) in the first


def groups() -> list[list[str]]:
    """Three groups: the bot's files outside the SECOND range; the bot's files inside it and its folders;
    everything else. (The range keeps the picker's long walk and the tournament events in different groups.)"""
    bot = sorted(p for p in (TESTS / "bot").glob("test_*.py"))
    low, high = SECOND
    first = [str(p) for p in bot if not low <= p.name < high]
    second = [str(p) for p in bot if low <= p.name < high] + sorted(
        str(d) for d in (TESTS / "bot").iterdir() if d.is_dir() and d.name != "__pycache__")
    rest = sorted(str(d) for d in TESTS.iterdir() if d.is_dir() and d.name not in ("bot", "__pycache__")) + sorted(
        str(p) for p in TESTS.glob("test_*.py"))
    return [first, second, rest]


def main() -> int:
    parts = groups()
    every = {str(p) for p in TESTS.rglob("test_*.py")}
    covered = {str(f) for part in parts for path in part for f in
               ([Path(path)] if path.endswith(".py") else Path(path).rglob("test_*.py"))}
    if every != covered:
        print(f"run_tests: test files in no group: {sorted(every - covered)}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        logs = [Path(tmp) / f"group{i}.log" for i in range(len(parts))]
        running = [subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *part],
                                    cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT)
                   for part, log in zip(parts, logs, strict=True)]
        codes = [proc.wait() for proc in running]
        for i, (log, code) in enumerate(zip(logs, codes, strict=True)):
            print(f"==== group {i + 1} of {len(parts)} (exit {code}) ====")
            print(log.read_text(), end="")
    failed = [code for code in codes if code != 0]
    return failed[0] if failed else 0


if __name__ == "__main__":
    sys.exit(main())
