"""The clock: reminders, time-outs and expired challenges, as the scheduler finds them due.

Each is one transaction that changes the match and writes what must be told, so a crash either keeps
both or neither; the dispatcher then delivers the notice (a reminder is never marked sent before it is).
"""

from __future__ import annotations

from datetime import datetime

from bot.model import Match, StalePosition
from bot.services.announce import Reminder
from bot.services.challenges import Challenges
from bot.services.context import Context
from bot.services.play import Play, side_of, standing
from bot.services.queries import Queries
from bot.store.rows import Result

DUE_BATCH = 200          # matches of each kind handled per scheduler pass


class Clocks:
    def __init__(self, ctx: Context, queries: Queries, play: Play, challenges: Challenges):
        self.ctx = ctx
        self.queries = queries
        self.play = play
        self.challenges = challenges

    async def due(self) -> dict[str, list[int]]:
        return await self.ctx.matches.due(self.ctx.now(), DUE_BATCH)

    async def next_due(self) -> datetime | None:
        when = await self.ctx.matches.next_due()
        return datetime.fromisoformat(when) if when else None

    async def expire_challenge(self, match_id: int) -> Match | None:
        return await self.challenges.expire(match_id)

    async def remind(self, match_id: int) -> Match | None:
        """Clear a due reminder and write the reminder to send, in one transaction; None if it was not due."""
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            if not await self.ctx.matches.clear_reminder(tx, match_id, now=now):
                return None
            match = Match(*await self.ctx.matches.read(tx, match_id))
            await self.ctx.outbox.add(tx, match_id, [Reminder(match.ply)], now=now)
        self.ctx.events.announcements.emit(match_id)
        return match

    async def time_out(self, match_id: int) -> Match | None:
        """The player to move ran out of time: they forfeit, or the match is aborted if they never moved.

        Two seats: the opponent wins. Three or four: the player who timed out (with their team) ranks
        last and the others are ranked by the current standing as the rules count it.
        """
        match = await self.queries.get(match_id)
        now = self.ctx.now()
        if match.status != "active" or not match.row.deadline_at or match.row.deadline_at > now:
            return None
        seat = match.row.to_move
        assert seat is not None
        async with self.ctx.db.reading() as r:
            moved = await self.ctx.matches.has_moved(r, match_id, seat)
        if not moved:
            result = Result("aborted", (), (), "never_moved", {"loser": seat})
            event = (None, "abort", f"{match.at_seat(seat).name} never moved")
        else:
            winners, ranks = standing(match.position, side_of(match, seat))
            result = Result("finished", winners, ranks, "timeout", {"loser": seat})
            event = (None, "timeout", f"{match.at_seat(seat).name} ran out of time")
        try:
            return await self.play.end(match, result, event=event, deadline_before=now)
        except StalePosition:
            return None

