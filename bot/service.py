"""The match service: who may act, the rules via the engines, and storage. Knows nothing of Discord.

The Discord commands and the terminal mode both call it. Every method that changes a match checks the
caller (seated, on turn, in the match's server), plays the engine, and stores the result in one
transaction guarded by the ply the caller saw, so a turn submitted twice at once applies once.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.ratings import RatingChange, Ratings
from bot.store import Database
from bot.store.matches import MatchRow, MatchStore, MoveRow, ParticipantRow, Result, Start, TurnClock
from bot.store.settings import SettingsStore
from engines import GAMES, Game, IllegalMove, State

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]

CHALLENGE_LIFETIME = timedelta(days=1)   # an unanswered challenge expires then
REMIND_AT = 0.8                          # share of the time per move after which the player is reminded
TIME_CHOICES_DAYS = (1, 2, 3, 5, 7, 14)  # what a challenge may choose; 0 = casual (no limit, unrated)


def utcnow() -> datetime:
    return datetime.now(UTC)


# --- errors a user reads ------------------------------------------------------------------------------------
class ServiceError(ValueError):
    """A refusal with a message for the user; nothing was changed."""


class NotFound(ServiceError):
    pass


class NotAllowed(ServiceError):
    pass


class BadMove(ServiceError):
    """The submitted turn breaks a rule; the message names it."""


class StalePosition(ServiceError):
    """The match moved on between reading it and storing the turn."""


# --- what the service hands out ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Person:
    user_id: int
    name: str
    is_bot: bool = False
    ai_level: int | None = None       # a seat the bot's AI plays


AI_LEVELS = (1, 2, 3, 4, 5)
AI_MATCHES_RATED = False   # the bot's fixed strength would make ratings farmable, and it is no server member


def ai_people(level: int, count: int) -> list[Person]:
    """The bot's seats: negative user ids (never Discord's), one name per seat."""
    if level not in AI_LEVELS:
        raise NotAllowed(f"The bot plays at level 1 to 5, not {level}.")
    names = ["Bot"] if count == 1 else [f"Bot {chr(ord('A') + i)}" for i in range(count)]
    return [Person(-(i + 1), f"{n} (level {level})", True, level) for i, n in enumerate(names)]


@dataclass
class Match:
    """A match as stored, with its replayed position (``state``) when it has started."""

    row: MatchRow
    participants: list[ParticipantRow]
    state: State | None = None
    previous: State | None = None          # the state before ``last_turn``
    last_turn: list[str] = field(default_factory=list)
    rating_changes: list[RatingChange] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def game(self) -> Game:
        return GAMES[self.row.game]

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def ply(self) -> int:
        return self.row.ply

    @property
    def seated(self) -> list[ParticipantRow]:
        return sorted((p for p in self.participants if p.seat is not None), key=lambda p: p.seat)

    @property
    def names(self) -> list[str]:
        """Display names by seat (the invitation order before the match starts)."""
        if self.row.status == "challenge":
            return [p.name for p in sorted(self.participants, key=lambda p: p.invited_order)]
        return [p.name for p in self.seated]

    @property
    def challenger(self) -> ParticipantRow:
        return min(self.participants, key=lambda p: p.invited_order)

    def participant(self, user_id: int) -> ParticipantRow | None:
        return next((p for p in self.participants if p.user_id == user_id), None)

    def seat_of(self, user_id: int) -> int | None:
        p = self.participant(user_id)
        return None if p is None else p.seat

    def at_seat(self, seat: int) -> ParticipantRow:
        return next(p for p in self.participants if p.seat == seat)

    @property
    def ai_to_move(self) -> ParticipantRow | None:
        """The bot's seat when the bot is to move."""
        who = self.to_move_user
        return who if who is not None and who.is_ai else None

    @property
    def to_move_user(self) -> ParticipantRow | None:
        seat = self.state.to_move if self.state is not None else self.row.to_move
        if seat is None or self.row.status != "active":
            return None
        return self.at_seat(seat)

    @property
    def winners(self) -> tuple[int, ...]:
        return self.row.winners

    @property
    def deadline(self) -> datetime | None:
        return datetime.fromisoformat(self.row.deadline_at) if self.row.deadline_at else None

    @property
    def time_label(self) -> str:
        """'3 days per move' or 'casual (no time limit, unrated)'."""
        return time_label(self.row.time_per_move)

    @property
    def variant_label(self) -> str:
        variant = self.row.variant
        if not variant or len(self.game.variants) < 2:
            return ""
        return self.game.variant_labels.get(variant, variant)


