"""The health endpoint on a real port: alive, ready only when everything is, and the Prometheus metrics."""

from __future__ import annotations

import asyncio

import pytest

from ai.search import TurnChoice
from bot.ai_player import AIPlayer
from bot.health import HealthServer, Readiness
from bot.metrics import OutboxGauges
from bot.scheduler import Scheduler
from tests.bot.health_support import allow_loopback, as_json, get, sample
from tests.bot.support import make_bot
from tests.conftest import ANN, BOB, CHANNEL, GUILD

METRIC_NAMES = ("boardgames_turns_total", "boardgames_turn_seconds", "boardgames_dispatcher_backlog",
                "boardgames_dispatcher_lag_seconds", "boardgames_scheduler_lag_seconds", "boardgames_ai_queue")


@pytest.fixture(autouse=True)
def loopback(monkeypatch):
    allow_loopback(monkeypatch)


@pytest.fixture
async def serving():
    """Start a health server on an ephemeral port; stopped at the end."""
    servers: list[HealthServer] = []

    async def start(readiness: Readiness, **kw) -> int:
        server = HealthServer(readiness, port=0, host="127.0.0.1", **kw)
        servers.append(server)
        return await server.start()

    yield start
    for server in servers:
        await server.stop()


async def started_match(services):
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=1)
    return await services.challenges.accept(match.id, BOB, guild_id=GUILD)


async def play(services, match):
    match = await services.queries.get(match.id)
    return await services.play.submit_turn(match, match.to_move_user.user_id, match.position.legal_moves()[0],
                                           guild_id=GUILD)


async def test_alive_at_once_and_ready_only_when_every_check_passes(serving):
    done = {"database": False, "discord": False}
    readiness = Readiness()
    for name in done:
        readiness.add(name, lambda name=name: done[name])
    port = await serving(readiness)

    assert (await get(port, "/healthz"))[0] == 200
    status, body = await get(port, "/readyz")
    assert status == 503 and as_json(body)["missing"] == ["database", "discord"]
    done["database"] = True
    status, body = await get(port, "/readyz")
    assert status == 503 and as_json(body)["missing"] == ["discord"]
    done["discord"] = True
    status, body = await get(port, "/readyz")
    assert status == 200 and as_json(body)["status"] == "ready"
    done["discord"] = False                       # a lost gateway connection: not ready again
    assert (await get(port, "/readyz"))[0] == 503


async def test_the_bot_is_not_ready_before_its_gateway_connection_nor_while_stopping(db, clock, serving):
    bot = make_bot(db, clock)               # its database is open and migrated; it never connected
    port = await serving(bot.readiness)
    status, body = await get(port, "/readyz")
    assert status == 503 and as_json(body)["missing"] == ["render", "ai", "discord"]    # not set up
    bot.stopping = True
    assert as_json((await get(port, "/readyz"))[1])["missing"] == ["database", "render", "ai", "discord"]


async def test_metrics_name_every_measure_and_count_a_turn_played_through_the_services(services, serving):
    port = await serving(Readiness())
    status, text = await get(port, "/metrics")
    assert status == 200
    for name in METRIC_NAMES:
        assert name in text
    before = sample(text, "boardgames_turns_total", game="tintas") or 0.0
    latencies = sample(text, "boardgames_turn_seconds_count", game="tintas") or 0.0

    await play(services, await started_match(services))

    text = (await get(port, "/metrics"))[1]
    assert sample(text, "boardgames_turns_total", game="tintas") == before + 1
    assert sample(text, "boardgames_turn_seconds_count", game="tintas") == latencies + 1


async def test_the_dispatcher_backlog_and_lag_are_read_from_the_outbox_when_scraped(services, clock, serving):
    port = await serving(Readiness(), before_scrape=OutboxGauges(services.db, services.clock).refresh)
    text = (await get(port, "/metrics"))[1]
    assert sample(text, "boardgames_dispatcher_backlog") == 0
    assert sample(text, "boardgames_dispatcher_lag_seconds") == 0

    await play(services, await started_match(services))     # a card and boards wait: no dispatcher runs
    waiting = len(await services.outbox.pending())
    clock.advance(seconds=30)
    text = (await get(port, "/metrics"))[1]
    assert waiting > 0 and sample(text, "boardgames_dispatcher_backlog") == waiting
    assert sample(text, "boardgames_dispatcher_lag_seconds") == 30


