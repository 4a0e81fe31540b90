"""The outbox dispatcher: each announcement delivered once, in order, retried when it may pass, marked when it
cannot, taken over from a process that died; the scheduler beside it never dies."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest

from bot.dispatcher import MAX_ATTEMPTS, RETRY_DELAYS, Delivered, Dispatcher, PermanentFailure
from bot.model import Person
from bot.scheduler import Scheduler
from bot.services import Services
from bot.services.announce import Dm, Remember
from bot.store import Database
from bot.store.rows import Announcement, OutboxRow
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL


class Recorder:
    """A delivery function that remembers what it delivered, and can fail on demand."""

    def __init__(self, fail: dict[str, Exception] | None = None):
        self.seen: list[tuple[int, str, int]] = []
        self.fail = fail or {}

    async def __call__(self, row: OutboxRow) -> Delivered:
        if row.kind in self.fail:
            raise self.fail[row.kind]
        self.seen.append((row.id, row.kind, row.match_id))
        return Delivered("sent", message_id=1000 + row.id)


async def started(services: Services, days: int = 3):
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=days)
    return await services.challenges.accept(match.id, BOB, guild_id=GUILD)


async def test_each_row_is_delivered_once_in_order_and_marked_with_its_message(services):
    record = Recorder()
    dispatcher = Dispatcher(services, record)
    match = await started(services)
    assert await dispatcher.deliver_pending() == 3            # the card, its update, the first board
    assert [kind for _, kind, _ in record.seen] == ["card", "card", "board"]
    assert [i for i, _, _ in record.seen] == sorted(i for i, _, _ in record.seen)
    assert await dispatcher.deliver_pending() == 0            # nothing twice
    delivered = await services.outbox.delivered(match.id)
    assert [(kind, result, message) for _, kind, result, message in delivered] == \
        [(kind, "sent", 1000 + i) for i, kind, _ in record.seen]


async def test_a_failure_that_may_pass_is_retried_later_with_backoff(services, clock):
    record = Recorder(fail={"board": ConnectionError("network down")})
    dispatcher = Dispatcher(services, record)
    match = await started(services)
    await dispatcher.deliver_pending()
    assert [kind for _, kind, _ in record.seen] == ["card", "card"]
    (row,) = await services.outbox.pending(match.id)
    assert row.kind == "board" and row.attempts == 1
    clock.advance(seconds=RETRY_DELAYS[0] - 1)
    assert await dispatcher.deliver_pending() == 0            # not before its time
    record.fail.clear()
    clock.advance(seconds=1)
    assert await dispatcher.deliver_pending() == 1
    assert record.seen[-1][1] == "board" and await services.outbox.pending() == []


async def test_a_permanent_failure_is_marked_and_blocks_no_other_match(services):
    record = Recorder()
    dispatcher = Dispatcher(services, record)
    first = await started(services)
    second = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL + 1,
                                                 challenger=ANN, opponents=[BOB])

    async def deliver(row: OutboxRow) -> Delivered:
        if row.match_id == first.id:
            raise PermanentFailure("403 Missing Access")
        return await record(row)
    dispatcher.deliver = deliver
    await dispatcher.deliver_pending()
    assert [m for _, _, m in record.seen] == [second.id]
    results = {result for _, _, result, _ in await services.outbox.delivered(first.id)}
    assert results == {"failed: 403 Missing Access"} and await services.outbox.pending() == []
    assert dispatcher.failed == 3


async def test_a_row_that_keeps_failing_is_given_up_after_the_last_attempt(services, clock):
    dispatcher = Dispatcher(services, Recorder(fail={"card": TimeoutError("slow")}))
    await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                        opponents=[BOB])
    for _ in range(MAX_ATTEMPTS):
        await dispatcher.deliver_pending()
        clock.advance(hours=2)
    assert await services.outbox.pending() == []
    assert [r for _, _, r, _ in await services.outbox.delivered()] == ["failed: TimeoutError('slow')"]


async def test_an_expired_reply_is_skipped_not_sent(services, clock):
    record = Recorder()
    dispatcher = Dispatcher(services, record)
    match = await started(services)
    async with services.db.transaction() as tx:
        await services.outbox.add(tx, match.id, [Announcement("reply", {"token": "t"}, expires_at=services.ctx.now())],
                                  now=services.ctx.now())
    clock.advance(seconds=1)
    await dispatcher.deliver_pending()
    assert "reply" not in [kind for _, kind, _ in record.seen]
    assert ("reply", "skipped: expired") in [(k, r) for _, k, r, _ in await services.outbox.delivered(match.id)]


async def test_follow_ups_are_written_with_the_mark_and_delivered_next(services):
    seen: list[str] = []

    async def deliver(row: OutboxRow) -> Delivered:
        seen.append(row.kind)
        if row.kind == "board":
            return Delivered("sent", 7, [Announcement("dm", {"user_id": 11, "text": "your move"})])
        return Delivered("sent")
    dispatcher = Dispatcher(services, deliver)
    await started(services)
    await dispatcher.deliver_pending()
    assert seen == ["card", "card", "board", "dm"]


async def test_two_dispatchers_on_one_database_deliver_each_row_exactly_once(db_path, services):
    for i in range(12):
        await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL + i,
                                            challenger=Person(100 + i, f"P{i}"), opponents=[BOB])
    other_db = await Database.open(db_path)
    try:
        other = Services(other_db, clock=services.clock)
        seen: list[int] = []
        started = {"a": asyncio.Event(), "b": asyncio.Event()}

        def holding(me: str, other_one: str):
            async def deliver(row: OutboxRow) -> Delivered:   # each holds its first claim until the other has one
                started[me].set()
                await started[other_one].wait()
                seen.append(row.id)
                return Delivered("sent")
            return deliver
        one = Dispatcher(services, holding("a", "b"), owner="a", batch=1)
        two = Dispatcher(other, holding("b", "a"), owner="b", batch=1)
        await asyncio.wait_for(asyncio.gather(one.deliver_pending(), two.deliver_pending(), one.deliver_pending()),
                               timeout=60)
        assert sorted(seen) == sorted(set(seen)) and len(seen) == 12     # every row once, none twice
        assert one.delivered > 0 and two.delivered > 0             # both took a share, concurrently
    finally:
        await other_db.close()


async def test_a_claimer_leaves_the_rows_of_a_match_another_claimer_holds(db_path, services, clock):
    """Process "a" holds the rows of one match (it is delivering them); process "b", on its own connection,
    claims what is due and gets the other match's rows only, and "a"'s claim stands."""
    held, free = await started(services), await started(services)
    lease = services.ctx.later(_minutes(2))
    mine = await services.outbox.claim(now=services.ctx.now(), until=lease, owner="a", match_id=held.id)
    assert mine
    other_db = await Database.open(db_path)
    try:
        theirs = await Services(other_db, clock=clock).outbox.claim(now=services.ctx.now(), until=lease, owner="b")
    finally:
        await other_db.close()
    assert theirs and {r.match_id for r in theirs} == {free.id}
    assert all([await services.outbox.done(None, r.id, now=services.ctx.now(), owner="a") for r in mine])


async def test_claims_of_a_process_that_died_are_taken_back_at_start_up(services, clock):
    record = Recorder()
    match = await started(services)
    now = services.ctx.now()
    claimed = await services.outbox.claim(now=now, until=services.ctx.later(clock.now - clock.now + _minutes(2)),
                                          owner="thishost:999999999:dead")   # a pid no process has
    assert claimed
    dispatcher = Dispatcher(services, record, owner="thishost:1:alive")
    assert await dispatcher.deliver_pending() == 0             # held by the other owner's lease
    assert await dispatcher.release_dead_claims() == len(claimed)
    assert await dispatcher.deliver_pending() == len(claimed)
    assert {i for i, _, _ in record.seen} == {r.id for r in claimed}
    assert match.id == claimed[0].match_id


async def test_a_live_owners_claim_is_taken_over_only_after_its_lease(services, clock):
    record = Recorder()
    await started(services)
    claimed = await services.outbox.claim(now=services.ctx.now(), until=services.ctx.later(_minutes(2)),
                                          owner="otherhost:1:alive")
    dispatcher = Dispatcher(services, record, owner="thishost:1:me")
    assert await dispatcher.release_dead_claims() == 0         # another host: we cannot know, so we wait
    assert await dispatcher.deliver_pending() == 0
    clock.advance(minutes=2, seconds=1)
    assert await dispatcher.deliver_pending() == len(claimed)


def _minutes(n: int):
    from datetime import timedelta
    return timedelta(minutes=n)


async def test_the_dispatcher_pass_survives_a_failing_query(services, monkeypatch):
    dispatcher = Dispatcher(services, Recorder())
    await started(services)

    async def broken(**kwargs):
        raise RuntimeError("disk I/O error")
    monkeypatch.setattr(services.outbox, "claim", broken)
    first, second = await dispatcher.pass_once(), await dispatcher.pass_once()
    assert dispatcher.failures == 2 and 0 < first < second     # it backs off, and is still alive
    monkeypatch.undo()
    await dispatcher.pass_once()
    assert dispatcher.failures == 0 and await services.outbox.pending() == []


async def test_the_scheduler_survives_a_failing_query_and_a_failing_match(services, clock, monkeypatch):
    scheduler = Scheduler(services)
    bad = await started(services, days=1)
    good = await started(services, days=1)
    clock.advance(days=1, seconds=1)

    real_due = services.clocks.due
    calls = {"n": 0}

    async def due_once_broken():
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("database is locked")
        return await real_due()
    monkeypatch.setattr(services.clocks, "due", due_once_broken)
    real_time_out = services.clocks.time_out

    async def time_out(match_id):
        if match_id == bad.id:
            raise RuntimeError("corrupt row")
        return await real_time_out(match_id)
    monkeypatch.setattr(services.clocks, "time_out", time_out)

    delay = await scheduler.pass_once()                      # the query fails: logged, backed off, alive
    assert scheduler.failures == 1 and delay >= 1
    await scheduler.pass_once()                               # one match fails; the other is handled
    assert (await services.queries.get(good.id)).status == "aborted"
    assert (await services.queries.get(bad.id)).status == "active"
    monkeypatch.setattr(services.clocks, "time_out", real_time_out)
    assert ("aborted", bad.id) in await scheduler.run_due()   # retried on a later pass


async def test_the_scheduler_wakes_only_for_a_sooner_deadline(services, clock):
    scheduler = Scheduler(services)
    await scheduler.pass_once()
    assert scheduler._next is None
    match = await started(services, days=3)                   # a first deadline: wake up
    assert scheduler._wake.is_set()
    scheduler._wake.clear()
    await scheduler.pass_once()
    assert scheduler._next == match.next_timer
    clock.advance(hours=1)
    mover = match.to_move_user
    match = await services.queries.get(match.id)
    await services.play.submit_turn(match, mover.user_id, match.position.legal_moves()[0], guild_id=GUILD)
    assert not scheduler._wake.is_set()                       # its new deadline is later than the one we await
    await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                        opponents=[BOB])       # expires in a day: sooner
    assert scheduler._wake.is_set()


@pytest.mark.sqlite_only
@pytest.mark.parametrize("query", ["remind", "deadline", "expired"])
async def test_due_queries_use_an_index(db, query):
    column = {"remind": "remind_at", "deadline": "deadline_at", "expired": "expires_at"}[query]
    status = "challenge" if query == "expired" else "active"
    plan = await db.fetchall(f"EXPLAIN QUERY PLAN SELECT id FROM matches WHERE status = '{status}'"
                             f" AND {column} <= ? ORDER BY {column}", ("2026",))
    detail = " ".join(r[3] for r in plan)
    assert "SEARCH matches USING" in detail and "INDEX" in detail and "SCAN" not in detail, detail


async def test_an_interaction_token_is_forgotten_once_its_reply_is_done(services, db):
    dispatcher = Dispatcher(services, Recorder())
    match = await started(services)
    async with services.db.transaction() as tx:
        await services.outbox.add(tx, match.id, [Announcement("reply", {"token": "secret-token", "text": "ok"})],
                                  now=services.ctx.now())
    await dispatcher.deliver_pending()
    rows = await db.fetchall("SELECT payload FROM outbox WHERE kind = 'reply'")
    assert rows and all("secret-token" not in r[0] for r in rows)


async def test_a_delivery_whose_claim_was_taken_over_writes_neither_its_follow_ups_nor_what_it_posted(
        db_path, services, clock):
    """A slow delivery outlives its lease: another process takes the row over, posts and marks it. The slow one's
    mark is then refused, and with it the message id it would remember and its follow-ups: they are the new
    owner's, written once."""
    match = await started(services)
    other_db = await Database.open(db_path)
    try:
        other = Services(other_db, clock=clock)
        reached, go_on = asyncio.Event(), asyncio.Event()

        def posting(message_id: int, slow: bool):
            async def deliver(row: OutboxRow) -> Delivered:
                if row.kind != "board":
                    return Delivered("sent")
                if slow:
                    reached.set()
                    await go_on.wait()
                return Delivered("sent", message_id, [Dm(ANN.user_id, f"posted as {message_id}")],
                                 Remember(board_message_id=message_id))
            return deliver
        lease = timedelta(minutes=10)
        slow = asyncio.create_task(Dispatcher(services, posting(1, True), owner="slow", lease=lease)
                                   .deliver_pending(match.id))
        await asyncio.wait_for(reached.wait(), timeout=30)
        clock.advance(minutes=11)                                   # the slow one's lease ran out
        await Dispatcher(other, posting(2, False), owner="next", lease=lease).deliver_pending(match.id)
        go_on.set()
        await asyncio.wait_for(slow, timeout=30)
        dms = await services.db.fetchall("SELECT payload FROM outbox WHERE kind = 'dm'")
        assert [json.loads(p)["text"] for (p,) in dms] == ["posted as 2"]
        assert (await services.queries.get(match.id, position=False)).row.board_message_id == 2
    finally:
        await other_db.close()
