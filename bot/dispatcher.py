"""The outbox dispatcher: delivers every announcement once, whatever fails. Knows nothing of Discord.

The scheduler's shape: one task, woken when a commit writes announcements, catching up at start-up. Rows
are claimed with a lease (all rows of one match together, delivered in order), performed by the front
end's ``deliver`` function, and marked done with what happened — and, in the same transaction, what the post
must remember (a message id, a thread: ``Remember``). A failure that may pass (network, rate limit, a 5xx) is
retried with backoff; a permanent one (channel deleted, permission missing) is logged, marked, and never
blocks the others. A command may deliver its own match's rows at once
(``deliver_pending``), so the player sees the board without waiting for the loop.

``Routes`` is a front end's delivery: it reads each row as its typed notice (``bot.services.announce.KINDS``)
and hands it to the handler the front end declared for its kind, or, for work that needs no front end (the
bot's own turn), to a Discord-free worker beside the dispatcher. Building it checks that every kind has a
handler, so a front end that lacks one does not start; a row of a kind this version does not know (written by
a newer one) fails at once, for good.

Several processes share the work. On PostgreSQL the dispatcher also listens for the other processes' commits
(``Database.listen``) and passes them on to this process's events, which wake it and the scheduler. A lease
is short (``LEASE``) and renewed while its rows are being delivered, and the loop sleeps at most until the
earliest claim runs out (``OutboxStore.next_due``), so the rows of a process that died are taken over within
its lease and a moment.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot import metrics
from bot.events import together
from bot.loop import WakeableLoop
from bot.services import Services
from bot.services.announce import KINDS, Delivered, Handler, Handlers, Notice, Outgoing, Remember
from bot.services.context import iso
from bot.store.db import Tx
from bot.store.rows import OutboxRow

log = logging.getLogger(__name__)

LEASE = timedelta(seconds=30)      # a claimed row is another process's to take after this, unless renewed
RENEW_AFTER = 1 / 3                # share of the lease after which a claim still being delivered is renewed
RETRY_DELAYS = (5, 30, 120, 600, 1800, 3600)   # seconds after the 1st, 2nd… failed attempt
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1
MATCHES_PER_PASS = 16
IDLE_SLEEP = 300.0                 # look again at least this often


class PermanentFailure(Exception):
    """This announcement can never be delivered (the channel is gone, a permission is missing)."""


class MissingHandlers(RuntimeError):
    """A front end declares no handler for some kind of announcement (found at start-up)."""


Deliver = Callable[[OutboxRow], Awaitable[Delivered]]


class FrontEnd(Protocol):
    """What posts announcements: Discord, the terminal. ``perform`` calls a handler in the front end's setting
    (its language, its errors read as permanent or passing)."""
    name: str

    @property
    def handlers(self) -> Handlers: ...

    async def perform(self, outgoing: Outgoing[Any], handler: Handler) -> Delivered: ...


def check_handlers(front_end: str, handlers: Handlers, workers: Handlers,
                   kinds: Mapping[str, type[Notice]] = KINDS) -> None:
    """Every kind is handled once: by a worker beside the dispatcher or by the front end. Raises
    ``MissingHandlers`` naming the kinds without a handler (or with both)."""
    missing = sorted(name for name, cls in kinds.items() if cls not in handlers and cls not in workers)
    twice = sorted(name for name, cls in kinds.items() if cls in handlers and cls in workers)
    if missing:
        raise MissingHandlers(f"{front_end} has no handler for the announcement kind(s): {', '.join(missing)}")
    if twice:
        raise MissingHandlers(f"{front_end} handles what the dispatcher's worker does: {', '.join(twice)}")


class Routes:
    """A front end's delivery (``Deliver``): each row read as its notice, performed by its kind's worker or
    handler."""

    def __init__(self, front_end: FrontEnd, *, workers: Handlers):
        check_handlers(front_end.name, front_end.handlers, workers)
        self.front_end = front_end
        self.handlers = dict(front_end.handlers)
        self.workers = dict(workers)

    async def __call__(self, row: OutboxRow) -> Delivered:
        cls = KINDS.get(row.kind)
        if cls is None:      # a newer version's kind: no retry would ever deliver it
            raise PermanentFailure(f"unknown announcement kind {row.kind!r}")
        try:
            notice = cls.from_payload(row.payload, expires_at=row.expires_at)
        except TypeError as exc:
            raise PermanentFailure(f"unreadable {row.kind} payload ({exc})") from exc
        outgoing = Outgoing(row.id, row.match_id or 0, notice, tournament_id=row.tournament_id)
        worker = self.workers.get(cls)
        if worker is not None:
            return await worker(outgoing)
        return await self.front_end.perform(outgoing, self.handlers[cls])


def owner_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _process_gone(owner: str) -> bool:
    """Whether a claim's owner on this host is a process that no longer runs (or was this pid before)."""
    try:
        pid = int(owner.split(":")[1])
    except (IndexError, ValueError):
        return False
    if pid == os.getpid():
        return True            # a claim under our pid that is not ours: a previous life of this process
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class Dispatcher(WakeableLoop):
    name = "dispatcher"
    max_sleep = IDLE_SLEEP

    def __init__(self, services: Services, deliver: Deliver, *, owner: str | None = None,
                 batch: int = MATCHES_PER_PASS, lease: timedelta = LEASE):
        super().__init__()
        self.services = services
        self.deliver = deliver
        self.owner = owner or owner_name()
        self.batch = batch          # matches claimed at a time
        self.lease = lease          # how long a claim holds before another process may take the rows
        events = services.events
        self._unsubscribe = together(events.announcements.subscribe(lambda _match_id: self._wake.set()),
                                     events.elsewhere.subscribe(lambda _: self._wake.set()))
        self._listener: asyncio.Task | None = None
        self.delivered = 0
        self.failed = 0       # rows given up on
        self.failures = 0     # consecutive failing passes

    async def release_dead_claims(self) -> int:
        """At start-up: take back the claims of processes of this host that are gone (a crash, a restart)."""
        host = self.owner.split(":")[0] + ":"
        released = 0
        for owner in await self.services.outbox.claim_owners(host):
            if owner != self.owner and _process_gone(owner):
                released += await self.services.outbox.release(owner)
        return released

    def start(self) -> None:
        """Start the loop, and the listener that passes other processes' commits on to this process's events."""
        super().start()
        if self._listener is None:
            events = self.services.events
            self._listener = asyncio.create_task(self.services.db.listen(lambda: events.elsewhere.emit(None)),
                                                 name="listener")

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
            self._listener = None
        await super().stop()

    async def deliver_pending(self, match_id: int | None = None, *, tournament_id: int | None = None) -> int:
        """Claim and deliver what is due (of one match or tournament, or of any), until nothing due is left
        unclaimed. A tournament's rows are delivered in order per tournament, as a match's are per match."""
        count = 0
        while True:
            now = self.services.clock()
            rows = await self.services.outbox.claim(now=iso(now), until=iso(now + self.lease), owner=self.owner,
                                                    match_id=match_id, matches=self.batch,
                                                    tournament_id=tournament_id)
            if not rows:
                return count
            by_match: dict[tuple[int | None, int | None], list[OutboxRow]] = {}
            for row in rows:     # a match's rows together (a tournament's among them), else a tournament's
                key = (row.match_id, None) if row.match_id is not None else (None, row.tournament_id)
                by_match.setdefault(key, []).append(row)
            renewing = asyncio.create_task(self._renew(list(by_match)), name="renew claims")
            try:
                await asyncio.gather(*(self._deliver_in_order(r) for r in by_match.values()))
            finally:
                renewing.cancel()
                await asyncio.gather(renewing, return_exceptions=True)
            count += len(rows)

    async def _renew(self, groups: list[tuple[int | None, int | None]]) -> None:
        """Keep this process's claims on these matches (and tournaments) while their rows are delivered (a slow
        post, a bot's search, a pairing), so that no other process takes them over meanwhile. Runs until
        cancelled."""
        match_ids = [m for m, _t in groups if m is not None]
        tournament_ids = [t for m, t in groups if m is None and t is not None]
        while True:
            await asyncio.sleep(self.lease.total_seconds() * RENEW_AFTER)
            until = iso(self.services.clock() + self.lease)
            try:
                await self.services.outbox.renew(self.owner, match_ids, until=until, tournament_ids=tournament_ids)
            except Exception as exc:     # the database is away: the next renewal may do
                log.warning("dispatcher: could not renew claims (%s)", type(exc).__name__)

    async def _deliver_in_order(self, rows: list[OutboxRow]) -> None:
        for row in rows:
            await self._deliver_one(row)

    async def _deliver_one(self, row: OutboxRow) -> None:
        outbox = self.services.outbox
        now = self.services.clock()
        if row.expires_at is not None and row.expires_at <= iso(now):
            await outbox.done(None, row.id, now=iso(now), result="skipped: expired", owner=self.owner)
            return
        try:
            done = await self.deliver(row)
        except asyncio.CancelledError:
            raise
        except PermanentFailure as exc:
            log.error("outbox %s (%s, match %s) cannot be delivered; given up: %s", row.id, row.kind, row.match_id,
                      exc)
            self._given_up(row)
            await outbox.done(None, row.id, now=iso(self.services.clock()), result=f"failed: {exc}"[:200],
                              owner=self.owner)
            return
        except Exception as exc:
            attempts = row.attempts + 1
            if attempts >= MAX_ATTEMPTS:
                log.exception("outbox %s (%s, match %s) failed %d times; giving up", row.id, row.kind,
                              row.match_id, attempts)
                self._given_up(row)
                await outbox.done(None, row.id, now=iso(self.services.clock()), result=f"failed: {exc!r}"[:200],
                                  owner=self.owner)
                return
            delay = RETRY_DELAYS[min(attempts - 1, len(RETRY_DELAYS) - 1)]
            log.warning("outbox %s (%s, match %s) failed (%r); retrying in %d s", row.id, row.kind, row.match_id,
                        exc, delay)
            await outbox.retry(row.id, at=iso(self.services.clock() + timedelta(seconds=delay)))
            return
        self.delivered += 1
        when = iso(self.services.clock())
        async with self.services.db.transaction() as tx:
            marked = await outbox.done(tx, row.id, now=when, result=done.result, message_id=done.message_id,
                                       owner=self.owner)
            if marked:
                await self._remember_in(tx, row.match_id, done.remember)
                await self._remember_of_tournament(tx, row.tournament_id, done.remember)
                await outbox.add(tx, row.match_id, done.follow_ups, now=when, tournament_id=row.tournament_id)
        if done.follow_ups:
            self._wake.set()

    async def remember(self, match_id: int, what: Remember) -> None:
        """Remember what a post made outside the outbox posted (a board posted again on request)."""
        async with self.services.db.transaction() as tx:
            await self._remember_in(tx, match_id, what)

    async def _remember_in(self, tx: Tx, match_id: int | None, what: Remember) -> None:
        if match_id is None:        # a tournament's row
            return
        matches = self.services.matches
        if what.channel_id is not None:
            await matches.set_channel(tx, match_id, what.channel_id)
        if what.card_message_id is not None:
            await matches.set_message(tx, match_id, "card_message_id", what.card_message_id)
        if what.board_message_id is not None:
            await matches.set_message(tx, match_id, "board_message_id", what.board_message_id)

    async def _remember_of_tournament(self, tx: Tx, tournament_id: int | None, what: Remember) -> None:
        if tournament_id is not None and what.tournament_card_message_id is not None:
            await self.services.tournaments.store.set_card_message(tx, tournament_id, what.tournament_card_message_id)

    def _given_up(self, row: OutboxRow) -> None:
        self.failed += 1
        metrics.announcement_given_up(row.kind)

    async def pass_once(self) -> float:
        """Deliver what is due; seconds until the next row is due. Never raises (but cancellation): a failing
        query is logged and retried after a growing pause."""
        try:
            await self.deliver_pending()
            nxt = await self.next_due()
        except asyncio.CancelledError:
            raise
        except Exception:
            self.failures += 1
            delay = min(2.0 ** self.failures, 60.0)
            log.exception("dispatcher pass failed; retrying in %.0f s", delay)
            return delay
        self.failures = 0
        return IDLE_SLEEP if nxt is None else (nxt - self.services.clock()).total_seconds()

    async def next_due(self) -> datetime | None:
        when = await self.services.outbox.next_due()
        return datetime.fromisoformat(when) if when else None

    async def before_first_pass(self) -> None:
        """Catch up at once, also on rows a process that died was holding."""
        try:
            await self.release_dead_claims()
        except Exception:
            log.exception("dispatcher: could not release old claims")
