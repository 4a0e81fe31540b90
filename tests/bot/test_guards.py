"""Guards no other test protected, each proven by a test that fails without it (tools/guards.toml lists every
critical guard with the tests that must notice its removal; tools/mutate_guards.py removes each and checks).

Where the guard is a lock or a conditional write the test runs on PostgreSQL with two connections and orders
them with a held row lock: the other side is made to wait on it (seen in ``pg_stat_activity``) before the lock
is let go, so the interleaving the guard exists for happens every time.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import aiohttp
import pytest

from bot.dispatcher import RETRY_DELAYS
from bot.model import NotAllowed, Person, StalePosition
from bot.services import Services
from bot.services.context import iso
from bot.store import Database
from bot.store.archive import decode
from bot.store.archives import ArchiveStore
from bot.store.db import Tx
from bot.store.outbox import OutboxStore
from bot.store.rows import Announcement, Start, TurnClock
from tests.bot.support import GUILD, boards, cards, said
from tests.conftest import ANN, BOB, CHANNEL, CY, DEE, FakeClock

EVE, FAY = Person(15, "Eve"), Person(16, "Fay")
HANG = 500           # polls of 20 ms before a wait that never comes is a failure (a hang detector, not a speed limit)


@pytest.fixture
def pg_url(postgres_server):
    """A fresh PostgreSQL database; each ``Database.open`` of it is another process's connection pool."""
    name, url = postgres_server.new_database()
    yield url
    postgres_server.drop(name)


@asynccontextmanager
async def two_processes(url: str, clock_one: FakeClock, clock_two: FakeClock | None = None
                        ) -> AsyncIterator[tuple[Services, Services]]:
    first, second = await Database.open(url), await Database.open(url)
    try:
        yield (Services(first, clock=clock_one, seed_source=random.Random(3)),
               Services(second, clock=clock_two or clock_one, seed_source=random.Random(4)))
    finally:
        await first.close()
        await second.close()


@asynccontextmanager
async def holding(db: Database, match_id: int) -> AsyncIterator[Tx]:
    """A transaction that holds the match row (as every deciding write does) until the block ends; it commits."""
    async with db.transaction() as tx:
        await tx.lock_match(match_id)
        yield tx


async def until_waiting_on_a_lock(db: Database, count: int = 1) -> None:
    """Until ``count`` other connections wait on a row lock (the interleaving is set), or fail: a hang."""
    for _ in range(HANG):
        row = await db.fetchone("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                                " AND wait_event_type = 'Lock'")
        if row[0] >= count:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("nothing came to wait on the held lock")


async def started(services: Services, game: str = "tintas", *, days: int = 1):
    match = await services.challenges.challenge(game, guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=days)
    return await services.challenges.accept(match.id, BOB, guild_id=GUILD)


async def play(services: Services, match, turns: int):
    for _ in range(turns):
        match = await services.queries.get(match.id)
        value, _ = match.game.turn_suggestions(match.position, "", 25)[0]
        match = (await services.play.submit_turn(match, match.to_move_user.user_id, value, guild_id=GUILD)).match
    return match


# ---- only a player can resign --------------------------------------------------------------------------------
async def test_a_stranger_pressing_the_resign_button_is_refused_and_the_match_goes_on(fake, people):
    ann, bob, cy = people
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob))[0]
    await fake.click(bob, card.button("Accept")["custom_id"], message=card)
    confirm = (await fake.slash(ann, "tintas resign"))[-1]
    out = await fake.click(cy, confirm.button("Yes, resign")["custom_id"], message=confirm)
    assert "Only a player of this match can resign it" in said(out) and not boards(out)
    services = fake.client.services
    match = await services.queries.get(1)
    assert match.status == "active" and await services.ratings.changes(1) == []


# ---- a turn is stored for the position it was chosen in ------------------------------------------------------
async def test_a_turn_chosen_for_an_older_position_is_refused(services):
    """A submission carries the ply it was chosen at (a bot's turn row, a button): two turns later the same
    player is to move again, and a turn chosen back then must not be played in the new position."""
    match = await started(services)
    first = match.to_move_user
    match = await play(services, match, 2)
    assert match.to_move_user.user_id == first.user_id
    value, _ = match.game.turn_suggestions(match.position, "", 25)[0]     # legal now, chosen "back then"
    with pytest.raises(StalePosition, match="position changed"):
        await services.play.submit_turn(match.id, first.user_id, value, guild_id=GUILD, expected_ply=0)
    assert (await services.queries.get(match.id)).ply == match.ply


