"""Draws by agreement: a player offers on their turn, every other player must accept, a move lets it lapse.

An offer is a proposal (``services.proposals``) made in one position: any move lets it lapse, so a late answer
is refused. The last acceptance ends the match as a draw, rated as one, with its announcements, in the
transaction that decides the offer — so a decline that came first leaves the match running, and a decline that
comes after is refused.
"""

from __future__ import annotations

from bot.i18n import T
from bot.model import Match, NotAllowed, StalePosition
from bot.services.announce import DrawProposal
from bot.services.play import check_active
from bot.services.proposals import Proposals, ProposalTexts
from bot.store.db import Tx
from bot.store.rows import Result


class Draws(Proposals[None]):
    kind, opened, notice = "draw", "offer", DrawProposal
    texts = ProposalTexts(
        only_players=T("Only the players of this match can answer a draw offer."),
        own=T("You made this offer; the others answer it."),
        moved_on=T("That draw offer is no longer open: the position has moved on."),
        closed=T("That draw offer is no longer open."),
        again=T("You have already accepted this draw offer."))

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
        return await self.make(match, user_id)

    @staticmethod
    def pending(match: Match) -> tuple[int | None, tuple[int, ...]]:
        return match.row.draw_offer_ply, match.row.draw_accepted

    def must_agree(self, match: Match, proposer: int) -> set[int]:
        return {p.user_id for p in match.seated}

    async def prepare(self, match: Match, proposer: int) -> None:
        return None

    async def act(self, tx: Tx, match: Match, plan: None, agreed: tuple[int, ...], now: str) -> Match:
        seats = tuple(range(match.row.players))
        return await self.play.end_in(tx, match, Result("finished", seats, tuple(1 for _ in seats), "agreement"),
                                      event=None, now=now)

    async def acted(self, match: Match) -> None:
        self.play.ended(match)
