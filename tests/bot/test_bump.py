"""Bump through the command tree: only the match's players and the server's managers may re-post its board
(and so ping the player to move), at most once per cooldown per match, also from two processes at once."""

from __future__ import annotations

import asyncio
import random

import discord
import pytest

from bot.model import NotAllowed
from bot.services import Services
from bot.services.bumps import BUMP_COOLDOWN
from bot.store import Database
from tests.bot.support import boards, cards, said
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL

ADMIN = discord.Permissions(manage_guild=True) | discord.Permissions.text() | discord.Permissions(view_channel=True)


async def start(fake, people):
    ann, bob = people[:2]
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob))[0]
    return boards(await fake.click(bob, card.button("Accept")["custom_id"], message=card))[-1]


def posts(out) -> list:
    return [s for s in out if s.kind == "channel_message"]


async def bump(fake, who, board):
    return await fake.click(who, board.button("Bump")["custom_id"], message=board)


async def test_a_stranger_cannot_bump_and_nothing_is_posted(fake, people):
    board = await start(fake, people)
    out = await bump(fake, people[2], board)
    assert "Only the players of this match (and members with the Manage Server permission) can bump" in said(out)
    assert posts(out) == [] and not any(s.mentions for s in out)
    assert posts(await bump(fake, people[0], board))            # the cooldown was not spent by the refusal


async def test_a_server_manager_may_bump_a_match_they_do_not_play(fake, people):
    board = await start(fake, people)
    manager = fake.user(9, "Mod", permissions=ADMIN)
    assert len(boards(await bump(fake, manager, board))) == 1


async def test_a_second_bump_within_the_cooldown_is_refused_saying_when(fake, people, clock):
    board = await start(fake, people)
    first = clock.now
    assert len(boards(await bump(fake, people[0], board))) == 1
    clock.advance(minutes=9)
    out = await bump(fake, people[1], board)                    # the other player: the cooldown is the match's
    again = int((first + BUMP_COOLDOWN).timestamp())
    assert f"This board was bumped less than 10 minutes ago; it can be bumped again <t:{again}:R>." in said(out)
    assert posts(out) == []
    clock.advance(minutes=1)
    assert len(boards(await bump(fake, people[1], board))) == 1


async def test_the_refusals_are_translated(fake, people, clock):
    board = await start(fake, people)
    fake.locale = "de"
    assert "Nur die Spieler dieser Partie" in said(await bump(fake, people[2], board))
    await bump(fake, people[0], board)
    text = said(await bump(fake, people[0], board))
    assert "neu gepostet" in text and "<t:" in text


@pytest.fixture
async def other(db_path, clock):
    """A second bot process: its own connection to the same database."""
    db = await Database.open(db_path)
    yield Services(db, clock=clock, seed_source=random.Random(8))
    await db.close()


async def test_two_processes_bumping_at_once_bump_once(services, other):
    """The cooldown is a conditional write: of two bumps at the same moment from two connections (on PostgreSQL
    truly at once), exactly one is taken, on a match never bumped and on one bumped long ago."""
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB])
    await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    for _ in range(10):
        results = await asyncio.gather(
            services.bumps.bump(match.id, ANN.user_id, guild_id=GUILD, manager=False),
            other.bumps.bump(match.id, BOB.user_id, guild_id=GUILD, manager=False), return_exceptions=True)
        assert sum(not isinstance(r, Exception) for r in results) == 1, results
        assert all(isinstance(r, NotAllowed) for r in results if isinstance(r, Exception))
        services.clock.advance(minutes=10)      # type: ignore[attr-defined]


async def test_a_board_of_a_match_that_is_over_is_not_bumped(fake, people):
    board = await start(fake, people)
    confirm = (await fake.slash(people[0], "tintas resign"))[-1]
    await fake.click(people[0], confirm.button("Yes, resign")["custom_id"], message=confirm)
    out = await bump(fake, people[0], board)                     # the old board still carries its Bump button
    assert "That match is over; nothing to bump." in said(out) and posts(out) == []
