"""Hints: the bot's analysis of your own position, only where no rating is at stake, never in secret.

A hint may be asked in a casual match (no time per move) or a game against the bot, by a player, on their
turn. The use is part of the match record (a ``match_events`` row) and the other human players are told in the
match's channel (an outbox ``hint`` row), both written in one transaction guarded by the position the hint was
for; a second hint in the same position by the same player is recorded once and told once.
"""

from __future__ import annotations

from bot.i18n import T
from bot.model import Match, NotAllowed, StalePosition
from bot.services.announce import Hint
from bot.services.context import Context
from bot.services.play import check_active

HINT_ACTION = "hint"     # the match_events action of a hint


def hints_allowed(match: Match) -> bool:
    """Casual matches (no time per move, unrated) and games against the bot; never a rated match."""
    return match.row.time_per_move is None or match.against_ai


class Hints:
    def __init__(self, ctx: Context):
        self.ctx = ctx

    def check(self, match: Match, user_id: int, *, guild_id: int) -> int:
        """Refuse unless ``user_id`` may have a hint in ``match`` now; their seat."""
        check_active(match, guild_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotAllowed(T("Only the players of a match can ask for a hint in it."))
        if not hints_allowed(match):
            raise NotAllowed(T("Hints are only for casual matches and games against the bot; {game} #{id} is rated, "
                              "so no hint.", game=match.game.title, id=match.id))
        if match.row.to_move != seat:
            who = match.to_move_user
            if who is None:
                raise NotAllowed(T("A hint is for your own turn, and nobody is to move now."))
            raise NotAllowed(T("A hint is for your own turn; {who} is to move now.", who=who.name))
        return seat

    async def record(self, match: Match, user_id: int) -> bool:
        """Log the hint and tell the other human players, if the match is still at the hinted position.

        Returns whether this was the player's first hint in this position (only then is anyone told).
        """
        detail = f"hint at ply {match.ply}"
        others = [p for p in match.seated if p.user_id != user_id and not p.is_ai]
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            await tx.lock_match(match.id)     # two hints at once: logged and told once
            if not await self.ctx.matches.stands_at(tx, match.id, match.ply):
                raise StalePosition(T("The position changed while I was thinking; ask again on your next turn."))
            if await self.ctx.matches.has_event(tx, match.id, actor_id=user_id, action=HINT_ACTION, detail=detail):
                return False
            await self.ctx.matches.log_event(tx, match.id, now=now, actor_id=user_id, action=HINT_ACTION,
                                             detail=detail)
            if others:
                await self.ctx.outbox.add(tx, match.id, [Hint(match.ply, user_id)], now=now)
        if others:
            self.ctx.events.announcements.emit(match.id)
        return True
