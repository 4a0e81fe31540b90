"""Interaction replies: the 'thinking…' reply of the interaction that caused a change, completed once what it
caused is posted, with a link to it (never to a board the game has left behind)."""

from __future__ import annotations

from datetime import timedelta

import discord

from bot.discord.cards import jump_url
from bot.discord.posts.common import Part
from bot.i18n import N_, _, language_of
from bot.model import Match
from bot.services.announce import Delivered, Outgoing, Reply
from bot.services.context import REPLY_TOKEN_LIFETIME, iso

BOARD_PENDING = N_("The board is not posted yet; it follows in the channel.")
BOARD_NOT_POSTED = N_("The board could not be posted; /{game} board posts it again.")
TOKEN_MARGIN = timedelta(seconds=30)   # a reply row expires this long before its token does


class Replies(Part):
    def reply_row(self, interaction: discord.Interaction, link: str, text: str = "") -> Reply:
        """A reply that completes this interaction's 'thinking…' with ``text`` and a link to the board or card
        (``link``) once it is posted."""
        # the token lives 15 minutes from the interaction, which arrived just now (by the services' clock)
        expires = iso(self.services.clock() + REPLY_TOKEN_LIFETIME - TOKEN_MARGIN)
        return Reply(interaction.token, interaction.application_id, text, link=link,
                     language=language_of(interaction.locale), expires_at=expires)

    async def reply(self, outgoing: Outgoing[Reply]) -> Delivered:
        """Complete a deferred interaction: its text, and a link to the board or card it caused."""
        reply = outgoing.notice
        match = await self.services.queries.get(outgoing.match_id, position=False)
        text = reply.text or ""
        if reply.link == "card":
            target = match.row.card_message_id
        else:
            target, missing = await self.board_for_reply(outgoing, match)
            text = f"{text}\n{missing}" if text and missing else text or missing
        if target:
            what = _("The challenge is posted: {link}") if reply.link == "card" else _("The board is posted: {link}")
            text = f"{text}\n" if text else ""
            text += what.format(link=jump_url(match.row.guild_id, match.row.channel_id, target))
        webhook = discord.Webhook.partial(reply.application_id, reply.token, client=self.bot)
        # '@original' names an interaction's own reply (Discord's webhook API); discord.py types ids as int
        await webhook.edit_message("@original", content=text or _("Done."))  # type: ignore[call-overload]
        return Delivered("sent")

    async def board_for_reply(self, outgoing: Outgoing[Reply], match: Match) -> tuple[int | None, str]:
        """The board a reply links: the one posted for the change it confirms (its board row, written with it),
        never a board the game has left behind. (None, why) while that board is not posted or was given up."""
        before = await self.services.outbox.board_before(outgoing.match_id, outgoing.row_id)
        if before is None:           # no board came with this change: the latest
            return match.row.board_message_id, ""
        delivered, message_id = before
        if message_id:
            return message_id, ""
        return None, _(BOARD_NOT_POSTED).format(game=match.row.game) if delivered else _(BOARD_PENDING)
