"""Proposals every other player must accept — draw offers and takebacks, one post with their own words: made
(a new message pinging the other players, with the answer buttons) or declined (pinging the proposer)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot import wording
from bot.discord.cards import mention
from bot.discord.posts.common import Part, nonce
from bot.discord.views import draw_view, takeback_view
from bot.i18n import N_, _
from bot.model import MatchRow
from bot.services.announce import Delivered, DrawProposal, Outgoing, Proposal, TakebackProposal

DRAW_OFFER = N_("{players} 🤝 {offerer} offers a draw in {caption}. Every other player must accept; a move lets the "
                "offer lapse.")
DRAW_DECLINED = N_("🤝 {player} declined the draw offer in {caption}; play goes on.")


@dataclass(frozen=True)
class Words:
    """What differs between the posts of two kinds of proposal."""
    open_at: Callable[[MatchRow], int | None]     # the ply the open one was made at
    lapsed: str                                   # the result when it lapsed before it was posted
    view: Callable[[int, int], discord.ui.View]   # its answer buttons (match id, ply)
    asks: Callable[[str, str, str], str]          # (the others' mentions, the proposer, caption) -> the post
    declined: Callable[[str, str, str], str]      # (the proposer's ping or '', who declined, caption) -> the post


WORDS: dict[type[Proposal], Words] = {
    DrawProposal: Words(
        lambda row: row.draw_offer_ply, "skipped: the offer lapsed", draw_view,
        lambda pings, by, caption: _(DRAW_OFFER).format(players=pings, offerer=by, caption=caption),
        lambda ping, by, caption: ping + _(DRAW_DECLINED).format(player=by, caption=caption)),
    TakebackProposal: Words(
        lambda row: row.takeback_ply, "skipped: the request lapsed", takeback_view,
        lambda pings, by, caption: _(wording.TAKEBACK_REQUEST).format(pings=pings, by=by, caption=caption),
        lambda ping, by, caption: _(wording.TAKEBACK_DECLINED).format(ping=ping, by=by, caption=caption)),
}


class Proposals(Part):
    async def post(self, outgoing: Outgoing[Proposal]) -> Delivered:
        proposal, words = outgoing.notice, WORDS[type(outgoing.notice)]
        match = await self.services.queries.get(outgoing.match_id, position=False)
        ply, by, caption = proposal.ply, proposal.by, wording.board_caption(match)
        if proposal.event != "declined":
            if words.open_at(match.row) != ply or match.ply != ply:
                return Delivered(words.lapsed)
            others = [p for p in match.seated if p.user_id != by and not p.is_ai]
            message = await self.channel(match).send(
                words.asks(" ".join(mention(p) for p in others), f"<@{by}>", caption),
                view=words.view(match.id, ply), nonce=nonce(outgoing),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(p.user_id) for p in others]))
            return Delivered("sent", message.id)
        proposer = proposal.proposer
        message = await self.channel(match).send(
            words.declined(f"<@{proposer}> " if proposer else "", f"<@{by}>", caption), nonce=nonce(outgoing),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(proposer)] if proposer else []))
        return Delivered("sent", message.id)
