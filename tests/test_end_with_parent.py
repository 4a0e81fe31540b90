"""A worker whose parent died before it could ask to die with it exits at once (the render and AI pools both).

The kernel's "kill me when my parent dies" (``PR_SET_PDEATHSIG``) only covers a parent that dies after it was
set; ``kill_with_parent`` closes that gap by exiting when the worker has already been re-parented. The test makes
the gap happen for certain: a real parent process starts a worker and exits at once; the worker waits until it is
orphaned and only then calls ``kill_with_parent``; had it gone on, it would leave a mark.

    python -m tests.test_end_with_parent MODULE MARK     # the parent: starts the worker, prints its pid, exits
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
GONE = 30.0      # seconds the orphan gets to end: a hang detector, not a speed claim


def orphan(module: str, mark: str) -> None:
    """The worker: wait until the parent is gone, then ask to die with it, then (if still alive) leave a mark."""
    parent = multiprocessing.parent_process()
    assert parent is not None and parent.pid is not None
    while os.getppid() == parent.pid:
        time.sleep(0.01)
    importlib.import_module(module).kill_with_parent(parent.pid)
    Path(mark).write_text("still running after kill_with_parent")


@pytest.mark.parametrize("module", ["ai.pool", "render.pool"])
def test_a_worker_orphaned_before_it_asked_to_die_with_its_parent_exits(tmp_path, module):
    mark = tmp_path / "mark"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.run([sys.executable, "-m", "tests.test_end_with_parent", module, str(mark)], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=120, check=True)
    worker = int(parent.stdout.split()[0])
    started = start_time(worker)     # None: already gone
    try:
        deadline = time.monotonic() + GONE
        while started is not None and alive(worker, started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert started is None or not alive(worker, started), "the orphaned worker is still running"
    finally:
        if started is not None and alive(worker, started):
            os.kill(worker, signal.SIGKILL)
    assert not mark.exists(), mark.read_text()


if __name__ == "__main__":
    process = multiprocessing.get_context("spawn").Process(target=orphan, args=tuple(sys.argv[1:3]))
    process.start()
    print(process.pid, flush=True)
    os._exit(0)          # gone before the worker has started: no clean-up, no join
