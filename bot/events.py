"""Subscriptions: several listeners per event, none overwriting another (the scheduler, the dispatcher, the AI)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Generic, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


class Signal(Generic[T]):
    """Listeners called in order with one value; a failing listener is logged and the others still run."""

    def __init__(self, name: str):
        self.name = name
        self._listeners: list[Callable[[T], None]] = []

    def subscribe(self, listener: Callable[[T], None]) -> Callable[[], None]:
        """Add a listener; returns the function that removes it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def emit(self, value: T) -> None:
        for listener in list(self._listeners):
            try:
                listener(value)
            except Exception:
                log.exception("a listener of %s failed", self.name)


def together(*unsubscribes: Callable[[], None]) -> Callable[[], None]:
    """One function that removes several listeners (each ``subscribe``'s answer)."""
    def unsubscribe() -> None:
        for each in unsubscribes:
            each()
    return unsubscribe


@dataclass
class Events:
    """What the services announce after a commit (in this process), and what other processes committed."""

    deadline_set: Signal[datetime | None] = field(default_factory=lambda: Signal("deadline_set"))
    announcements: Signal[int] = field(default_factory=lambda: Signal("announcements"))   # match id
    match_ended: Signal[int] = field(default_factory=lambda: Signal("match_ended"))       # match id
    # another process committed announcements or deadlines (PostgreSQL's NOTIFY, ``Database.listen``): what and
    # when is not known here, so the dispatcher and the scheduler both look again
    elsewhere: Signal[None] = field(default_factory=lambda: Signal("elsewhere"))
