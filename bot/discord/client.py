"""The Discord client: minimal intents, explicit start-up, the services, scheduler, dispatcher and AI it owns."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands

from bot.ai_player import AIPlayer
from bot.archiver import Archiver
from bot.config import Config
from bot.discord import guide, picker, standings, tournament_card
from bot.discord.commands import register_commands
from bot.discord.interaction import tell
from bot.discord.locales import LocaleMemory
from bot.discord.post import Poster
from bot.discord.translator import CatalogTranslator
from bot.discord.views import DYNAMIC_ITEMS
from bot.dispatcher import Dispatcher, Routes
from bot.health import Probe, Readiness
from bot.i18n import _, board_texts, speaking
from bot.model import Match, shown
from bot.scheduler import Scheduler
from bot.services import Services
from bot.tournament_pairer import TournamentPairer
from render.pool import RenderPool

log = logging.getLogger(__name__)


class GameTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """An unexpected failure: log it with the command, tell the user briefly, change nothing more. An option
        value Discord's own client never sends (a modified client's) is refused as such, without a traceback."""
        name = interaction.command.qualified_name if interaction.command else "?"
        if isinstance(error, app_commands.TransformerError):
            log.warning("command %s: an option value it cannot use (%s)", name, type(error.value).__name__)
            with speaking(interaction.locale):
                await tell(interaction, _("This command got a value it cannot use ({value}); nothing was changed. "
                                          "Choose from what Discord offers.").format(value=shown(error.value)))
            return
        log.exception("command %s failed", name, exc_info=error)
        with speaking(interaction.locale):
            await tell(interaction, _("Something went wrong on our side; nothing was changed. Please try again."))


class GameBot(discord.Client):
    """Slash commands only: no privileged intents, no member chunking, mentions opt-in per message."""

    def __init__(self, config: Config, *, services: Services | None = None, sync_commands: bool = True,
                 run_background: bool = True, ai_processes: int | None = None, render_processes: int | None = None):
        intents = discord.Intents.none()
        intents.guilds = True  # channel and guild objects for interactions; not privileged
        super().__init__(intents=intents, chunk_guilds_at_startup=False,
                         member_cache_flags=discord.MemberCacheFlags.none(),
                         allowed_mentions=discord.AllowedMentions.none(), **self.client_options(config))
        self.config = config
        self._services = services
        self.sync_commands = sync_commands
        self.run_background = run_background
        self.ai_processes = ai_processes          # 0: search in a thread (tests); None: ai.pool.default_workers()
        self.render_processes = render_processes  # 0: draw in a thread (tests); None: render.pool.default_processes()
        self._renders: RenderPool | None = None
        self.poster = Poster(self)
        self.locales = LocaleMemory()     # each user's Discord locale as last stored (DMs speak it)
        self._scheduler: Scheduler | None = None
        self._dispatcher: Dispatcher | None = None
        self._archiver: Archiver | None = None      # compacts the records of ended matches (bot/archiver.py)
        self._ai: AIPlayer | None = None
        self.tree = GameTree(self)
        register_commands(self.tree)
        self.stopping = False
        self.readiness = Readiness()     # what /readyz waits for: each part answers, and the bot is not stopping
        answers = Probe(lambda: self.services.ping())
        self.readiness.add("database", lambda: self._services is not None and not self.stopping and answers())
        self.readiness.add("render", lambda: self._renders is not None and not self.stopping and self._renders.up())
        self.readiness.add("ai", lambda: self._ai is not None and not self.stopping
                           and (self._ai.pool is None or self._ai.pool.up()))
        self.readiness.add("discord", lambda: self.is_ready() and self.connected() and not self.stopping)

    def client_options(self, config: Config) -> dict[str, Any]:
        """Extra options of the discord.py client (the sharded bot's shards)."""
        return {}

    def connected(self) -> bool:
        """Whether the gateway connection is open now."""
        return self.ws is not None and self.ws.open

    # Typed accessors: set up in setup_hook, before any interaction arrives.
    @property
    def services(self) -> Services:
        if self._services is None:
            raise RuntimeError("the bot has not started")
        return self._services

    @property
    def dispatcher(self) -> Dispatcher:
        if self._dispatcher is None:
            raise RuntimeError("the bot has not started")
        return self._dispatcher

    @property
    def scheduler(self) -> Scheduler:
        if self._scheduler is None:
            raise RuntimeError("the bot has not started")
        return self._scheduler

    @property
    def renders(self) -> RenderPool:
        if self._renders is None:
            raise RuntimeError("the bot has not started")
        return self._renders

    @property
    def ai(self) -> AIPlayer:
        if self._ai is None:
            raise RuntimeError("the bot has not started")
        return self._ai

    async def page_url(self, match: Match) -> str | None:
        """The link to a match's page when this bot serves pages (PUBLIC_URL and WEB_PORT) and the match's server
        allows them; None otherwise. Only reads, and nothing when the match was read with its server's pages off
        (``MatchRow.server_pages``)."""
        if not self.config.web_enabled or not self.config.public_url or match.row.server_pages == "off":
            return None
        return await self.services.pages.url(self.config.public_url, match.id, match.row.guild_id)

    async def tournament_page_url(self, tournament_id: int, guild_id: int) -> str | None:
        """The link to a tournament's page (its standings and its rounds' games) when this bot serves pages and
        the server allows them; None otherwise. Only reads."""
        if not self.config.web_enabled or not self.config.public_url:
            return None
        return await self.services.pages.tournament_url(self.config.public_url, tournament_id, guild_id)

    async def setup_hook(self) -> None:
        if self._services is None:
            self._services = await Services.open(self.config.database_path)
        self.add_dynamic_items(*DYNAMIC_ITEMS, *standings.DYNAMIC_ITEMS, *guide.DYNAMIC_ITEMS, *picker.DYNAMIC_ITEMS,
                               *tournament_card.DYNAMIC_ITEMS)
        await self.tree.set_translator(CatalogTranslator())   # German command names etc. (bot/locale)
        self._scheduler = Scheduler(self.services)
        self._renders = await asyncio.to_thread(RenderPool, self.render_processes, board_texts())
        pool = None
        if self.ai_processes != 0:
            from ai.pool import AIPool
            pool = await asyncio.to_thread(AIPool, self.ai_processes)   # spawning workers takes a moment
        self._ai = AIPlayer(self.services, pool)
        # fails here, naming them, if a kind of announcement has no handler (the bot's turn is the AI's)
        workers = {**self._ai.workers, **TournamentPairer(self.services).workers}   # a tournament's next round
        self._dispatcher = Dispatcher(self.services, Routes(self.poster, workers=workers))
        if self.run_background:   # both catch up at once on whatever fell due while the bot was down
            self._scheduler.start()
            self._dispatcher.start()
            self._archiver = Archiver(self.services)
            self._archiver.start()
        if self.sync_commands:
            if self.config.dev_guild_id:
                guild = discord.Object(self.config.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                log.info("synced %d commands to the development server", len(synced))
            else:
                synced = await self.tree.sync()
                log.info("synced %d commands globally", len(synced))

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, self.user.id if self.user else "?",
                 len(self.guilds))

    async def close(self) -> None:
        """Stop the background work, then always close the database and the connection to Discord."""
        if self.stopping:           # a second call (SIGTERM, then leaving ``async with``): only wait for it
            await super().close()
            return
        self.stopping = True
        try:
            try:
                # the loops first: a delivery in flight (a bot turn searching) is cancelled and keeps its claim
                # for the next start; closing the pools under it would stop the search as if overtaken
                if self._dispatcher is not None:
                    await self._dispatcher.stop()
                if self._scheduler is not None:
                    await self._scheduler.stop()
                if self._archiver is not None:
                    await self._archiver.stop()
            finally:
                if self._ai is not None and self._ai.pool is not None:
                    self._ai.pool.close()
                if self._renders is not None:
                    self._renders.close()
        finally:
            try:
                if self._services is not None:
                    await self._services.db.close()
            finally:
                await super().close()


# ---- sharding ----

class ShardedGameBot(GameBot, discord.AutoShardedClient):
    """The same bot over several gateway connections: the shards of SHARD_IDS (of SHARD_COUNT), or with
    SHARD_COUNT=auto as many as Discord recommends, all in this process. The dispatcher and scheduler of
    every process take any due work (see ``make_bot``)."""

    def client_options(self, config: Config) -> dict[str, Any]:
        if config.auto_shard:
            return {}
        return {"shard_count": config.shard_count,
                "shard_ids": list(config.shard_ids) if config.shard_ids is not None else None}

    def connected(self) -> bool:
        return bool(self.shards) and all(not shard.is_closed() for shard in self.shards.values())


def make_bot(config: Config, **options: Any) -> GameBot:
    """The bot this configuration asks for: one gateway connection, or the shards configured.

    Work that is not tied to a gateway connection is NOT split by shard: every process's dispatcher posts
    any match's announcements over REST and every scheduler handles any match's deadlines; the outbox leases
    and the conditional writes make each happen once ("shared background work"). So a process that is down
    delays nothing but the interactions of its own shards, and the bot searches spread over the processes.
    """
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False    # a board-game bot has no voice
    return ShardedGameBot(config, **options) if config.sharded else GameBot(config, **options)

