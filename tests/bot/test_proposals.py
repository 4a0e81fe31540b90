"""Proposals as rows of their own: migration 013 moves the open offers of the old match columns into them, and a
proposal leaves 'open' once — accepted, declined, or lapsed when the match leaves its position."""

from __future__ import annotations

import pytest

import bot.store.postgres_db
import bot.store.sqlite_db
from bot.model import StalePosition
from bot.store import Database
from bot.store.db import migrations
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, CY, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL
BEFORE = 12                  # the last migration with the proposal columns in matches


@pytest.fixture
def empty_path(backend, tmp_path, request):
    """A database with no tables yet (the PostgreSQL test databases come migrated from a template)."""
    if backend == "sqlite":
        yield tmp_path / "old.sqlite3"
        return
    server = request.getfixturevalue("postgres_server")
    name = "before_proposals"
    server.sql(f"CREATE DATABASE {name}")
    yield server.url(name)
    server.drop(name)


async def open_before_proposals(db_path) -> Database:
    """The database as migration 012 left it (the offers in matches' columns)."""
    with pytest.MonkeyPatch.context() as patch:
        for module in (bot.store.sqlite_db, bot.store.postgres_db):
            patch.setattr(module, "migrations", lambda *a, _real=migrations: [m for m in _real(*a) if m[0] <= BEFORE])
        return await Database.open(db_path)


async def old_match(db: Database, *, status: str, ply: int, draw: tuple[int | None, str | None] = (None, None),
                    takeback: tuple[int | None, str | None] = (None, None)) -> int:
    async with db.transaction() as tx:
        match_id = await tx.insert(
            "INSERT INTO matches (game, players, guild_id, channel_id, status, seed, ply, created_by, created_at,"
            " started_at, draw_offer_ply, draw_accepted, takeback_ply, takeback_accepted)"
            " VALUES ('rincala', 3, ?, ?, ?, 1, ?, ?, '2026-01-01T10:00:00+00:00', '2026-01-01T11:00:00+00:00',"
            " ?, ?, ?, ?)", (GUILD, CHANNEL, status, ply, ANN.user_id, *draw, *takeback))
        await tx.executemany("INSERT INTO participants (match_id, user_id, name, invited_order, accepted, seat)"
                             " VALUES (?, ?, ?, ?, 1, ?)",
                             [(match_id, p.user_id, p.name, i, i) for i, p in enumerate((ANN, BOB, CY))])
    return match_id


async def test_migration_013_moves_the_open_offers_into_proposals_and_drops_the_columns(empty_path):
    db = await open_before_proposals(empty_path)
    try:
        people = f"{CY.user_id},{ANN.user_id}"
        both = await old_match(db, status="active", ply=4, draw=(4, people), takeback=(4, str(BOB.user_id)))
        stale = await old_match(db, status="active", ply=6, draw=(5, people), takeback=(3, str(BOB.user_id)))
        over = await old_match(db, status="finished", ply=4, draw=(4, people))
    finally:
        await db.close()
    db = await Database.open(empty_path)       # a restart: 013 applies
    try:
        rows = await db.fetchall("SELECT match_id, kind, ply, proposer, status FROM proposals ORDER BY match_id, kind")
        assert [tuple(r) for r in rows] == [(both, "draw", 4, CY.user_id, "open"),
                                            (both, "takeback", 4, BOB.user_id, "open")]
        agreed = await db.fetchall("SELECT p.kind, a.user_id FROM proposal_agreements a JOIN proposals p"
                                   " ON p.id = a.proposal_id ORDER BY p.kind, a.user_id")
        assert [tuple(r) for r in agreed] == [("draw", min(ANN.user_id, CY.user_id)),
                                              ("draw", max(ANN.user_id, CY.user_id)), ("takeback", BOB.user_id)]
        from bot.store.matches import MatchStore
        row, _ = await MatchStore(db).load(both)
        assert (row.draw_offer_ply, row.draw_accepted) == (4, (CY.user_id, ANN.user_id))   # the proposer first
        assert (row.takeback_ply, row.takeback_accepted) == (4, (BOB.user_id,))
        for match_id in (stale, over):
            row, _ = await MatchStore(db).load(match_id)
            assert (row.draw_offer_ply, row.draw_accepted, row.takeback_ply) == (None, (), None)
        columns = {c for c in dict(await db.fetchone("SELECT * FROM matches WHERE id = ?", (both,)))}
        assert not columns & {"draw_offer_ply", "draw_accepted", "takeback_ply", "takeback_accepted"}
        assert [v for v, _, _ in migrations()][-1] >= 13
    finally:
        await db.close()


