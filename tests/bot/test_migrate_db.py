"""``python -m bot migrate-db``: SQLite → PostgreSQL → SQLite copies every row, continues ids, verifies by replay,
and refuses (changing nothing) what it must not do. Run through ``bot.__main__.main`` as an admin would."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import without_password
from bot.migrate_db import copy_order, masked
from bot.model import Person
from bot.services import Services
from bot.services.tournament_views import TournamentSettings
from bot.store import Database
from bot.store.archives import ArchiveStore
from bot.store.copy import BATCH_ROWS, SKIPPED_TABLES, tables
from bot.tournaments.model import Format
from engines import GAMES
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, CY, DEE, GUILD, FakeClock

BACKENDS = BOTH_BACKENDS     # the tests that take ``db_path`` use it as the target on SQLite and on PostgreSQL
PEOPLE = [ANN, BOB, CY, DEE]


async def play_out(services: Services, match, rng: random.Random, turns: int = 400):
    """Random turns until the match ends (or ``turns`` turns are played)."""
    for _ in range(turns):
        if match.status != "active":
            break
        match = await services.queries.get(match.id)
        value, _ = rng.choice(match.game.turn_suggestions(match.position, "", 25))
        match = (await services.play.submit_turn(match, match.to_move_user.user_id, value, guild_id=GUILD)).match
    return match


async def started(services: Services, game_key: str, players: int, *, days: int | None = 3, channel: int = CHANNEL):
    people = PEOPLE[:players]
    teams = GAMES[game_key].teams.get(players)
    match = await services.challenges.challenge(game_key, guild_id=GUILD, channel_id=channel, challenger=people[0],
                                                opponents=people[1:], days_per_move=days,
                                                partner=people[teams[0][1]] if teams else None)
    for person in people[1:]:
        match = await services.challenges.accept(match.id, person, guild_id=GUILD)
    return match


async def populate(where: str | Path) -> dict[str, int]:
    """Every kind of row the bot writes, played through the services: finished rated matches of every game (and a
    rematch), a draw, an abort, a time-out, an active match with a deadline, an open challenge, settings, time away,
    a digest; the outbox is never delivered, so its rows stay pending. Returns the ids the tests use."""
    clock = FakeClock()
    db = await Database.open(where)
    try:
        services = Services(db, clock=clock, seed_source=random.Random(11))
        rng = random.Random(5)
        await services.ctx.settings.update_guild(GUILD, default_time_per_move=2 * 86400, threads=True,
                                                 allow_channel=CHANNEL, takebacks=True)
        await services.ctx.settings.set_notify(BOB.user_id, "dm")
        await services.digests.choose(CY.user_id, on=True, hour=9, timezone="Europe/Berlin")
        await services.away.set(GUILD, DEE.user_id, 2)
        finished = []
        for key in sorted(GAMES):
            for players in GAMES[key].player_counts:
                match = await play_out(services, await started(services, key, players), rng)
                if match.status == "active":
                    match = await services.play.resign(match.id, match.to_move_user.user_id, guild_id=GUILD)
                finished.append(match.id)
                clock.advance(minutes=5)
        rematch = await services.challenges.rematch(finished[0], ANN, guild_id=GUILD)
        await services.challenges.accept(rematch.id, BOB, guild_id=GUILD)
        await play_out(services, rematch, rng)
        drawn = await play_out(services, await started(services, "tintas", 2), rng, turns=4)
        await services.draws.offer(drawn.id, drawn.to_move_user.user_id, guild_id=GUILD)
        drawn = await services.queries.get(drawn.id)
        other = next(p for p in drawn.seated if p.user_id != drawn.to_move_user.user_id)
        drawn = await services.draws.answer(drawn.id, other.user_id, guild_id=GUILD, ply=drawn.ply, accept=True)
        assert drawn.status == "finished" and drawn.row.winners == (0, 1)   # a draw: both share it
        aborted = await play_out(services, await started(services, "rincala", 2), rng, turns=3)
        await services.play.abort(aborted.id, 999, guild_id=GUILD, admin=True, reason="stuck")
        timed = await play_out(services, await started(services, "quincala", 2, days=1), rng, turns=2)
        clock.advance(days=3)
        assert (await services.clocks.time_out(timed.id)) is not None
        active = await play_out(services, await started(services, "spinca", 3, days=2), rng, turns=5)
        assert active.status == "active" and active.row.deadline_at
        await services.bumps.bump(active.id, ANN.user_id, guild_id=GUILD, manager=False)
        picking = await services.drafts.start(active, active.to_move_user.user_id)      # a turn being picked
        await services.drafts.pick(active, picking, 0, 0)
        challenge = await services.challenges.challenge("roocala", guild_id=GUILD, channel_id=CHANNEL,
                                                        challenger=ANN, opponents=[BOB], days_per_move=1)
        assert challenge.status == "challenge"
        cup = await services.tournaments.create(    # a tournament under way: entrants, a round's tables, a result
            TournamentSettings(game="tintas", format=Format.ROUND_ROBIN, max_entrants=4), guild_id=GUILD,
            channel_id=CHANNEL, creator=ANN, manager=True, name="Cup")
        for person in PEOPLE:
            await services.tournaments.join(cup.id, person, guild_id=GUILD)
        assert await services.tournaments.pair_round(cup.id, 1)
        first = (await services.tournaments.read(cup.id)).rounds[0].tables[0]
        assert first.match_id is not None
        await services.play.resign(first.match_id, first.seats[1], guild_id=GUILD)
        swiss = await services.tournaments.create(      # an open Swiss with two players kept apart
            TournamentSettings(game="tintas", format=Format.SWISS, rounds=2, max_entrants=8), guild_id=GUILD,
            channel_id=CHANNEL, creator=ANN, manager=True, name="Open")
        for person in (ANN, BOB):
            await services.tournaments.join(swiss.id, person, guild_id=GUILD)
        await services.tournaments.forbid_pair(swiss.id, ANN.user_id, BOB.user_id, user_id=ANN.user_id,
                                               guild_id=GUILD, manager=True)
        archived = finished[-1]         # one ended match's log compacted into move_archives (the archiver's work)
        async with db.transaction() as tx:
            await tx.execute("UPDATE outbox SET done_at = ?, result = 'sent' WHERE match_id = ? AND done_at IS NULL",
                             (clock().isoformat(), archived))
        assert await ArchiveStore(db).archive(archived, now=clock().isoformat()) == "archived"
        for table, rows in (await dump(db)).items():
            assert rows, f"the test data leaves table {table} empty"
        pending = await db.fetchone("SELECT COUNT(*) FROM outbox WHERE done_at IS NULL")
        assert pending and pending[0] > 0
        top = await db.fetchone("SELECT MAX(id) FROM matches")
        assert top is not None
        return {"active": active.id, "challenge": challenge.id, "finished": finished[1], "top": top[0]}
    finally:
        await db.close()


async def dump(db: Database) -> dict[str, list]:
    """Every row of every table but ``schema_migrations``, as sorted (column, value) lists (read independently of
    the module under test)."""
    if db.backend == "sqlite":
        names = [r[0] for r in await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    else:
        names = [r[0] for r in await db.fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")]
    found = {}
    for name in sorted(set(names) - set(SKIPPED_TABLES)):
        rows = [sorted(dict(r).items()) for r in await db.fetchall(f"SELECT * FROM {name}")]
        found[name] = sorted(rows, key=repr)
    return found


async def dump_at(where: str | Path) -> dict[str, list]:
    db = await Database.open(where)
    try:
        return await dump(db)
    finally:
        await db.close()


async def continue_on(where: str | Path, ids: dict[str, int]) -> None:
    """The services on a copy play on: the active match takes a turn, the open challenge is accepted, and new
    rows get ids after the copied ones."""
    db = await Database.open(where)
    try:
        services = Services(db, clock=FakeClock(), seed_source=random.Random(3))
        match = await services.queries.get(ids["active"])
        value, _ = match.game.turn_suggestions(match.position, "", 25)[0]
        turned = (await services.play.submit_turn(match, match.to_move_user.user_id, value, guild_id=GUILD)).match
        assert turned.ply > match.ply and await services.queries.log_reproduces_position(turned.id)
        accepted = await services.challenges.accept(ids["challenge"], BOB, guild_id=GUILD)
        assert accepted.status == "active"
        top_outbox = (await db.fetchall("SELECT MAX(id) FROM outbox"))[0][0]
        fresh = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL,
                                                    challenger=Person(77, "Eve"), opponents=[Person(78, "Fay")])
        assert fresh.id == ids["top"] + 1
        newest = (await db.fetchall("SELECT MAX(id) FROM outbox"))[0][0]
        assert newest > top_outbox
    finally:
        await db.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, dict[str, int]]:
    """The populated SQLite database, played once for the module (each test copies the closed file)."""
    path = tmp_path_factory.mktemp("played") / "bot.sqlite3"
    return path, asyncio.run(populate(path))


@pytest.fixture
def source(played, tmp_path) -> Path:
    path = tmp_path / "bot.sqlite3"
    shutil.copy(played[0], path)
    return path


@pytest.fixture
def ids(played) -> dict[str, int]:
    return played[1]


def migrate(capsys, source: str | Path, target: str | Path) -> tuple[int, str, str]:
    code = main(["migrate-db", "--from", str(source), "--to", str(target)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_sqlite_to_postgres_and_back_copies_every_row_and_play_continues(source, ids, tmp_path, postgres_server,
                                                                          capsys):
    before = asyncio.run(dump_at(source))
    name, url = postgres_server.new_database()
    try:
        code, out, err = migrate(capsys, source, url)
        assert (code, err) == (0, ""), err
        assert "copied moves:" in out and f"replayed {ids['top']} matches" in out and "migrated and verified" in out
        assert asyncio.run(dump_at(url)) == before
        back = tmp_path / "back" / "bot.sqlite3"
        code, out, err = migrate(capsys, url, f"sqlite:///{back}")
        assert (code, err) == (0, ""), err
        assert asyncio.run(dump_at(back)) == before
        assert asyncio.run(dump_at(source)) == before          # the source is only read
        asyncio.run(continue_on(url, ids))
        asyncio.run(continue_on(back, ids))
    finally:
        postgres_server.drop(name)


def test_a_target_that_holds_matches_is_refused_and_left_unchanged(source, db_path, capsys):
    assert migrate(capsys, source, db_path)[0] == 0
    before = asyncio.run(dump_at(db_path))
    code, out, err = migrate(capsys, source, db_path)
    matches = len(before["matches"])
    assert code == 2 and f"already holds {matches} matches" in err and "Nothing was written" in err
    assert err.count("\n") == 1 and "copied" not in out
    assert asyncio.run(dump_at(db_path)) == before


def test_a_target_with_only_settings_is_refused_too(source, db_path, capsys):

    async def settings_only() -> None:
        db = await Database.open(db_path)
        await Services(db).ctx.settings.set_notify(ANN.user_id, "off")
        await db.close()

    asyncio.run(settings_only())
    code, _, err = migrate(capsys, source, db_path)
    assert code == 2 and "table user_settings holds 1 rows" in err
    assert sum(map(len, asyncio.run(dump_at(db_path)).values())) == 1


def test_the_same_database_twice_is_refused(source, capsys):
    before = asyncio.run(dump_at(source))
    code, _, err = migrate(capsys, source, f"sqlite:///{source.resolve()}")
    assert code == 2 and "the same database" in err
    assert asyncio.run(dump_at(source)) == before


def test_the_same_postgres_database_twice_is_refused(postgres_server, capsys):
    name, url = postgres_server.new_database()
    try:
        code, _, err = migrate(capsys, url, url.replace("postgresql://", "postgres://"))
        assert code == 2 and "the same database" in err
    finally:
        postgres_server.drop(name)


def test_unusable_locations_are_named_and_nothing_is_created(source, tmp_path, postgres_server, capsys):
    missing = tmp_path / "nowhere" / "missing.sqlite3"
    code, _, err = migrate(capsys, missing, tmp_path / "target.sqlite3")
    assert code == 2 and "the source database" in err and "does not exist" in err
    assert not missing.exists() and not (tmp_path / "target.sqlite3").exists()
    code, _, err = migrate(capsys, source, postgres_server.url("no_such_database"))
    assert code == 2 and "cannot open the target database" in err
    code, _, err = migrate(capsys, source, "sqlite://relative.sqlite3")
    assert code == 2 and "the target URL is unusable" in err


def test_different_schema_versions_are_refused(source, db_path, capsys):

    async def newer_target() -> None:
        db = await Database.open(db_path)
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 'x')")
        await db.close()

    asyncio.run(newer_target())
    code, _, err = migrate(capsys, source, db_path)
    assert code == 2 and "schema versions differ" in err and "[999] only in the target" in err
    assert not any(asyncio.run(dump_at(db_path)).values())


def test_a_corrupted_position_fails_verification_naming_the_match(source, ids, db_path, capsys):

    async def corrupt() -> None:
        db = await Database.open(source)
        async with db.transaction() as tx:
            await tx.execute("UPDATE matches SET position = 'tampered' WHERE id = ?", (ids["finished"],))
        await db.close()

    asyncio.run(corrupt())
    code, out, err = migrate(capsys, source, db_path)
    assert code == 1 and "verification FAILED" in err and f"match #{ids['finished']}:" in err
    assert "migrated and verified" not in out
    assert err.count("match #") == 1      # only the corrupted one


def test_a_failed_copy_is_rolled_back(source, ids, postgres_server, capsys):

    async def unconvertible() -> None:      # SQLite keeps text in an INTEGER column; PostgreSQL's BIGINT cannot
        db = await Database.open(source)
        async with db.transaction() as tx:
            await tx.execute("UPDATE moves SET turn = 'x' WHERE match_id = ? AND ply = 1", (ids["finished"],))
        await db.close()

    asyncio.run(unconvertible())
    name, url = postgres_server.new_database()
    try:
        code, _, err = migrate(capsys, source, url)
        assert code == 1 and "copying table moves failed" in err and "rolled back" in err
        assert not any(asyncio.run(dump_at(url)).values())
    finally:
        postgres_server.drop(name)


EXTRA_TABLE = {   # what a later migration might add: a child of matches with binary data
    "sqlite": "CREATE TABLE match_notes (match_id INTEGER PRIMARY KEY REFERENCES matches (id), data BLOB NOT NULL)",
    "postgres": "CREATE TABLE match_notes (match_id BIGINT PRIMARY KEY REFERENCES matches (id), data BYTEA NOT NULL)",
}


def test_a_table_added_later_is_copied_without_code_changes(source, db_path, backend, capsys):
    blobs = {i: bytes(range(256)) * (i % 3) + bytes([i]) for i in range(1, 4)}

    async def add_table(where, ddl: str, rows: dict[int, bytes]) -> None:
        db = await Database.open(where)
        async with db.transaction() as tx:
            await tx.execute(ddl)
            await tx.executemany("INSERT INTO match_notes (match_id, data) VALUES (?, ?)", list(rows.items()))
        await db.close()

    asyncio.run(add_table(source, EXTRA_TABLE["sqlite"], blobs))
    asyncio.run(add_table(db_path, EXTRA_TABLE[backend], {}))
    code, out, err = migrate(capsys, source, db_path)
    assert (code, err) == (0, ""), err
    assert "copied match_notes: 3 rows" in out
    copied = asyncio.run(dump_at(db_path))
    assert copied == asyncio.run(dump_at(source))
    assert dict((r[1][1], r[0][1]) for r in copied["match_notes"]) == blobs   # bytes come back as bytes


async def test_every_table_is_copied_after_the_tables_it_references(db):
    found = await tables(db)
    order = [t.name for t in copy_order(found)]
    if db.backend == "sqlite":
        every = {r[0] for r in await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    else:
        every = {r[0] for r in await db.fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
    assert sorted(order) == sorted(every - {"schema_migrations"})
    for table in found:
        assert all(order.index(parent) < order.index(table.name) for parent in table.parents), table
    by_name = {t.name: t for t in found}
    assert order[0] != "moves" and order.index("matches") < order.index("moves") < len(order)
    assert {"matches"} <= by_name["outbox"].parents and by_name["moves"].key == ("match_id", "ply")


def test_more_rows_than_one_batch_are_copied_in_key_order(source, db_path, capsys):

    async def many_channels() -> None:
        db = await Database.open(source)
        async with db.transaction() as tx:
            await tx.executemany("INSERT INTO guild_channels (guild_id, channel_id) VALUES (?, ?)",
                                 [(GUILD + i % 3, 10_000 + i) for i in range(2 * BATCH_ROWS + 7)])
        await db.close()

    asyncio.run(many_channels())
    code, out, err = migrate(capsys, source, db_path)
    assert (code, err) == (0, ""), err
    assert f"copied guild_channels: {2 * BATCH_ROWS + 8} rows" in out
    assert asyncio.run(dump_at(db_path)) == asyncio.run(dump_at(source))



# ---- locations that are not databases, and passwords (issue [13]) ----
SECRET = "secretpw"


def files_under(folder: Path) -> set[Path]:
    return set(folder.rglob("*"))


def test_an_unknown_scheme_is_refused_by_the_real_command_without_its_password(source, tmp_path):
    """Run as an admin would (a new process, its own folder): exit 2, the URL named with its password hidden, and
    no file named after the URL created."""
    folder = tmp_path / "cwd"
    folder.mkdir()
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "bot", "migrate-db", "--from", f"sqlite:///{source}",
                           "--to", f"mysql://u:{SECRET}@host/db"], cwd=folder, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(root)}, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "unknown scheme 'mysql'" in done.stderr and "mysql://u:***@host/db" in done.stderr
    assert "Nothing was written" in done.stderr
    assert SECRET not in done.stdout + done.stderr
    assert files_under(folder) == set()


def test_unopenable_sqlite_targets_are_refused_and_nothing_is_created(source, tmp_path, capsys):
    a_file = tmp_path / "plain.txt"
    a_file.write_text("not a folder")
    before = files_under(tmp_path)
    for target, says in ((a_file / "sub" / "bot.sqlite3", "is not a writable folder"),
                         (tmp_path, "is not a file"), (f"sqlite:///{a_file}/bot.sqlite3", "is not a writable folder")):
        code, out, err = migrate(capsys, source, target)
        assert code == 2 and says in err and "Nothing was written" in err, err
        assert files_under(tmp_path) == before


def test_a_refused_new_sqlite_target_is_not_left_behind(source, tmp_path, capsys):
    """The target is created only to be checked: refused after opening it (the schemas differ), the file, its
    side files and the folders made for it are gone again."""

    async def newer_source() -> None:
        db = await Database.open(source)
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 'x')")
        await db.close()

    asyncio.run(newer_source())
    before = files_under(tmp_path)
    code, _, err = migrate(capsys, source, tmp_path / "new" / "deeper" / "bot.sqlite3")
    assert code == 2 and "schema versions differ" in err
    assert files_under(tmp_path) == before


def test_an_unopenable_postgres_target_is_refused_without_its_password(source, postgres_server, capsys, caplog):
    """The test server knows no role 'nobody' (nor the database): a clear refusal; the password (plain,
    percent-encoded, or in the query) is in no message and no log line."""
    caplog.set_level(logging.DEBUG)
    where = postgres_server.url("no_such_database").split("?", 1)[1]        # host=<the server's socket folder>
    for url in (f"postgresql://nobody:{SECRET}@/no_such_database?{where}",
                f"postgres://nobody:secret%40pw@/no_such_database?{where}",
                f"postgresql://nobody@/no_such_database?{where}&password={SECRET}"):
        code, out, err = migrate(capsys, source, url)
        assert code == 2 and "cannot open the target database" in err and "***" in err, err
        assert "nobody" in err                                                   # the server's own reason
        for text in (out, err, caplog.text):
            assert SECRET not in text and "secret%40pw" not in text and "secret@pw" not in text


@pytest.mark.parametrize(("url", "shown"), [
    ("postgresql://u:p@host/db", "postgresql://u:***@host/db"),
    ("postgresql://u:p%40ss@host:5432/db", "postgresql://u:***@host:5432/db"),
    ("postgresql://u:p@s/s@host/db", "postgresql://u:***@host/db"),
    ("postgresql://host/db?sslmode=off&password=p", "postgresql://host/db?sslmode=off&password=***"),
    ("postgresql://u@host/db", "postgresql://u@host/db"),
    ("postgresql://host:5432/db", "postgresql://host:5432/db"),
    ("sqlite:///data/x:y.sqlite3", "sqlite:///data/x:y.sqlite3"),
])
def test_a_password_is_hidden_however_it_is_written(url, shown):
    assert without_password(url) == shown


def test_an_error_text_that_echoes_a_location_is_masked():
    """A driver's error may repeat the URL it was given: ``masked`` hides its password, written either way."""
    url = "postgresql://u:p%40ss@host/db"
    assert masked("cannot connect to u:p%40ss@host as u (password p@ss)", url) == \
        "cannot connect to u:***@host as u (password ***)"
