"""Mutation check of the critical guards: remove (or invert) each guard listed in tools/guards.toml and run the
tests listed for it; every mutant must be killed (a test fails). Exit 1 lists every mutant that survived, every
entry whose guard text is no longer in its file (a stale entry fails loudly, as does one whose text is there
more than once), every mutant that does not compile and every test selection that does not run.

    .venv/bin/python tools/mutate_guards.py                 # every guard, as many at once as there are cores
    .venv/bin/python tools/mutate_guards.py --only join-open-seat --jobs 1
    .venv/bin/python tools/mutate_guards.py --list          # the guards, and nothing run

Each mutant is applied to its own copy of the tree in a temporary folder (the working tree is never touched)
and its tests run there with this interpreter (pytest -x); the copy's packages are the ones imported (checked
once before the mutants run). A baseline run of every listed test on the unmutated copy comes first, so a test
that fails anyway cannot pass for a kill (``--no-baseline`` skips it where the suite just passed, as in CI).

Why a small script and not mutmut or cosmic-ray: both generate their own mutants from operators over the whole
of the files or functions given (mutmut 3 over every function it can trampoline, after one run of the whole
suite to map tests; cosmic-ray over a session built from every operator), and narrowing them to a line leaves
their operators, not ours. The guards here are mostly clauses inside SQL strings (``AND open_seats > 0``), a
keyword argument (``nonce=…``) or where a statement stands relative to a transaction: removals neither tool
can express (a string mutant there breaks the whole statement, which any test notices). Exact text in,
exact text out, with the tests that must notice, is what this list needs; it stays a few minutes long.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUARDS = ROOT / "tools" / "guards.toml"
TIMEOUT = 240.0           # seconds one mutant's tests may take; longer counts as a failure of the check
BASELINE_TIMEOUT = 600.0
# Not copied: version control, the environment (used from where it is), caches and local results.
IGNORED = shutil.ignore_patterns(".git", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
                                 ".hypothesis", "*.sqlite3", "*.sqlite3-*", "results", "*.egg-info")
FIELDS = ("id", "file", "source", "mutant", "tests", "why")
VERBOSE = False           # --verbose: show how each mutant was killed (an assertion, not a broken statement)


@dataclass(frozen=True)
class Guard:
    id: str
    file: str
    source: str
    mutant: str
    tests: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class Outcome:
    guard: Guard
    verdict: str          # 'killed', 'SURVIVED', 'STALE', 'BROKEN', 'ERROR', 'TIMEOUT'
    detail: str
    seconds: float

    @property
    def ok(self) -> bool:
        return self.verdict == "killed"


def load(path: Path = GUARDS) -> list[Guard]:
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("guard", [])
    guards = []
    for i, entry in enumerate(entries):
        missing = [f for f in FIELDS if not entry.get(f)]
        if missing:
            raise SystemExit(f"{path.name}: guard #{i + 1} ({entry.get('id', '?')}) lacks {', '.join(missing)}")
        guards.append(Guard(entry["id"], entry["file"], entry["source"], entry["mutant"], tuple(entry["tests"]),
                            entry["why"]))
    ids = [g.id for g in guards]
    if len(set(ids)) != len(ids):
        raise SystemExit(f"{path.name}: an id is used twice: {sorted({i for i in ids if ids.count(i) > 1})}")
    return guards


def mutated(guard: Guard, root: Path) -> tuple[str | None, str]:
    """The file's text with the mutant in place, or None and why not (a stale or broken entry)."""
    path = root / guard.file
    if not path.is_file():
        return None, f"{guard.file} does not exist"
    text = path.read_text(encoding="utf-8")
    found = text.count(guard.source)
    if found != 1:
        return None, (f"the guard's text is not in {guard.file}" if found == 0
                      else f"the guard's text is in {guard.file} {found} times: make it unique")
    if guard.mutant == guard.source:
        return None, "the mutant is the guard itself"
    new = text.replace(guard.source, guard.mutant)
    if path.suffix == ".py":
        try:
            compile(new, str(path), "exec")
        except SyntaxError as exc:
            return None, f"the mutant does not compile: {exc}"
    return new, ""


def copy_tree(dest: Path) -> Path:
    shutil.copytree(ROOT, dest, ignore=IGNORED, symlinks=True)
    return dest


def pytest(copy: Path, tests: tuple[str, ...], timeout: float) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                           f"--basetemp={copy / '.pytest_tmp'}", *tests],
                          cwd=copy, env=env, capture_output=True, text=True, timeout=timeout)


def tail(done: subprocess.CompletedProcess, lines: int = 6) -> str:
    return "\n".join((done.stdout + done.stderr).strip().splitlines()[-lines:])