async def test_two_processes_storing_one_turn_at_once_store_it_once(pg_url, clock):
    """The same turn sent twice at once (two processes, both having read the position): the ply guard lets
    one through and refuses the other with the clear message."""
    async with two_processes(pg_url, clock) as (one, two):
        match = await started(one)
        mover = match.to_move_user
        value, _ = match.game.turn_suggestions(match.position, "", 25)[0]
        async with holding(two.db, match.id):
            sent = [asyncio.create_task(stack.play.submit_turn(match.id, mover.user_id, value, guild_id=GUILD))
                    for stack in (one, two)]
            await until_waiting_on_a_lock(two.db, 2)
        results = await asyncio.gather(*sent, return_exceptions=True)
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        refused = [r for r in results if isinstance(r, BaseException)]
        assert isinstance(refused[0], StalePosition) and "position changed" in str(refused[0])
        assert [m.ply for m in await one.matches.moves(match.id)] == [1]


# ---- one seat, one joiner --------------------------------------------------------------------------------------
async def test_four_joiners_at_once_from_two_processes_take_the_one_open_seat_once(pg_url, clock):
    """Ann names Bob (who has not answered yet) and leaves one seat open at a 3-seat table: of four joiners at
    once, one sits; once Bob accepts the match starts with three players."""
    async with two_processes(pg_url, clock) as (one, two):
        match = await one.challenges.challenge("rincala", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                               opponents=[BOB], players=3, days_per_move=3)
        joins = await asyncio.gather(*(stack.challenges.join(match.id, who, guild_id=GUILD)
                                       for stack, who in ((one, CY), (two, DEE), (one, EVE), (two, FAY))),
                                     return_exceptions=True)
        assert sum(not isinstance(j, BaseException) for j in joins) == 1
        assert all(isinstance(j, StalePosition) for j in joins if isinstance(j, BaseException))
        waiting = await one.queries.get(match.id)
        assert len(waiting.participants) == 3 and waiting.row.open_seats == 0
        begun = await two.challenges.accept(match.id, BOB, guild_id=GUILD)
        assert begun.status == "active" and sorted(p.seat for p in begun.participants) == [0, 1, 2]


async def test_one_person_joining_twice_at_once_takes_one_seat(pg_url, clock):
    """Bob presses Join in two processes at once: both read him seatless and both claim a seat; the second
    finds him seated and gives its seat back (the claim is undone with the refusal) — one seat stays open."""
    async with two_processes(pg_url, clock) as (one, two):
        match = await one.challenges.challenge("rincala", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                               opponents=[], players=3, days_per_move=3)
        async with holding(two.db, match.id):
            joins = [asyncio.create_task(stack.challenges.join(match.id, BOB, guild_id=GUILD)) for stack in (one, two)]
            await until_waiting_on_a_lock(two.db, 2)
        results = await asyncio.gather(*joins, return_exceptions=True)
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        assert any(isinstance(r, NotAllowed) and "already have a seat" in str(r) for r in results)
        after = await one.queries.get(match.id)
        assert after.status == "challenge" and after.row.open_seats == 1 and len(after.participants) == 2


# ---- a board post repeated after a lost answer is one post --------------------------------------------------
async def test_a_board_post_whose_answer_was_lost_is_not_posted_twice_when_retried(fake, people, clock):
    """Discord made the message but the answer never came (the connection dropped): the dispatcher retries the
    row later, and the row's nonce makes Discord hand back the first message instead of posting a second."""
    ann, bob, _ = people
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob))[0]
    await fake.click(bob, card.button("Accept")["custom_id"], message=card)
    services = fake.client.services
    lost: list[dict] = []

    def post_then_drop_the_answer(route, params, body, uploads):
        message = fake._http_default(("POST", "/channels/{channel_id}/messages"), params, body or {}, uploads)
        if not lost and any(name == "board.png" for name, _ in uploads):
            lost.append(message)
            raise aiohttp.ServerDisconnectedError()
        return message
    fake.http_handlers[("POST", "/channels/{channel_id}/messages")] = post_then_drop_the_answer
    match = await play(services, await services.queries.get(1), 1)
    await fake.client.dispatcher.deliver_pending(match.id)
    assert len(lost) == 1 and [r.kind for r in await services.outbox.pending(match.id)] == ["board"]   # to retry
    clock.advance(seconds=RETRY_DELAYS[0] + 1)
    await fake.client.dispatcher.deliver_pending(match.id)
    posted = [b for b in boards(fake.sent) if "turn 2" in b.text()]
    assert len(posted) == 1 and await services.outbox.pending(match.id) == []
    assert int(lost[0]["id"]) in [r[3] for r in await services.outbox.delivered(match.id) if r[1] == "board"]


