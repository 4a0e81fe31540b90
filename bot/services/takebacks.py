"""Takebacks: a player asks to undo their last whole turn; every other player must accept; nothing is deleted.

Which turn: the requester's most recent whole turn (every ply of it), only while no other person has moved
since (``TAKEBACK_ONLY_LAST_TURN``): once someone else has played, or it is the requester's turn again after
the others moved, it is too late. The bot's replies do not count as "someone": against the bot
(``BOT_ACCEPTS_TAKEBACKS``) the bot agrees at once and its replies after the requester's turn are undone too,
so it is the requester's move again.

Rated matches (a time per move) refuse takebacks unless the server allows them (``/settings takebacks``).

A request is a proposal (``services.proposals``) made in one position: any move lets it lapse. The last
acceptance undoes the turn in the transaction that decides the request: the undone rows stay in the log,
marked with the takeback's event in the match record, the match advances one ply (every older button, cache
and guard is stale), the clock of the player to move restarts, and the board is posted again pinging them.
"""

from __future__ import annotations

import json
from dataclasses import replace

from bot import history
from bot.i18n import T
from bot.model import Match, NotAllowed, StalePosition
from bot.services import announce
from bot.services.announce import TakebackProposal
from bot.services.play import check_active
from bot.services.proposals import Proposals, ProposalTexts
from bot.store.db import Tx
from bot.store.matches import Undo
from bot.store.rows import MoveRow

TAKEBACK_ONLY_LAST_TURN = True   # only the requester's latest turn, and only until another person moves
BOT_ACCEPTS_TAKEBACKS = True     # against the bot: it agrees at once and its replies are undone too


def runs(moves: list[MoveRow]) -> list[list[MoveRow]]:
    """The moves in force grouped into whole turns (a turn ends when the seat that moves changes)."""
    out: list[list[MoveRow]] = []
    for mv in moves:
        if out and out[-1][-1].seat == mv.seat:
            out[-1].append(mv)
        else:
            out.append([mv])
    return out


class Takebacks(Proposals[Undo]):
    kind, opened, notice = "takeback", "request", TakebackProposal
    texts = ProposalTexts(
        only_players=T("Only the players of this match can answer a takeback request."),
        own=T("You asked for this takeback; the others answer it."),
        moved_on=T("That takeback request is no longer open: the position has moved on."),
        closed=T("That takeback request is no longer open."),
        again=T("You have already accepted this takeback request."))

    async def request(self, match_id: int, user_id: int, *, guild_id: int) -> Match:
        """Ask to undo one's last turn; against the bot alone it is undone at once."""
        match = await self.queries.get(match_id, position=False)
        check_active(match, guild_id)
        await self._undoable(match, user_id)
        if match.row.takeback_ply == match.ply:
            raise StalePosition(T("A takeback request is already open in this position."))
        if not self.must_agree(match, user_id):
            return await self._undo_now(match, user_id)
        return await self.make(match, user_id)

    @staticmethod
    def pending(match: Match) -> tuple[int | None, tuple[int, ...]]:
        return match.row.takeback_ply, match.row.takeback_accepted

    def must_agree(self, match: Match, proposer: int) -> set[int]:
        """Every other person seated (the bot's seats agree at once)."""
        return {p.user_id for p in match.seated if p.user_id != proposer and not p.is_ai}

    async def prepare(self, match: Match, proposer: int) -> Undo:
        return await self._plan(match, proposer)

    async def act(self, tx: Tx, match: Match, plan: Undo, agreed: tuple[int, ...], now: str) -> Match:
        detail = json.dumps({"by": plan.actor_id, "accepted": [u for u in agreed if u != plan.actor_id],
                             "plies": list(plan.plies)}, sort_keys=True)
        return await self._undo_in(tx, match, replace(plan, detail=detail), now)

    async def acted(self, match: Match) -> None:
        self.ctx.positions.forget(match.id)
        await self.queries.attach_position(match)
        self.ctx.events.deadline_set.emit(match.next_timer)
        self.ctx.events.announcements.emit(match.id)

    # ---- internals ---------------------------------------------------------------------------------------------
    async def _undoable(self, match: Match, user_id: int) -> tuple[list[MoveRow], list[MoveRow]]:
        """(the moves that stay, the moves a takeback by ``user_id`` would undo), or a refusal saying why not."""
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotAllowed(T("Only a player of this match can ask for a takeback."))
        server = await self.ctx.settings.guild(match.row.guild_id)
        if match.row.time_per_move is not None and not server.takebacks:
            raise NotAllowed(T("Takebacks are off in rated matches on this server (an admin can allow them with "
                             "/settings takebacks:on); casual matches always allow them."))
        moves = await self.ctx.matches.moves(match.id)
        turns = runs(moves)
        mine = [i for i, turn in enumerate(turns) if turn[0].seat == seat]
        if not mine:
            raise NotAllowed(T("You have not played a turn yet, so there is nothing to take back."))
        last = mine[-1]
        later = turns[last + 1:]
        if any(not match.at_seat(turn[0].seat).is_ai for turn in later):
            raise NotAllowed(T("Someone has moved since your last turn; a takeback is only possible until the next "
                             "player moves."))
        if not later and match.row.to_move == seat:
            raise NotAllowed(T("Your turn is still going on; finish it first, then ask for a takeback."))
        kept = [mv for turn in turns[:last] for mv in turn]
        return kept, [mv for turn in turns[last:] for mv in turn]

    async def _plan(self, match: Match, requester: int) -> Undo:
        """Where the match stands once the requester's last turn (and the bot's replies after it) is undone."""
        kept, undone = await self._undoable(match, requester)
        row = match.row
        state = history.after(row, kept)
        remaining = runs(kept)
        undone_turns = len(runs(undone)) - (1 if row.to_move == undone[-1].seat else 0)
        detail = json.dumps({"by": requester, "accepted": [], "plies": [mv.ply for mv in undone]}, sort_keys=True)
        return Undo(plies=[mv.ply for mv in undone], position=state.encode(), to_move=state.to_move,
                    clock=self.ctx.turn_clock(row), whole_turns=undone_turns,
                    turn_start_ply=remaining[-2][-1].ply if len(remaining) > 1 else 0,
                    last_seat=remaining[-1][0].seat if remaining else None, actor_id=requester, detail=detail)

    async def _undo_now(self, match: Match, requester: int) -> Match:
        """Against the bot alone: undone at once, in one transaction, without a request."""
        plan = await self._plan(match, requester)
        async with self.ctx.db.transaction() as tx:
            new = await self._undo_in(tx, match, plan, self.ctx.now())
        await self.acted(new)
        return new

    async def _undo_in(self, tx: Tx, match: Match, undo: Undo, now: str) -> Match:
        """Undo in the caller's transaction: the log marks, the clock, the announcements; the match after it."""
        if not await self.ctx.matches.take_back(tx, match.id, expected_ply=match.ply, undo=undo, now=now):
            raise StalePosition(T("The position changed in the meantime; look at the board again."))
        await self.ctx.away.defer_new_clock(tx, match.id, now)   # the turn goes back to someone maybe away
        new = Match(*await self.ctx.matches.read(tx, match.id))
        await self.ctx.outbox.add(tx, match.id, [announce.board(new, "takeback", by=undo.actor_id,
                                                                undone=len(undo.plies), from_ply=undo.turn_start_ply),
                                                 *announce.bot_turn(new)], now=now)
        return new
