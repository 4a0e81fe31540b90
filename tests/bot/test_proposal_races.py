"""Proposals decide once (draw offers and takebacks): two bot processes on one database answer at the same time.

Each race is a 3-player Rincala match where the proposer's first opponent has accepted; then that opponent
declines while the second accepts (the last acceptance), from two service stacks on two connections. Whichever
commits first wins: a decline that was acknowledged leaves the match as it was, an acceptance that was
acknowledged drew it (or undid the turn). ``PROPOSAL_RACE_ROUNDS`` rounds per race (200 in
``bench/bench_proposal_races.py``); the PostgreSQL half is where the match lock and the conditional writes are
needed (SQLite transactions are serial)."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

import pytest

from bot.model import Match, NotAllowed, ServiceError, StalePosition
from bot.services import Services
from bot.store import Database
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, CY, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL
PROPOSAL_RACE_ROUNDS = 30    # rounds per race in the test suite (the bench runs 200)
SIMULTANEOUS_ROUNDS = 20     # rounds of two acceptances at once


@pytest.fixture
async def other(db_path, clock):
    """A second bot process: its own connection to the same database."""
    db = await Database.open(db_path)
    yield Services(db, clock=clock, seed_source=random.Random(8))
    await db.close()


@dataclass
class Table:
    """A 3-player match with an open proposal: who made it, who answers first and second."""
    match: Match
    proposer: int
    first: int
    second: int


async def rincala(services: Services, channel: int, *, days: int) -> Match:
    match = await services.challenges.challenge("rincala", guild_id=GUILD, channel_id=channel, challenger=ANN,
                                                opponents=[BOB, CY], days_per_move=days)
    for person in (BOB, CY):
        match = await services.challenges.accept(match.id, person, guild_id=GUILD)
    return match


async def draw_offered(services: Services, channel: int) -> Table:
    """A rated 3-player match whose player to move offered a draw."""
    match = await rincala(services, channel, days=3)
    proposer = match.to_move_user.user_id
    first, second = (p.user_id for p in match.seated if p.user_id != proposer)
    match = await services.draws.offer(match.id, proposer, guild_id=GUILD)
    return Table(match, proposer, first, second)


async def takeback_requested(services: Services, channel: int) -> Table:
    """A casual 3-player match whose first mover played one turn and asked to take it back."""
    match = await rincala(services, channel, days=0)
    proposer = match.to_move_user.user_id
    value, _ = match.game.turn_suggestions(match.position, "", 25)[0]
    match = (await services.play.submit_turn(match, proposer, value, guild_id=GUILD)).match
    first, second = (p.user_id for p in match.seated if p.user_id != proposer)
    match = await services.takebacks.request(match.id, proposer, guild_id=GUILD)
    return Table(match, proposer, first, second)


KINDS = {"draw": draw_offered, "takeback": takeback_requested}


def answering(services: Services, kind: str):
    return services.draws if kind == "draw" else services.takebacks


async def acted(services: Services, kind: str, table: Table) -> bool:
    """Whether the proposal was carried out: the match drawn, or the turn undone (the match one ply on)."""
    match = await services.queries.get(table.match.id, position=False)
    if kind == "draw":
        return match.status == "finished" and match.row.termination == "agreement"
    return match.ply == table.match.ply + 1 and match.row.whole_turns == 0


async def outcome(call) -> bool:
    """Whether an answer was acknowledged (True) or refused with a clear service refusal (False)."""
    try:
        await call
    except (StalePosition, NotAllowed):
        return False
    return True


async def decline_against_last_acceptance(services: Services, other: Services, kind: str, rounds: int
                                          ) -> list[str]:
    """``rounds`` races: the first opponent (who had accepted) declines through one process while the second
    accepts through the other. The violations found, described."""
    violations: list[str] = []
    for round_ in range(rounds):
        table = await KINDS[kind](services, CHANNEL + round_)
        ply = table.match.ply
        await answering(services, kind).answer(table.match.id, table.first, guild_id=GUILD, ply=ply, accept=True)
        decliner, acceptor = (services, other) if round_ % 2 == 0 else (other, services)   # both ways round
        decline = answering(decliner, kind).answer(table.match.id, table.first, guild_id=GUILD, ply=ply,
                                                   accept=False)
        accept = answering(acceptor, kind).answer(table.match.id, table.second, guild_id=GUILD, ply=ply, accept=True)
        calls = (decline, accept) if round_ % 4 < 2 else (accept, decline)
        results = await asyncio.gather(*(outcome(c) for c in calls))
        declined, accepted = results if round_ % 4 < 2 else results[::-1]
        done = await acted(services, kind, table)
        told = [r.payload.get("event") for r in await services.outbox.pending(table.match.id) if r.kind == kind]
        if declined and done:
            violations.append(f"round {round_}: the decline was acknowledged and the {kind} was carried out")
        if accepted and not done:
            violations.append(f"round {round_}: the last acceptance was acknowledged and the {kind} was not done")
        if declined == accepted:
            violations.append(f"round {round_}: {'both' if declined else 'neither'} answer acknowledged")
        if told.count("declined") != int(declined):
            violations.append(f"round {round_}: the decline was announced {told.count('declined')} times")
    return violations


@pytest.mark.parametrize("kind", ["draw", "takeback"])
async def test_a_decline_and_the_last_acceptance_at_once_decide_once(services, other, kind):
    assert await decline_against_last_acceptance(services, other, kind, PROPOSAL_RACE_ROUNDS) == []


async def acceptances_at_once(services: Services, other: Services, kind: str, rounds: int) -> list[int]:
    """``rounds`` times, the two other players accept at the same moment through two processes; the rounds where
    an acceptance was refused or lost (the proposal not carried out)."""
    lost = []
    for round_ in range(rounds):
        table = await KINDS[kind](services, CHANNEL + round_)
        results = await asyncio.gather(*(
            outcome(answering(stack, kind).answer(table.match.id, who, guild_id=GUILD, ply=table.match.ply,
                                                  accept=True))
            for stack, who in ((services, table.first), (other, table.second))))
        if results != [True, True] or not await acted(services, kind, table):
            lost.append(round_)
    return lost


@pytest.mark.parametrize("kind", ["draw", "takeback"])
async def test_two_acceptances_at_once_from_two_processes_are_never_lost(services, other, kind):
    """The later acceptance sees the earlier's agreement (the match lock orders them on PostgreSQL), so the
    proposal is carried out every time, once."""
    assert await acceptances_at_once(services, other, kind, SIMULTANEOUS_ROUNDS) == []


@pytest.mark.parametrize("kind", ["draw", "takeback"])
async def test_agreeing_twice_at_once_counts_once_and_is_refused_once(services, other, kind):
    """One player presses Accept in two processes at once: the database keeps one agreement (the key of
    proposal_agreements), the second press is refused, and the proposal still waits for the last player."""
    table = await KINDS[kind](services, CHANNEL)
    results = await asyncio.gather(*(
        answering(stack, kind).answer(table.match.id, table.first, guild_id=GUILD, ply=table.match.ply, accept=True)
        for stack in (services, other)), return_exceptions=True)
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], NotAllowed) and "already accepted" in str(refused[0])
    assert not await acted(services, kind, table)
    rows = await services.db.fetchall("SELECT a.user_id FROM proposal_agreements a JOIN proposals p"
                                      " ON p.id = a.proposal_id WHERE p.match_id = ?", (table.match.id,))
    assert sorted(r[0] for r in rows) == sorted([table.proposer, table.first])
    await answering(other, kind).answer(table.match.id, table.second, guild_id=GUILD, ply=table.match.ply,
                                        accept=True)
    assert await acted(services, kind, table)


async def test_two_offers_at_once_open_one(services, other):
    """The player to move offers a draw from two processes at once: one offer (one open proposal per kind)."""
    match = await rincala(services, CHANNEL, days=3)
    mover = match.to_move_user.user_id
    results = await asyncio.gather(*(stack.draws.offer(match.id, mover, guild_id=GUILD) for stack in (services, other)),
                                   return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, ServiceError) for r in results if isinstance(r, Exception))
    rows = await services.db.fetchall("SELECT status FROM proposals WHERE match_id = ?", (match.id,))
    assert [r[0] for r in rows] == ["open"]
    offers = [r for r in await services.outbox.pending(match.id) if r.kind == "draw"]
    assert len(offers) == 1