async def test_the_scheduler_lag_is_how_late_a_pass_acts_on_what_fell_due(services, clock, serving):
    port = await serving(Readiness())
    before = sample((await get(port, "/metrics"))[1], "boardgames_scheduler_lag_seconds_sum") or 0.0
    match = await started_match(services)
    scheduler = Scheduler(services)
    clock.advance(hours=24 * 0.8, seconds=90)             # the reminder fell due 90 s ago
    await scheduler.pass_once()
    await scheduler.stop()
    text = (await get(port, "/metrics"))[1]
    assert sample(text, "boardgames_scheduler_lag_seconds_sum") == pytest.approx(before + 90)
    assert [r.kind for r in await services.outbox.pending(match.id)].count("reminder") == 1


class GatedPool:
    """An AI pool whose searches wait for the test to let them finish (the queue's contents are visible)."""

    def __init__(self):
        self.go = asyncio.Event()

    async def search_turn(self, state, **_kw):
        await self.go.wait()
        return TurnChoice([state.legal_moves()[0]], 0, False)

    def cancel(self, _match_id) -> int:
        return 0


async def test_the_ai_queue_counts_the_searches_waiting_or_running(services, serving):
    port = await serving(Readiness())
    pool = GatedPool()
    ai = AIPlayer(services, pool)
    match = await services.challenges.challenge_bot("tintas", guild_id=GUILD, channel_id=CHANNEL, player=ANN,
                                                    level=1)
    match = await services.queries.get(match.id)
    if match.ai_to_move is None:
        match = (await play(services, match)).match
    idle = sample((await get(port, "/metrics"))[1], "boardgames_ai_queue")
    thinking = asyncio.create_task(ai.play(match.id, ply=match.ply))
    for _ in range(100):
        if sample((await get(port, "/metrics"))[1], "boardgames_ai_queue") == idle + 1:
            break
        await asyncio.sleep(0.01)
    assert sample((await get(port, "/metrics"))[1], "boardgames_ai_queue") == idle + 1
    pool.go.set()
    assert await thinking is not None
    assert sample((await get(port, "/metrics"))[1], "boardgames_ai_queue") == idle


async def test_a_busy_health_port_is_logged_and_the_bot_still_runs(tmp_path, caplog):
    import dataclasses
    import socket

    from bot.__main__ import serve
    from bot.config import load_config
    from bot.discord.client import make_bot

    with socket.socket() as blocker:
        blocker.bind(("0.0.0.0", 0))
        blocker.listen()
        config = dataclasses.replace(load_config(environ={"DATABASE_PATH": str(tmp_path / "b.sqlite3")}),
                                     health_port=blocker.getsockname()[1])
        bot = make_bot(config, sync_commands=False, ai_processes=0, render_processes=0)
        connected = []

        async def connect():        # set up as at login, then the gateway connection ends at once
            await bot.setup_hook()
            connected.append(await bot.readiness.missing())
        assert await serve(bot, config, connect) == 0
    assert connected == [["discord"]]                 # the database answers, the render and AI pools too
    assert "health endpoint cannot listen" in caplog.text
    assert await bot.readiness.missing() == ["database", "render", "ai", "discord"]      # closed


async def test_a_probe_that_does_not_answer_in_time_fails_and_an_answer_is_reused_for_a_moment():
    from bot.health import Probe
    asked = []

    async def hangs() -> None:
        asked.append(1)
        await asyncio.Event().wait()
    probe = Probe(hangs, timeout=0.05, cache=3600)
    assert await probe() is False and await probe() is False
    assert len(asked) == 1                                # the second answer came from the cache
    fresh = Probe(hangs, timeout=0.05, cache=0)
    await fresh()
    await fresh()
    assert len(asked) == 3


async def test_an_ai_pool_is_ready_before_its_first_search_and_not_once_shut_down():
    """Its workers start with the first search (a wait that never counts against it), so a pool without workers
    can think; a dead worker is replaced at once (tests/ai/test_pool.py); a pool shut down cannot think."""
    from ai.pool import AIPool
    pool = await asyncio.to_thread(AIPool, 1)
    assert pool.up()
    await pool.ready()
    assert pool.up()
    await asyncio.to_thread(pool.close)
    assert not pool.up()


async def test_the_bot_is_not_ready_while_its_ai_workers_are_down(db, clock):
    from ai.pool import AIPool
    from render.pool import RenderPool
    bot = make_bot(db, clock)
    bot.readiness.add("discord", lambda: True)         # no gateway here: this test is about the workers
    pool = await asyncio.to_thread(AIPool, 1)
    await pool.ready()
    bot._ai, bot._renders = AIPlayer(bot.services, pool), RenderPool(0)
    assert await bot.readiness.missing() == []
    await asyncio.to_thread(pool.close)
    assert await bot.readiness.missing() == ["ai"]
