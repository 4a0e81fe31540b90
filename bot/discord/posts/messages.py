"""Short posts and direct messages: reminders, direct messages (a mention in the channel when DMs are
closed), the daily digest, time away, and hints used."""

from __future__ import annotations

import logging
from datetime import datetime

import discord

from bot import wording
from bot.discord.cards import jump_url, mention, timestamp
from bot.discord.posts.common import Part, nonce
from bot.i18n import _, speaking
from bot.services.announce import AwayNotice, Delivered, Digest, Dm, Hint, Outgoing, Reminder

log = logging.getLogger(__name__)

DIGEST_MESSAGE = 2000        # characters of a digest DM (Discord's limit); further lines are left out


class Messages(Part):
    async def reminder(self, outgoing: Outgoing[Reminder]) -> Delivered:
        match = await self.services.queries.get(outgoing.match_id, position=False)
        who = match.to_move_user
        if match.status != "active" or who is None or match.ply != outgoing.notice.ply:
            return Delivered("skipped: the match moved on")
        pref = (await self.prefs([who])).get(who.user_id, "off")
        if pref == "off":
            return Delivered("skipped: notifications off")
        link = jump_url(match.row.guild_id, match.row.channel_id, match.row.board_message_id or 0)
        text = wording.reminder_text(match)
        if pref in ("dm", "digest"):
            return Delivered("sent", follow_ups=[await self.dm_notice(
                who.user_id, lambda: f"{wording.reminder_text(match)}\n{link}", text)])
        message = await self.channel(match).send(
            f"{mention(who)} {text}\n{link}", nonce=nonce(outgoing),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(who.user_id)]))
        return Delivered("sent", message.id)

    async def dm(self, outgoing: Outgoing[Dm]) -> Delivered:
        """A direct message; a closed DM falls back to a mention in the match's channel."""
        dm_notice = outgoing.notice
        try:
            dm = await self.bot.create_dm(discord.Object(dm_notice.user_id))
            message = await dm.send(dm_notice.text, nonce=nonce(outgoing))
            return Delivered("sent", message.id)
        except discord.Forbidden:
            match = await self.services.queries.get(outgoing.match_id, position=False)
            log.info("DM to a player of match %s refused; mentioning in the channel", match.id)
            message = await self.channel(match).send(
                f"<@{dm_notice.user_id}> {dm_notice.fallback}", nonce=nonce(outgoing),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(dm_notice.user_id)]))
            return Delivered("sent: in the channel", message.id)

    async def hint(self, outgoing: Outgoing[Hint]) -> Delivered:
        """Tell the match's channel that a player used a hint (no one is pinged: the next board pings)."""
        match = await self.services.queries.get(outgoing.match_id, position=False)
        message = await self.channel(match).send(
            _(wording.HINT_TOLD).format(who=f"<@{outgoing.notice.by}>", caption=wording.board_caption(match)),
            nonce=nonce(outgoing), allowed_mentions=discord.AllowedMentions.none())
        return Delivered("sent", message.id)

    async def away(self, outgoing: Outgoing[AwayNotice]) -> Delivered:
        """A short post in a match's channel: a player is away (their clock paused) or back."""
        match = await self.services.queries.get(outgoing.match_id, position=False)
        if match.status != "active":
            return Delivered("skipped: the match is over")
        who, until = f"<@{outgoing.notice.user_id}>", outgoing.notice.until
        text = (_(wording.AWAY_NOTICE).format(player=who, until=timestamp(datetime.fromisoformat(until), "D"),
                                           caption=wording.board_caption(match)) if until else
                _(wording.BACK_NOTICE).format(player=who, caption=wording.board_caption(match)))
        message = await self.channel(match).send(text, nonce=nonce(outgoing),
                                                 allowed_mentions=discord.AllowedMentions.none())
        return Delivered("sent", message.id)

    async def digest(self, outgoing: Outgoing[Digest]) -> Delivered:
        """The daily digest: a DM listing every match where it is still the player's move, with a jump link to
        its latest board and its deadline. A closed DM is not replaced by a channel post (the digest lists
        matches of other servers). It speaks the user's Discord locale as last seen; without one, the language
        of the server of the match its row is anchored on (the first listed)."""
        with speaking(await self.reader_language(outgoing.notice.user_id)):
            return await self._send_digest(outgoing)

    async def _send_digest(self, outgoing: Outgoing[Digest]) -> Delivered:
        user_id = outgoing.notice.user_id
        matches = await self.services.queries.many(list(outgoing.notice.matches))
        mine = [m for m in matches if m.to_move_user is not None and m.to_move_user.user_id == user_id]
        if not mine:
            return Delivered("skipped: no match awaits the player any more")
        lines = [wording.digest_head(len(mine))]
        for m in mine:
            deadline = _(wording.DIGEST_DEADLINE).format(when=timestamp(m.deadline)) if m.deadline \
                else _(wording.DIGEST_NO_DEADLINE)
            caption = wording.board_caption(m)
            if m.row.board_message_id:
                link = jump_url(m.row.guild_id, m.row.channel_id, m.row.board_message_id)
                lines.append(_(wording.DIGEST_LINE).format(caption=caption, link=link, deadline=deadline))
            else:
                lines.append(_(wording.DIGEST_LINE_NO_BOARD).format(caption=caption, deadline=deadline))
        text = lines[0]
        for line in lines[1:]:              # whole lines within one message (the nearest deadlines first)
            if len(text) + 1 + len(line) > DIGEST_MESSAGE:
                break
            text += "\n" + line
        try:
            dm = await self.bot.create_dm(discord.Object(user_id))
            message = await dm.send(text, nonce=nonce(outgoing))
        except discord.Forbidden:
            return Delivered("skipped: direct messages closed")
        return Delivered("sent", message.id)
