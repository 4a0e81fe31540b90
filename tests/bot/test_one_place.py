"""SQL in the store: a hint is recorded only in the position it was for, once however many processes record it;
the store answers the readiness probe."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.health import Probe
from bot.model import StalePosition
from bot.services import Services
from bot.store import Database
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL

HINT_RACE_ROUNDS = 15    # matches in which two processes record the same hint at once


@pytest.fixture
async def other(db_path, clock):
    """A second bot process: its own connection to the same database."""
    db = await Database.open(db_path)
    yield Services(db, clock=clock, seed_source=random.Random(8))
    await db.close()


async def started(services, *, days: int):
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=days)
    await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    return await services.queries.get(match.id)


async def test_a_hint_recorded_after_the_match_moved_on_is_refused_and_changes_nothing(services):
    match = await started(services, days=0)
    asked = match
    mover = match.to_move_user.user_id
    move = match.position.legal_moves()[0]
    await services.play.submit_turn(match.id, mover, [move], guild_id=GUILD)
    events = await services.matches.events(match.id)
    pending = await services.outbox.pending(match.id)
    with pytest.raises(StalePosition, match="position changed"):
        await services.hints.record(asked, mover)           # its analysis was of the position before the move
    assert await services.matches.events(match.id) == events
    assert await services.outbox.pending(match.id) == pending


async def test_one_hint_recorded_by_two_processes_at_once_is_logged_and_told_once(services, other):
    for _ in range(HINT_RACE_ROUNDS):
        match = await started(services, days=0)
        mover = match.to_move_user.user_id
        firsts = await asyncio.gather(services.hints.record(match, mover), other.hints.record(match, mover))
        assert sorted(firsts) == [False, True]
        assert [e[2] for e in await services.matches.events(match.id)].count("hint") == 1
        assert [r.kind for r in await services.outbox.pending(match.id)].count("hint") == 1


async def test_the_services_open_their_database_and_answer_the_readiness_probe(db_path):
    services = await Services.open(db_path)
    answers = Probe(services.ping, cache=0)
    try:
        assert await answers()
    finally:
        await services.db.close()
    assert not await answers()          # a closed database does not answer: not ready
