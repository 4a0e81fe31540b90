"""The process tree as /proc shows it (Linux): who is whose child, and who is still alive.

Read from ``/proc/<pid>/stat`` (``/proc/<pid>/task/*/children`` needs a kernel option this machine may lack, and
psutil is not a dependency). A process that was killed but not yet reaped (a zombie) counts as gone.
"""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")


def _fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` from the third (the state) on, or None when there is no such process."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text[text.rindex(")") + 2:].split()   # after "pid (command) "; the command may hold spaces


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, start time in clock ticks) of ``pid``, or None when it does not exist."""
    fields = _fields(pid)
    return None if fields is None else (fields[0], int(fields[1]), int(fields[19]))


def cpu_ticks(pid: int) -> int:
    """The CPU time ``pid`` has used so far (user and system, clock ticks); 0 when it is gone."""
    fields = _fields(pid)
    return 0 if fields is None else int(fields[11]) + int(fields[12])


def descendants(root: int) -> dict[int, int]:
    """Every live process below ``root``: {pid: start time}, so a pid reused later is not mistaken for it."""
    parents: dict[int, list[tuple[int, int]]] = {}
    for entry in os.listdir(PROC):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None and stat[0] != "Z":
            parents.setdefault(stat[1], []).append((int(entry), stat[2]))
    found: dict[int, int] = {}
    todo = [root]
    while todo:
        for pid, started in parents.get(todo.pop(), ()):
            found[pid] = started
            todo.append(pid)
    return found


def start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot), None when there is no such process."""
    stat = _stat(pid)
    return None if stat is None else stat[2]


def alive(pid: int, started: int) -> bool:
    """True while the process ``pid`` that started at ``started`` runs (not gone, not a zombie)."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z" and stat[2] == started


def command(pid: int) -> str:
    """The command line of ``pid`` (empty when it is gone)."""
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except (FileNotFoundError, ProcessLookupError):
        return ""
