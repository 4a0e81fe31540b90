"""How often one person may make the bot read a record or search a position (``/<game> analyze``, ``hint``).

Each such request costs seconds of the AI pool or of a replay, so one person gets at most SUBMISSION_LIMIT of
them in any SUBMISSION_WINDOW, counted per user across every server. The count lives in this process's memory:
a restart forgets it, and with several bot processes each counts on its own (a person reaching two processes
gets at most twice the limit), which is enough to keep one person from occupying the bot.

Replays drawn for ``/replay`` are counted the same way, separately (``ReplayRenders``): a long game's replay keeps
a render worker busy for seconds while other players' boards wait behind it. A replay already drawn and kept
(a finished match's) costs nothing and is not counted.
"""

from __future__ import annotations

import math
from collections import deque
from datetime import datetime, timedelta

from bot.i18n import TN
from bot.model import NotAllowed
from bot.services.context import Clock

SUBMISSION_LIMIT = 10                         # analyses, hints and record readings of one person ...
SUBMISSION_WINDOW = timedelta(seconds=60)     # ... in any window this long
REPLAY_LIMIT = 3                              # replays one person may have drawn ...
REPLAY_WINDOW = timedelta(minutes=2)          # ... in any window this long (kept replays are not counted)
FORGET_AT = 10_000                            # people remembered before those with no recent request are dropped


class Submissions:
    """A sliding window per person: a request is taken when fewer than ``limit`` were taken in the last
    ``window``; otherwise it is refused, saying when the oldest of them leaves the window."""

    def __init__(self, clock: Clock, *, limit: int = SUBMISSION_LIMIT, window: timedelta = SUBMISSION_WINDOW):
        self.clock = clock
        self.limit = limit
        self.window = window
        self._taken: dict[int, deque[datetime]] = {}

    @property
    def remembered(self) -> int:
        """How many people the window holds (bounded by those who asked lately, see FORGET_AT)."""
        return len(self._taken)

    def take(self, user_id: int) -> None:
        """Count one request of ``user_id`` now, or refuse it (NotAllowed) without counting it."""
        now = self.clock()
        taken = self._taken.setdefault(user_id, deque())
        while taken and taken[0] <= now - self.window:
            taken.popleft()
        if len(taken) >= self.limit:
            wait = max(1, math.ceil((taken[0] + self.window - now).total_seconds()))
            raise self.refusal(wait)
        taken.append(now)
        if len(self._taken) > FORGET_AT:
            self._forget(now)

    def refusal(self, wait: int) -> NotAllowed:
        """The refusal of a request over the limit, ``wait`` seconds before one is taken again."""
        return NotAllowed(TN("You have asked for {limit} analyses or hints in the last {window} seconds, the most "
                             "I take from one person; please try again in {n} second. Nothing was done.",
                             "You have asked for {limit} analyses or hints in the last {window} seconds, the most "
                             "I take from one person; please try again in {n} seconds. Nothing was done.",
                             wait, limit=self.limit, window=int(self.window.total_seconds())))

    def _forget(self, now: datetime) -> None:
        """Drop the people whose requests have all left the window (memory stays bounded by recent users)."""
        for user_id in [u for u, taken in self._taken.items() if not taken or taken[-1] <= now - self.window]:
            del self._taken[user_id]


class ReplayRenders(Submissions):
    """The replays one person may have drawn (``/replay`` of a match whose replay is not kept): the same sliding
    window, its own limit and words."""

    def __init__(self, clock: Clock, *, limit: int = REPLAY_LIMIT, window: timedelta = REPLAY_WINDOW):
        super().__init__(clock, limit=limit, window=window)

    def refusal(self, wait: int) -> NotAllowed:
        return NotAllowed(TN("You have had {limit} replays drawn in the last {minutes} minutes, the most I draw for "
                             "one person while others wait for their boards; please try again in {n} second. "
                             "Nothing was done.",
                             "You have had {limit} replays drawn in the last {minutes} minutes, the most I draw for "
                             "one person while others wait for their boards; please try again in {n} seconds. "
                             "Nothing was done.",
                             wait, limit=self.limit, minutes=round(self.window.total_seconds() / 60)))
