"""The tournament service's guards: who may act, entries once and only while open, the round paired once, the
result recorded in the match's ending, withdrawals — the races on PostgreSQL with two connections."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.model import NotAllowed, NotFound, Person, StalePosition
from bot.services import Services
from bot.store import Database
from bot.tournaments.model import Format
from tests.bot.tournament_support import (
    GUILD,
    PLAYERS,
    Recorder,
    create,
    entered,
    play_round,
    running_matches,
)
from tests.conftest import BOTH_BACKENDS

BACKENDS = BOTH_BACKENDS
P1, P2, P3, P4, P5 = PLAYERS[:5]


@pytest.fixture
async def other(db_path, clock):
    """A second process's services on the same database."""
    db = await Database.open(db_path)
    yield Services(db, clock=clock, seed_source=random.Random(8))
    await db.close()


async def rows(services: Services, table: str) -> int:
    row = await services.db.fetchone(f"SELECT COUNT(*) FROM {table}")
    assert row is not None
    return row[0]


async def test_only_a_manager_creates_where_the_server_keeps_it_to_managers(services):
    with pytest.raises(NotAllowed, match="Manage Server"):
        await services.tournaments.create(
            (await _settings()), guild_id=GUILD, channel_id=1, creator=P2, manager=False, name="Mine")
    assert await rows(services, "tournaments") == 0 and (await services.outbox.pending()) == []
    await services.tournaments.set_who_may_create(GUILD, "everyone", manager=True)
    view = await services.tournaments.create((await _settings()), guild_id=GUILD, channel_id=1, creator=P2,
                                             manager=False, name="Mine")
    assert view.created_by == P2.user_id


async def _settings():
    from bot.services.tournament_views import TournamentSettings
    return TournamentSettings(game="tintas", format=Format.ROUND_ROBIN)


async def test_only_the_creator_or_a_manager_starts_or_cancels(services):
    view = await create(services, max_entrants=8)       # created by P1
    await entered(services, view.id, 3)
    with pytest.raises(NotAllowed, match="creator or a server manager can start"):
        await services.tournaments.start(view.id, P2.user_id, guild_id=GUILD, manager=False)
    with pytest.raises(NotAllowed, match="creator or a server manager can cancel"):
        await services.tournaments.cancel(view.id, P2.user_id, guild_id=GUILD, manager=False)
    assert (await services.tournaments.read(view.id)).status == "open"
    started = await services.tournaments.start(view.id, P1.user_id, guild_id=GUILD, manager=False)
    assert started.status == "running" and started.total_rounds == 3       # three entrants: one sits out a round


async def test_an_entry_is_taken_once(services):
    view = await create(services, max_entrants=8)
    await services.tournaments.join(view.id, P2, guild_id=GUILD)
    before = await services.outbox.pending()
    with pytest.raises(NotAllowed, match="entered in this tournament already"):
        await services.tournaments.join(view.id, P2, guild_id=GUILD)
    assert len((await services.tournaments.read(view.id)).entrants) == 1
    assert await services.outbox.pending() == before


async def test_entries_are_taken_only_while_open(services):
    front = Recorder(services)
    view = await create(services, max_entrants=4)
    await entered(services, view.id, 4)               # full: it starts
    await front.settle()
    late = Person(999, "Late")
    with pytest.raises(StalePosition, match="no longer open"):
        await services.tournaments.join(view.id, late, guild_id=GUILD)
    assert len((await services.tournaments.read(view.id)).entrants) == 4


async def test_a_tournament_of_another_server_is_out_of_reach(services):
    view = await create(services, max_entrants=4)
    for call in (services.tournaments.join(view.id, P2, guild_id=GUILD + 1),
                 services.tournaments.view(view.id, guild_id=GUILD + 1),
                 services.tournaments.start(view.id, P1.user_id, guild_id=GUILD + 1, manager=True)):
        with pytest.raises(NotFound, match="no tournament"):
            await call
    assert (await services.tournaments.read(view.id)).entrants == ()