async def rincala(services):
    match = await services.challenges.challenge("rincala", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB, CY], days_per_move=3)
    for person in (BOB, CY):
        match = await services.challenges.accept(match.id, person, guild_id=GUILD)
    return match


async def statuses(services, match_id):
    rows = await services.db.fetchall("SELECT kind, status FROM proposals WHERE match_id = ? ORDER BY id", (match_id,))
    return [tuple(r) for r in rows]


async def test_a_move_lets_the_offer_lapse_and_the_next_player_may_offer(services):
    match = await rincala(services)
    mover = match.to_move_user.user_id
    await services.draws.offer(match.id, mover, guild_id=GUILD)
    value, _ = match.game.turn_suggestions(match.position, "", 25)[0]
    match = (await services.play.submit_turn(match.id, mover, value, guild_id=GUILD)).match
    assert await statuses(services, match.id) == [("draw", "lapsed")]
    match = await services.draws.offer(match.id, match.to_move_user.user_id, guild_id=GUILD)
    assert match.row.draw_offer_ply == match.ply
    assert await statuses(services, match.id) == [("draw", "lapsed"), ("draw", "open")]


async def test_the_end_of_a_match_lets_its_offer_lapse(services):
    match = await rincala(services)
    mover = match.to_move_user.user_id
    await services.draws.offer(match.id, mover, guild_id=GUILD)
    other = next(p.user_id for p in match.seated if p.user_id != mover)
    match = await services.play.resign(match.id, other, guild_id=GUILD)
    assert await statuses(services, match.id) == [("draw", "lapsed")]
    assert match.row.draw_offer_ply is None


async def test_a_declined_offer_may_be_made_again_in_the_same_position(services):
    match = await rincala(services)
    mover = match.to_move_user.user_id
    first, second = (p.user_id for p in match.seated if p.user_id != mover)
    await services.draws.offer(match.id, mover, guild_id=GUILD)
    await services.draws.answer(match.id, first, guild_id=GUILD, ply=match.ply, accept=True)
    await services.draws.answer(match.id, second, guild_id=GUILD, ply=match.ply, accept=False)
    match = await services.draws.offer(match.id, mover, guild_id=GUILD)
    assert match.row.draw_accepted == (mover,)       # the new offer starts afresh: the old agreement stays behind
    await services.draws.answer(match.id, first, guild_id=GUILD, ply=match.ply, accept=True)
    match = await services.draws.answer(match.id, second, guild_id=GUILD, ply=match.ply, accept=True)
    assert match.status == "finished" and match.row.termination == "agreement"
    assert await statuses(services, match.id) == [("draw", "declined"), ("draw", "accepted")]


@pytest.mark.parametrize("status", ["declined", "accepted"])
async def test_a_decided_proposal_is_not_decided_again(services, status):
    match = await rincala(services)
    mover = match.to_move_user.user_id
    await services.draws.offer(match.id, mover, guild_id=GUILD)
    async with services.db.transaction() as tx:
        assert await services.matches.decide(tx, match.id, "draw", ply=match.ply, status=status, now="t")
    async with services.db.transaction() as tx:
        for again in ("accepted", "declined"):
            assert not await services.matches.decide(tx, match.id, "draw", ply=match.ply, status=again, now="t")
    assert await statuses(services, match.id) == [("draw", status)]


