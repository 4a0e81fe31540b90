"""The archiver: a background pass that compacts the records of ended matches (``bot/store/archive.py``).

A match is archived ARCHIVE_AFTER after it ended (so the result post and its replay GIF are made from the live
rows) once every announcement of it is delivered: its move log becomes one verified compressed row and its
delivered outbox rows go. An existing database's old matches are archived by the same pass, ARCHIVE_BATCH at a
time with a pause between batches, or all at once with ``python -m bot compact-db``. Each match is archived
by a conditional write, so two processes never both archive one. A match whose log does not reproduce its
stored positions is never archived: it is logged as an error and left as it is.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from bot.loop import WakeableLoop
from bot.services import Services
from bot.services.context import iso
from bot.store.archive import LogMismatch
from bot.store.archives import ArchiveStore

log = logging.getLogger(__name__)

ARCHIVE_AFTER = timedelta(minutes=10)   # an ended match's log stays live this long after its end
ARCHIVE_BATCH = 100                     # matches per pass
BATCH_PAUSE = 2.0                       # seconds between passes while a backlog lasts (the bot keeps playing)
IDLE_PAUSE = 300.0                      # seconds between passes once nothing is left


@dataclass
class Tally:
    archived: int = 0
    failed: list[int] = field(default_factory=list)     # logs that do not reproduce: left unarchived
    waiting: int = 0                                    # busy or archived elsewhere meanwhile


class Archiver(WakeableLoop):
    name = "archiver"
    min_sleep = 0.0
    max_sleep = IDLE_PAUSE

    def __init__(self, services: Services, *, after: timedelta = ARCHIVE_AFTER, batch: int = ARCHIVE_BATCH):
        super().__init__()
        self.services = services
        self.store = ArchiveStore(services.db)
        self.after = after
        self.batch = batch
        self.failed: set[int] = set()       # not tried again by this process (each is logged once)

    async def run_batch(self) -> Tally:
        """Archive up to ``batch`` matches that are due now."""
        tally = Tally()
        now = self.services.clock()
        due = await self.store.candidates(ended_before=iso(now - self.after), limit=self.batch,
                                          skip=frozenset(self.failed))
        for match_id in due:
            try:
                outcome = await self.store.archive(match_id, now=iso(now))
            except LogMismatch as exc:
                self.failed.add(match_id)
                tally.failed.append(match_id)
                log.error("match %s is NOT archived: its move log does not reproduce what is stored (%s);"
                          " its rows are kept as they are", match_id, exc)
                continue
            if outcome == "archived":
                tally.archived += 1
            else:
                tally.waiting += 1
        return tally

    async def pass_once(self) -> float:
        try:
            tally = await self.run_batch()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("archiver pass failed; retrying in %.0f s", IDLE_PAUSE)
            return IDLE_PAUSE
        if tally.archived:
            log.info("archived %d ended matches", tally.archived)
        return BATCH_PAUSE if tally.archived + len(tally.failed) >= self.batch else IDLE_PAUSE


async def archive_all(services: Services, *, after: timedelta = ARCHIVE_AFTER, batch: int = ARCHIVE_BATCH,
                      progress: Callable[[Tally], None] = lambda t: None) -> Tally:
    """Archive every match due now, batch after batch (``compact-db``); ``progress`` hears the running total."""
    archiver = Archiver(services, after=after, batch=batch)
    total = Tally()
    while True:
        tally = await archiver.run_batch()
        total.archived += tally.archived
        total.failed += tally.failed
        total.waiting += tally.waiting
        progress(total)
        if tally.archived + len(tally.failed) == 0:
            return total