@dataclass
class TurnResult:
    match: Match
    seat: int
    moves: list[str]             # canonical, including an automatic ``end``
    record: str                  # the game-record line of the turn
    pending: str                 # a forced continuation still with the same player ('move again'), else ''


# --- the service ------------------------------------------------------------------------------------------------
class MatchService:
    def __init__(self, db: Database, *, clock: Clock = utcnow, seed_source: random.Random | None = None):
        self.store = MatchStore(db)
        self.settings = SettingsStore(db)
        self.ratings = Ratings(db)
        self.clock = clock
        self.on_timers_changed: Callable[[], None] = lambda: None   # the scheduler wakes up on it
        self.on_match_ended: Callable[[int], None] = lambda match_id: None   # the AI stops thinking on it
        self._seeds = seed_source or random.SystemRandom()
        self._locks: dict[int, asyncio.Lock] = {}
        # match id -> (ply, (state, previous, last turn)): replaying the log once per ply is enough
        self._replays: dict[int, tuple[int, tuple[State, State | None, list[str]]]] = {}
        self._last_seat: dict[int, int] = {}   # match id -> seat of the cached last turn

    # ---- challenges ------------------------------------------------------------------------------------------
    async def challenge(self, game_key: str, *, guild_id: int, channel_id: int, challenger: Person,
                        opponents: Sequence[Person], variant: str | None = None,
                        partner: Person | None = None, days_per_move: int | None = None,
                        parent_channel_id: int | None = None, rematch_of: Match | None = None) -> Match:
        """Open a challenge. ``days_per_move`` None takes the server's default, 0 means casual.

        ``parent_channel_id`` is the channel a thread belongs to (the server's channel list names channels).
        """
        game = GAMES.get(game_key)
        if game is None:
            raise NotFound(f"There is no game called {game_key!r}.")
        server = await self.settings.guild(guild_id)
        if server.channels and channel_id not in server.channels and parent_channel_id not in server.channels:
            where = ", ".join(f"<#{c}>" for c in sorted(server.channels))
            raise NotAllowed(f"Games are played in {where} on this server.")
        against_ai = any(o.ai_level is not None for o in opponents)
        if against_ai and not AI_MATCHES_RATED:
            seconds = None   # casual: no clock and no rating against the bot
        elif days_per_move is None:
            seconds = server.default_time_per_move
        elif days_per_move == 0:
            seconds = None
        elif days_per_move in TIME_CHOICES_DAYS:
            seconds = days_per_move * 86400
        else:
            raise NotAllowed(f"Time per move is one of {', '.join(map(str, TIME_CHOICES_DAYS))} days, or none.")
        people = [challenger, *opponents]
        ids = [p.user_id for p in people]
        if challenger.user_id in {o.user_id for o in opponents}:
            raise NotAllowed("You cannot challenge yourself — pick someone else.")
        if len(set(ids)) != len(ids):
            raise NotAllowed("Each opponent can only be named once.")
        if challenger.is_bot or any(o.is_bot and o.ai_level is None for o in opponents):
            raise NotAllowed(f"Other bots cannot play here — challenge a person, or play me with /{game_key} "
                             "vs-bot.")
        if len(people) not in game.player_counts:
            allowed = " or ".join(str(n) for n in game.player_counts)
            raise NotAllowed(f"{game.title} is played by {allowed} players, not {len(people)}.")
        if variant is not None and variant not in game.variants:
            raise NotAllowed(f"{game.title} has no variant {variant!r}; choose one of "
                             f"{', '.join(game.variants)}.")
        teams = game.teams.get(len(people))
        if partner is not None:
            if not teams:
                raise NotAllowed(f"{game.title} with {len(people)} players has no teams, so no partner.")
            if partner.user_id not in {o.user_id for o in opponents}:
                raise NotAllowed("Your partner must be one of the players you challenge.")
        elif teams:
            raise NotAllowed(f"{game.title} with {len(people)} players is played in teams: "
                             "choose your partner with the partner option.")
        team_of = None
        if teams:
            team_of = {p.user_id: (0 if p.user_id in (challenger.user_id, partner.user_id) else 1)
                       for p in people}
        preset = {}
        if rematch_of is not None:   # seats rotate by one; teams stay together
            preset = {p.user_id: (p.seat + 1) % rematch_of.row.players for p in rematch_of.seated}
        row_id = await self.store.create_challenge(
            game=game.key, variant=variant or (game.variants[0] if game.variants else None),
            players=len(people), guild_id=guild_id, channel_id=channel_id,
            seed=self._seeds.randrange(1 << 31), created_by=challenger.user_id, now=self._now(),
            expires_at=self._iso(self.clock() + CHALLENGE_LIFETIME), time_per_move=seconds,
            rematch_of=rematch_of.id if rematch_of else None,
            people=[(p.user_id, p.name, team_of[p.user_id] if team_of else None, preset.get(p.user_id), p.ai_level)
                    for p in people])
        match = await self.get(row_id)
        if all(p.accepted for p in match.participants):   # only the bot was challenged: it accepts at once
            await self.store.start(row_id, self._start_for(match), now=self._now())
            match = await self.get(row_id)
        self.on_timers_changed()
        return match

    async def challenge_bot(self, game_key: str, *, guild_id: int, channel_id: int, player: Person, level: int,
                            bots: int = 1, variant: str | None = None, parent_channel_id: int | None = None) -> Match:
        """A match against the bot, which fills ``bots`` seats (a team-mate first in a team game)."""
        game = GAMES.get(game_key)
        if game is None:
            raise NotFound(f"There is no game called {game_key!r}.")
        if bots + 1 not in game.player_counts:
            allowed = " or ".join(str(n - 1) for n in game.player_counts)
            raise NotAllowed(f"{game.title} against the bot takes {allowed} bot seat(s), not {bots}.")
        seats = ai_people(level, bots)
        partner = seats[0] if game.teams.get(bots + 1) else None
        return await self.challenge(game_key, guild_id=guild_id, channel_id=channel_id, challenger=player,
                                    opponents=seats, variant=variant, partner=partner,
                                    parent_channel_id=parent_channel_id)

    async def rematch(self, match_id: int, person: Person, *, guild_id: int) -> Match:
        """The same players again, seats rotated; the one who asks is the challenger."""
        old = await self.get(match_id)
        if old.row.guild_id != guild_id:
            raise NotFound("That match belongs to another server.")
        if old.status not in ("finished", "aborted") or not old.seated:
            raise NotAllowed("A rematch is offered once a match is over.")
        me = old.participant(person.user_id)
        if me is None or me.seat is None:
            raise NotAllowed("Only the players of that match can ask for a rematch.")
        others = [Person(p.user_id, p.name) for p in old.seated if p.user_id != person.user_id]
        partner = None
        for team in old.game.teams.get(old.row.players, ()):
            if me.seat in team:
                partner = next(Person(p.user_id, p.name) for p in old.seated if p.seat in team and p is not me)
        days = None if old.row.time_per_move is None else old.row.time_per_move // 86400
        return await self.challenge(old.row.game, guild_id=guild_id, channel_id=old.row.channel_id,
                                    challenger=person, opponents=others, variant=old.row.variant,
                                    partner=partner, days_per_move=days if days else 0, rematch_of=old)

    async def accept(self, match_id: int, person: Person, *, guild_id: int) -> Match:
        """Record an acceptance; the match starts once every challenged player has accepted."""
        async with self._lock(match_id):
            match = await self._challenge_for(match_id, guild_id)
            me = match.participant(person.user_id)
            if me is None:
                raise NotAllowed("This challenge is not addressed to you.")
            if me.invited_order == 0:
                raise NotAllowed("You made this challenge; wait for your opponent (or cancel it).")
            if me.accepted:
                raise NotAllowed("You have already accepted; waiting for the others.")
            waiting = [p for p in match.participants if not p.accepted and p.user_id != person.user_id]
            start = None if waiting else self._start_for(match)
            ok = await self.store.accept(match_id, person.user_id, person.name, start=start, now=self._now())
            if not ok:
                raise StalePosition("This challenge was answered in the meantime.")
        if start is not None:
            self.on_timers_changed()
        return await self.get(match_id)

    async def decline(self, match_id: int, user_id: int, *, guild_id: int) -> Match:
        async with self._lock(match_id):
            match = await self._challenge_for(match_id, guild_id)
            me = match.participant(user_id)
            if me is None or me.invited_order == 0:
                raise NotAllowed("Only a challenged player can decline (the challenger can cancel).")
            if not await self.store.close_challenge(match_id, "declined", now=self._now()):
                raise StalePosition("This challenge was answered in the meantime.")
        return await self.get(match_id)

    async def cancel(self, match_id: int, user_id: int, *, guild_id: int) -> Match:
        async with self._lock(match_id):
            match = await self._challenge_for(match_id, guild_id)
            if match.challenger.user_id != user_id:
                raise NotAllowed("Only the player who made the challenge can cancel it.")
            if not await self.store.close_challenge(match_id, "cancelled", now=self._now()):
                raise StalePosition("This challenge was answered in the meantime.")
        return await self.get(match_id)

    # ---- play ------------------------------------------------------------------------------------------------
    async def submit_turn(self, match_id: int, user_id: int, text: str | list[str], *, guild_id: int,
                          expected_ply: int | None = None) -> TurnResult:
        """Play a whole submission (all moves or none) and store it in one guarded transaction.

        ``expected_ply`` is the position the player answered; by default the one current when the
        submission arrives, so of two simultaneous submissions of one turn the second is told the
        position changed.
        """
        if expected_ply is None:
            expected_ply = (await self._active_for(match_id, guild_id)).ply
        async with self._lock(match_id):
            match = await self._active_for(match_id, guild_id)
            if match.ply != expected_ply:
                raise StalePosition("The position changed while you were moving — look at the new board "
                                    "and try again.")
            seat = self._seat_for_turn(match, user_id)
            moves, after = self.play_turn(match.state, seat, text)
            before = match.state
            await self._store_turn(match, seat, moves, after)
            # The new position is known: cache it instead of replaying the whole log on the next read.
            if self._last_seat.get(match_id) == seat and match.last_turn:   # a turn continued (Rincala)
                previous, last_turn = match.previous, match.last_turn + moves
            else:
                previous, last_turn = before, moves
            self._replays[match_id] = (match.ply + len(moves), (after, previous, last_turn))
            self._last_seat[match_id] = seat
        new = await (self._finished(match_id) if after.is_over else self.get(match_id))
        pending = ""
        if not after.is_over and after.to_move == seat:
            pending = after.pending() or "it is still your move"
        return TurnResult(new, seat, moves, before.turn_record(moves), pending)

    @staticmethod
    def play_turn(state: State, seat: int, text: str | list[str]) -> tuple[list[str], State]:
        """The canonical moves of one submission and the state after them; BadMove names the rule broken.

        A submission never leaves an optional continuation hanging: when the player is still to move and
        ``end`` is legal afterwards, ``end`` is played for them (ENGINES.md, "a submission is a turn").
        """
        tokens = state.game.split_turn(text) if isinstance(text, str) else list(text)   # typed, or moves
        if not tokens:
            raise BadMove("Type a move — the autocomplete lists the legal ones.")
        played: list[str] = []
        for token in tokens:
            if state.is_over:
                raise BadMove(f"The game ends after {played[-1]}, so {token!r} cannot be played.")
            if state.to_move != seat:
                raise BadMove(f"Your turn ends after {' '.join(played)}, so {token!r} cannot be played.")
            try:
                move = state.canonical(token)
                state = state.play(move)
            except IllegalMove as exc:
                prefix = f"After {' '.join(played)}: " if played else ""
                raise BadMove(f"{prefix}{exc}") from None
            played.append(move)
        if not state.is_over and state.to_move == seat and "end" in state.legal_moves():
            state = state.play("end")
            played.append("end")
        return played, state

    async def resign(self, match_id: int, user_id: int, *, guild_id: int, expected_ply: int | None = None) -> Match:
        async with self._lock(match_id):
            match = await self._active_for(match_id, guild_id)
            seat = match.seat_of(user_id)
            if seat is None:
                raise NotAllowed("Only a player of this match can resign it.")
            if expected_ply is not None and expected_ply != match.ply:
                raise StalePosition("The position has changed since you asked to resign; "
                                    "use /resign again if you still want to.")
            out = self._side_of(match, seat)
            result = Result("finished", *standing(match.state, out), f"{match.at_seat(seat).name} resigned.")
            ok = await self.store.finish(match_id, expected_ply=match.ply, result=result, now=self._now())
            if not ok:
                raise StalePosition("The position changed in the meantime; try again.")
        return await self._finished(match_id)

    async def abort(self, match_id: int, actor_id: int, *, guild_id: int, reason: str = "") -> Match:
        """An admin stops a stuck match: no result, no rating change; the action is logged in the record."""
        async with self._lock(match_id):
            match = await self._active_for(match_id, guild_id)
            why = f"Aborted by an admin{': ' + reason if reason else ''} (unrated)."
            result = Result("aborted", (), (), why)
            if not await self.store.finish(match_id, expected_ply=match.ply, result=result, now=self._now(),
                                           event=(actor_id, "abort", reason or "admin abort")):
                raise StalePosition("The position changed in the meantime; try again.")
        return await self._finished(match_id)

    # ---- the clock (called by the scheduler) --------------------------------------------------------------
    async def due(self) -> dict[str, list[int]]:
        return await self.store.due(self._now())

    async def next_due(self) -> datetime | None:
        when = await self.store.next_due()
        return datetime.fromisoformat(when) if when else None

    async def expire_challenge(self, match_id: int) -> Match | None:
        match = await self.get(match_id)
        if match.status != "challenge" or not match.row.expires_at or match.row.expires_at > self._now():
            return None
        if not await self.store.close_challenge(match_id, "expired", now=self._now()):
            return None
        return await self.get(match_id)

    async def remind(self, match_id: int) -> Match | None:
        """Mark a due reminder as sent; the match to remind about, or None if it was not due."""
        if not await self.store.mark_reminded(match_id, now=self._now()):
            return None
        return await self.get(match_id)

    async def time_out(self, match_id: int) -> Match | None:
        """The player to move ran out of time: they forfeit, or the match is aborted if they never moved.

        Two seats: the opponent wins. Three or four: the player who timed out (with their team) ranks
        last and the others are ranked by the current standing as the rules count it.
        """
        async with self._lock(match_id):
            match = await self.get(match_id)
            if match.status != "active" or not match.row.deadline_at or match.row.deadline_at > self._now():
                return None
            seat = match.state.to_move
            who = match.at_seat(seat)
            moved = any(m.seat == seat for m in await self.store.moves(match_id))
            if not moved:
                result = Result("aborted", (), (),
                                f"{who.name} never made a first move before the deadline; the match is aborted "
                                "(unrated).")
                event = (None, "abort", f"{who.name} never moved")
            else:
                result = Result("finished", *standing(match.state, self._side_of(match, seat)),
                                f"{who.name} ran out of time.")
                event = (None, "timeout", f"{who.name} ran out of time")
            if not await self.store.finish(match_id, expected_ply=match.ply, result=result, now=self._now(),
                                           event=event):
                return None
        return await self._finished(match_id)

    # ---- reading ---------------------------------------------------------------------------------------------
    async def get(self, match_id: int, *, replay: bool = True) -> Match:
        """A match; with ``replay`` its position is replayed from the log (cached per ply). Lists that only
        show who plays and who is to move pass ``replay=False``."""
        row = await self.store.match(match_id)
        if row is None:
            raise NotFound(f"There is no match #{match_id}.")
        match = Match(row, await self.store.participants(match_id))
        if row.status == "finished":
            match.rating_changes = await self.ratings.changes(match_id)
        if not replay or row.status == "challenge" or all(p.seat is None for p in match.participants):
            return match
        cached = self._replays.get(match_id)
        if cached and cached[0] == row.ply:
            match.state, match.previous, match.last_turn = cached[1]
        else:
            self._replay(match, await self.store.moves(match_id))
            self._replays[match_id] = (row.ply, (match.state, match.previous, match.last_turn))
        return match

    async def matches_of(self, user_id: int, *, guild_id: int, game: str | None = None,
                         channel_id: int | None = None, statuses: Sequence[str] = ("active",),
                         newest_first: bool = False, limit: int = -1, replay: bool = True) -> list[Match]:
        ids = await self.store.match_ids_of(user_id, guild_id=guild_id, game=game, channel_id=channel_id,
                                            statuses=tuple(statuses), newest_first=newest_first, limit=limit)
        return [await self.get(i, replay=replay) for i in ids]

    async def find_match(self, game: str, user_id: int, *, guild_id: int, channel_id: int,
                         match_id: int | None = None, prefer_my_turn: bool = False) -> Match:
        """The match a command means: the one named, or the caller's only active one here."""
        title = GAMES[game].title
        if match_id is not None:
            match = await self.get(match_id)
            if match.row.guild_id != guild_id or match.row.game != game:
                raise NotFound(f"There is no {title} match #{match_id} in this server.")
            if match.participant(user_id) is None:
                raise NotAllowed(f"You are not playing in {title} match #{match_id}.")
            return match
        mine = await self.matches_of(user_id, guild_id=guild_id, game=game, channel_id=channel_id)
        if prefer_my_turn and len(mine) > 1:
            on_turn = [m for m in mine if m.to_move_user and m.to_move_user.user_id == user_id]
            if len(on_turn) == 1:
                return on_turn[0]
        if not mine:
            raise NotFound(f"You have no active {title} match in this channel. "
                           f"Start one with /{game} challenge.")
        if len(mine) > 1:
            raise NotFound(f"You have {len(mine)} active {title} matches in this channel; "
                           "pick one with the match option.")
        return mine[0]

    async def set_board_message(self, match_id: int, message_id: int) -> None:
        await self.store.set_message(match_id, "board_message_id", message_id)

    async def set_card_message(self, match_id: int, message_id: int) -> None:
        await self.store.set_message(match_id, "card_message_id", message_id)

    async def move_to_channel(self, match_id: int, channel_id: int) -> None:
        """The match continues in another channel (its thread)."""
        await self.store.set_channel(match_id, channel_id)

    async def log_reproduces_position(self, match_id: int) -> bool:
        """Whether replaying the move log reproduces the stored position (the log is the source of truth)."""
        row = await self.store.match(match_id)
        if row is None:
            raise NotFound(f"There is no match #{match_id}.")
        match = Match(row, await self.store.participants(match_id))
        self._replay(match, await self.store.moves(match_id))
        return match.state.encode() == row.position

    # ---- internals -------------------------------------------------------------------------------------------
    def _now(self) -> str:
        return self._iso(self.clock())

    @staticmethod
    def _iso(moment: datetime) -> str:
        """One text form for every stored time, so SQL compares them as strings."""
        return moment.astimezone(UTC).isoformat(timespec="seconds")

    def _start_for(self, match: Match) -> Start:
        row = match.row
        state = match.game.new(players=row.players, seed=row.seed, variant=row.variant)
        return Start(self._seat_order(match), state.encode(), state.to_move, self._turn_clock(row))

    def _turn_clock(self, row: MatchRow) -> TurnClock:
        if row.time_per_move is None:
            return TurnClock(None, None)
        now = self.clock()
        return TurnClock(self._iso(now + timedelta(seconds=row.time_per_move)),
                         self._iso(now + timedelta(seconds=row.time_per_move * REMIND_AT)))

    async def _finished(self, match_id: int) -> Match:
        """A match that just ended: rate it (once), then hand it out with its rating changes."""
        match = await self.get(match_id)
        if match.status == "finished":
            match.rating_changes = await self.ratings.record(match)
        self.on_match_ended(match_id)
        return match

    def _lock(self, match_id: int) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    async def _challenge_for(self, match_id: int, guild_id: int) -> Match:
        match = await self.get(match_id)
        if match.row.guild_id != guild_id:
            raise NotFound("That challenge belongs to another server.")
        if match.status != "challenge":
            raise StalePosition(f"This challenge is no longer open (it was {match.status}).")
        return match

    async def _active_for(self, match_id: int, guild_id: int) -> Match:
        match = await self.get(match_id)
        if match.row.guild_id != guild_id:
            raise NotFound("That match belongs to another server.")
        if match.status != "active":
            raise StalePosition("That match is over." if match.status == "finished"
                                else "That match has not started.")
        return match

    @staticmethod
    def _seat_for_turn(match: Match, user_id: int) -> int:
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotAllowed("You are not playing in this match.")
        if match.state.to_move != seat:
            raise NotAllowed(f"It is not your turn — {match.at_seat(match.state.to_move).name} is to move.")
        return seat

    @staticmethod
    def _side_of(match: Match, seat: int) -> set[int]:
        """The seats that lose with ``seat`` (its whole team in a team game)."""
        for team in match.game.teams.get(match.row.players, ()):
            if seat in team:
                return set(team)
        return {seat}

    def _seat_order(self, match: Match) -> dict[int, int]:
        """Random seats (fixed by the match seed); team games put partners on alternate seats."""
        rng = random.Random(match.row.seed ^ 0x5EA75)
        people = sorted(match.participants, key=lambda p: p.invited_order)
        if all(p.preset_seat is not None for p in people):   # a rematch
            return {p.user_id: p.preset_seat for p in people}
        teams = match.game.teams.get(len(people))
        if teams:
            sides = [[p.user_id for p in people if p.team == t] for t in (0, 1)]
            rng.shuffle(sides)
            order: dict[int, int] = {}
            for team_seats, side in zip(teams, sides, strict=True):
                rng.shuffle(side)
                order.update(zip(side, team_seats, strict=True))
            return order
        ids = [p.user_id for p in people]
        rng.shuffle(ids)
        return {uid: seat for seat, uid in enumerate(ids)}

    def _replay(self, match: Match, moves: list[MoveRow]) -> None:
        row = match.row
        state = match.game.new(players=row.players, seed=row.seed, variant=row.variant)
        for mv in moves:
            state = state.play(mv.move)
            if state.encode() != mv.position:
                log.error("match %s: ply %s replays to %s, log says %s", row.id, mv.ply, state.encode(),
                          mv.position)
        last_turn: list[MoveRow] = []
        for mv in reversed(moves):   # the trailing moves of one seat form the last turn
            if last_turn and mv.seat != last_turn[-1].seat:
                break
            last_turn.append(mv)
        last_turn.reverse()
        previous = None
        if last_turn:
            previous = match.game.new(players=row.players, seed=row.seed, variant=row.variant)
            for mv in moves[: len(moves) - len(last_turn)]:
                previous = previous.play(mv.move)
        match.state, match.previous, match.last_turn = state, previous, [m.move for m in last_turn]
        if last_turn:
            self._last_seat[row.id] = last_turn[0].seat

    async def _store_turn(self, match: Match, seat: int, moves: list[str], after: State) -> None:
        state = match.state
        rows = []
        for i, move in enumerate(moves):
            state = state.play(move)
            rows.append((match.ply + i + 1, seat, move, state.encode()))
        result = None
        if after.is_over:
            result = Result("finished", tuple(after.winners), rank_seats(after, tuple(after.winners)),
                            after.end_reason())
        clock = None if after.is_over or after.to_move == seat else self._turn_clock(match.row)
        ok = await self.store.append_turn(
            match.id, expected_ply=match.ply, moves=rows, position=after.encode(),
            to_move=after.to_move, clock=clock, result=result, now=self._now())
        if ok:
            self.on_timers_changed()
        if not ok:
            raise StalePosition("The position changed while you were moving — look at the new board "
                                "and try again.")


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


def rank_seats(state: State, winners: tuple[int, ...], among: Sequence[int] | None = None) -> tuple[int, ...]:
    """Rank per seat: the winners first, then the others by score (higher is better), ties sharing a rank.
    Seats outside ``among`` get rank 0 (the caller places them)."""
    among = list(range(state.players)) if among is None else list(among)
    key = {s: (s in winners, state.scores[s]) for s in among}
    ordered = sorted(set(key.values()), reverse=True)
    return tuple(ordered.index(key[s]) + 1 if s in key else 0 for s in range(state.players))


def time_label(seconds: int | None) -> str:
    if seconds is None:
        return "casual (no time limit, unrated)"
    days = seconds / 86400
    return f"{days:g} day{'s' if days != 1 else ''} per move"