def first_failure(done: subprocess.CompletedProcess) -> str:
    """The test that failed (pytest's short summary line), to show which test noticed the mutant."""
    failed = [line.split(" ", 1)[1] for line in done.stdout.splitlines()
              if line.startswith(("FAILED tests/", "ERROR tests/"))]
    return f"by {failed[0][:160]}" if failed else ""


def run_mutant(guard: Guard, scratch: Path, timeout: float) -> Outcome:
    started = time.monotonic()
    text, why = mutated(guard, ROOT)
    if text is None:
        return Outcome(guard, "BROKEN" if "compile" in why or "itself" in why else "STALE", why, 0.0)
    copy = copy_tree(scratch / guard.id)
    try:
        target = copy / guard.file
        target.unlink()
        target.write_text(text, encoding="utf-8")
        try:
            done = pytest(copy, guard.tests, timeout)
        except subprocess.TimeoutExpired:
            return Outcome(guard, "TIMEOUT", f"its tests ran over {timeout:.0f} s", time.monotonic() - started)
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    seconds = time.monotonic() - started
    if done.returncode == 0:
        return Outcome(guard, "SURVIVED", "every listed test passed with the guard removed", seconds)
    if done.returncode == 1:       # tests ran and one failed: what the guard is there for was noticed
        return Outcome(guard, "killed", first_failure(done) + (f"\n{tail(done, 15)}" if VERBOSE else ""), seconds)
    return Outcome(guard, "ERROR", f"pytest exited {done.returncode} (a test id that does not exist?):\n"
                                   f"{tail(done)}", seconds)


def baseline(guards: list[Guard], scratch: Path, *, run_tests: bool) -> str | None:
    """Why the check cannot be trusted (a copy imports another tree's packages — an editable install may point
    at the original —, or a listed test fails unmutated), or None."""
    copy = copy_tree(scratch / "baseline")
    try:
        env = {**os.environ, "PYTHONPATH": str(copy)}
        where = subprocess.run([sys.executable, "-c", "import bot; print(bot.__file__)"], cwd=copy, env=env,
                               capture_output=True, text=True, timeout=60).stdout.strip()
        if not where.startswith(str(copy)):
            return f"the copy imports bot from {where!r}, not from the copy: mutants would not be tested"
        if not run_tests:
            return None
        tests = tuple(dict.fromkeys(t for g in guards for t in g.tests))
        done = pytest(copy, tests, BASELINE_TIMEOUT)
        if done.returncode != 0:
            return f"the listed tests do not pass on the unmutated tree (pytest exited {done.returncode}):\n" \
                   f"{tail(done, 12)}"
        return None
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="ID", help="check only these guards")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="mutants at once (default: cores)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per mutant's tests")
    parser.add_argument("--no-baseline", action="store_true", help="skip the run of the listed tests unmutated")
    parser.add_argument("--list", action="store_true", help="list the guards and exit")
    parser.add_argument("--check", action="store_true",
                        help="only check that every guard's text is found once and every mutant compiles")
    parser.add_argument("--verbose", action="store_true", help="show the end of the failing test's output")
    args = parser.parse_args(argv)
    global VERBOSE
    VERBOSE = args.verbose
    guards = load()
    if args.only:
        unknown = sorted(set(args.only) - {g.id for g in guards})
        if unknown:
            raise SystemExit(f"no guard called {', '.join(unknown)}")
        guards = [g for g in guards if g.id in args.only]
    if args.list:
        for g in guards:
            print(f"{g.id:40} {g.file:28} {g.why}")
        return 0
    if args.check:
        problems = [(g, why) for g in guards for text, why in [mutated(g, ROOT)] if text is None]
        for g, why in problems:
            print(f"STALE     {g.id}: {why}")
        print(f"mutate-guards: {len(guards) - len(problems)} of {len(guards)} entries apply")
        return 1 if problems else 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mutate-guards-") as tmp:
        scratch = Path(tmp)
        trouble = baseline(guards, scratch, run_tests=not args.no_baseline)
        if trouble:
            print(f"mutate-guards: {trouble}")
            return 1
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            outcomes = []
            for outcome in pool.map(lambda g: run_mutant(g, scratch, args.timeout), guards):
                outcomes.append(outcome)
                print(f"{outcome.verdict:9} {outcome.guard.id:40} {outcome.seconds:6.1f} s"
                      + (f"  {outcome.detail}" if outcome.detail else ""), flush=True)
    bad = [o for o in outcomes if not o.ok]
    print(f"mutate-guards: {len(outcomes) - len(bad)} of {len(outcomes)} mutants killed in "
          f"{time.monotonic() - started:.0f} s")
    for o in bad:
        print(f"  {o.verdict} {o.guard.id} ({o.guard.file}): {o.detail}\n    why it matters: {o.guard.why}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
