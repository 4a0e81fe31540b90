"""Posting boards and telling players it is their turn, the way each player chose (/settings notify)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable

import discord

from bot import messages, views
from bot.replies import board_embed, jump_url, mention, render_board
from bot.service import Match
from bot.store.matches import ParticipantRow

log = logging.getLogger(__name__)

Send = Callable[..., Awaitable[discord.Message]]


def to_notify(match: Match) -> list[ParticipantRow]:
    """Whom a board concerns: the player to move, or everyone once the match is over."""
    if match.status in ("finished", "aborted"):
        return match.seated
    who = match.to_move_user
    return [who] if who else []


async def post_board(client: discord.Client, match: Match, text: str, send: Send, *,
                     continue_bot: bool = True) -> discord.Message:
    """Render (off the loop) and post the board with ``send``; ping or DM the players concerned; if the bot
    is to move, it starts thinking (``continue_bot=False`` when the bot's own loop posts the board)."""
    service = client.service
    file = await render_board(match)
    prefs = {p.user_id: "off" if p.is_ai else await service.settings.notify(p.user_id) for p in to_notify(match)}
    pinged = [p for p in to_notify(match) if prefs[p.user_id] == "mention"]
    msg = await send(content=" ".join(mention(p) for p in pinged) or None, embed=board_embed(match, text),
                     file=file, view=views.board_view(match),
                     allowed_mentions=discord.AllowedMentions(users=[discord.Object(p.user_id) for p in pinged]))
    await service.set_board_message(match.id, msg.id)
    link = jump_url(match.row.guild_id, match.row.channel_id, msg.id)
    note = messages.result_text(match) if match.status != "active" else "It is your move."
    if continue_bot and match.ai_to_move is not None:
        client.start_bot_turns(match.id)
    for p in to_notify(match):
        if p.is_ai:
            continue
        if prefs[p.user_id] == "dm":
            await direct_message(client, match, p, f"{messages.board_caption(match)}\n{note}\n{link}",
                                 fallback=note)
    return msg


def followup(interaction: discord.Interaction) -> Send:
    return functools.partial(interaction.followup.send, wait=True)


def channel_of(client: discord.Client, match: Match) -> discord.abc.Messageable:
    return client.get_partial_messageable(match.row.channel_id, guild_id=match.row.guild_id)


async def direct_message(client: discord.Client, match: Match, player: ParticipantRow, text: str, *,
                         fallback: str) -> None:
    """DM a player; a closed DM falls back quietly to a mention in the match's channel."""
    try:
        dm = await client.create_dm(discord.Object(player.user_id))
        await dm.send(text)
    except discord.HTTPException as exc:
        log.info("DM to a player of match %s failed (%s); mentioning in the channel", match.id, exc.status)
        await channel_of(client, match).send(
            f"{mention(player)} {fallback}",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(player.user_id)]))


class DiscordNotifier:
    """The scheduler's news, posted in each match's channel (and by DM where players chose it)."""

    def __init__(self, client: discord.Client):
        self.client = client

    async def reminder(self, match: Match) -> None:
        who = match.to_move_user
        if who is None:
            return
        pref = await self.client.service.settings.notify(who.user_id)
        if pref == "off":
            return
        link = jump_url(match.row.guild_id, match.row.channel_id, match.row.board_message_id or 0)
        text = (f"⏰ Reminder: {messages.board_caption(match)} — most of your time is used. "
                f"Move by <t:{int(match.deadline.timestamp())}:f> or you lose on time.")
        if pref == "dm":
            await direct_message(self.client, match, who, f"{text}\n{link}", fallback=text)
        else:
            await channel_of(self.client, match).send(
                f"{mention(who)} {text}\n{link}",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(who.user_id)]))

    async def timed_out(self, match: Match) -> None:
        text = messages.result_text(match, mention)
        await post_board(self.client, match, text, channel_of(self.client, match).send)

    async def challenge_expired(self, match: Match) -> None:
        channel = channel_of(self.client, match)
        if match.row.card_message_id:
            try:
                await channel.get_partial_message(match.row.card_message_id).edit(
                    embed=views.challenge_embed(match), view=None)
            except discord.HTTPException as exc:
                log.info("could not update the card of match %s: %s", match.id, exc)
