"""What the bot posts on Discord: embeds, board attachments, and safe ways to answer an interaction."""

from __future__ import annotations

import asyncio
import io
import logging
from datetime import datetime

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
    """A ping for a person; the bot's own seats are named in bold instead."""
    return f"**{p.name}**" if p.is_ai else f"<@{p.user_id}>"


def jump_url(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


async def render_board(match: Match) -> discord.File:
    """The match's board as an attachment, rendered off the event loop."""
    png = await asyncio.to_thread(board_png, match.state, last_turn=match.last_turn, names=match.names,
                                  previous=match.previous)
    return discord.File(io.BytesIO(png), filename=BOARD_FILE)


def board_embed(match: Match, text: str) -> discord.Embed:
    done = match.status in ("finished", "aborted")
    embed = discord.Embed(title=messages.board_caption(match), description=text,
                          colour=COLOUR_DONE if done else COLOUR_ACTIVE)
    clock = deadline_line(match)
    if clock:
        embed.add_field(name="Time", value=clock, inline=False)
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def timestamp(moment: datetime, style: str = "R") -> str:
    """Discord shows <t:…> in each reader's time zone, and 'R' counts down live."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def deadline_line(match: Match) -> str:
    """'⏰ Bob must move by <date> (in 2 days)' for a timed match, 'casual' otherwise."""
    if match.status != "active":
        return ""
    who = match.to_move_user
    if match.deadline is None or who is None:
        return "Casual: no time limit, unrated."
    return f"⏰ {who.name} must move by {timestamp(match.deadline, 'f')} ({timestamp(match.deadline)})."


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
