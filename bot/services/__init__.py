"""The match services, split by what they manage, over one store. Knows nothing of Discord.

``Services`` wires them: ``challenges`` (open, answer, start), ``play`` (turns, resignations, aborts),
``clocks`` (reminders, time-outs, expiries), ``queries`` (reading matches), ``settings_service`` (one /settings
command, one transaction), ``fairplay`` (what no analysis may look at), ``analysis`` (the position to analyse,
fair play applied), ``drafts`` (the picker's partial turns), ``pages`` (match pages' links), ``tournaments``
(events: entries, rounds, results, standings). The Discord front end and
the terminal both reach them through it.
"""

from __future__ import annotations

import random
from pathlib import Path

from bot.events import Events
from bot.i18n import T
from bot.model import NotAllowed
from bot.services.analysis import Analysis
from bot.services.away import Away
from bot.services.bumps import Bumps
from bot.services.challenges import Challenges
from bot.services.clocks import Clocks
from bot.services.context import Clock, Context, utcnow
from bot.services.digests import Digests
from bot.services.drafts import Drafts
from bot.services.draws import Draws
from bot.services.fairplay import FairPlay
from bot.services.hints import Hints
from bot.services.pages import Pages
from bot.services.play import Play
from bot.services.queries import Queries
from bot.services.settings import Settings
from bot.services.submissions import ReplayRenders, Submissions
from bot.services.takebacks import Takebacks
from bot.services.tournaments import Tournaments
from bot.store.db import Database
from bot.store.matches import MatchStore
from bot.store.outbox import OutboxStore
from bot.store.ratings import RatingStore
from bot.store.settings import SettingsStore


class Services:
    def __init__(self, db: Database, *, clock: Clock = utcnow, seed_source: random.Random | None = None):
        self.ctx = Context(db, clock, seed_source or random.SystemRandom(), Events())
        self.db = db
        self.queries = Queries(self.ctx)
        self.challenges = Challenges(self.ctx, self.queries)
        self.play = Play(self.ctx, self.queries)
        self.clocks = Clocks(self.ctx, self.queries, self.play, self.challenges)
        self.draws = Draws(self.ctx, self.queries, self.play)
        self.takebacks = Takebacks(self.ctx, self.queries, self.play)
        self.away = Away(self.ctx)
        self.digests = Digests(self.ctx)
        self.hints = Hints(self.ctx)
        self.settings_service = Settings(self.ctx, self.away, self.digests)
        self.bumps = Bumps(self.ctx, self.queries)
        self.drafts = Drafts(self.ctx, self.play)   # the picker's partial turns
        self.fairplay = FairPlay(self.ctx)
        self.analysis = Analysis(self.fairplay)   # the only way to a position to analyse: fair play applied
        self.submissions = Submissions(clock)     # analyses and hints per person (in memory)
        self.replay_renders = ReplayRenders(clock)   # replays drawn per person (in memory)
        self.pages = Pages(self.ctx, self.queries)   # match pages on the web: links and what they open
        self.tournaments = Tournaments(self.ctx, self.challenges, self.play)   # events of many matches

    @classmethod
    async def open(cls, where: str | Path) -> Services:
        """The services over the database at ``where`` (opened and migrated: ``Database.open``)."""
        return cls(await Database.open(where))

    async def ping(self) -> None:
        """One round trip to the database (the readiness probe)."""
        await self.db.ping()

    @property
    def events(self) -> Events:
        return self.ctx.events

    @property
    def clock(self) -> Clock:
        return self.ctx.clock

    @property
    def settings(self) -> SettingsStore:
        return self.ctx.settings

    @property
    def ratings(self) -> RatingStore:
        return self.ctx.ratings

    async def rebuild_ratings(self, guild_id: int, *, admin: bool) -> int:
        """A server manager recomputes the server's ratings from the match log; how many matches it replayed.
        ``admin``: whether the actor may manage the server (the front end's fact; refused first when not)."""
        if not admin:
            raise NotAllowed(T("Only members with the Manage Server permission can rebuild ratings."))
        return await self.ctx.ratings.rebuild(guild_id)

    @property
    def outbox(self) -> OutboxStore:
        return self.ctx.outbox

    @property
    def matches(self) -> MatchStore:
        return self.ctx.matches


__all__ = ["Services"]
