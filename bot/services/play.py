"""Playing: a submitted turn, a resignation, an admin's abort.

A move is one read and one play: the match comes from the caller (or one read), the submission is played
once, yielding every per-ply position the log and the board need, and the moves, the result, the rating and
the announcements are written in one transaction guarded by the ply the player saw.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from bot.i18n import N_, Said, T
from bot.metrics import turn_played
from bot.model import BadMove, Match, NotAllowed, NotFound, StalePosition, TurnResult
from bot.services import announce
from bot.services.context import Context
from bot.services.queries import Queries
from bot.store.db import Tx
from bot.store.matches import NewTurn
from bot.store.rows import Result
from engines import IllegalMove, State
from engines.base import Phrase, rank_seats, turn_cap_outcome

MAX_SUBMISSION = 300      # characters of a typed turn we read; a longer one is refused unread
QUOTE = 40                # characters of a refused input quoted back
MAX_REASON = 450          # characters of an engine's refusal shown (composed in the reader's language)
STILL_YOUR_MOVE = N_("it is still your move")


def quote(text: str) -> str:
    """A short, safe quotation of what a user typed."""
    text = " ".join(text.split())
    return repr(text if len(text) <= QUOTE else text[:QUOTE] + "…")


class Play:
    def __init__(self, ctx: Context, queries: Queries):
        self.ctx = ctx
        self.queries = queries

    async def submit_turn(self, match: Match | int, user_id: int, text: str | Sequence[str], *, guild_id: int,
                          expected_ply: int | None = None, told: Sequence[announce.Notice] = (),
                          completes: int | None = None) -> TurnResult:
        """Play a whole submission (all moves or none) and store it in one guarded transaction.

        ``match`` is the match as the caller read it (or its id, read here). ``expected_ply`` is the position
        the player answered (a button's, or the bot's); by default the one read. ``told`` are extra
        announcements (the interaction's reply); ``completes`` an outbox row this turn settles (a bot turn).
        """
        started = time.perf_counter()
        if isinstance(match, int):
            match = await self.queries.get(match)
        check_active(match, guild_id)
        if expected_ply is not None and match.ply != expected_ply:
            raise StalePosition(T("The position changed while you were moving — look at the new board and try again."))
        seat = self._seat_for_turn(match, user_id)
        self._check_deadline(match)
        before = match.position
        moves, states = play_turn(before, seat, text)
        after = states[-1]
        row = match.row
        continuing = row.last_seat == seat and row.ply > 0
        start_ply = row.turn_start_ply if continuing else row.ply
        turn_passed = after.is_over or after.to_move != seat
        result = None
        if after.is_over:
            outcome = after.outcome()
            assert outcome is not None
            result = Result("finished", outcome.winners, outcome.ranks, outcome.termination, dict(outcome.roles),
                            dict(outcome.facts))
        elif turn_passed and match.game.turn_cap and row.whole_turns + 1 >= match.game.turn_cap:
            capped = turn_cap_outcome(after)   # the bot's draw cap (Quincala R-W3, binding decision 7): a draw
            result = Result("finished", capped.winners, capped.ranks, capped.termination, facts=dict(capped.facts))
        new_turn = NewTurn(
            moves=[(row.ply + i + 1, seat, move, s.encode()) for i, (move, s) in enumerate(zip(moves, states,
                                                                                                 strict=True))],
            position=after.encode(), to_move=None if result else after.to_move,
            clock=None if result or not turn_passed else self.ctx.turn_clock(row),
            turn_start_ply=start_ply, seat=seat, turn_passed=turn_passed)
        pending_phrase = Phrase("") if result or turn_passed else after.pending_phrase()
        if not (result or turn_passed or pending_phrase.template):
            pending_phrase = Phrase(STILL_YOUR_MOVE)
        pending = str(pending_phrase)
        record_phrase = before.turn_record_phrase(moves)
        record = str(record_phrase)
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            if not await self.ctx.matches.append_turn(tx, match.id, expected_ply=row.ply, turn=new_turn, now=now):
                raise StalePosition(T("The position changed while you were moving — look at the new board "
                                      "and try again."))
            await self.ctx.drafts.drop(tx, match.id, row.ply, user_id)   # the picker's draft of this turn: used up
            if new_turn.clock is not None:   # the turn reached a player who is away: their clock waits
                await self.ctx.away.defer_new_clock(tx, match.id, now)
            if result is not None:
                await self.ctx.matches.finish(tx, match.id, result, now=now)
            new = await self._settle(tx, match.id, result)
            new.state = after
            new.previous = match.previous if continuing else before
            new.last_turn = (match.last_turn if continuing else []) + moves
            told_now = [announce.board(new, "turn", seat=seat, record=record, pending=pending, from_ply=start_ply,
                                       record_phrase=record_phrase.to_data(), pending_phrase=pending_phrase.to_data()),
                        *announce.bot_turn(new), *told]
            if completes is not None:
                await self.ctx.outbox.done(tx, completes, now=now, result="played")
            await self.ctx.outbox.add(tx, match.id, told_now, now=now)
            if result is not None:
                await self._tournament_result(tx, new)
        turn_played(row.game, time.perf_counter() - started)
        self._after(new)
        return TurnResult(new, seat, moves, record, pending)

    async def resign(self, match_id: int, user_id: int, *, guild_id: int, expected_ply: int | None = None) -> Match:
        match = await self.queries.get(match_id)
        check_active(match, guild_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotAllowed(T("Only a player of this match can resign it."))
        if expected_ply is not None and expected_ply != match.ply:
            raise StalePosition(T("The position has changed since you asked to resign; "
                                  "use /{game} resign again if you still want to.", game=match.row.game))
        winners, ranks = standing(match.position, side_of(match, seat))
        result = Result("finished", winners, ranks, "resigned", {"loser": seat})
        return await self.end(match, result, event=None)

    async def abort(self, match_id: int, actor_id: int, *, guild_id: int, admin: bool, reason: str = "") -> Match:
        """An admin stops a stuck match: no result, no rating change; the action is logged in the record.
        ``admin``: whether the actor may manage the server (the front end's fact; refused first when not)."""
        if not admin:   # Discord's default permissions can be overridden; this cannot
            raise NotAllowed(T("Only members with the Manage Server permission can abort matches."))
        match = await self.queries.in_server(match_id, guild_id, position=False)   # another server's: as missing
        check_active(match, guild_id)
        reason = " ".join(reason.split())[:200]
        result = Result("aborted", (), (), "aborted", facts={"reason": reason, "admin": actor_id})
        return await self.end(match, result, event=(actor_id, "abort", reason or "admin abort"))

    async def end(self, match: Match, result: Result, *, event: tuple[int | None, str, str] | None,
                  deadline_before: str | None = None) -> Match:
        """End an active match without a move, with its rating and announcements, in one transaction."""
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            # a time-out (``deadline_before``) ends it only if the deadline is still one that passed, checked
            # by the write itself: a read first would not see a time-away that commits while the write waits
            new = await self.end_in(tx, match, result, event=event, now=now, deadline_before=deadline_before)
        self.ended(new)
        return new

    async def end_in(self, tx: Tx, match: Match, result: Result, *, event: tuple[int | None, str, str] | None,
                     now: str, deadline_before: str | None = None) -> Match:
        """``end``'s writes in the caller's transaction (an accepted draw ends in the transaction that decides
        it); call ``ended`` once it commits."""
        if not await self.ctx.matches.finish(tx, match.id, result, now=now, expected_ply=match.ply,
                                             deadline_before=deadline_before):
            raise StalePosition(T("The position changed in the meantime; try again."))
        if event is not None:
            actor, action, detail = event
            await self.ctx.matches.log_event(tx, match.id, now=now, actor_id=actor, action=action, detail=detail)
        new = await self._settle(tx, match.id, result)
        new.state, new.previous, new.last_turn = match.state, match.previous, match.last_turn
        await self.ctx.outbox.add(tx, match.id, [announce.board(new, "result")], now=now)
        await self._tournament_result(tx, new)
        return new

    def ended(self, match: Match) -> None:
        """After an ending's transaction committed: caches, timers and the dispatcher learn of it."""
        self._after(match)

    # ---- internals ---------------------------------------------------------------------------------------------
    async def _settle(self, tx: Tx, match_id: int, result: Result | None) -> Match:
        """The match as stored now, rated in this transaction if it just finished."""
        new = Match(*await self.ctx.matches.read(tx, match_id))
        if result is not None and new.row.tournament_id is not None:
            # a tournament's results one at a time (the round's last two at once: one sees the other), taken
            # in one order everywhere — the match, its tournament, the ratings — so that no two endings deadlock
            await self.ctx.tournaments.lock(tx, new.row.tournament_id)
        if result is not None and new.status == "finished":
            new.rating_changes = await self.ctx.ratings.apply(
                tx, new.row, [(p.seat, p.user_id) for p in new.seated if p.seat is not None])
        return new

    async def _tournament_result(self, tx: Tx, match: Match) -> None:
        """A tournament game's ending, after the match's own posts: its table's result and the tournament's."""
        if match.row.tournament_id is not None:
            for hook in self.ctx.match_end_hooks:   # a tournament's table result, in the ending's transaction
                await hook(tx, match)

    def _after(self, match: Match) -> None:
        self.queries.remember(match)
        self.ctx.events.deadline_set.emit(match.next_timer)
        self.ctx.events.announcements.emit(match.id)
        if match.is_over:
            self.ctx.events.match_ended.emit(match.id)

    def _check_deadline(self, match: Match) -> None:
        deadline = match.deadline
        if deadline is not None and deadline <= self.ctx.clock():
            self.ctx.events.deadline_set.emit(deadline)   # the scheduler settles it now
            raise NotAllowed(T("Your time to move ran out at {when}; the match is being closed on time.",
                               when=f"<t:{int(deadline.timestamp())}:f>"))

    @staticmethod
    def _seat_for_turn(match: Match, user_id: int) -> int:
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotAllowed(T("You are not playing in this match."))
        to_move = match.row.to_move
        if to_move != seat:
            who = match.at_seat(to_move).name if to_move is not None else T("nobody")
            raise NotAllowed(T("It is not your turn — {who} is to move.", who=who))
        return seat


def check_active(match: Match, guild_id: int) -> None:
    """Refuse unless ``match`` is a running match of this server."""
    if match.row.guild_id != guild_id:
        raise NotFound(T("That match belongs to another server."))
    if match.status != "active":
        raise StalePosition(T("That match is over.") if match.is_over else T("That match has not started."))


def play_turn(state: State, seat: int, text: str | Sequence[str]) -> tuple[list[str], list[State]]:
    """The canonical moves of one submission and the state after each; BadMove names the rule broken.

    A submission never leaves an optional continuation hanging: when the player is still to move and
    ``end`` is legal afterwards, ``end`` is played for them (ENGINES.md, "a submission is a turn").
    """
    if isinstance(text, str):
        if len(text) > MAX_SUBMISSION:
            raise BadMove(T("That is {count} characters — no turn is that long. "
                            "The autocomplete lists the legal ones.", count=f"{len(text):,}"))
        tokens = state.game.split_turn(text)
    else:
        tokens = list(text)
    if not tokens:
        raise BadMove(T("Type a move — the autocomplete lists the legal ones."))
    played: list[str] = []
    states: list[State] = []
    for token in tokens:
        if state.is_over:
            raise BadMove(T("The game ends after {move}, so {token} cannot be played.", move=played[-1],
                            token=quote(token)))
        if state.to_move != seat:
            raise BadMove(T("Your turn ends after {moves}, so {token} cannot be played.", moves=" ".join(played),
                            token=quote(token)))
        try:
            move = state.canonical(token)
            state = state.play(move)
        except IllegalMove as exc:
            reason = Said(exc.phrase, finish=lambda text: without_rule_codes(text)[:MAX_REASON])
            raise BadMove(T("After {moves}: {reason}", moves=" ".join(played), reason=reason) if played
                          else reason) from None
        played.append(move)
        states.append(state)
    if not state.is_over and state.to_move == seat and "end" in state.legal_moves():
        state = state.play("end")
        played.append("end")
        states.append(state)
    return played, states


RULE_CODE = re.compile(r"\s*\((?:[TRQS]\d+|R-[A-Z]{1,2}\d+|§\d+)[a-z]?\)")


def without_rule_codes(text: str) -> str:
    """A refusal without the spec's section codes ('(T4)', '(R-S3)'): /rules explains rules in words, not codes,
    and the sentence already says which rule is broken."""
    return RULE_CODE.sub("", text)


def side_of(match: Match, seat: int) -> set[int]:
    """The seats that lose with ``seat`` (its whole team in a team game)."""
    for team in match.game.teams.get(match.row.players, ()):
        if seat in team:
            return set(team)
    return {seat}


def standing(state: State, out: set[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(winners, ranks) when the seats in ``out`` leave (resign, time out): they rank last; the others
    are ranked by the current standing as the rules count it (``scores``), ties sharing a rank."""
    players = state.players
    rest = [s for s in range(players) if s not in out]
    if len(rest) == 1 or len(out) * 2 == players:   # two sides: the other side wins
        return tuple(rest), tuple(1 if s in rest else 2 for s in range(players))
    best = max(state.scores[s] for s in rest)
    winners = tuple(s for s in rest if state.scores[s] == best)
    ranks = list(rank_seats(state, winners, among=rest))
    last = max(ranks[s] for s in rest) + 1
    for s in out:
        ranks[s] = last
    return winners, tuple(ranks)
