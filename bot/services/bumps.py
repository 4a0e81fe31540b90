"""Bump: re-post a match's board at the bottom of its channel, pinging whoever is to move.

A ping is the players' business: only a seated player of the match, or a member who manages the server, may
bump it; and at most once per ``BUMP_COOLDOWN`` per match, whoever asks (the time is stored and taken by a
conditional write, so several processes share the cooldown).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.i18n import T
from bot.model import Match, NotAllowed
from bot.services.context import Context, iso
from bot.services.queries import Queries
from bot.store.bumps import BumpStore

BUMP_COOLDOWN = timedelta(minutes=10)   # per match: often enough to find a scrolled-away board, too rare to nag


class Bumps:
    def __init__(self, ctx: Context, queries: Queries):
        self.ctx, self.queries = ctx, queries
        self.store = BumpStore()

    async def bump(self, match_id: int, user_id: int, *, guild_id: int, manager: bool) -> Match:
        """The match whose board may be posted again now (the bump is recorded); refused for anyone but its
        players and the server's managers, for a match that is over, and within the cooldown."""
        match = await self.queries.in_server(match_id, guild_id)
        if match.status != "active":
            raise NotAllowed(T("That match is over; nothing to bump."))
        if not manager and user_id not in {p.user_id for p in match.seated}:
            raise NotAllowed(T("Only the players of this match (and members with the Manage Server permission) "
                               "can bump its board."))
        now = self.ctx.clock()
        async with self.ctx.db.transaction() as tx:
            last = await self.store.claim(tx, match_id, now=iso(now), since=iso(now - BUMP_COOLDOWN))
        if last is not None:
            again = datetime.fromisoformat(last) + BUMP_COOLDOWN
            raise NotAllowed(T("This board was bumped less than {minutes} minutes ago; it can be bumped again "
                               "<t:{when}:R>.", minutes=int(BUMP_COOLDOWN.total_seconds() // 60),
                               when=int(again.timestamp())))
        return match
