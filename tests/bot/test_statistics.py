"""SQLite keeps the planner's statistics: a player's matches among thousands are found through the player's
index, after a restart and while the bot runs (PostgreSQL's autovacuum does this there)."""

from __future__ import annotations

import pytest

from bench.process_worker import fill
from bot.store import Database, sqlite_db

# The look-up of /move and every command naming no match: a player's active matches of one game in one channel.
PLAYERS_MATCHES = ("EXPLAIN QUERY PLAN SELECT m.id FROM matches m JOIN participants p ON p.match_id = m.id"
                   " WHERE p.user_id = ? AND m.guild_id = ? AND m.status IN (?) AND m.game = ? AND m.channel_id = ?"
                   " ORDER BY m.id")


async def plan(db: Database) -> str:
    rows = await db.fetchall(PLAYERS_MATCHES, (10_002, 1, "active", "tintas", 100))
    return " ".join(r[3] for r in rows)


async def commits(db: Database, count: int) -> None:
    for _ in range(count):
        async with db.transaction() as tx:
            await tx.execute("UPDATE matches SET seed = seed WHERE id = 1")


async def test_a_start_on_a_database_of_many_matches_gathers_the_statistics(tmp_path):
    path = tmp_path / "many.sqlite3"
    db = await Database.open(path)
    await fill(db, 2000)
    await db.close()
    db = await Database.open(path)          # a restart
    try:
        assert await db.fetchone("SELECT 1 FROM sqlite_stat1 WHERE tbl = 'matches'") is not None
        assert "USING COVERING INDEX participants_by_user" in await plan(db)
    finally:
        await db.close()


async def test_the_statistics_are_gathered_again_when_the_matches_grew_while_running(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_db, "STATS_CHECK_COMMITS", 3)
    db = await Database.open(tmp_path / "growing.sqlite3")
    try:
        await fill(db, 150)                 # grown past STATS_MIN_MATCHES: gathered within 3 commits
        await commits(db, 3)
        first = await db.fetchone("SELECT stat FROM sqlite_stat1 WHERE idx = 'matches_by_place'")
        assert first is not None
        await fill(db, 2000)                # grown more than STATS_GROWTH times: gathered again
        await commits(db, 3)
        again = await db.fetchone("SELECT stat FROM sqlite_stat1 WHERE idx = 'matches_by_place'")
        assert again is not None and again[0] != first[0]
        assert "USING COVERING INDEX participants_by_user" in await plan(db)
    finally:
        await db.close()


@pytest.mark.parametrize("count", [0, 50])
async def test_a_small_database_is_not_analyzed(tmp_path, count):
    db = await Database.open(tmp_path / "small.sqlite3")
    try:
        await fill(db, count)
        await commits(db, sqlite_db.STATS_CHECK_COMMITS + 1)
        assert await db.fetchone("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'") is None
    finally:
        await db.close()
