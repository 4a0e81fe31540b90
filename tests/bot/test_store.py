"""Storage: numbered migrations, the move log as the source of truth, turns stored exactly once."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.model import NotAllowed, StalePosition
from bot.services import Services
from bot.store import Database
from bot.store.db import migrations
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL


async def start_tintas(services: Services):
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB])
    return await services.challenges.accept(match.id, BOB, guild_id=GUILD)


async def play_random_turns(services: Services, match, turns: int, rng: random.Random):
    for _ in range(turns):
        if match.status != "active":
            break
        mover = match.to_move_user
        value, _ = rng.choice(match.game.turn_suggestions(match.state, "", 25))
        match = (await services.play.submit_turn(match.id, mover.user_id, value, guild_id=GUILD)).match
    return match


async def test_migrations_apply_from_empty_and_rerun_applies_nothing(db_path):
    db = await Database.open(db_path)
    try:
        versions = [v for v, _, _ in migrations()]
        rows = await db.fetchall("SELECT version FROM schema_migrations ORDER BY version")
        assert [r[0] for r in rows] == versions
        assert await db.migrate() == []
    finally:
        await db.close()
    again = await Database.open(db_path)  # a restart re-runs start-up migration: nothing new, no error
    try:
        rows = await again.fetchall("SELECT version FROM schema_migrations")
        assert len(rows) == len(versions)
    finally:
        await again.close()


@pytest.mark.sqlite_only
async def test_database_uses_wal_and_foreign_keys(db):
    assert (await db.fetchone("PRAGMA journal_mode"))[0] == "wal"
    assert (await db.fetchone("PRAGMA foreign_keys"))[0] == 1
    with pytest.raises(Exception, match="FOREIGN KEY"):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO moves (match_id, ply, turn, seat, move, position, played_at)"
                               " VALUES (999, 1, 1, 0, 'E4', 'x', 'now')")


async def test_move_log_replays_to_the_stored_position(services, db):
    match = await play_random_turns(services, await start_tintas(services), 12, random.Random(3))
    assert match.ply >= 12
    assert await services.queries.log_reproduces_position(match.id)
    log = await services.matches.moves(match.id)
    assert [m.ply for m in log] == list(range(1, match.ply + 1))
    assert log[-1].position == match.state.encode()
    # a new services on the same database (a restart) replays to the same position and last turn
    fresh = Services(db)
    replayed = await fresh.queries.get(match.id)
    assert replayed.state.encode() == match.state.encode()
    assert replayed.last_turn == match.last_turn and replayed.last_turn
    assert replayed.previous.encode() == match.previous.encode()


async def test_tampered_log_is_detected(services, db):
    match = await play_random_turns(services, await start_tintas(services), 4, random.Random(5))
    async with db.transaction() as conn:
        await conn.execute("UPDATE matches SET position = 'tampered' WHERE id = ?", (match.id,))
    assert not await services.queries.log_reproduces_position(match.id)


async def test_two_simultaneous_submissions_of_one_turn_apply_once(services, backend):
    match = await start_tintas(services)
    mover = match.to_move_user
    first = match.state.legal_moves()[0]
    results = await asyncio.gather(
        services.play.submit_turn(match.id, mover.user_id, first, guild_id=GUILD),
        services.play.submit_turn(match.id, mover.user_id, first, guild_id=GUILD),
        return_exceptions=True)
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(applied) == 1 and len(refused) == 1
    if backend == "sqlite" or isinstance(refused[0], StalePosition):   # both read before either wrote
        assert isinstance(refused[0], StalePosition) and "position changed" in str(refused[0])
    else:               # PostgreSQL runs them side by side: the second may read the match after the first moved
        assert isinstance(refused[0], NotAllowed) and "not your turn" in str(refused[0])
    assert len(await services.matches.moves(match.id)) == 1


async def test_two_processes_on_one_database_store_a_turn_once(db_path, services):
    """Two services on separate connections (two bot processes): the ply guard in SQL decides."""
    match = await start_tintas(services)
    other_db = await Database.open(db_path)
    try:
        other = Services(other_db)
        mover = match.to_move_user
        move = match.state.legal_moves()[0]
        results = await asyncio.gather(
            services.play.submit_turn(match.id, mover.user_id, move, guild_id=GUILD, expected_ply=0),
            other.play.submit_turn(match.id, mover.user_id, move, guild_id=GUILD, expected_ply=0),
            return_exceptions=True)
        assert sum(not isinstance(r, Exception) for r in results) == 1
        assert all(isinstance(r, (StalePosition, NotAllowed)) for r in results if isinstance(r, Exception))
        assert len(await services.matches.moves(match.id)) == 1
    finally:
        await other_db.close()


async def test_migration_004_fills_the_turn_counts_of_matches_played_before_it(services, db):
    """A database from before 004: the whole turns, the last turn's start and seat come from the move log."""
    match = await play_random_turns(services, await start_tintas(services), 9, random.Random(8))
    expected = tuple(await db.fetchone("SELECT whole_turns, turn_start_ply, last_seat FROM matches"))
    async with db.transaction() as tx:       # as 003 left it: none of the three columns filled
        await tx.execute("UPDATE matches SET whole_turns = 0, turn_start_ply = 0, last_seat = NULL")
        from bot.store.db import MIGRATIONS_DIR, POSTGRES_MIGRATIONS_DIR, _statements, migrations
        directory = POSTGRES_MIGRATIONS_DIR if db.backend == "postgres" else MIGRATIONS_DIR
        sql = next(text for version, _, text in migrations(directory) if version == 4)
        for statement in _statements(sql):
            if statement.startswith("UPDATE matches SET"):
                await tx.execute(statement)
    assert tuple(await db.fetchone("SELECT whole_turns, turn_start_ply, last_seat FROM matches")) == expected
    assert expected[0] >= 9 and match.status in ("active", "finished")


