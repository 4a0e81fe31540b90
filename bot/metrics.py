"""Prometheus metrics of this process, in a registry of their own (served at /metrics by bot.health).

Counted where things happen: a turn when the play service commits it, the AI queue around each search, the
scheduler's lateness at each pass. What the database knows (the dispatcher's backlog and lag) is read only
when scraped (``refresh``), so no loop polls for it. The backlog is the shared database's: every process
reports the same number.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.process_collector import ProcessCollector

if TYPE_CHECKING:     # at run time this module imports nothing of ours: the services import it
    from bot.store.db import Database

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)   # memory, CPU, open files of this process

# A turn: service call to commit (the board is then posted by the dispatcher, usually at once).
TURN_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# Scheduler lateness: normally well under a second; hours after downtime.
LAG_BUCKETS = (0.1, 0.5, 1.0, 2.0, 5.0, 15.0, 60.0, 300.0, 3600.0, 86400.0)

TURNS = Counter("boardgames_turns", "Turns played (a whole submission, by a player or the bot)", ["game"],
                registry=REGISTRY)
TURN_SECONDS = Histogram("boardgames_turn_seconds", "Whole-turn latency: from the play service's call to the "
                         "commit of the turn with its announcements", ["game"], buckets=TURN_BUCKETS,
                         registry=REGISTRY)
DISPATCHER_BACKLOG = Gauge("boardgames_dispatcher_backlog", "Outbox rows due and not yet delivered",
                           registry=REGISTRY)
DISPATCHER_LAG = Gauge("boardgames_dispatcher_lag_seconds", "How long the oldest due, undelivered outbox row "
                       "has been due (0 when nothing waits)", registry=REGISTRY)
SCHEDULER_LAG = Histogram("boardgames_scheduler_lag_seconds", "How late the scheduler acted on the earliest due "
                          "deadline, reminder or expiry of a pass", buckets=LAG_BUCKETS, registry=REGISTRY)
ANNOUNCEMENTS_GIVEN_UP = Counter("boardgames_announcements_given_up", "Outbox rows the dispatcher gave up "
                                 "delivering (a permanent failure, or too many attempts), by kind", ["kind"],
                                 registry=REGISTRY)
METRICS_STALE = Gauge("boardgames_metrics_stale", "1 when the last scrape could not read the database: the "
                      "dispatcher's backlog and lag are the last values read", registry=REGISTRY)
AI_QUEUE = Gauge("boardgames_ai_queue", "Bot searches of this process waiting for or running in the AI pool",
                 registry=REGISTRY)
AI_FALLBACKS = Counter("boardgames_ai_fallbacks", "AI searches (kind: turn, analysis) that did not run at their "
                       "level's full effort (reason: safety_net, worker_lost, hung)", ["kind", "reason"],
                       registry=REGISTRY)

Clock = Callable[[], datetime]


def turn_played(game: str, seconds: float) -> None:
    TURNS.labels(game=game).inc()
    TURN_SECONDS.labels(game=game).observe(seconds)


def announcement_given_up(kind: str) -> None:
    ANNOUNCEMENTS_GIVEN_UP.labels(kind=kind).inc()


class OutboxGauges:
    """Reads the dispatcher's backlog and lag from the database when /metrics is scraped."""

    def __init__(self, db: Database, clock: Clock):
        self.db = db
        self.clock = clock

    async def refresh(self) -> None:
        from bot.services.context import iso
        from bot.store.outbox import OutboxStore
        now = self.clock()
        count, oldest = await OutboxStore(self.db).backlog(iso(now))
        DISPATCHER_BACKLOG.set(count)
        DISPATCHER_LAG.set(max((now - datetime.fromisoformat(oldest)).total_seconds(), 0.0) if oldest else 0.0)


def exposition() -> bytes:
    """The Prometheus text format of every metric of this process."""
    return generate_latest(REGISTRY)
