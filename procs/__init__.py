"""Worker processes that end with the process that started them, whatever ends it (SIGKILL included).

The render pool and the AI pool both start workers with ``multiprocessing`` ("spawn"); each worker calls
``end_with_parent()`` first. Its own package because the layer rules keep ``render`` and ``ai`` apart, and this
is one idea for both. Standard library only.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1   # prctl(2): the signal this process gets when the thread that created it ends


def end_with_parent() -> None:
    """Make this worker process end when its parent does, however the parent ends (SIGKILL included): on Linux
    by the kernel (``kill_with_parent``), everywhere by a watchdog thread (``exit_with_parent``)."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.pid is None:    # not a multiprocessing child: nothing to follow
        return
    kill_with_parent(parent.pid)
    exit_with_parent(parent)


def kill_with_parent(parent_pid: int) -> None:
    """Linux: have the kernel send SIGKILL to this process when its parent dies (``PR_SET_PDEATHSIG``; strictly,
    when the parent's thread that started it ends: the render pool starts its workers when created, the AI pool
    from the event loop's thread or its own watcher thread, all threads that live as long as the bot). If the
    parent died before that took effect, this process has been re-parented already: it exits at once."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent_pid:      # the parent died before prctl took effect
        _exit_now()


def _exit_now() -> None:
    """End this process at once, without clean-up: its parent is gone, nothing waits for its answers."""
    os.kill(os.getpid(), signal.SIGKILL)


def exit_with_parent(parent: multiprocessing.process.BaseProcess) -> None:
    """A watchdog thread that ends this process once ``parent`` is gone: ``parent.join()`` returns at EOF of the
    pipe multiprocessing keeps from the parent, that is, when the parent has ended."""

    def watch() -> None:
        parent.join()
        _exit_now()

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a health check of a pool's workers; it sends no signal)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


__all__ = ["alive", "end_with_parent", "exit_with_parent", "kill_with_parent"]
