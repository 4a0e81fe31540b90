"""Decisions under the SQL guard: two processes on one database, and tasks cancelled inside transactions."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.model import NotAllowed, StalePosition
from bot.services import Services
from bot.store import Database
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, CY, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL


@pytest.fixture
async def other(db_path, clock):
    """A second bot process: its own connection to the same database file."""
    db = await Database.open(db_path)
    yield Services(db, clock=clock, seed_source=random.Random(8))
    await db.close()


async def test_two_processes_accepting_a_three_seat_challenge_start_it_exactly_once(services, other):
    for round_ in range(25):
        match = await services.challenges.challenge("rincala", guild_id=GUILD, channel_id=CHANNEL + round_,
                                                    challenger=ANN, opponents=[BOB, CY], days_per_move=3)
        results = await asyncio.gather(services.challenges.accept(match.id, BOB, guild_id=GUILD),
                                       other.challenges.accept(match.id, CY, guild_id=GUILD))
        assert sorted(r.status for r in results) == ["active", "challenge"]   # the later one started it
        final = await services.queries.get(match.id)
        assert final.status == "active" and sorted(p.seat for p in final.participants) == [0, 1, 2]
        starts = [r for r in await services.outbox.pending(match.id) if r.kind == "board"]
        assert [r.payload["event"] for r in starts] == ["start"]          # announced once


async def test_the_same_player_accepting_from_two_processes_counts_once(services, other):
    match = await services.challenges.challenge("rincala", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB, CY], days_per_move=3)
    results = await asyncio.gather(services.challenges.accept(match.id, BOB, guild_id=GUILD),
                                   other.challenges.accept(match.id, BOB, guild_id=GUILD), return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, StalePosition | NotAllowed) for r in results if isinstance(r, Exception))
    assert (await services.queries.get(match.id)).status == "challenge"


async def test_resign_and_move_at_once_from_two_processes_apply_one(services, other):
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=3)
    match = await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    mover = match.to_move_user
    assert mover is not None
    waiting = next(p for p in match.seated if p is not mover)
    results = await asyncio.gather(
        services.play.submit_turn(match.id, mover.user_id, match.position.legal_moves()[0], guild_id=GUILD),
        other.play.resign(match.id, waiting.user_id, guild_id=GUILD, expected_ply=match.ply),   # as the button
        return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    done = await services.queries.get(match.id)
    changes = await services.ratings.changes(match.id)
    assert (done.status, len(changes)) in (("active", 0), ("finished", 2))
    ply = (await services.db.fetchone("SELECT COUNT(*) FROM moves WHERE match_id = ?", (match.id,)))[0]
    assert ply == done.ply


async def test_cancelling_a_turn_at_any_await_leaves_the_database_usable_and_whole(services, db, monkeypatch):
    """The k-th statement of a turn is cancelled while awaited (k = 1 is the BEGIN), for every k until the turn
    completes: the connection is never left inside a transaction, and the turn is stored whole or not at all."""
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=3)
    match = await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    if db.backend == "sqlite":
        target: object = db._conn
        names = ("execute", "executemany")
    else:                   # every statement of every pooled connection, BEGIN and COMMIT included
        import asyncpg
        target, names = asyncpg.Connection, ("execute", "executemany", "fetch", "fetchrow", "fetchval")
    real = {name: getattr(target, name) for name in names}

    async def in_transaction() -> bool:
        if db.backend == "sqlite":
            return db._conn.in_transaction
        row = await db.fetchone("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                                " AND pid <> pg_backend_pid() AND state <> 'idle'")
        return row[0] > 0
    state = {"calls": 0, "cancel_at": 0, "task": None}

    def counting(name):
        async def statement(*args, **kwargs):
            state["calls"] += 1
            if state["calls"] == state["cancel_at"]:
                state["task"].cancel()                        # lands on the await just below
            return await real[name](*args, **kwargs)      # (a class's function gets the connection in args)
        return statement
    cancelled_at = []
    for k in range(1, 60):
        match = await services.queries.get(match.id)
        mover = match.to_move_user
        assert mover is not None
        for name in real:
            monkeypatch.setattr(target, name, counting(name))
        state.update(calls=0, cancel_at=k)
        task = asyncio.create_task(services.play.submit_turn(match, mover.user_id, match.position.legal_moves()[0],
                                                             guild_id=GUILD))
        state["task"] = task
        try:
            await task
            finished = True
        except asyncio.CancelledError:
            finished = False
            cancelled_at.append(k)
        monkeypatch.undo()
        assert not await in_transaction()                       # never left inside a transaction
        row = await db.fetchone("SELECT ply, (SELECT COUNT(*) FROM moves WHERE match_id = m.id) FROM matches m"
                                " WHERE id = ?", (match.id,))
        assert row[0] == row[1]                                 # the turn is stored whole, or not at all
        async with db.transaction() as tx:                      # and the next write works
            await tx.execute("UPDATE matches SET board_message_id = ? WHERE id = ?", (k, match.id))
        if finished:
            break
    assert cancelled_at == list(range(1, k)) and len(cancelled_at) >= 5   # every statement of a turn was tried


async def test_a_move_after_its_deadline_is_refused_and_the_clock_settles_it(services, clock):
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=1)
    match = await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    woken = []
    services.events.deadline_set.subscribe(woken.append)
    clock.advance(days=1, seconds=1)
    mover = match.to_move_user
    assert mover is not None
    with pytest.raises(NotAllowed, match="time to move ran out"):
        await services.play.submit_turn(match.id, mover.user_id, match.position.legal_moves()[0], guild_id=GUILD)
    assert (await services.queries.get(match.id)).ply == 0 and woken == [match.deadline]