async def test_a_takeback_lets_the_draw_offer_of_the_undone_position_lapse(services):
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=0)
    match = await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    first = match.to_move_user.user_id
    value, _ = match.game.turn_suggestions(match.position, "", 25)[0]
    match = (await services.play.submit_turn(match.id, first, value, guild_id=GUILD)).match
    second = match.to_move_user.user_id
    await services.draws.offer(match.id, second, guild_id=GUILD)
    match = await services.takebacks.request(match.id, first, guild_id=GUILD)
    match = await services.takebacks.answer(match.id, second, guild_id=GUILD, ply=match.ply, accept=True)
    assert match.to_move_user.user_id == first and match.row.draw_offer_ply is None
    assert await statuses(services, match.id) == [("draw", "lapsed"), ("takeback", "accepted")]
    match = await services.draws.offer(match.id, first, guild_id=GUILD)          # a new offer in the new position
    assert match.row.draw_offer_ply == match.ply


async def test_a_proposal_in_a_position_the_match_has_left_or_after_its_end_is_not_opened(services):
    match = await rincala(services)
    async with services.db.transaction() as tx:
        for ply in (match.ply + 1, match.ply - 1):
            assert not await services.matches.propose(tx, match.id, "draw", ply=ply, user_id=ANN.user_id, now="t")
    match = await services.play.resign(match.id, BOB.user_id, guild_id=GUILD)
    async with services.db.transaction() as tx:           # nor in a match that is over
        assert not await services.matches.propose(tx, match.id, "draw", ply=match.ply, user_id=ANN.user_id, now="t")
    assert await statuses(services, match.id) == []


async def proposed(services, kind: str):
    """A 3-player match with an open proposal of ``kind``: (the match, the proposer, the two who answer)."""
    match = await services.challenges.challenge("rincala", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB, CY], days_per_move=0)
    for person in (BOB, CY):
        match = await services.challenges.accept(match.id, person, guild_id=GUILD)
    proposer = match.to_move_user.user_id
    if kind == "takeback":
        value, _ = match.game.turn_suggestions(match.position, "", 25)[0]
        match = (await services.play.submit_turn(match.id, proposer, value, guild_id=GUILD)).match
        match = await services.takebacks.request(match.id, proposer, guild_id=GUILD)
    else:
        match = await services.draws.offer(match.id, proposer, guild_id=GUILD)
    first, second = (p.user_id for p in match.seated if p.user_id != proposer)
    return match, proposer, first, second


@pytest.mark.parametrize("kind", ["draw", "takeback"])
async def test_the_last_acceptance_read_before_a_decline_is_refused_when_it_acts(services, kind):
    """The decline lands between the last acceptance's read (the proposal open) and its transaction: that
    transaction finds the proposal declined and neither ends the match nor undoes the turn."""
    answers = services.draws if kind == "draw" else services.takebacks
    match, proposer, first, second = await proposed(services, kind)
    await answers.answer(match.id, first, guild_id=GUILD, ply=match.ply, accept=True)
    read = await services.queries.get(match.id)
    await answers.answer(match.id, first, guild_id=GUILD, ply=match.ply, accept=False)
    with pytest.raises(StalePosition, match="no longer open"):
        await answers._accept(read, second, proposer)
    after = await services.queries.get(match.id)
    assert (after.status, after.ply) == ("active", match.ply)
    assert await statuses(services, match.id) == [(kind, "declined")]


@pytest.mark.parametrize("kind", ["draw", "takeback"])
async def test_a_decline_read_before_the_last_acceptance_is_refused_and_not_announced(services, kind):
    answers = services.draws if kind == "draw" else services.takebacks
    match, proposer, first, second = await proposed(services, kind)
    await answers.answer(match.id, first, guild_id=GUILD, ply=match.ply, accept=True)
    read = await services.queries.get(match.id)
    await answers.answer(match.id, second, guild_id=GUILD, ply=match.ply, accept=True)
    with pytest.raises(StalePosition, match="no longer open"):
        await answers._decline(read, first, proposer)
    assert await statuses(services, match.id) == [(kind, "accepted")]
    told = [r.payload.get("event") for r in await services.outbox.pending(match.id) if r.kind == kind]
    assert "declined" not in told