# ---- a time-out ends a match only at a deadline that passed ---------------------------------------------------
async def test_a_time_out_waiting_on_a_time_away_that_moves_the_deadline_does_not_end_the_match(pg_url):
    """The scheduler finds the deadline passed while the player's time away (begun a moment before the
    deadline) is being stored: the away's transaction moves the deadline and commits while the time-out's
    write waits on the match row; the time-out must then see the moved deadline and leave the match running."""
    scheduler_clock = FakeClock()
    player_clock = FakeClock()
    async with two_processes(pg_url, scheduler_clock, player_clock) as (one, two):
        match = await play(one, await started(one), 2)              # both have moved: a time-out is a forfeit
        deadline = match.deadline
        assert deadline is not None
        scheduler_clock.now = deadline + timedelta(seconds=1)
        player_clock.now = deadline - timedelta(seconds=30)        # the player asked just before the deadline
        mover = match.to_move_user
        async with holding(two.db, match.id) as tx:                 # what Away.set does, in its order
            moved = await two.ctx.away.shift_clocks(tx, GUILD, mover.user_id, timedelta(days=3),
                                                    iso(player_clock.now))
            assert [m for m, _, _ in moved] == [match.id]
            timing_out = asyncio.create_task(one.clocks.time_out(match.id))
            await until_waiting_on_a_lock(one.db)
        assert await timing_out is None
        after = await one.queries.get(match.id)
        assert after.status == "active" and after.deadline == deadline + timedelta(days=3)
        assert await one.ratings.changes(match.id) == []


async def test_a_move_landing_while_the_time_out_waits_wins(pg_url):
    """The player moves a moment before the deadline; the scheduler, a moment after it, read the match before
    the move committed: the move stands and the match goes on with the next player's clock."""
    scheduler_clock, player_clock = FakeClock(), FakeClock()
    async with two_processes(pg_url, scheduler_clock, player_clock) as (one, two):
        match = await play(one, await started(one), 2)
        deadline = match.deadline
        assert deadline is not None
        scheduler_clock.now = deadline + timedelta(seconds=1)
        player_clock.now = deadline - timedelta(seconds=5)
        mover = match.to_move_user
        value, _ = match.game.turn_suggestions(match.position, "", 25)[0]
        async with holding(two.db, match.id):
            moving = asyncio.create_task(two.play.submit_turn(match.id, mover.user_id, value, guild_id=GUILD))
            await until_waiting_on_a_lock(two.db)
            timing_out = asyncio.create_task(one.clocks.time_out(match.id))
            await until_waiting_on_a_lock(two.db, 2)
        assert (await moving).match.ply == match.ply + 1
        assert await timing_out is None
        after = await one.queries.get(match.id)
        assert after.status == "active" and after.ply == match.ply + 1 and after.deadline > deadline


async def test_a_resignation_waiting_on_a_move_that_lands_first_is_refused(pg_url, clock):
    """Bob resigns while Ann's move is being stored: the move commits first; the resignation, decided on the
    position before it, must not end the match."""
    async with two_processes(pg_url, clock) as (one, two):
        match = await started(one)
        mover = match.to_move_user
        waiting = next(p for p in match.seated if p.user_id != mover.user_id)
        value, _ = match.game.turn_suggestions(match.position, "", 25)[0]
        async with holding(two.db, match.id):
            moving = asyncio.create_task(one.play.submit_turn(match.id, mover.user_id, value, guild_id=GUILD))
            await until_waiting_on_a_lock(two.db)
            resigning = asyncio.create_task(two.play.resign(match.id, waiting.user_id, guild_id=GUILD))
            await until_waiting_on_a_lock(two.db, 2)
        assert (await moving).match.ply == 1
        with pytest.raises(StalePosition):
            await resigning
        after = await one.queries.get(match.id)
        assert after.status == "active" and after.ply == 1 and await one.ratings.changes(match.id) == []


