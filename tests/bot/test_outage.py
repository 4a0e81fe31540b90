"""Health that tells the truth through a database outage: a real PostgreSQL server of the test's own, stopped and
started again (pg_ctl). Meanwhile /readyz says the database is missing, /metrics answers with its database
values marked stale (one log line, no traceback), the move autocomplete says the matches cannot be read; after
it everything answers again and the bot plays on, its listener connected again."""

from __future__ import annotations

import asyncio
import logging
import socket
import time

import pytest

from bot.health import PROBE_CACHE, HealthServer
from bot.metrics import OutboxGauges
from tests.bot.health_support import _REAL_CONNECT as REAL_CONNECT
from tests.bot.health_support import allow_loopback, as_json, get, sample
from tests.bot.support import autocompleted_turn, make_bot
from tests.conftest import ANN, BOB, CHANNEL, GUILD
from tests.postgres_server import PostgresServer

HANG = 60.0     # a hang detector, not a speed limit


@pytest.fixture
def server():
    """A PostgreSQL server of this test alone: stopping it must not touch the other tests' server."""
    own = PostgresServer()
    try:
        own.start()
        yield own
    finally:
        own.stop()


def allow_unix_and_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """The health endpoint on 127.0.0.1, and the server's unix socket (the suite's ban allows it; allow_loopback
    alone does not)."""
    allow_loopback(monkeypatch)
    loopback = socket.socket.connect

    def connect(sock: socket.socket, address, *args, **kwargs):
        if sock.family == socket.AF_UNIX:
            return REAL_CONNECT(sock, address, *args, **kwargs)
        return loopback(sock, address, *args, **kwargs)
    monkeypatch.setattr(socket.socket, "connect", connect)


def pg_ctl(server: PostgresServer, action: str) -> None:
    options = f"-k {server.root} -c listen_addresses='' -c fsync=off"
    server._run(str(server.bin / "pg_ctl"), "-D", str(server.data), "-l", str(server.log), "-o", options, "-m",
                "fast", "-w", action)


async def until(what, why: str):
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        if await what():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {why}")


async def test_readiness_metrics_and_autocomplete_through_a_database_outage(server, clock, monkeypatch, caplog):
    from bot.store import Database
    from tests.bot.discord_harness import FakeDiscord

    allow_unix_and_loopback(monkeypatch)
    name, url = server.new_database()
    db = await Database.open(url)
    bot = make_bot(db, clock)
    bot.readiness.add("discord", lambda: True)        # no gateway here: this test is about the database
    health = HealthServer(bot.readiness, port=0, host="127.0.0.1",
                          before_scrape=lambda: OutboxGauges(bot.services.db, bot.services.clock).refresh())
    woken: list[None] = []
    bot.services.events.elsewhere.subscribe(woken.append)
    listener = asyncio.create_task(db.listen(lambda: bot.services.events.elsewhere.emit(None)))
    try:
        async with FakeDiscord(bot, guild_id=GUILD) as fake:
            ann, bob = fake.user(ANN.user_id, "Ann"), fake.user(BOB.user_id, "Bob")
            port = await health.start()
            match = await bot.services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL,
                                                            challenger=ANN, opponents=[BOB])
            await bot.services.challenges.accept(match.id, BOB, guild_id=GUILD)

            async def ready() -> bool:
                return (await get(port, "/readyz"))[0] == 200
            await until(ready, "ready before the outage")
            await until(lambda: _true(bool(woken)), "the listener to connect")
            assert sample((await get(port, "/metrics"))[1], "boardgames_metrics_stale") == 0
            mover = ann if (await bot.services.queries.get(match.id)).to_move_user.user_id == ANN.user_id else bob

            await asyncio.to_thread(pg_ctl, server, "stop")
            caplog.clear()
            await asyncio.sleep(PROBE_CACHE)               # the answer cached before the outage runs out

            status, body = await get(port, "/readyz")
            assert status == 503 and as_json(body)["missing"] == ["database"]
            for _ in range(3):
                status, text = await get(port, "/metrics")
                assert status == 200 and sample(text, "boardgames_metrics_stale") == 1
                assert sample(text, "boardgames_dispatcher_backlog") is not None       # the last value read
            stale_lines = [r for r in caplog.records if "/metrics" in r.getMessage()]
            assert len(stale_lines) == 1 and stale_lines[0].levelno == logging.WARNING
            assert not any(r.exc_info for r in caplog.records)                         # no traceback
            choices = await fake.autocomplete(mover, "tintas move", "move", move="")
            assert [c["name"] for c in choices] == ["Your matches cannot be read just now; try again in a moment."]

            woken.clear()
            await asyncio.to_thread(pg_ctl, server, "start")
            await until(ready, "ready after the outage")
            status, text = await get(port, "/metrics")
            assert status == 200 and sample(text, "boardgames_metrics_stale") == 0
            choices = await fake.autocomplete(mover, "tintas move", "move", move="")
            assert len(choices) > 1 and choices[0]["value"] != ""                     # legal turns again
            turn = await autocompleted_turn(fake, mover, "tintas move")
            await fake.slash(mover, "tintas move", move=turn)                             # and the bot plays on
            assert (await bot.services.queries.get(match.id)).ply == 1
            await until(lambda: _true(bool(woken)), "the listener to connect again")
    finally:
        listener.cancel()
        await asyncio.gather(listener, return_exceptions=True)
        await health.stop()
        await db.close()


async def _true(value: bool) -> bool:
    return value
