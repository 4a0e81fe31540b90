"""Proposals every other player must accept — draw offers and takebacks — each decided once, by the database.

A proposal is a row of ``proposals`` made in one position (its ply): any move lets it lapse. Each agreement is
a row of ``proposal_agreements`` whose key refuses a second one by the same person. The agreement that
completes a proposal decides it in the transaction that acts on it: ``MatchStore.decide`` flips it from open
to accepted only while it is open, and only then does the match end as a draw or the turn get undone. A decline
flips it from open to declined the same way. Of an acceptance and a decline at once, whichever commits first
wins and the other is told the proposal is no longer open — on SQLite (serial transactions) and on PostgreSQL
(the later UPDATE waits for the earlier's row lock, then finds the row decided).

``Draws`` and ``Takebacks`` say what their proposal is (kind, texts, who must agree) and what accepting does.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from bot.i18n import T
from bot.model import Match, NotAllowed, StalePosition
from bot.services.announce import Proposal
from bot.services.context import Context
from bot.services.play import Play, check_active
from bot.services.queries import Queries
from bot.store.db import Tx

Plan = TypeVar("Plan")     # what accepting needs prepared before its transaction (a takeback: the undo)


@dataclass(frozen=True)
class ProposalTexts:
    """The refusals of one kind of proposal."""
    only_players: T      # someone not seated answers
    own: T               # the proposer answers their own proposal
    moved_on: T          # the position moved on (or nothing is open at that ply)
    closed: T            # it was decided or lapsed meanwhile
    again: T             # someone agrees a second time


class Proposals(ABC, Generic[Plan]):
    kind: ClassVar[str]            # proposals.kind
    opened: ClassVar[str]          # the event of the announcement that makes it ('offer', 'request')
    notice: ClassVar[type[Proposal]]   # what announces it (made and declined)
    texts: ClassVar[ProposalTexts]

    def __init__(self, ctx: Context, queries: Queries, play: Play):
        self.ctx = ctx
        self.queries = queries
        self.play = play

    # ---- what a kind says --------------------------------------------------------------------------------------
    @staticmethod
    @abstractmethod
    def pending(match: Match) -> tuple[int | None, tuple[int, ...]]:
        """The open proposal of this kind: (the ply it was made at, who agrees, the proposer first)."""

    @abstractmethod
    def must_agree(self, match: Match, proposer: int) -> set[int]:
        """Who must agree besides the proposer."""

    @abstractmethod
    async def prepare(self, match: Match, proposer: int) -> Plan:
        """What accepting needs, read before its transaction (guarded by the ply when it acts)."""

    @abstractmethod
    async def act(self, tx: Tx, match: Match, plan: Plan, agreed: tuple[int, ...], now: str) -> Match:
        """Accepting, in the transaction that decided it; the match after it."""

    @abstractmethod
    async def acted(self, match: Match) -> None:
        """After the accepting transaction committed."""

    # ---- the shared steps --------------------------------------------------------------------------------------
    async def make(self, match: Match, user_id: int) -> Match:
        """Open a proposal in the match's position, announced to the others (the caller checked who may)."""
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            if not await self.ctx.matches.propose(tx, match.id, self.kind, ply=match.ply, user_id=user_id, now=now):
                raise StalePosition(T("The position changed in the meantime; look at the board again."))
            await self.ctx.outbox.add(tx, match.id, [self.notice(self.opened, match.ply, user_id)], now=now)
            match = Match(*await self.ctx.matches.read(tx, match.id))
        self.ctx.events.announcements.emit(match.id)
        return match

    async def answer(self, match_id: int, user_id: int, *, guild_id: int, ply: int, accept: bool) -> Match:
        """Accept or decline the proposal made at ``ply``; the last acceptance acts on it."""
        match = await self.queries.get(match_id)
        check_active(match, guild_id)
        if match.seat_of(user_id) is None:
            raise NotAllowed(self.texts.only_players)
        at, agreed = self.pending(match)
        if at != ply or match.ply != ply:
            raise StalePosition(self.texts.moved_on)
        proposer = agreed[0]
        if proposer == user_id:
            raise NotAllowed(self.texts.own)
        if accept:
            return await self._accept(match, user_id, proposer)
        return await self._decline(match, user_id, proposer)

    async def _decline(self, match: Match, user_id: int, proposer: int) -> Match:
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            if not await self.ctx.matches.decide(tx, match.id, self.kind, ply=match.ply, status="declined", now=now):
                raise StalePosition(self.texts.closed)
            await self.ctx.outbox.add(tx, match.id, [self.notice("declined", match.ply, user_id, proposer)], now=now)
            match = Match(*await self.ctx.matches.read(tx, match.id))
        self.ctx.events.announcements.emit(match.id)
        return match

    async def _accept(self, match: Match, user_id: int, proposer: int) -> Match:
        """One agreement; the one that completes the proposal decides it and acts, in the same transaction."""
        everyone = self.must_agree(match, proposer) | {proposer}
        plan = await self.prepare(match, proposer)
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            agreement = await self.ctx.matches.agree(tx, match.id, self.kind, ply=match.ply, user_id=user_id, now=now)
            if agreement is None:
                raise StalePosition(self.texts.moved_on)
            if not agreement.new:
                raise NotAllowed(self.texts.again)
            if not everyone <= set(agreement.agreed):
                return Match(*await self.ctx.matches.read(tx, match.id))
            if not await self.ctx.matches.decide(tx, match.id, self.kind, ply=match.ply, status="accepted", now=now):
                raise StalePosition(self.texts.closed)
            new = await self.act(tx, match, plan, agreement.agreed, now)
        await self.acted(new)
        return new