def test_every_migration_has_its_postgresql_twin():
    """bot/store/migrations/NNN_name.sql and bot/store/migrations/postgres/NNN_name.sql come in pairs: a new SQLite
    migration needs its PostgreSQL twin (same number and name, PostgreSQL's types), or this fails."""
    from bot.store.db import POSTGRES_MIGRATIONS_DIR
    sqlite = [(v, name) for v, name, _ in migrations()]
    postgres = [(v, name) for v, name, _ in migrations(POSTGRES_MIGRATIONS_DIR)]
    assert postgres == sqlite, f"missing or extra PostgreSQL twins: {sorted(set(sqlite) ^ set(postgres))}"


def test_placeholders_become_numbered_outside_literals_and_row_counts_come_from_the_status():
    from bot.store.postgres_db import rowcount, translate
    assert translate("SELECT '?', \"a?\" FROM t WHERE a = ? AND b IN (?, ?)") == \
        "SELECT '?', \"a?\" FROM t WHERE a = $1 AND b IN ($2, $3)"
    assert [rowcount(s) for s in ("UPDATE 3", "INSERT 0 1", "DELETE 0", "CREATE TABLE")] == [3, 1, 0, 0]


def test_database_url_picks_the_backend_and_hides_a_password():
    from pathlib import Path

    from bot.config import ConfigError, load_config
    from bot.store.db import is_postgres, sqlite_path

    def where(**env):
        return load_config(env_file=None, environ=env).database_path
    assert where() == Path("data/boardgames.sqlite3")
    assert where(DATABASE_PATH="/x/a.sqlite3") == Path("/x/a.sqlite3")
    assert where(DATABASE_URL="sqlite:///data/b.sqlite3", DATABASE_PATH="/x/a.sqlite3") == Path("data/b.sqlite3")
    assert where(DATABASE_URL="sqlite:////srv/b.sqlite3") == Path("/srv/b.sqlite3")
    url = "postgresql://bot:s3cret@db.example/games"
    assert where(DATABASE_URL=url) == url and is_postgres(url) and is_postgres("postgres://h/d")
    assert "s3cret" not in repr(load_config(env_file=None, environ={"DATABASE_URL": url}))
    assert sqlite_path("sqlite:///data/b.sqlite3") == "data/b.sqlite3" and sqlite_path("a/b") == "a/b"
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        where(DATABASE_URL="mysql://h/d")
