"""Worker processes end with their parent, whatever ends it (the render and AI pools both, each mechanism alone).

``end_with_parent`` uses two mechanisms, each enough on its own, so each is tested alone here: the kernel's
SIGKILL at the parent's death (``kill_with_parent``, Linux) and a watchdog thread that exits at EOF of the
parent's pipe (``exit_with_parent``, everywhere). The parent is a real process killed with SIGKILL. Then the gap
the kernel's mechanism leaves: a parent that died before the worker asked; the worker waits until it is orphaned
and only then calls ``kill_with_parent``, which must exit at once (had it gone on, it would leave a mark).
(The whole bot killed with SIGKILL: tests/bot/test_lifecycle.py.)

    python -m tests.test_end_with_parent orphan MODULE MARK    # a parent that starts the worker and exits at once
    python -m tests.test_end_with_parent follow MODULE HOW     # a parent that starts a worker following it by HOW
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import alive, start_time

ROOT = Path(__file__).resolve().parents[1]
GONE = 30.0      # seconds a worker gets to end: a hang detector, not a speed claim
MODULES = ["procs"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def orphan(module: str, mark: str) -> None:
    """The worker: wait until the parent is gone, then ask to die with it, then (if still alive) leave a mark."""
    parent = multiprocessing.parent_process()
    assert parent is not None and parent.pid is not None
    while os.getppid() == parent.pid:
        time.sleep(0.01)
    importlib.import_module(module).kill_with_parent(parent.pid)
    Path(mark).write_text("still running after kill_with_parent")


def follower(module: str, how: str) -> None:
    """The worker: follow the parent by one mechanism only, say so, and wait to be ended."""
    parent = multiprocessing.parent_process()
    assert parent is not None and parent.pid is not None
    pool = importlib.import_module(module)
    if how == "kill_with_parent":
        pool.kill_with_parent(parent.pid)
    else:
        pool.exit_with_parent(parent)
    print("FOLLOWING", flush=True)
    time.sleep(3600)


def wait_gone(pid: int, started: int | None) -> bool:
    """True once ``pid`` has ended (within GONE seconds); ends it and returns False otherwise."""
    deadline = time.monotonic() + GONE
    while started is not None and alive(pid, started) and time.monotonic() < deadline:
        time.sleep(0.05)
    if started is not None and alive(pid, started):
        os.kill(pid, signal.SIGKILL)          # leave no orphan behind a failed test
        return False
    return True


@pytest.mark.parametrize("how", ["kill_with_parent", "exit_with_parent"])
@pytest.mark.parametrize("module", MODULES)
def test_a_worker_ends_when_its_parent_is_killed(module, how):
    parent = subprocess.Popen([sys.executable, "-m", "tests.test_end_with_parent", "follow", module, how], cwd=ROOT,
                              env=ENV, stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        assert parent.stdout.readline().strip() == "FOLLOWING"
        started = start_time(worker)
        assert started is not None
    finally:
        parent.kill()
        parent.wait()
    assert wait_gone(worker, started), f"the worker following by {how} outlived its parent"


@pytest.mark.parametrize("module", MODULES)
def test_a_worker_orphaned_before_it_asked_to_die_with_its_parent_exits(tmp_path, module):
    mark = tmp_path / "mark"
    parent = subprocess.run([sys.executable, "-m", "tests.test_end_with_parent", "orphan", module, str(mark)],
                            cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=120, check=True)
    worker = int(parent.stdout.split()[0])
    assert wait_gone(worker, start_time(worker)), "the orphaned worker is still running"
    assert not mark.exists(), mark.read_text()


if __name__ == "__main__":
    role, module, arg = sys.argv[1:4]
    process = multiprocessing.get_context("spawn").Process(target=orphan if role == "orphan" else follower,
                                                           args=(module, arg))
    process.start()
    print(process.pid, flush=True)
    if role == "orphan":
        os._exit(0)          # gone before the worker has started: no clean-up, no join
    process.join()           # until the test kills this process
