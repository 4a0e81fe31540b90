"""The Discord client: minimal intents, explicit start-up, one match service."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands

from bot import community, messages, notify
from bot.ai_player import AIPlayer
from bot.commands import register_commands
from bot.config import Config
from bot.notify import DiscordNotifier
from bot.replies import mention, tell
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
                 run_scheduler: bool = True, ai_processes: int = 1):
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
        self.ai_processes = ai_processes          # 0: search in a thread (tests); else worker processes
        self.ai: AIPlayer | None = None
        self._bot_turns: dict[int, asyncio.Task] = {}
        self._bot_recheck: set[int] = set()
        self.tree = GameTree(self)
        register_commands(self.tree)

    async def setup_hook(self) -> None:
        if self.service is None:
            self.service = MatchService(await Database.open(self.config.database_path))
        self.add_dynamic_items(*DYNAMIC_ITEMS, *community.DYNAMIC_ITEMS)
        self.scheduler = Scheduler(self.service, DiscordNotifier(self))
        pool = None
        if self.ai_processes:
            from ai.pool import AIPool
            pool = await asyncio.to_thread(AIPool, self.ai_processes)   # spawning workers takes a moment
        self.ai = AIPlayer(self.service, pool)
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

    def start_bot_turns(self, match_id: int) -> None:
        """Let the bot play its seats of a match in the background: one task per match at a time; a request
        while it runs makes it look again before it stops."""
        running = self._bot_turns.get(match_id)
        if running is not None and not running.done():
            self._bot_recheck.add(match_id)
            return
        self._bot_turns[match_id] = asyncio.create_task(self._play_bot_turns(match_id), name=f"bot-{match_id}")

    async def _play_bot_turns(self, match_id: int) -> None:
        try:
            while True:
                self._bot_recheck.discard(match_id)
                async for result in self.ai.turns(match_id):
                    match = result.match
                    text = f"{messages.turn_text(result, mention)}\n" \
                           f"{messages.to_move_text(match, mention, pending=result.pending)}"
                    await notify.post_board(self, match, text, notify.channel_of(self, match).send,
                                            continue_bot=False)
                if match_id not in self._bot_recheck:
                    break
        except Exception:
            log.exception("the bot's turn in match %s failed", match_id)
        finally:
            self._bot_turns.pop(match_id, None)

    async def close(self) -> None:
        for task in self._bot_turns.values():
            task.cancel()
        if self.ai is not None and self.ai.pool is not None:
            self.ai.pool.close()
        if self.scheduler is not None:
            await self.scheduler.stop()
        if self.service is not None:
            await self.service.store.db.close()
        await super().close()
