"""Challenge cards: posted when a challenge is made (pinging whom it invites), edited as seats are taken."""

from __future__ import annotations

import discord

from bot import wording
from bot.discord.cards import challenge_embed, challenge_view, mention
from bot.discord.posts.common import Part, nonce
from bot.i18n import _
from bot.services.announce import Card, Delivered, Outgoing, Remember


class Cards(Part):
    async def card(self, outgoing: Outgoing[Card]) -> Delivered:
        match = await self.services.queries.get(outgoing.match_id, position=False)
        channel = self.channel(match)
        if outgoing.notice.event == "open":
            invited = [p for p in match.participants if p.invited_order > 0 and not p.is_ai]
            content = _("{players} — you are challenged to {game}!").format(
                players=" ".join(mention(p) for p in invited), game=match.game.title)
            if match.row.open_seats:
                content = _(wording.OPEN_CARD).format(
                    invited="".join(f"{mention(p)} " for p in invited), challenger=match.challenger.name,
                    seats=wording.open_seats_count(match.row.open_seats), game=match.game.title)
            message = await channel.send(
                content=content,
                embed=challenge_embed(match), view=challenge_view(match) or discord.utils.MISSING,
                nonce=nonce(outgoing),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(p.user_id) for p in invited]))
            return Delivered("sent", message.id, remember=Remember(card_message_id=message.id))
        if not match.row.card_message_id:
            return Delivered("skipped: no card")
        await channel.get_partial_message(match.row.card_message_id).edit(
            embed=challenge_embed(match), view=challenge_view(match))
        return Delivered("sent", match.row.card_message_id)
