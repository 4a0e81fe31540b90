"""Answers that land at the same moment (on PostgreSQL, truly at once on separate connections): two players
accepting one takeback, a decline racing the last acceptance, two hints of one player, and a takeback handing
the turn back to a player who is away."""

from __future__ import annotations

import asyncio
from datetime import datetime

import pytest

from bot.model import Person, StalePosition
from bot.services import Services
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, CY, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL


async def started(services: Services, game: str, people: list[Person], days: int = 0):
    match = await services.challenges.challenge(game, guild_id=GUILD, channel_id=CHANNEL, challenger=people[0],
                                                opponents=people[1:], days_per_move=days)
    for person in people[1:]:
        match = await services.challenges.accept(match.id, person, guild_id=GUILD)
    return match


async def one_turn(services: Services, match_id: int):
    """The player to move plays the first suggested turn; (the match after, who moved)."""
    match = await services.queries.get(match_id)
    who = match.to_move_user
    assert who is not None
    value, _ = match.game.turn_suggestions(match.position, "", 5)[0]
    return (await services.play.submit_turn(match, who.user_id, value, guild_id=GUILD)).match, who.user_id


async def test_two_players_accepting_one_takeback_at_once_both_count(services):
    match = await started(services, "rincala", [ANN, BOB, CY])
    before = (await services.queries.get(match.id)).position.encode()
    match, requester = await one_turn(services, match.id)
    await services.takebacks.request(match.id, requester, guild_id=GUILD)
    others = [p.user_id for p in match.seated if p.user_id != requester]
    await asyncio.gather(*(services.takebacks.answer(match.id, u, guild_id=GUILD, ply=match.ply, accept=True)
                           for u in others))
    after = await services.queries.get(match.id)
    assert after.position.encode() == before                              # undone: neither acceptance lost
    events = [e for e in await services.matches.events(match.id) if e[2] == "takeback"]
    assert len(events) == 1


async def test_a_decline_after_the_last_acceptance_stops_the_undo_still_on_its_way(services):
    match = await started(services, "rincala", [ANN, BOB, CY])
    match, requester = await one_turn(services, match.id)
    played = (await services.queries.get(match.id)).position.encode()
    await services.takebacks.request(match.id, requester, guild_id=GUILD)
    first, second = [p.user_id for p in match.seated if p.user_id != requester]
    await services.takebacks.answer(match.id, first, guild_id=GUILD, ply=match.ply, accept=True)
    asked = await services.queries.get(match.id, position=False)      # the last acceptance reads: still open
    await services.takebacks.answer(match.id, first, guild_id=GUILD, ply=match.ply, accept=False)   # changed mind
    with pytest.raises(StalePosition):   # then its transaction, which would undo, finds the request declined
        await services.takebacks._accept(asked, second, requester)
    assert (await services.queries.get(match.id)).position.encode() == played


async def test_two_hints_of_one_player_at_once_are_recorded_and_told_once(services):
    match = await started(services, "tintas", [ANN, BOB])
    match = await services.queries.get(match.id)
    who = match.to_move_user
    assert who is not None
    first = await asyncio.gather(services.hints.record(match, who.user_id), services.hints.record(match, who.user_id))
    assert sorted(first) == [False, True]
    hints = [e for e in await services.matches.events(match.id) if e[2] == "hint"]
    assert len(hints) == 1
    assert [r.kind for r in await services.outbox.pending(match.id)].count("hint") == 1


async def test_a_takeback_hands_the_turn_back_to_an_away_player_with_their_clock_waiting(services, clock):
    await services.settings.update_guild(GUILD, takebacks=True)
    match = await started(services, "tintas", [ANN, BOB], days=1)
    match, mover = await one_turn(services, match.id)
    status = await services.away.set(GUILD, mover, 3)
    assert status.until is not None
    other = next(p.user_id for p in match.seated if p.user_id != mover)
    await services.takebacks.request(match.id, mover, guild_id=GUILD)
    back = await services.takebacks.answer(match.id, other, guild_id=GUILD, ply=match.ply, accept=True)
    assert back.to_move_user is not None and back.to_move_user.user_id == mover
    deadline = back.row.deadline_at
    assert deadline is not None and datetime.fromisoformat(deadline) >= status.until   # waits for the return
