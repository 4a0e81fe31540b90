"""Waking and leasing across processes: a commit of announcements or deadlines on PostgreSQL reaches every
process's listener (and a rolled-back one none); a claim being delivered is renewed so no other process takes
it meanwhile, and a renewal never takes back a row its owner gave up or another owner took."""

from __future__ import annotations

import asyncio
import random
import time
from datetime import timedelta

import pytest

from bot.dispatcher import Delivered, Dispatcher
from bot.services import Services
from bot.store import Database
from bot.store.outbox import OutboxStore
from bot.store.rows import Announcement, OutboxRow
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, GUILD

BACKENDS = BOTH_BACKENDS
HANG = 30.0        # a hang detector, not a speed limit


async def started(services: Services, days: int = 3):
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=days)
    return await services.challenges.accept(match.id, BOB, guild_id=GUILD)


async def until(what, why: str):
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        if await what():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {why}")


class Heard:
    """Another process's listener: counts the wake-ups ``Database.listen`` gives it."""

    def __init__(self, db: Database):
        self.count = 0
        self.task = asyncio.create_task(db.listen(self.wake))

    def wake(self) -> None:
        self.count += 1

    async def connected(self) -> None:
        await until(lambda: _true(self.count > 0), "the listener to connect")   # it wakes once on connecting
        self.count = 0

    async def stop(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


async def _true(value: bool) -> bool:
    return value


@pytest.fixture
async def pg(postgres_server, clock):
    """PostgreSQL only (SQLite's one process wakes its loops through its events): the services of one process
    on a fresh database, and another process's listener on it."""
    name, url = postgres_server.new_database()
    db, other = await Database.open(url), await Database.open(url)
    listener = Heard(other)
    try:
        await listener.connected()
        yield Services(db, clock=clock, seed_source=random.Random(7)), listener
    finally:
        await listener.stop()
        await other.close()
        await db.close()
        postgres_server.drop(name)


async def test_each_commit_of_announcements_or_deadlines_wakes_another_process(pg):
    services, heard = pg
    writes = {
        "a challenge (its expiry)": lambda: services.challenges.challenge(
            "tintas", guild_id=GUILD, channel_id=CHANNEL + 1, challenger=ANN, opponents=[BOB]),
        "a digest's time": lambda: services.digests.choose(ANN.user_id, on=True, hour=None, timezone=None),
    }
    for why, write in writes.items():
        await write()
        await until(lambda: _true(heard.count > 0), why)
        heard.count = 0
    match = await started(services)
    await until(lambda: _true(heard.count > 0), "the start's announcements and deadline")
    heard.count = 0
    async with services.db.transaction() as tx:         # a deadline moved, and nothing else
        await tx.execute("UPDATE matches SET deadline_at = ? WHERE id = ?", (services.ctx.later(timedelta(hours=1)),
                                                                            match.id))
    await until(lambda: _true(heard.count > 0), "a deadline moved")
    heard.count = 0
    (row, *_) = await services.outbox.pending(match.id)
    await services.outbox.retry(row.id, at=services.ctx.later(timedelta(seconds=5)))   # an announcement put off
    await until(lambda: _true(heard.count > 0), "an announcement put off")


async def test_a_rolled_back_transaction_wakes_nobody(pg):
    services, heard = pg
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB])
    await until(lambda: _true(heard.count > 0), "the challenge")
    heard.count = 0
    with pytest.raises(RuntimeError):
        async with services.db.transaction() as tx:
            await services.outbox.add(tx, match.id, [Announcement("board", {"event": "x"})], now=services.ctx.now())
            raise RuntimeError("changed its mind")
    async with services.db.transaction() as tx:        # a later commit that wakes: the rolled back one came first
        await tx.execute("UPDATE matches SET expires_at = expires_at WHERE id = ?", (match.id,))
    await until(lambda: _true(heard.count > 0), "the later commit")
    assert heard.count == 1


async def test_a_claim_is_renewed_while_its_delivery_runs_so_no_other_process_takes_it(db_path, services, clock):
    await started(services)
    lease = timedelta(seconds=3)
    entered, release = asyncio.Event(), asyncio.Event()

    async def slow(row: OutboxRow) -> Delivered:        # a post that takes longer than the lease
        entered.set()
        await release.wait()
        return Delivered("sent")
    one = Dispatcher(services, slow, owner="host:1:one", lease=lease)
    delivering = asyncio.create_task(one.deliver_pending())
    other_db = await Database.open(db_path)
    try:
        await asyncio.wait_for(entered.wait(), HANG)
        first = (await services.db.fetchone("SELECT MAX(claimed_until) FROM outbox WHERE done_at IS NULL"))[0]
        clock.advance(seconds=2)

        async def renewed() -> bool:
            row = await services.db.fetchone("SELECT MAX(claimed_until) FROM outbox WHERE done_at IS NULL")
            return row is not None and row[0] > first
        await until(renewed, "the claim to be renewed")
        clock.advance(seconds=2)                          # past the first lease, within the renewed one
        other = Services(other_db, clock=services.clock)
        two = Dispatcher(other, slow, owner="host:2:two", lease=lease)
        assert await two.deliver_pending() == 0           # still held
        release.set()
        assert await asyncio.wait_for(delivering, HANG) == 3
        assert await services.outbox.pending() == []
    finally:
        release.set()
        await asyncio.gather(delivering, return_exceptions=True)
        await other_db.close()


async def test_a_renewal_keeps_only_its_owners_live_claims(db_path, services, clock):
    match = await started(services)
    now, until_ = services.ctx.now(), services.ctx.later(timedelta(seconds=30))
    claimed = await services.outbox.claim(now=now, until=until_, owner="a", match_id=match.id)
    assert len(claimed) == 3
    await services.outbox.retry(claimed[0].id, at=services.ctx.later(timedelta(seconds=5)))   # given back
    other_db = await Database.open(db_path)
    try:
        later = services.ctx.later(timedelta(seconds=60))
        assert await OutboxStore(other_db).renew("b", [match.id], until=later) == 0      # not b's claims
        assert await OutboxStore(other_db).renew("a", [match.id], until=later) == 2
    finally:
        await other_db.close()
    rows = dict(await services.db.fetchall("SELECT id, claimed_until FROM outbox WHERE match_id = ?", (match.id,)))
    assert rows[claimed[0].id] is None                                # the row given back stays given back
    assert all(rows[r.id] == later for r in claimed[1:])

