"""Shared pieces of the command tests: a bot on the test database, and reading who a board pings."""

from __future__ import annotations

import random
from contextlib import asynccontextmanager

from bot.config import Config
from bot.discord.client import GameBot
from bot.services import Services
from bot.store import Database

GUILD = 1000


def make_bot(db: Database, clock, seed: int = 7) -> GameBot:
    """A bot that never syncs commands, runs no background loops (commands deliver their own announcements;
    tests call the scheduler and dispatcher themselves), and searches in a thread."""
    config = Config(token=None, database_path=db.path, dev_guild_id=None, log_level="INFO")
    return GameBot(config, services=Services(db, clock=clock, seed_source=random.Random(seed)),
                   sync_commands=False, run_background=False, ai_processes=0, render_processes=0)


@asynccontextmanager
async def running(db_path, clock, seed: int = 7):
    """A bot process on the database: leaving it closes the bot and the database, so entering again is a restart
    (or a crash between passes). Yields the harness and Ann and Bob, members of the test server."""
    from tests.bot.discord_harness import FakeDiscord

    db = await Database.open(db_path)
    try:
        async with FakeDiscord(make_bot(db, clock, seed), guild_id=GUILD) as f:
            yield f, [f.user(11, "Ann"), f.user(12, "Bob")]
            await f.settle()
    finally:
        await db.close()


def boards(sent) -> list:
    """The board posts among what the bot sent: new channel messages carrying the board image."""
    return [s for s in sent if s.kind == "channel_message" and any(name == "board.png" for name, _ in s.files)]


def pinged(board, people) -> dict:
    """The one player a board message pings."""
    who = [p for p in people if (board.content or "").strip() == f"<@{p['id']}>"]
    assert len(who) == 1, board.content
    return who[0]


def cards(sent) -> list:
    """The challenge cards among what the bot sent (new channel messages with Accept)."""
    return [s for s in sent if s.kind == "channel_message" and any(c.get("label") == "Accept" for c in s.components)]


def said(sent) -> str:
    """What the user was told privately (the reply that replaced 'thinking…', or a private followup)."""
    private = [s for s in sent if s.ephemeral and s.kind in ("followup", "edit_original", "response")]
    assert private, [s.kind for s in sent]
    return private[-1].text()


async def autocompleted_turn(fake, user, command: str, pick: int = 0, **options) -> str:
    """A whole turn from the move autocomplete of ``command``: the choice at ``pick``, following the groups
    that narrow a long list ('E… (7 moves)': its value is the start to type) until turns are listed."""
    typed = ""
    for _ in range(10):
        choices = await fake.autocomplete(user, command, "move", move=typed, **options)
        assert 1 <= len(choices) <= 25
        choice = choices[pick]
        if not choice["name"].startswith(choice["value"] + "…"):
            return choice["value"]
        typed = choice["value"]
    raise AssertionError("the autocomplete kept narrowing")
