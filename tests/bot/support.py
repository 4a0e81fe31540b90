"""Shared pieces of the command tests: a bot on the test database, and reading who a board pings."""

from __future__ import annotations

import random

from bot.client import GameBot
from bot.config import Config
from bot.service import MatchService
from bot.store import Database

GUILD = 1000


def make_bot(db: Database, clock, seed: int = 7) -> GameBot:
    """A bot that never syncs commands, runs its scheduler only when a test asks, and searches in a thread."""
    config = Config(token=None, database_path=db, dev_guild_id=None, log_level="INFO")
    return GameBot(config, service=MatchService(db, clock=clock, seed_source=random.Random(seed)),
                   sync_commands=False, run_scheduler=False, ai_processes=0)


def pinged(board, people) -> dict:
    """The one player a board message pings."""
    who = [p for p in people if (board.content or "").strip() == f"<@{p['id']}>"]
    assert len(who) == 1, board.content
    return who[0]
