"""The offline Discord every command test drives."""

from __future__ import annotations

import pytest

from tests.bot.discord_harness import FakeDiscord
from tests.bot.support import GUILD, make_bot


@pytest.fixture
async def fake(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD) as f:
        yield f
        await f.settle()            # let background work (the bot's turns) finish before the database closes
