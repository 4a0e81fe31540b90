"""What the bot posts on Discord: embeds, board attachments, and safe ways to answer an interaction."""

from __future__ import annotations

import asyncio
import io
import logging

import discord

from bot import messages
from bot.service import Match
from bot.store.matches import ParticipantRow
from render import board_png

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"
COLOUR_ACTIVE = discord.Colour.blurple()
COLOUR_DONE = discord.Colour.gold()
COLOUR_ERROR = discord.Colour.red()


def mention(p: ParticipantRow) -> str:
    return f"<@{p.user_id}>"


def jump_url(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


async def render_board(match: Match) -> discord.File:
    """The match's board as an attachment, rendered off the event loop."""
    png = await asyncio.to_thread(board_png, match.state, last_turn=match.last_turn, names=match.names,
                                  previous=match.previous)
    return discord.File(io.BytesIO(png), filename=BOARD_FILE)


def board_embed(match: Match, text: str) -> discord.Embed:
    done = match.status == "finished"
    embed = discord.Embed(title=messages.board_caption(match), description=text,
                          colour=COLOUR_DONE if done else COLOUR_ACTIVE)
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def ping_for(match: Match) -> tuple[str | None, discord.AllowedMentions]:
    """Content that pings the player to move (mentions inside embeds do not notify)."""
    who = match.to_move_user
    if who is None:
        if match.status == "finished":
            users = [discord.Object(p.user_id) for p in match.seated]
            return " ".join(mention(p) for p in match.seated), discord.AllowedMentions(users=users)
        return None, discord.AllowedMentions.none()
    return mention(who), discord.AllowedMentions(users=[discord.Object(who.user_id)])


async def post_board(interaction: discord.Interaction, match: Match, text: str) -> discord.WebhookMessage:
    """Follow up a deferred interaction with the board, ping the player to move, remember the message."""
    file = await render_board(match)
    content, allowed = ping_for(match)
    msg = await interaction.followup.send(content=content, embed=board_embed(match, text), file=file,
                                          allowed_mentions=allowed, wait=True)
    await interaction.client.service.set_board_message(match.id, msg.id)
    return msg


def error_embed(text: str) -> discord.Embed:
    return discord.Embed(description=f"⚠️ {text}", colour=COLOUR_ERROR)


async def tell(interaction: discord.Interaction, text: str, *, error: bool = True) -> None:
    """An ephemeral answer, whether or not the interaction was answered already; never raises."""
    embed = error_embed(text) if error else discord.Embed(description=text, colour=COLOUR_ACTIVE)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)
    except discord.HTTPException as exc:  # expired token, message gone: nothing more to say to this user
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