async def test_a_started_match_is_not_started_again(services):
    """The start is a conditional write: a second start (of a match already begun) changes nothing."""
    match = await started(services)
    seats = {p.user_id: p.seat for p in match.seated}
    again = Start({ANN.user_id: 1, BOB.user_id: 0}, "not a position", 1, TurnClock(None, None))
    async with services.db.transaction() as tx:
        assert not await services.matches.start(tx, match.id, again, now=iso(services.clock()))
    after = await services.queries.get(match.id)
    assert {p.user_id: p.seat for p in after.seated} == seats and after.row.position == match.row.position


# ---- the archiver writes only the rows it verified ------------------------------------------------------------
async def test_rows_changed_while_the_archiver_verified_them_are_not_archived_unverified(pg_url, clock):
    """A match's log changes (here a move's time is corrected) after the archiver read and verified it but
    before its transaction: it archives nothing then, and the next pass archives the rows as they now are."""
    async with two_processes(pg_url, clock) as (one, two):
        match = await play(one, await started(one), 3)
        await one.play.resign(match.id, match.to_move_user.user_id, guild_id=GUILD)
        async with one.db.transaction() as tx:
            await tx.execute("UPDATE outbox SET done_at = created_at, result = 'sent' WHERE done_at IS NULL")
        corrected = "2026-01-01T12:00:07+00:00"
        async with holding(two.db, match.id) as tx:
            await tx.execute("UPDATE moves SET played_at = ? WHERE match_id = ? AND ply = 1", (corrected, match.id))
            archiving = asyncio.create_task(ArchiveStore(one.db).archive(match.id, now=iso(clock())))
            await until_waiting_on_a_lock(two.db)
        assert await archiving == "busy"
        assert await ArchiveStore(one.db).stored(match.id) is None
        assert await ArchiveStore(one.db).archive(match.id, now=iso(clock())) == "archived"
        fmt, blob, _plies = await ArchiveStore(one.db).stored(match.id)
        _setup, logged = decode(int(fmt), bytes(blob))
        assert logged[0].played_at == corrected


# ---- who may act ------------------------------------------------------------------------------------------------
async def test_a_stranger_cannot_ask_for_a_rematch(services):
    match = await started(services)
    await services.play.resign(match.id, ANN.user_id, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="Only the players of that match"):
        await services.challenges.rematch(match.id, CY, guild_id=GUILD)
    assert (await services.db.fetchone("SELECT COUNT(*) FROM matches"))[0] == 1


# ---- a challenge's conditional writes ---------------------------------------------------------------------------
async def test_an_acceptance_after_the_challenge_closed_changes_nothing(pg_url, clock):
    """Bob's acceptance read the challenge open; Ann's cancel commits while it waits: it must not count."""
    async with two_processes(pg_url, clock) as (one, two):
        match = await one.challenges.challenge("rincala", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                               opponents=[BOB, CY], days_per_move=3)
        async with holding(two.db, match.id) as tx:
            assert await two.matches.close_challenge(tx, match.id, "cancelled", now=iso(clock()))
            accepting = asyncio.create_task(one.challenges.accept(match.id, BOB, guild_id=GUILD))
            await until_waiting_on_a_lock(two.db)
        with pytest.raises(StalePosition):
            await accepting
        after = await one.queries.get(match.id)
        assert after.status == "cancelled" and not after.participant(BOB.user_id).accepted


async def test_a_decline_after_the_match_started_changes_nothing(pg_url, clock):
    """Cy's acceptance (the last) and Bob's decline at once: the acceptance comes first and starts the match;
    the decline, which read the challenge open, must not close the running match."""
    async with two_processes(pg_url, clock) as (one, two):
        match = await one.challenges.challenge("rincala", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                               opponents=[BOB, CY], days_per_move=3)
        await one.challenges.accept(match.id, BOB, guild_id=GUILD)
        async with holding(two.db, match.id):
            accepting = asyncio.create_task(one.challenges.accept(match.id, CY, guild_id=GUILD))
            await until_waiting_on_a_lock(two.db)
            declining = asyncio.create_task(two.challenges.decline(match.id, BOB.user_id, guild_id=GUILD))
            await until_waiting_on_a_lock(two.db, 2)
        assert (await accepting).status == "active"
        with pytest.raises(StalePosition):
            await declining
        assert (await one.queries.get(match.id)).status == "active"


