"""What every service shares: the stores, the clock, the events and the positions cache."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from bot.events import Events
from bot.services.positions import Positions
from bot.store.away import AwayStore
from bot.store.db import Database, Tx
from bot.store.digests import DigestStore
from bot.store.drafts import DraftStore
from bot.store.matches import MatchStore
from bot.store.outbox import OutboxStore
from bot.store.ratings import RatingStore
from bot.store.rows import MatchRow, TurnClock
from bot.store.settings import SettingsStore
from bot.store.tournaments import TournamentStore

if TYPE_CHECKING:
    from bot.model import Match

Clock = Callable[[], datetime]

REMIND_AT = 0.8                          # share of the time per move after which the player is reminded
REPLY_TOKEN_LIFETIME = timedelta(minutes=15)   # Discord lets a deferred interaction be completed this long


def utcnow() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """One text form for every stored time, so SQL compares them as strings."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


@dataclass
class Context:
    db: Database
    clock: Clock = utcnow
    seeds: random.Random = field(default_factory=random.SystemRandom)
    events: Events = field(default_factory=Events)

    def __post_init__(self) -> None:
        self.matches = MatchStore(self.db)
        self.settings = SettingsStore(self.db)
        self.ratings = RatingStore(self.db)
        self.outbox = OutboxStore(self.db)
        self.positions = Positions()
        self.away = AwayStore(self.db)
        self.digests = DigestStore(self.db)
        self.drafts = DraftStore(self.db)
        self.tournaments = TournamentStore(self.db)
        # called in the transaction that ends a tournament's match (the tournament service records its result)
        self.match_end_hooks: list[Callable[[Tx, Match], Awaitable[None]]] = []

    def now(self) -> str:
        return iso(self.clock())

    def later(self, delta: timedelta) -> str:
        return iso(self.clock() + delta)

    def turn_clock(self, row: MatchRow) -> TurnClock:
        if row.time_per_move is None:
            return TurnClock(None, None)
        now = self.clock()
        return TurnClock(iso(now + timedelta(seconds=row.time_per_move)),
                         iso(now + timedelta(seconds=row.time_per_move * REMIND_AT)))
