"""What every post shares: its nonce, its channel, the attachment that may not cost it, who is pinged, and
direct messages composed in their reader's language."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import current, language_of, speaking
from bot.model import Match, ParticipantRow
from bot.services import Services
from bot.services.announce import Dm, Outgoing

if TYPE_CHECKING:
    from bot.discord.client import GameBot

log = logging.getLogger(__name__)

TOO_LARGE_CODE = 40005       # Discord's JSON error code for "Request entity too large" (HTTP 413)


def nonce(outgoing: Outgoing) -> str:
    return f"ob{outgoing.row_id}"


def too_large(exc: discord.HTTPException) -> bool:
    """Whether Discord refused a request for the size of its attachments."""
    return exc.status == 413 or exc.code == TOO_LARGE_CODE


def permanent(exc: discord.HTTPException) -> bool:
    """Whether a failed request can never succeed (no access, gone, refused) rather than may pass."""
    return isinstance(exc, discord.Forbidden | discord.NotFound) or 400 <= exc.status < 500 and exc.status != 429


async def send_fitting(channel: Any, note: str, *, content: str | None, files: list[discord.File],
                       embed: discord.Embed | None = None, **kwargs: Any) -> discord.Message:
    """``channel.send`` with attachments; when Discord refuses them for their size, the same post without them
    and with ``note`` (what is missing, and where to get it): an attachment never costs the post itself."""
    try:
        return await channel.send(content=content, embed=embed or discord.utils.MISSING, files=files, **kwargs)
    except discord.HTTPException as exc:
        if not too_large(exc):
            raise
        log.warning("attachments %s refused for their size: posting without them", [f.filename for f in files])
    if embed is not None:
        embed.set_image(url=None)
    return await channel.send(content=f"{content}\n{note}" if content else note,
                              embed=embed or discord.utils.MISSING, **kwargs)


def concerned(match: Match) -> list[ParticipantRow]:
    """Whom a board concerns: the player to move, or everyone once the match is over."""
    if match.is_over:
        return match.seated
    who = match.to_move_user
    return [who] if who else []


class Part:
    """One part of the poster: the bot it posts through, and the services it reads."""

    def __init__(self, bot: GameBot):
        self.bot = bot

    @property
    def services(self) -> Services:
        return self.bot.services

    def channel(self, match: Match) -> Any:
        """The match's channel (or thread), to post in."""
        return self.bot.get_partial_messageable(match.row.channel_id, guild_id=match.row.guild_id)

    async def prefs(self, people: list[ParticipantRow]) -> dict[int, str]:
        """How each person wants to be told ('mention', 'dm', 'digest', 'off')."""
        return {p.user_id: await self.services.settings.notify(p.user_id) for p in people if not p.is_ai}

    async def reader_language(self, user_id: int) -> str:
        """The language of a direct message to ``user_id``: their Discord locale as last seen in an interaction
        (a DM is private, like an interaction's reply), else the language of the moment (the server's)."""
        stored = await self.services.settings.locale(user_id)
        return language_of(stored) if stored else current()

    async def dm_notice(self, user_id: int, compose: Callable[[], str], fallback: str) -> Dm:
        """A direct message whose text is composed in the reader's language; its ``fallback`` (a mention in the
        match's channel when DMs are closed) was composed for the channel, in the server's."""
        with speaking(await self.reader_language(user_id)):
            text = compose()
        return Dm(user_id, text, fallback)