async def test_a_challenge_answered_while_it_expires_is_not_expired(services, clock):
    """The scheduler found the challenge due; it was accepted before the scheduler got to it."""
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=3)
    clock.advance(days=1, seconds=1)
    due = await services.clocks.due()
    assert due["expired"] == [match.id]
    await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    assert await services.clocks.expire_challenge(match.id) is None
    assert (await services.queries.get(match.id)).status == "active"


async def test_two_schedulers_remind_once(services, clock):
    """Two processes' schedulers both found the reminder due: the player is reminded once, and not before."""
    match = await started(services)
    assert await services.clocks.remind(match.id) is None                  # not due yet
    clock.advance(hours=20)
    assert await services.clocks.remind(match.id) is not None
    assert await services.clocks.remind(match.id) is None                  # the other scheduler, a moment later
    assert [r.kind for r in await services.outbox.pending(match.id)].count("reminder") == 1


# ---- ratings ----------------------------------------------------------------------------------------------------
async def test_a_match_is_rated_once_however_often_it_is_settled(services):
    match = await started(services)
    done = await services.play.resign(match.id, ANN.user_id, guild_id=GUILD)
    seats = [(p.seat, p.user_id) for p in done.seated]
    async with services.db.transaction() as tx:
        assert await services.ratings.apply(tx, done.row, seats) == []
    assert len(await services.ratings.changes(match.id)) == 2
    assert [r.games for r in await services.ratings.of_user(GUILD, ANN.user_id)] == [1]


async def test_two_matches_of_one_player_finishing_at_once_both_count(pg_url, clock):
    """Ann wins two matches at once in two processes: the second rating change starts from the first's result.
    Both transactions are made to reach Ann's rating row together (it is held until both wait)."""
    async with two_processes(pg_url, clock) as (one, two):
        first = await started(one)
        await one.play.resign(first.id, BOB.user_id, guild_id=GUILD)          # Ann has a rating row now
        against_bob = await started(one)
        match = await one.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                               opponents=[CY], days_per_move=1)
        against_cy = await one.challenges.accept(match.id, CY, guild_id=GUILD)
        async with two.db.transaction() as tx:
            await tx.fetchone("SELECT 1 FROM ratings WHERE guild_id = ? AND game = 'tintas' AND user_id = ?"
                              " FOR UPDATE", (GUILD, ANN.user_id))
            resigning = [asyncio.create_task(one.play.resign(against_bob.id, BOB.user_id, guild_id=GUILD)),
                         asyncio.create_task(two.play.resign(against_cy.id, CY.user_id, guild_id=GUILD))]
            await until_waiting_on_a_lock(two.db, 2)
        await asyncio.gather(*resigning)
        changes = [c for m in (against_bob.id, against_cy.id) for c in await one.ratings.changes(m)
                   if c.user_id == ANN.user_id]
        assert len(changes) == 2
        assert {changes[0].mu_after, changes[1].mu_after} & {changes[0].mu_before, changes[1].mu_before}
        (ann,) = await one.ratings.of_user(GUILD, ANN.user_id)
        assert ann.games == 3 and ann.mu == max(c.mu_after for c in changes)


# ---- transactions ----------------------------------------------------------------------------------------------
async def test_a_move_whose_announcement_cannot_be_written_is_not_stored(services, db):
    """The board row is written in the move's transaction: when it cannot be written (the database refuses
    it), the move is not stored either — never a move that nobody is told of."""
    match = await started(services)
    async with db.transaction() as tx:
        await tx.execute("CREATE TRIGGER refuse_outbox BEFORE INSERT ON outbox BEGIN"
                         " SELECT RAISE(ABORT, 'the disk is full'); END")
    with pytest.raises(Exception, match="the disk is full"):
        await play(services, match, 1)
    after = await services.queries.get(match.id)
    assert after.ply == 0 and await services.matches.moves(match.id) == []