async def test_the_last_place_is_taken_once_by_two_processes_at_once(services, other):
    for _ in range(1):      # an event with a start time: filling it does not start it (which is guarded too)
        view = await create(services, max_entrants=4, start_at="2026-01-05T12:00:00+00:00")
        await entered(services, view.id, 3)
        stores = (services.tournaments.store, other.tournaments.store)
        meeting(stores, "add_entrant")
        results = await asyncio.gather(services.tournaments.join(view.id, P4, guild_id=GUILD),
                                       other.tournaments.join(view.id, P5, guild_id=GUILD), return_exceptions=True)
        unmeet(stores, "add_entrant")
        assert sum(not isinstance(r, Exception) for r in results) == 1, results
        assert all(isinstance(r, StalePosition) for r in results if isinstance(r, Exception)), results
        view = await services.tournaments.read(view.id)
        assert len(view.entrants) == 4 and view.status == "open"


async def test_a_round_is_paired_once_when_two_processes_race(services, other):
    view = await create(services, Format.SWISS, rounds=2, max_entrants=4)
    await entered(services, view.id, 4)
    meeting((services.tournaments.store, other.tournaments.store), "lock")    # both read the round as unpaired
    results = await asyncio.gather(services.tournaments.pair_round(view.id, 1),
                                   other.tournaments.pair_round(view.id, 1))
    assert sorted(results) == [False, True]
    view = await services.tournaments.read(view.id)
    assert len(view.rounds) == 1 and len(view.rounds[0].tables) == 2
    assert await rows(services, "matches") == 2


async def test_a_result_is_recorded_in_the_transaction_that_ends_the_match(services):
    view = await create(services, max_entrants=4)
    await entered(services, view.id, 4)
    assert await services.tournaments.pair_round(view.id, 1)
    match_id = (await running_matches(services, view.id))[0]
    match = await services.queries.get(match_id)
    loser = match.seated[0].user_id
    await services.play.resign(match_id, loser, guild_id=GUILD)
    view = await services.tournaments.read(view.id)
    table = next(t for t in view.rounds[0].tables if t.match_id == match_id)
    assert table.ranks is not None and table.ranks[table.seats.index(loser)] == 2
    kinds = [r.kind for r in await services.outbox.pending(tournament_id=view.id)]
    assert kinds[-1] == "tournament_standings"


MEET_WITHIN = 3.0      # seconds a racer waits for the other at the meeting point (a loaded machine is slow)


def meeting(objects: Any, name: str, *, after: bool = False) -> None:
    """Each of two racing calls waits at ``name`` (MEET_WITHIN at most) for the other to get there too: without
    the guard both decide before either commits; with it, the second is held before that point until the first
    commits, and the first goes on once the wait is out. Only on PostgreSQL: SQLite runs transactions one after
    another anyway (its test is the sequential case)."""
    first = objects[0]
    db = getattr(first, "db", None) or first.ctx.db      # a store's, or the tournament service's
    if db.backend != "postgres":
        return
    arrived: list[int] = []
    both = asyncio.Event()
    for obj in objects:
        real = getattr(obj, name)

        async def meet_then(*args: Any, real: Any = real, **kwargs: Any) -> Any:
            done = await real(*args, **kwargs) if after else None      # ``after``: meet once it has run
            arrived.append(1)
            if len(arrived) >= 2:
                both.set()
            try:
                await asyncio.wait_for(both.wait(), MEET_WITHIN)
            except TimeoutError:
                pass
            return done if after else await real(*args, **kwargs)
        setattr(obj, name, meet_then)


def unmeet(objects: Any, name: str) -> None:
    for obj in objects:
        if name in vars(obj):
            delattr(obj, name)


async def test_the_last_two_results_of_a_round_at_once_ask_for_the_next_round_once(services, other):
    for _ in range(1):      # unrated: no rating update serializes the two endings already
        view = await create(services, Format.SWISS, rounds=2, max_entrants=4, rated=False)
        await entered(services, view.id, 4)
        assert await services.tournaments.pair_round(view.id, 1)
        first, second = await running_matches(services, view.id)
        loser_of = {m: (await services.queries.get(m)).seated[0].user_id for m in (first, second)}
        both = (services.tournaments.store, other.tournaments.store)
        meeting(both, "read", after=True)        # each has read the round's tables before either decides
        await asyncio.gather(services.play.resign(first, loser_of[first], guild_id=GUILD),
                             other.play.resign(second, loser_of[second], guild_id=GUILD))
        unmeet(both, "read")
        kinds = [r.kind for r in await services.outbox.pending(tournament_id=view.id)]
        assert kinds.count("tournament_pairing") == 2        # round 1 at the start, round 2 once now
        assert kinds.count("tournament_standings") == 2


