"""Replays: a finished match's whole game as an animated GIF (Discord plays it inline), posted after the
result in a message of its own, or sent privately by /replay; drawn to fit the attachment limit, and a
finished match's drawn once (``ReplayCache``)."""

from __future__ import annotations

import io
from collections import OrderedDict
from typing import TYPE_CHECKING

import discord

from bot import wording
from bot.discord.cards import REPLAY_FILE
from bot.discord.posts.common import Part, nonce, send_fitting
from bot.i18n import N_, _, current
from bot.model import Match
from bot.services.announce import Delivered, Outgoing, ReplayPost

if TYPE_CHECKING:
    from bot.discord.client import GameBot

DEFAULT_ATTACHMENT_LIMIT = 10 * 1024 * 1024   # bytes per attachment a server without boosts accepts (Discord)
REPLAY_CACHE_BYTES = 64 * 1024 * 1024         # finished matches' replays kept in memory per process (LRU)

REPLAY_TOO_LONG = N_("The replay is too long to attach here; /replay #{id} gives a shortened one.")
REPLAY_REFUSED = N_("The replay is too large for this server's attachment limit.")


class ReplayCache:
    """Replays of finished matches, drawn once: (match, language, byte budget) -> (GIF, turns), the least
    recently used dropped beyond ``limit`` bytes. A finished match never changes, so an entry never goes stale."""

    def __init__(self, limit: int = REPLAY_CACHE_BYTES):
        self.limit = limit
        self._items: OrderedDict[tuple[int, str, int], tuple[bytes, int]] = OrderedDict()
        self._size = 0

    def get(self, key: tuple[int, str, int]) -> tuple[bytes, int] | None:
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: tuple[int, str, int], gif: bytes, turns: int) -> None:
        if key in self._items or len(gif) > self.limit:
            return
        self._items[key] = (gif, turns)
        self._size += len(gif)
        while self._size > self.limit:
            _key, (old, _turns) = self._items.popitem(last=False)
            self._size -= len(old)


class Replays(Part):
    def __init__(self, bot: GameBot):
        super().__init__(bot)
        self.cache = ReplayCache()

    def attachment_limit(self, guild_id: int) -> int:
        """The bytes an attachment may have in a server (its boosts raise it; Discord's least without one)."""
        guild = self.bot.get_guild(guild_id)
        return guild.filesize_limit if guild is not None else DEFAULT_ATTACHMENT_LIMIT

    async def replay(self, match_id: int, guild_id: int, budget: int) -> tuple[Match, discord.File, int]:
        """A match of the server as an animated GIF of at most ``budget`` bytes, in the language of the moment;
        a finished match's is drawn once and kept."""
        match = await self.services.queries.in_server(match_id, guild_id, position=False)
        key = (match.id, current(), budget)
        kept = self.cache.get(key)          # only finished matches are kept
        if kept is None:
            match, frames = await self.services.queries.turns(match_id, guild_id=guild_id)
            gif = await self.bot.renders.replay(match.row.game, frames, match.names, language=current(), budget=budget)
            kept = (gif, len(frames) - 1)
            if match.is_over:
                self.cache.put(key, *kept)
        gif, turns = kept
        return match, discord.File(io.BytesIO(gif), filename=REPLAY_FILE, description=_(
            "Replay of {caption}, {turns}").format(caption=wording.board_caption(match),
                                                    turns=wording.count(turns, "turn"))), turns

    async def post(self, outgoing: Outgoing[ReplayPost]) -> Delivered:
        """A finished match's whole game, in a message of its own after the result (which never waits for it)."""
        match = await self.services.queries.get(outgoing.match_id, position=False)
        match, file, _turns = await self.replay(match.id, match.row.guild_id, self.attachment_limit(match.row.guild_id))
        message = await send_fitting(self.channel(match), _(REPLAY_TOO_LONG).format(id=match.id),
                                     content=f"🎞️ {wording.board_caption(match)}",
                                     files=[file], nonce=nonce(outgoing),
                                     allowed_mentions=discord.AllowedMentions.none())
        return Delivered("sent", message.id)

    async def reply(self, interaction: discord.Interaction, match_id: int) -> None:
        """/replay: the animation privately, within the attachment limit this interaction states."""
        guild_id = interaction.guild_id or 0
        budget = interaction.filesize_limit or self.attachment_limit(guild_id)
        found, file, turns = await self.replay(match_id, guild_id, budget)
        text = _("{caption} — {turns}.").format(caption=wording.board_caption(found),
                                                turns=wording.count(turns, "turn"))
        await send_fitting(interaction.followup, _(REPLAY_REFUSED), content=text, files=[file], ephemeral=True)