# ---- the outbox's marks -------------------------------------------------------------------------------------------
async def test_a_row_marked_done_is_not_marked_again(services):
    """A bot turn marks its row 'played' with the move; the dispatcher's mark after it must not overwrite that."""
    match = await started(services)
    row = (await services.outbox.pending(match.id))[0]
    assert await services.outbox.done(None, row.id, now=iso(services.clock()), result="played")
    assert not await services.outbox.done(None, row.id, now=iso(services.clock()), result="sent", message_id=9)
    assert (await services.outbox.delivered(match.id))[0] == (row.id, row.kind, "played", None)


async def test_a_claim_taken_over_is_marked_only_by_its_new_owner(services, clock):
    """A process whose lease ran out (its delivery was slow) finds the row claimed by another: its mark is
    refused, and the row stays with the new owner to deliver and mark."""
    match = await started(services)
    lease = timedelta(minutes=2)
    rows = await services.outbox.claim(now=iso(clock()), until=iso(clock() + lease), owner="slow")
    assert rows and all(r.match_id == match.id for r in rows)
    clock.advance(minutes=3)
    taken = await services.outbox.claim(now=iso(clock()), until=iso(clock() + lease), owner="next")
    assert [r.id for r in taken] == [r.id for r in rows]
    assert not await services.outbox.done(None, rows[0].id, now=iso(clock()), owner="slow")
    assert rows[0].id in [r.id for r in await services.outbox.pending(match.id)]
    assert await services.outbox.done(None, rows[0].id, now=iso(clock()), owner="next")


class StopsBeforeItsLock:
    """A claimer's database whose transaction stops after its look at the free matches, before its lock on them
    (``Tx.lock_free_matches``), until let go: there another process's claim can commit, as the event loop or
    the operating system may let it at any time. Transactions begun after the release run straight through."""

    def __init__(self, db: Database):
        self.db = db
        self.stopped, self.go = asyncio.Event(), asyncio.Event()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self.db.transaction() as tx:
            yield _Stopping(tx, self)


class _Stopping:
    def __init__(self, tx: Tx, where: StopsBeforeItsLock):
        self._tx, self._where = tx, where

    def __getattr__(self, name: str):
        return getattr(self._tx, name)

    async def lock_free_matches(self, match_ids):
        self._where.stopped.set()
        await self._where.go.wait()
        return await self._tx.lock_free_matches(match_ids)


async def test_a_match_claimed_between_a_claimers_look_and_its_lock_is_left_to_the_first(pg_url, clock):
    """Process "b" has seen two matches with due rows and no claim; before it holds them, process "a" claims
    the first and commits. "b" must take the second only (the check of claims once the matches are held):
    taking the first too would hand one match's rows to two processes to post. (PostgreSQL only: a SQLite
    transaction holds the whole database from its look to its claim, so no claim can land in between there.)"""
    async with two_processes(pg_url, clock) as (one, two):
        first, second = await started(one), await started(one)
        now, until = iso(clock()), iso(clock() + timedelta(minutes=2))
        stopping = StopsBeforeItsLock(two.db)
        claiming = asyncio.create_task(OutboxStore(stopping).claim(now=now, until=until, owner="b"))  # type: ignore[arg-type]
        await asyncio.wait_for(stopping.stopped.wait(), timeout=HANG * 0.02)
        mine = await one.outbox.claim(now=now, until=until, owner="a", match_id=first.id)
        stopping.go.set()
        theirs = await claiming
        assert mine and theirs
        assert {r.match_id for r in theirs} == {second.id}
        assert all([await one.outbox.done(None, r.id, now=now, owner="a") for r in mine])


# ---- the archiver waits for every announcement -------------------------------------------------------------------
async def test_a_match_with_an_announcement_pending_is_not_archived(services, clock):
    """An announcement written after the archiver chose the match (a /replay's answer) keeps it unarchived."""
    match = await play(services, await started(services), 2)
    await services.play.resign(match.id, ANN.user_id, guild_id=GUILD)
    async with services.db.transaction() as tx:
        await tx.execute("UPDATE outbox SET done_at = created_at, result = 'sent' WHERE done_at IS NULL")
        await services.outbox.add(tx, match.id, [Announcement("dm", {"user_id": ANN.user_id, "text": "…"})],
                                  now=iso(clock()))
    assert await ArchiveStore(services.db).archive(match.id, now=iso(clock())) == "busy"
    assert await ArchiveStore(services.db).stored(match.id) is None
    assert len(await services.matches.moves(match.id)) == 2
