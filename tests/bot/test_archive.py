"""Compact records: an ended match's move log archived as one verified compressed row, read back unchanged.

Every reader of the log (the move lists, the positions cache, replays and records, the log check, ratings
rebuild) gives the same answer before and after archiving, for every game; a log that does not reproduce its
stored positions is never archived; the archiver waits ARCHIVE_AFTER and for every announcement to be delivered,
and two archivers at once archive a match once.
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

import pytest

from bot import records
from bot.__main__ import compact_db
from bot.archiver import ARCHIVE_AFTER, Archiver
from bot.services import Services
from bot.services.positions import Positions
from bot.store import Database
from bot.store.archive import FORMAT, LogMismatch, decode
from bot.store.archives import ArchiveStore
from engines import GAMES
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, GUILD, FakeClock

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL

BLOB_BUDGET = 4 * 1024      # bytes of one archived log of a long game (the budget is ~5 KB per match in all)
MAX_TURNS = 2000


async def play_out(services: Services, clock: FakeClock, game: str, rng: random.Random, *,
                   days_per_move: int | None = 3, turns: int = MAX_TURNS):
    """A 2-player match of random legal turns (minutes to a day apart), to its end or ``turns`` turns."""
    match = await services.challenges.challenge(game, guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=days_per_move)
    match = await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    for _ in range(turns):
        if match.status != "active":
            break
        clock.advance(seconds=rng.randint(0, 20000))
        value, _ = rng.choice(GAMES[game].turn_suggestions(match.position, "", 40))
        match = (await services.play.submit_turn(match.id, match.to_move_user.user_id, value, guild_id=GUILD)).match
    return match


async def deliver_all(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute("UPDATE outbox SET done_at = created_at, result = 'sent', message_id = 1"
                         " WHERE done_at IS NULL")


async def readers(services: Services, match_id: int) -> dict:
    """What every reader of the log gives for a match (the positions cache emptied first)."""
    store = services.ctx.matches
    services.ctx.positions = Positions()
    match = await services.queries.get(match_id)
    row = match.row
    _played, frames = await services.queries.turns(match_id, guild_id=GUILD)
    every = await store.moves(match_id, with_undone=True)
    plies = sorted({0, *(mv.ply for mv in every), row.ply})
    return {
        "moves": await store.moves(match_id),
        "with_undone": every,
        "after": [await store.moves(match_id, after_ply=p) for p in plies[:: max(1, len(plies) // 7)]],
        "at_ply": [await store.moves(match_id, at_ply=p) for p in plies],
        "from": [await store.moves_from(match_id, p) for p in plies[:: max(1, len(plies) // 7)]],
        "position_at": [await store.position_at(match_id, p) for p in plies],
        "position": (match.state.encode(), match.previous and match.previous.encode(), match.last_turn),
        "frames": [(s.encode(), p and p.encode(), moves) for s, p, moves in frames],      # the replay GIF's input
        "record": records.write(records.from_match(match, frames, site="test")),       # /match record
        "reproduces": await services.queries.log_reproduces_position(match_id),
        "rebuilt": (await services.ratings.rebuild(GUILD), await services.ratings.snapshot()),
    }


async def archive_now(services: Services, clock: FakeClock) -> Archiver:
    await deliver_all(services.db)
    clock.advance(seconds=ARCHIVE_AFTER.total_seconds() + 1)
    archiver = Archiver(services)
    return archiver


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_game_reads_the_same_after_archiving(services, clock, game):
    match = await play_out(services, clock, game, random.Random(f"{game}-1"))
    assert match.status == "finished"
    before = await readers(services, match.id)
    archiver = await archive_now(services, clock)
    tally = await archiver.run_batch()
    assert tally.archived == 1 and not tally.failed
    assert (await services.db.fetchone("SELECT COUNT(*) FROM moves WHERE match_id = ?", (match.id,)))[0] == 0
    stored = await ArchiveStore(services.db).stored(match.id)
    assert stored is not None and stored[2] == len(before["with_undone"])
    services.ctx.matches._archives.clear()        # read it back from the database, not the decoded cache
    after = await readers(services, match.id)
    assert after == before


async def test_multi_ply_turns_keep_their_turns_and_seats(services, clock):
    """Quincala and Rincala turns can be several plies (one seat moving on): the archive keeps which turn
    (submission) and seat each ply was."""
    for game in ("quincala", "rincala"):
        match = await play_out(services, clock, game, random.Random(f"{game}-multi"))
        rows = await services.ctx.matches.moves(match.id)
        assert any(a.seat == b.seat for a, b in zip(rows, rows[1:], strict=False)), game   # a turn of several plies
    archiver = await archive_now(services, clock)
    assert (await archiver.run_batch()).archived == 2
    for match_id in (1, 2):
        fmt, blob, _plies = await ArchiveStore(services.db).stored(match_id)
        _setup, logged = decode(int(fmt), bytes(blob))
        assert [(m.ply, m.turn, m.seat, m.move) for m in logged] == [
            (m.ply, m.turn, m.seat, m.move) for m in await services.ctx.matches.moves(match_id)]


async def test_a_match_with_a_takeback_archives_its_undone_moves_too(services, clock):
    rng = random.Random("takeback")
    match = await play_out(services, clock, "tintas", rng, days_per_move=0, turns=6)   # casual
    mover = next(p for p in match.seated if p.seat == match.row.last_seat)
    other = next(p for p in match.seated if p.user_id != mover.user_id)
    asked = await services.takebacks.request(match.id, mover.user_id, guild_id=GUILD)
    await services.takebacks.answer(match.id, other.user_id, guild_id=GUILD, ply=asked.ply, accept=True)
    match = await services.queries.get(match.id)
    for _ in range(4):
        clock.advance(seconds=rng.randint(0, 900))
        value, _ = rng.choice(GAMES["tintas"].turn_suggestions(match.position, "", 40))
        match = (await services.play.submit_turn(match.id, match.to_move_user.user_id, value, guild_id=GUILD)).match
    match = await services.play.resign(match.id, match.to_move_user.user_id, guild_id=GUILD)
    before = await readers(services, match.id)
    assert any(mv.undone_by is not None for mv in before["with_undone"])
    archiver = await archive_now(services, clock)
    assert (await archiver.run_batch()).archived == 1
    services.ctx.matches._archives.clear()
    assert await readers(services, match.id) == before


@pytest.mark.parametrize("tamper", [
    "UPDATE moves SET position = 'not a position' WHERE match_id = 1 AND ply = 3",
    "UPDATE matches SET position = (SELECT position FROM moves WHERE match_id = 1 AND ply = 2) WHERE id = 1",
    "UPDATE moves SET move = 'Z9' WHERE match_id = 1 AND ply = 4"])
async def test_a_log_that_does_not_reproduce_its_positions_is_not_archived(services, clock, tamper, caplog):
    await play_out(services, clock, "tintas", random.Random("tamper"))
    await play_out(services, clock, "spinca", random.Random("fine"))
    async with services.db.transaction() as tx:
        await tx.execute(tamper)
    rows = await services.db.fetchall("SELECT * FROM moves WHERE match_id = 1 ORDER BY ply")
    archiver = await archive_now(services, clock)
    tally = await archiver.run_batch()
    assert tally.failed == [1] and tally.archived == 1          # the other match is archived all the same
    assert "match 1 is NOT archived" in caplog.text
    assert await services.db.fetchall("SELECT * FROM moves WHERE match_id = 1 ORDER BY ply") == rows
    assert await ArchiveStore(services.db).stored(1) is None
    again = await archiver.run_batch()                          # not tried (nor logged) again by this process
    assert again.failed == [] and again.archived == 0


async def test_the_archiver_waits_for_the_delay_and_for_every_announcement(services, clock):
    match = await play_out(services, clock, "tintas", random.Random("delay"))
    await deliver_all(services.db)
    async with services.db.transaction() as tx:      # one late announcement still to deliver, one that failed
        ids = [r[0] for r in await tx.fetchall("SELECT id FROM outbox WHERE match_id = ? ORDER BY id", (match.id,))]
        await tx.execute("UPDATE outbox SET done_at = NULL, result = NULL WHERE id = ?", (ids[-1],))
        await tx.execute("UPDATE outbox SET result = 'failed: 403' WHERE id = ?", (ids[0],))
    archiver = Archiver(services)
    clock.advance(seconds=ARCHIVE_AFTER.total_seconds() - 60)
    assert (await archiver.run_batch()).archived == 0                # too soon
    clock.advance(seconds=120)
    assert (await archiver.run_batch()).archived == 0                # an announcement is not delivered yet
    assert await ArchiveStore(services.db).stored(match.id) is None
    async with services.db.transaction() as tx:
        await tx.execute("UPDATE outbox SET done_at = ?, result = 'sent' WHERE id = ?", ("2026-01-01", ids[-1]))
    assert (await archiver.run_batch()).archived == 1
    left = await services.db.fetchall("SELECT id, result FROM outbox WHERE match_id = ?", (match.id,))
    assert [tuple(r) for r in left] == [(ids[0], "failed: 403")]       # the outbox's delivered rows are gone


async def test_an_active_match_is_never_archived(services, clock):
    active = await play_out(services, clock, "tintas", random.Random("active"), turns=3)
    assert active.status == "active"
    archiver = await archive_now(services, clock)
    assert (await archiver.run_batch()).archived == 0
    assert await ArchiveStore(services.db).archive(active.id, now="2026-02-01T00:00:00+00:00") == "not ended"


async def test_two_archivers_at_once_archive_each_match_once(db_path, clock):
    first = await Database.open(db_path)
    second = await Database.open(db_path)           # another process on the same database
    try:
        one = Services(first, clock=clock, seed_source=random.Random(3))
        two = Services(second, clock=clock, seed_source=random.Random(4))
        ids = [(await play_out(one, clock, game, random.Random(game))).id for game in ("tintas", "spinca", "rincala")]
        await deliver_all(first)
        clock.advance(seconds=ARCHIVE_AFTER.total_seconds() + 1)
        tallies = await asyncio.gather(Archiver(one).run_batch(), Archiver(two).run_batch(),
                                       ArchiveStore(second).archive(ids[0], now="2026-02-01T00:00:00+00:00"))
        archived = tallies[0].archived + tallies[1].archived + (tallies[2] == "archived")
        assert archived == len(ids)
        assert (await first.fetchone("SELECT COUNT(*) FROM move_archives"))[0] == len(ids)
        for match_id in ids:
            assert await one.queries.log_reproduces_position(match_id)
    finally:
        await first.close()
        await second.close()


async def test_a_long_random_game_archives_within_the_budget(services, clock):
    """Quincala's logs are the longest (~200 plies of several-ply turns); its blob stays under BLOB_BUDGET."""
    match = await play_out(services, clock, "quincala", random.Random("long"))
    plies = len(await services.ctx.matches.moves(match.id, with_undone=True))
    archiver = await archive_now(services, clock)
    assert (await archiver.run_batch()).archived == 1
    fmt, blob, stored = await ArchiveStore(services.db).stored(match.id)
    assert fmt == FORMAT and stored == plies >= 100
    assert len(bytes(blob)) <= BLOB_BUDGET, (len(bytes(blob)), plies)


def test_an_unknown_archive_format_is_refused():
    with pytest.raises(LogMismatch):
        decode(FORMAT + 1, b"")


async def test_compact_db_archives_an_existing_database_at_once(db_path, capsys):
    past = FakeClock(datetime(2020, 3, 1, 12, 0, tzinfo=UTC))    # matches that ended long ago (the real clock runs)
    db = await Database.open(db_path)
    try:
        services = Services(db, clock=past, seed_source=random.Random(5))
        for i in range(5):
            await play_out(services, past, ("tintas", "spinca")[i % 2], random.Random(i))
        await deliver_all(db)
    finally:
        await db.close()
    assert await compact_db(db_path, batch=2) == 0
    out = capsys.readouterr().out
    assert "archived 2 matches so far" in out and "5 matches archived" in out
    db = await Database.open(db_path)
    try:
        assert (await db.fetchone("SELECT COUNT(*) FROM moves"))[0] == 0
        assert (await db.fetchone("SELECT COUNT(*) FROM move_archives"))[0] == 5
        services = Services(db, clock=past)
        for match_id in range(1, 6):
            assert await services.queries.log_reproduces_position(match_id)
    finally:
        await db.close()
