"""Rules decided in services, SQL in the store: the analysis service applies fair play to every position it hands
out; the teams an open challenge's card shows are the teams its joiners get; a hint is recorded only in the
position it was for; the store answers the readiness probe."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot import records
from bot.health import Probe
from bot.model import BadInput, NotAllowed, Person, StalePosition
from bot.services import Services
from bot.services.challenges import open_seat_teams
from bot.store import Database
from engines import GAMES
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, CY, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL

DEE = Person(14, "Dee")
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


async def test_the_analysis_service_refuses_a_rated_match_in_progress_by_code_and_by_record(services):
    rated = await started(services, days=3)
    tintas = GAMES["tintas"]
    with pytest.raises(NotAllowed, match="Fair play"):
        await services.analysis.of_code(tintas, rated.position.encode())
    found, frames = await services.queries.turns(rated.id, guild_id=GUILD)
    record = records.parse(records.write(records.from_match(found, frames, site="test")))
    with pytest.raises(NotAllowed, match="Fair play"):
        await services.analysis.of_record(tintas, record, None)


async def test_the_analysis_service_hands_out_a_casual_position_and_refuses_bad_input(services):
    casual = await started(services, days=0)
    tintas = GAMES["tintas"]
    position = await services.analysis.of_code(tintas, "  " + casual.position.encode() + " ")
    assert position.state.encode() == casual.position.encode() and position.previous is None
    with pytest.raises(BadInput, match="no Tintas position code"):
        await services.analysis.of_code(tintas, "nonsense")
    with pytest.raises(BadInput, match="characters; no Tintas position code is that long"):
        await services.analysis.of_code(tintas, "x" * 2001)
    found, frames = await services.queries.turns(casual.id, guild_id=GUILD)
    record = records.parse(records.write(records.from_match(found, frames, site="test")))
    with pytest.raises(BadInput, match="Tintas record; use /tintas analyze"):
        await services.analysis.of_record(GAMES["rincala"], record, None)


async def test_the_teams_an_open_challenge_shows_are_the_teams_its_joiners_get(services):
    match = await services.challenges.challenge("spinca", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[], players=4)
    promised: list[int] = []
    for person in (BOB, CY, DEE):
        before = await services.queries.get(match.id, position=False)
        promised.append(open_seat_teams(before)[0])         # the card: the team the next joiner gets
        assert len(open_seat_teams(before)) == before.row.open_seats
        await services.challenges.join(match.id, person, guild_id=GUILD)
    after = await services.queries.get(match.id, position=False)
    assert open_seat_teams(after) == []
    got = [after.participant(p.user_id).team for p in (BOB, CY, DEE)]
    assert got == promised == [1, 0, 1]                     # the challenger partners the second to join


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
