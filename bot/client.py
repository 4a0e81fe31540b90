"""The Discord client: minimal intents, explicit start-up, one match service."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot import community
from bot.commands import register_commands
from bot.config import Config
from bot.notify import DiscordNotifier
from bot.replies import tell
from bot.scheduler import Scheduler
from bot.service import MatchService
from bot.store import Database
from bot.views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)


class GameTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """An unexpected failure: log it with the command, tell the user briefly, change nothing more."""
        name = interaction.command.qualified_name if interaction.command else "?"
        log.exception("command %s failed", name, exc_info=error)
        await tell(interaction, "Something went wrong on our side; nothing was changed. Please try again.")


class GameBot(discord.Client):
    """Slash commands only: no privileged intents, no member chunking, mentions opt-in per message."""

    def __init__(self, config: Config, *, service: MatchService | None = None, sync_commands: bool = True,
                 run_scheduler: bool = True):
        intents = discord.Intents.none()
        intents.guilds = True  # channel and guild objects for interactions; not privileged
        super().__init__(intents=intents, chunk_guilds_at_startup=False,
                         member_cache_flags=discord.MemberCacheFlags.none(),
                         allowed_mentions=discord.AllowedMentions.none())
        self.config = config
        self.service = service
        self.sync_commands = sync_commands
        self.run_scheduler = run_scheduler
        self.scheduler: Scheduler | None = None
        self.tree = GameTree(self)
        register_commands(self.tree)

    async def setup_hook(self) -> None:
        if self.service is None:
            self.service = MatchService(await Database.open(self.config.database_path))
        self.add_dynamic_items(*DYNAMIC_ITEMS, *community.DYNAMIC_ITEMS)
        self.scheduler = Scheduler(self.service, DiscordNotifier(self))
        if self.run_scheduler:   # catches up at once on whatever fell due while the bot was down
            self.scheduler.start()
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
        if self.scheduler is not None:
            await self.scheduler.stop()
        if self.service is not None:
            await self.service.store.db.close()
        await super().close()
