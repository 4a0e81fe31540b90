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


@pytest.fixture
def people(fake):
    """Ann, Bob and Cy, members of the test server (files that need others define their own)."""
    return fake.user(11, "Ann"), fake.user(12, "Bob"), fake.user(13, "Cy")
