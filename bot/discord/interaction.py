"""Answering interactions: acknowledge first, then work; a refusal becomes a private message.

``acknowledged`` is the one place that defers an interaction and turns a ``ServiceError`` into a private
answer, so no handler repeats either. ``app`` is the typed way from an interaction to the bot's services.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, cast

import discord

from bot.i18n import speaking
from bot.model import Person, ServiceError

if TYPE_CHECKING:
    from bot.discord.client import GameBot

log = logging.getLogger(__name__)

COLOUR_ACTIVE = discord.Colour.blurple()
COLOUR_DONE = discord.Colour.gold()
COLOUR_ERROR = discord.Colour.red()
MAX_MESSAGE = 2000
MAX_EMBED_TEXT = 4096


def app(interaction: discord.Interaction) -> GameBot:
    """The bot an interaction reached, with its services (typed)."""
    return cast("GameBot", interaction.client)


def person(user: discord.abc.User) -> Person:
    return Person(user.id, user.display_name, user.bot)


def channel_language(interaction: discord.Interaction) -> object:
    """The language of what an interaction posts for everyone in a channel: the server's (English without one)."""
    return interaction.guild_locale or "en"


def error_embed(text: str) -> discord.Embed:
    return discord.Embed(description=f"⚠️ {text}"[:MAX_EMBED_TEXT], colour=COLOUR_ERROR)


def info_embed(text: str) -> discord.Embed:
    return discord.Embed(description=text[:MAX_EMBED_TEXT], colour=COLOUR_ACTIVE)


async def tell(interaction: discord.Interaction, text: str, *, error: bool = True) -> None:
    """A private answer, whether or not the interaction was answered already; never raises."""
    embed = error_embed(text) if error else info_embed(text)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)
    except discord.HTTPException as exc:  # expired token, message gone: nothing more to say to this user
        log.warning("could not answer interaction %s: %s", interaction.id, exc.status)


@asynccontextmanager
async def acknowledged(interaction: discord.Interaction, *, private: bool = True,
                       update: bool = False) -> AsyncIterator[None]:
    """Acknowledge at once (a 'thinking…' reply, private unless ``private=False``; for a button on a message
    the bot will edit, ``update=True``), then run the work; a refusal is told privately. Texts composed inside
    are in the user's language (``interaction.locale``); a post for the whole channel speaks the server's.

    Discord allows 3 seconds to acknowledge; database, engine and render work all come after.
    """
    if not interaction.response.is_done():
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=private, thinking=True)
    await remember_locale(interaction)
    with speaking(interaction.locale):
        try:
            yield
        except ServiceError as exc:
            await tell(interaction, str(exc))


async def remember_locale(interaction: discord.Interaction) -> None:
    """Store the user's Discord locale for their direct messages (after the defer; a write only when it changed
    since this process last stored it). A failure is logged, never the user's problem: the command goes on."""
    bot = app(interaction)
    memory = getattr(bot, "locales", None)
    if memory is None:          # a client that is not the game bot (a bare tree in a test)
        return
    locale = getattr(interaction.locale, "value", interaction.locale)
    try:
        await memory.remember(bot.services.settings, interaction.user.id, str(locale or ""))
    except Exception:   # noqa: BLE001 - the locale is a nicety; the command must not fail for it
        log.warning("could not remember the locale of user %s", interaction.user.id, exc_info=True)


async def finish(interaction: discord.Interaction, text: str | None = None, *,
                 embed: discord.Embed | None = None, view: discord.ui.View | None = None) -> None:
    """Replace the 'thinking…' reply with the answer."""
    kwargs: dict = {"content": text[:MAX_MESSAGE] if text else None, "embed": embed}
    if view is not None:
        kwargs["view"] = view
    try:
        await interaction.edit_original_response(**kwargs)
    except discord.HTTPException as exc:
        log.warning("could not complete interaction %s: %s", interaction.id, exc.status)