async def test_who_withdraws_from_a_swiss_loses_the_running_game_and_is_not_paired_again(services):
    front = Recorder(services)
    view = await create(services, Format.SWISS, rounds=3, max_entrants=4)
    await entered(services, view.id, 4)
    await front.settle()
    view = await services.tournaments.read(view.id)
    table = next(t for t in view.rounds[0].tables if P4.user_id in t.seats)
    opponent = next(u for u in table.seats if u != P4.user_id)
    await services.tournaments.withdraw(view.id, P4.user_id, guild_id=GUILD)
    match = await services.queries.get(table.match_id)
    assert match.status == "finished" and match.row.termination == "withdrew"
    await play_round(services, view.id, lambda seats: max(seats))
    await front.settle()
    view = await services.tournaments.read(view.id)
    done = next(t for t in view.rounds[0].tables if t.match_id == table.match_id)
    assert done.forfeit and done.points is not None and done.points[done.seats.index(opponent)] == 1
    assert all(P4.user_id not in t.seats for t in view.rounds[1].tables)
    assert sorted(len(t.seats) for t in view.rounds[1].tables) == [1, 2]     # three left: a game and a bye
    with pytest.raises(NotAllowed, match="not playing"):
        await services.tournaments.withdraw(view.id, P4.user_id, guild_id=GUILD)


async def test_two_dispatchers_deliver_each_tournament_row_exactly_once_and_in_order(services, other):
    ids = []
    for _ in range(6):
        view = await create(services, max_entrants=8)
        await entered(services, view.id, 3)           # a card and three updates per tournament
        ids.append(view.id)
    one, two = Recorder(services), Recorder(other)
    two.dispatcher.owner = "other"
    await asyncio.gather(one.settle(), two.settle())
    seen = [(t, n) for r in (one, two) for k, t, _m, n in r.seen]
    rows = [r for t in ids for r in await services.outbox.delivered(tournament_id=t)]
    assert len(seen) == len(rows) == 6 * 4
    for recorder in (one, two):                        # each tournament's posts in the order they were written
        for t in ids:
            events = [n.event for k, tid, _m, n in recorder.seen if tid == t]
            assert events in ([], ["open", "update", "update", "update"])


async def test_a_withdrawal_and_a_result_at_once_neither_deadlock_nor_count_twice(services, other):
    for _ in range(4):
        view = await create(services, Format.SWISS, rounds=2, max_entrants=4, rated=True)
        await entered(services, view.id, 4)
        assert await services.tournaments.pair_round(view.id, 1)
        view = await services.tournaments.read(view.id)
        mine = next(t for t in view.rounds[0].tables if P4.user_id in t.seats)
        theirs = next(t for t in view.rounds[0].tables if t is not mine)
        opponent = next(u for u in mine.seats if u != P4.user_id)
        results = await asyncio.gather(
            services.tournaments.withdraw(view.id, P4.user_id, guild_id=GUILD),
            other.play.resign(mine.match_id, opponent, guild_id=GUILD),
            other.play.resign(theirs.match_id, theirs.seats[0], guild_id=GUILD), return_exceptions=True)
        assert all(not isinstance(r, Exception) or isinstance(r, StalePosition) for r in results), results
        view = await services.tournaments.read(view.id)
        assert all(t.ranks is not None for t in view.rounds[0].tables)
        assert view.entrant(P4.user_id).withdrawn_round == 2      # type: ignore[union-attr]
        kinds = [r.kind for r in await services.outbox.pending(tournament_id=view.id)]
        assert kinds.count("tournament_pairing") == 2 and kinds.count("tournament_standings") >= 2
