"""Draws by agreement: a player offers on their turn, every other player must accept, a move lets it lapse.

An offer belongs to the position it was made in (``matches.draw_offer_ply``): any move clears it, so a late
answer is refused. The last acceptance ends the match as a draw, rated as one, with its announcements, in
one transaction (``Play.end``).
"""

from __future__ import annotations

from bot.i18n import T
from bot.model import Match, NotAllowed, StalePosition
from bot.services.context import Context
from bot.services.play import Play, check_active
from bot.services.queries import Queries
from bot.store.rows import Announcement, Result


class Draws:
    def __init__(self, ctx: Context, queries: Queries, play: Play):
        self.ctx = ctx
        self.queries = queries
        self.play = play

    async def offer(self, match_id: int, user_id: int, *, guild_id: int) -> Match:
        match = await self.queries.get(match_id, position=False)
        check_active(match, guild_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotAllowed(T("Only a player of this match can offer a draw."))
        if match.row.to_move != seat:
            raise NotAllowed(T("You can offer a draw on your own turn."))
        if match.against_ai:
            raise NotAllowed(T("The bot plays every game out; resign if you want to stop."))
        if match.row.draw_offer_ply is not None:
            raise StalePosition(T("A draw offer is already open in this position."))
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            if not await self.ctx.matches.offer_draw(tx, match.id, ply=match.ply, user_id=user_id):
                raise StalePosition(T("The position changed in the meantime; look at the board again."))
            await self.ctx.outbox.add(tx, match.id, [Announcement("draw", {"event": "offer", "ply": match.ply,
                                                                           "by": user_id})], now=now)
            match = Match(*await self.ctx.matches.read(tx, match.id))
        self.ctx.events.announcements.emit(match.id)
        return match

    async def answer(self, match_id: int, user_id: int, *, guild_id: int, ply: int, accept: bool) -> Match:
        """Accept or decline the offer made at ``ply``; the last acceptance ends the match as a draw."""
        match = await self.queries.get(match_id)
        check_active(match, guild_id)
        if match.seat_of(user_id) is None:
            raise NotAllowed(T("Only the players of this match can answer a draw offer."))
        if match.row.draw_offer_ply != ply or match.ply != ply:
            raise StalePosition(T("That draw offer is no longer open: the position has moved on."))
        if match.row.draw_accepted[:1] == (user_id,):
            raise NotAllowed(T("You made this offer; the others answer it."))
        now = self.ctx.now()
        if not accept:
            async with self.ctx.db.transaction() as tx:
                if not await self.ctx.matches.withdraw_draw(tx, match.id, ply=ply):
                    raise StalePosition(T("That draw offer is no longer open."))
                offerer = match.row.draw_accepted[0] if match.row.draw_accepted else None
                await self.ctx.outbox.add(tx, match.id, [Announcement("draw", {"event": "declined", "ply": ply,
                                                                               "by": user_id, "offerer": offerer})],
                                          now=now)
                match = Match(*await self.ctx.matches.read(tx, match.id))
            self.ctx.events.announcements.emit(match.id)
            return match
        async with self.ctx.db.transaction() as tx:
            agreed = await self.ctx.matches.agree_to_draw(tx, match.id, ply=ply, user_id=user_id)
            if agreed is None:
                raise StalePosition(T("That draw offer is no longer open."))
        everyone = {p.user_id for p in match.seated}
        if not everyone <= set(agreed):
            return await self.queries.get(match.id, position=False)
        seats = tuple(range(match.row.players))
        return await self.play.end(match, Result("finished", seats, tuple(1 for _ in seats), "agreement"),
                                   event=None)
