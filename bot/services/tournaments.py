"""Tournaments: create, join, withdraw, start, cancel, run and read a server's events. Knows nothing of Discord.

Every call decides in ONE transaction that also writes its announcements (a tournament's outbox rows: no match,
ordered per tournament). Running it: a round's matches are ordinary matches (``matches.tournament_id`` and
``tournament_round`` label them), started with the round's ``TournamentRound`` in one transaction; a tournament
match's ending records its table's result in the ending's own transaction (``record_result``, a hook of the play
service) with a ``TournamentStandings``; the round's last result writes a ``TournamentPairing`` (the worker pairs
the next round off the event loop and commits it once: a conditional write on the current round) or, after the
last round, ``TournamentEnd``. The scheduler starts events at their start time and adjudicates games unfinished
at a round's deadline. A tournament of another server is out of reach (the same answer as a missing one).

Rules chosen here (the scoring rules are bot/tournaments/scoring.py's):
* ABORTED_GAME: a game an admin aborted counts as a draw not played (a shared place, ``forfeit``: no tiebreaks);
  a player who never moved before their deadline (the match service aborts that match) loses it by forfeit.
* A withdrawal during the event ends the player's running game as a loss by forfeit (``withdrew``) and pairs
  them no more; in a round robin below ANNUL_BELOW_SHARE of their games every game of theirs is annulled, their
  opponents of later rounds sitting out (no points), else their later games are lost by forfeit.
* Late entrants (Swiss only) join from the next round to be paired, with LATE_JOIN_POINTS for each round before.
* A league edition (LEAGUE_PERIODS) splits its entrants into divisions by rating (or, after the first edition, in
  the order promotion and relegation left them, newcomers placed by rating) and plays every division's round
  robin at once; the next edition keeps everyone who neither withdrew nor timed out and went unseen for
  leagues.UNSEEN_DROP (no move in the server since).
* Who won: the entrants ranked first (the top division's, in a league); ties share first place.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from bot.i18n import Either, T
from bot.model import Match, NotAllowed, NotFound, Person, StalePosition
from bot.ratings import display
from bot.services.announce import (
    Notice,
    TournamentCard,
    TournamentEnd,
    TournamentPairing,
    TournamentRound,
    TournamentStandings,
    start_announcements,
)
from bot.services.challenges import TIME_CHOICES_DAYS, Challenges
from bot.services.context import Context, iso
from bot.services.play import Play, side_of
from bot.services.tournament_views import (
    WHO_MAY_CREATE,
    EntrantView,
    RoundView,
    StandingView,
    TableView,
    TournamentSettings,
    TournamentSummary,
    TournamentView,
)
from bot.store.db import Tx
from bot.store.rows import Result
from bot.store.tournaments import EntrantRow, NewTable, TableRow, TournamentRow
from bot.tournaments import leagues, pods, roundrobin, scoring, swiss, trf
from bot.tournaments.model import TABLE_SIZES, Entrant, Format, Schedule, Settings, Table, TableKind
from engines import GAMES

MAX_NAME = 80                   # characters of a tournament's name
MAX_ROUNDS = 20                 # a Swiss's or a pod event's rounds
MAX_ENTRANTS = 256
ROUND_ROBIN_MAX_ENTRANTS = 20   # a round robin of more would last too many rounds
MAX_ROUND_DAYS = 60
MAX_START_AHEAD = timedelta(days=90)
NEWCOMER_RATING = 1500.0        # the seed of an entrant without a rating of the game on the server (display scale)
ABORTED_GAME = "a shared place, not played"
LEAGUE_PERIODS = (7, 14, 30)    # days from a league edition's end to the next one's start (a week, two, a month)

# how ``pair_round`` runs the pure ``pairing`` off the event loop: (pairing, row, entrants, tables, round, forbidden)
Compute = Callable[..., Awaitable[list[list[Table]]]]


async def in_thread(fn: Callable[..., list[list[Table]]], *args: Any) -> list[list[Table]]:
    return await asyncio.to_thread(fn, *args)


class Tournaments:
    def __init__(self, ctx: Context, challenges: Challenges, play: Play):
        self.ctx = ctx
        self.challenges = challenges
        self.play = play
        self.store = ctx.tournaments
        ctx.match_end_hooks.append(self.record_result)

    # ---- commands -------------------------------------------------------------------------------------------
    async def create(self, settings: TournamentSettings, *, guild_id: int, channel_id: int, creator: Person,
                     manager: bool, name: str) -> TournamentView:
        """Open a tournament for entries (its card: ``TournamentCard('open')``). ``manager``: whether the creator
        may manage the server (the front end's fact); others may create only where the server allows it
        (``who_may_create``). Refused with a specific reason, nothing written, when a setting is out of range."""
        if not manager and await self.store.creators(guild_id) != "everyone":
            raise NotAllowed(T("Only members with the Manage Server permission can create tournaments on this "
                               "server."))
        name = " ".join(name.split())[:MAX_NAME]
        if not name:
            raise NotAllowed(T("Give the tournament a name."))
        settings = self._checked(settings)
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            tournament_id = await self.store.create(
                tx, guild_id=guild_id, channel_id=channel_id, created_by=creator.user_id, name=name,
                game=settings.game, variant=settings.variant, format=settings.format.value,
                table_size=settings.table_size, rounds=settings.rounds, schedule=settings.schedule.value,
                days_per_move=settings.days_per_move, rated=settings.rated, start_at=settings.start_at,
                min_entrants=settings.min_entrants, max_entrants=settings.max_entrants,
                round_days=settings.round_days, now=now, repeat_days=settings.repeat_days)
            await self._tell(tx, tournament_id, [TournamentCard("open")], now)
        self._after(settings.start_at)
        return await self.read(tournament_id)

    def _checked(self, s: TournamentSettings) -> TournamentSettings:
        """The settings made whole (the variant), or a refusal naming what is wrong."""
        game = GAMES.get(s.game)
        if game is None:
            raise NotFound(T("There is no game called {game}.", game=repr(s.game[:40])))
        variant = s.variant or (game.variants[0] if game.variants else None)
        if s.variant is not None and s.variant not in game.variants:
            raise NotAllowed(T("{game} has no variant {variant}; choose one of {variants}.", game=game.title,
                               variant=repr(s.variant[:40]), variants=", ".join(game.variants)))
        if s.table_size not in game.player_counts or s.table_size not in TABLE_SIZES:
            raise NotAllowed(T("{game} is played at tables of {allowed} players, not {n}.", game=game.title,
                               allowed=", ".join(str(n) for n in game.player_counts if n in TABLE_SIZES),
                               n=s.table_size))
        if s.format is Format.LEAGUE:       # divisions of round robins, every game at once (AbstractPlay's way)
            if s.table_size != 2:
                raise NotAllowed(T("A league plays two-player games."))
            if s.min_entrants < leagues.MIN_ENTRANTS:
                raise NotAllowed(T("A league needs at least {least} entrants to start.", least=leagues.MIN_ENTRANTS))
            if s.repeat_days is not None and s.repeat_days not in LEAGUE_PERIODS:
                raise NotAllowed(T("A league's next edition starts {days} days after one ends.",
                                   days=Either(LEAGUE_PERIODS)))
            s = replace(s, schedule=Schedule.ALL_AT_ONCE)
        elif s.repeat_days is not None:
            raise NotAllowed(T("Only leagues have editions that repeat."))
        pods_event = s.table_size > 2
        if (s.format is Format.SWISS or pods_event) and s.schedule is Schedule.ALL_AT_ONCE:
            raise NotAllowed(T("A Swiss or an event at tables of three or four is paired round by round, from the "
                               "results before each round."))
        if s.format is Format.SWISS or pods_event:
            if s.rounds is None or not 1 <= s.rounds <= MAX_ROUNDS:
                raise NotAllowed(T("Choose between 1 and {most} rounds.", most=MAX_ROUNDS))
        if s.days_per_move not in TIME_CHOICES_DAYS:
            raise NotAllowed(T("Time per move is one of {days} days.", days=", ".join(map(str, TIME_CHOICES_DAYS))))
        least = max(2, s.table_size)
        if s.min_entrants < least:
            raise NotAllowed(T("A tournament needs at least {least} entrants to start.", least=least))
        if s.max_entrants < s.min_entrants:
            raise NotAllowed(T("The most entrants ({most}) cannot be fewer than the least ({least}).",
                               most=s.max_entrants, least=s.min_entrants))
        most = ROUND_ROBIN_MAX_ENTRANTS if s.format in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN) \
            and not pods_event else MAX_ENTRANTS
        if s.max_entrants > most:
            raise NotAllowed(T("This format takes at most {most} entrants.", most=most))
        if s.format is Format.SWISS and s.rounds is not None and s.rounds > s.max_entrants - 1:
            raise NotAllowed(T("A Swiss of at most {n} entrants has at most {rounds} rounds: everyone meets a new "
                               "opponent each round.", n=s.max_entrants, rounds=s.max_entrants - 1))
        if s.round_days is not None and not 1 <= s.round_days <= MAX_ROUND_DAYS:
            raise NotAllowed(T("A round lasts between 1 and {most} days.", most=MAX_ROUND_DAYS))
        if s.start_at is not None:
            try:
                when = datetime.fromisoformat(s.start_at)
            except ValueError:
                raise NotAllowed(T("The start time {when} is not a date and time.", when=repr(s.start_at[:40]))) \
                    from None
            if when.tzinfo is None:
                raise NotAllowed(T("The start time needs its time zone."))
            now = self.ctx.clock()
            if not now < when <= now + MAX_START_AHEAD:
                raise NotAllowed(T("The start time must be in the next {days} days.", days=MAX_START_AHEAD.days))
            s = replace(s, start_at=iso(when))
        rounds = s.rounds if (s.format is Format.SWISS or pods_event) else None
        return replace(s, variant=variant, rounds=rounds)

    async def join(self, tournament_id: int, person: Person, *, guild_id: int) -> TournamentView:
        """Enter an open tournament (once; not when full). A running Swiss takes late entrants, who score
        LATE_JOIN_POINTS per round missed; starts it when the last place is taken and it starts when full."""
        if person.is_bot:
            raise NotAllowed(T("Bots cannot enter tournaments."))
        row = await self._of_server(tournament_id, guild_id)
        rating = await self._rating(guild_id, row.game, person.user_id)
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            row, entrants, _tables = await self._locked(tx, tournament_id)   # entries counted, then written
            joined_round = 1
            if row.status == "running" and row.format == Format.SWISS.value and row.current_round < row.total_rounds:
                joined_round = row.pairing_round + 1 if row.pairing_round > row.current_round \
                    else row.current_round + 1
                if joined_round > row.total_rounds:
                    raise StalePosition(T("Too late: the last round of this tournament has been paired."))
            elif row.status != "open":
                raise StalePosition(T("This tournament is no longer open for entries."))
            if sum(1 for e in entrants if e.withdrawn_round is None) >= row.max_entrants:
                raise StalePosition(T("This tournament is full."))
            added = await self.store.add_entrant(tx, tournament_id, user_id=person.user_id, name=person.name,
                                                 rating=rating, joined_round=joined_round, now=now)
            if not added:       # once: the entry is the key (tournament, user)
                raise NotAllowed(T("You are entered in this tournament already."))
            told: list[Notice] = [TournamentCard("update", status=row.status)]
            full = len(entrants) + 1 >= row.max_entrants
            if row.status == "open" and row.start_at is None and full:
                told = await self._start_in(tx, row, now)
            await self._tell(tx, tournament_id, told, now)
        self.ctx.events.announcements.emit(0)
        return await self.read(tournament_id)

    async def withdraw(self, tournament_id: int, user_id: int, *, guild_id: int) -> TournamentView:
        """Leave: before the start the entry is removed; during it, the running game is lost by forfeit and no
        later round pairs them — in a round robin, below ANNUL_BELOW_SHARE of their games played, every game of
        theirs is annulled instead (scoring.withdraw)."""
        await self._of_server(tournament_id, guild_id)
        running = await self._running_matches(tournament_id, user_id)
        now = self.ctx.now()
        ended: list[Match] = []
        async with self.ctx.db.transaction() as tx:
            await self._lock_matches_then(tx, tournament_id, running)
            found = await self.store.read(tx, tournament_id)
            assert found is not None
            row, entrants, tables = found
            me = next((e for e in entrants if e.user_id == user_id), None)
            if me is None or me.withdrawn_round is not None:
                raise NotAllowed(T("You are not playing in this tournament."))
            if row.status == "open":
                await self.store.remove_entrant(tx, tournament_id, user_id)
                await self._tell(tx, tournament_id, [TournamentCard("update", status="open")], now)
            elif row.status == "running":
                ended = await self._withdraw_running(tx, row, entrants, tables, me, now)
            else:
                raise StalePosition(T("This tournament is over."))
        for match in ended:
            self.play.ended(match)
        self.ctx.events.announcements.emit(0)
        return await self.read(tournament_id)

    async def _withdraw_running(self, tx: Tx, row: TournamentRow, entrants: list[EntrantRow],
                                tables: list[TableRow], me: EntrantRow, now: str) -> list[Match]:
        settings = _settings(row)
        annul = False
        mine = [t for t in tables if me.user_id in t.seats and t.kind == TableKind.GAME.value and not t.annulled]
        if settings.is_round_robin:
            played = sum(1 for t in mine if t.ranks is not None and not t.forfeit)
            annul = Fraction(played, max(_scheduled_games(row, entrants, me.division), 1)) \
                < scoring.ANNUL_BELOW_SHARE
        from_round = max(row.current_round, 1) if annul else row.current_round + 1
        if not await self.store.set_withdrawn(tx, row.id, me.user_id, from_round=from_round, annulled=annul):
            raise NotAllowed(T("You are not playing in this tournament."))
        if annul:
            await self.store.annul(tx, [t.id for t in mine])
        ended: list[Match] = []
        for t in mine:
            if t.ranks is not None or t.match_id is None:
                continue
            match = Match(*await self.ctx.matches.read(tx, t.match_id))
            if match.status != "active":
                continue
            seat = match.seat_of(me.user_id)
            assert seat is not None
            if annul:
                result = Result("aborted", (), (), "aborted", facts={"reason": "withdrawal", "admin": me.user_id})
            else:   # their side ranks last, every other side shares first place
                side = side_of(match, seat)
                ranks = tuple(2 if s in side else 1 for s in range(match.row.players))
                winners = tuple(s for s in range(match.row.players) if s not in side)
                result = Result("finished", winners, ranks, "withdrew", {"loser": seat})
            ended.append(await self.play.end_in(tx, match, result, event=(me.user_id, "withdraw", "tournament"),
                                                now=now))
        await self._tell(tx, row.id, [TournamentCard("update", status=row.status),
                                      TournamentStandings(row.current_round)], now)
        if not ended:
            await self._round_end(tx, row.id, now)
        return ended

    async def request_half_bye(self, tournament_id: int, user_id: int, *, guild_id: int,
                               round_no: int | None = None) -> TournamentView:
        """Sit out a Swiss round not yet paired (the next one by default) for REQUESTED_BYE_POINTS."""
        row = await self._of_server(tournament_id, guild_id)
        if row.format != Format.SWISS.value or row.table_size != 2:     # pods seat whoever plays
            raise NotAllowed(T("Half-point byes are for Swiss tournaments."))
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            row, entrants, _tables = await self._locked(tx, tournament_id)
            me = next((e for e in entrants if e.user_id == user_id and e.withdrawn_round is None), None)
            if me is None:
                raise NotAllowed(T("You are not playing in this tournament."))
            if row.status not in ("open", "running"):
                raise StalePosition(T("This tournament is over."))
            paired = max(row.current_round, row.pairing_round)
            wanted = round_no if round_no is not None else paired + 1
            last = row.total_rounds if row.status == "running" else (row.rounds or 0)
            if not paired < wanted <= last:
                raise NotAllowed(T("Choose a round not paired yet, from {first} to {last}.", first=paired + 1,
                                   last=last))
            if wanted in me.half_byes:
                raise NotAllowed(T("You asked for a bye in round {round} already.", round=wanted))
            await self.store.set_half_byes(tx, tournament_id, user_id, [*me.half_byes, wanted])
            await self._tell(tx, tournament_id, [TournamentCard("update", status=row.status)], now)
        self.ctx.events.announcements.emit(0)
        return await self.read(tournament_id)

    async def start(self, tournament_id: int, user_id: int, *, guild_id: int, manager: bool) -> TournamentView:
        """Start by hand (the creator or a manager), with at least the minimum of entrants: round 1 is paired by
        the worker (``TournamentPairing``)."""
        row = await self._of_server(tournament_id, guild_id)
        if not manager and row.created_by != user_id:
            raise NotAllowed(T("Only the tournament's creator or a server manager can start it."))
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            row, entrants, _tables = await self._locked(tx, tournament_id)
            if row.status != "open":
                raise StalePosition(T("This tournament has started already.") if row.status == "running"
                                    else T("This tournament is over."))
            if len(entrants) < row.min_entrants:
                raise NotAllowed(T("The tournament needs {least} entrants to start; it has {n}.",
                                   least=row.min_entrants, n=len(entrants)))
            await self._tell(tx, tournament_id, await self._start_in(tx, row, now), now)
        self.ctx.events.announcements.emit(0)
        return await self.read(tournament_id)

    async def _start_in(self, tx: Tx, row: TournamentRow, now: str) -> list[Notice]:
        """Open to running in the caller's transaction: the rounds fixed, round 1 asked of the pairing worker."""
        found = await self.store.read(tx, row.id)
        assert found is not None
        _row, entrants, _tables = found
        total = _total_rounds(row, len(entrants))
        if row.format == Format.LEAGUE.value:
            divisions = league_divisions(entrants)
            await self.store.set_divisions(tx, row.id, divisions)
            total = max(len(d) - 1 + len(d) % 2 for d in divisions)
        if not await self.store.start(tx, row.id, total_rounds=total, now=now):
            raise StalePosition(T("This tournament has started already."))
        await self.store.ask_pairing(tx, row.id, 1)
        return [TournamentCard("update", status="running"), TournamentPairing(1)]

    async def cancel(self, tournament_id: int, user_id: int, *, guild_id: int, manager: bool) -> TournamentView:
        """Cancel an open or running tournament (the creator or a manager); its running matches are aborted."""
        row = await self._of_server(tournament_id, guild_id)
        if not manager and row.created_by != user_id:
            raise NotAllowed(T("Only the tournament's creator or a server manager can cancel it."))
        running = await self._running_matches(tournament_id)
        now = self.ctx.now()
        ended: list[Match] = []
        async with self.ctx.db.transaction() as tx:
            await self._lock_matches_then(tx, tournament_id, running)
            if not await self.store.end(tx, tournament_id, "cancelled", now=now):
                raise StalePosition(T("This tournament is over."))
            found = await self.store.read(tx, tournament_id)
            assert found is not None
            for t in found[2]:
                if t.match_id is not None and t.ranks is None:
                    match = Match(*await self.ctx.matches.read(tx, t.match_id))
                    if match.status == "active":
                        result = Result("aborted", (), (), "aborted", facts={"reason": "tournament cancelled",
                                                                             "admin": user_id})
                        ended.append(await self.play.end_in(tx, match, result, now=now,
                                                            event=(user_id, "abort", "tournament cancelled")))
            await self._tell(tx, tournament_id, [TournamentCard("update", status="cancelled", reason="by_hand")],
                             now)
        for match in ended:
            self.play.ended(match)
        self.ctx.events.announcements.emit(0)
        return await self.read(tournament_id)

    async def forbid_pair(self, tournament_id: int, first: int, second: int, *, user_id: int, guild_id: int,
                          manager: bool) -> TournamentView:
        """Never pair two entrants of a Swiss (the creator or a manager; before the rounds they would meet in are
        paired)."""
        row = await self._of_server(tournament_id, guild_id)
        if not manager and row.created_by != user_id:
            raise NotAllowed(T("Only the tournament's creator or a server manager can keep players apart."))
        if row.format != Format.SWISS.value or row.table_size != 2:
            raise NotAllowed(T("Players can be kept apart in a two-player Swiss only."))
        if first == second:
            raise NotAllowed(T("Name two different players."))
        async with self.ctx.db.transaction() as tx:
            row, entrants, _tables = await self._locked(tx, tournament_id)
            if row.status not in ("open", "running"):
                raise StalePosition(T("This tournament is over."))
            if not {first, second} <= {e.user_id for e in entrants}:
                raise NotAllowed(T("Both players must be entered in this tournament."))
            if not await self.store.forbid(tx, tournament_id, first, second):
                raise NotAllowed(T("These two are kept apart already."))
        return await self.read(tournament_id)

    async def set_who_may_create(self, guild_id: int, who: str, *, manager: bool) -> str:
        """The server setting ('managers' | 'everyone'); only a manager changes it."""
        if not manager:
            raise NotAllowed(T("Only members with the Manage Server permission can change who creates "
                               "tournaments."))
        if who not in WHO_MAY_CREATE:
            raise NotAllowed(T("Tournaments are created by managers or by everyone, not {who}.", who=repr(who[:20])))
        async with self.ctx.db.transaction() as tx:
            await self.store.set_creators(tx, guild_id, who)
        return who

    async def who_may_create(self, guild_id: int) -> str:
        return await self.store.creators(guild_id)

    # ---- reads ----------------------------------------------------------------------------------------------
    async def view(self, tournament_id: int, *, guild_id: int) -> TournamentView:
        """The whole tournament: settings, entrants, rounds with tables and match ids, standings (NotFound when
        missing or another server's)."""
        view = await self.read(tournament_id)
        if view.guild_id != guild_id:
            raise NotFound(T("There is no tournament {id} on this server.", id=tournament_id))
        return view

    async def read(self, tournament_id: int) -> TournamentView:
        """The tournament a delivery announces (no server check: the row names it; NotFound when missing)."""
        found = await self.store.load(tournament_id)
        if found is None:
            raise NotFound(T("There is no tournament {id} on this server.", id=tournament_id))
        return replace(build_view(*found), forbidden=tuple(await self.store.forbidden(self.ctx.db, tournament_id)))

    async def of_server(self, guild_id: int, *, statuses: tuple[str, ...] = ("open", "running"),
                        limit: int = 25) -> list[TournamentSummary]:
        """A server's tournaments of these statuses, newest first."""
        return [TournamentSummary(r.id, r.name, r.game, r.variant, Format(r.format), r.status, count,
                                  r.max_entrants, r.current_round, r.total_rounds, r.start_at)
                for r, count in await self.store.of_guild(guild_id, statuses, limit)]

    async def trf(self, tournament_id: int, *, guild_id: int) -> str:
        """The event as FIDE TRF16 text (two-player events only: NotAllowed otherwise)."""
        row = await self._of_server(tournament_id, guild_id)
        if row.table_size != 2:
            raise NotAllowed(T("A TRF export holds two-player games only."))
        found = await self.store.load(tournament_id)
        assert found is not None
        row, entrants, tables = found
        people, model_tables = _model(row, entrants, tables)
        system = trf.SYSTEM_SWISS if row.format == Format.SWISS.value else trf.SYSTEM_ROUND_ROBIN
        return trf.export(row.name, people, {e.user_id: e.name for e in entrants}, model_tables,
                          max(row.total_rounds, 1), system=system)

    # ---- running it (the play service's hook, the pairing worker, the scheduler) ---------------------------
    async def record_result(self, tx: Tx, match: Match) -> None:
        """In a tournament match's ending transaction: its table's result, the standings announcement, and the
        round's end (the next round's pairing row, or the tournament's end). The play service holds the
        tournament's lock already (taken after the match's and before the ratings', the order every
        decision of a tournament keeps)."""
        tournament_id = match.row.tournament_id
        if tournament_id is None:
            return
        found = await self.store.table_of_match(tx, match.id)
        status = await self.store.status(tx, tournament_id)
        if found is None or status != "running":     # a cancelled event's aborted games count for nothing
            return
        _tid, table = found
        now = self.ctx.now()
        if table.ranks is None and not table.annulled:
            ranks, forfeit = _table_result(match, table)
            if await self.store.record(tx, table.id, ranks, forfeit=forfeit,
                                       adjudicated=match.row.termination == "adjudicated"):
                await self._tell(tx, tournament_id, [TournamentStandings(table.round, match.id)], now,
                                 after=match.id)
        await self._round_end(tx, tournament_id, now, after=match.id)

    async def _round_end(self, tx: Tx, tournament_id: int, now: str, *, after: int | None = None) -> None:
        """When every table of the current round is decided: ask for the next round's pairing, or end it
        (``after``: the match whose result decided it, whose posts these follow)."""
        found = await self.store.read(tx, tournament_id)
        assert found is not None
        row, entrants, tables = found
        if row.status != "running" or row.current_round == 0:
            return
        current = [t for t in tables if t.round <= row.current_round and not t.annulled]
        if any(t.kind == TableKind.GAME.value and t.ranks is None for t in current):
            return
        if row.current_round >= row.total_rounds:
            if await self.store.end(tx, tournament_id, "finished", now=now):
                view = build_view(row, entrants, tables)
                winners = tuple(s.user_id for s in view.standings if s.rank == 1 and s.division in (None, 1))
                await self._tell(tx, tournament_id, [TournamentCard("update", status="finished"),
                                                     TournamentEnd(winners)], now, after=after)
                if row.format == Format.LEAGUE.value and row.repeat_days:
                    await self._next_edition(tx, row, view, now)    # None when too few play on: the series ends
        elif await self.store.ask_pairing(tx, tournament_id, row.current_round + 1):
            # the tournament's own row: a long pairing holds up no match's posts (a replay after a result)
            await self._tell(tx, tournament_id, [TournamentPairing(row.current_round + 1)], now)

    async def _next_edition(self, tx: Tx, row: TournamentRow, view: TournamentView, now: str) -> int | None:
        """A league's next edition, open for entries and starting ``repeat_days`` after this one ended: who played
        on (not withdrawn, nor dropped: timed out and unseen for leagues.UNSEEN_DROP) is entered again in the order
        promotion and relegation give (leagues.next_edition); newcomers join by rating at its start."""
        finished: list[list[int]] = []
        for s in view.standings:
            if s.division is not None:
                while len(finished) < s.division:
                    finished.append([])
                finished[s.division - 1].append(s.user_id)
        played_on = [e.user_id for e in view.entrants if e.withdrawn_round is None]
        seen = {u: datetime.fromisoformat(at) for u, at in
                (await self.store.last_moves(tx, row.guild_id, played_on)).items()}
        gone = leagues.dropped(await self.store.timed_out(tx, row.id), seen, self.ctx.clock())
        returning = set(played_on) - gone
        if len(returning) < leagues.MIN_ENTRANTS:
            return None
        ratings = {e.user_id: e.rating for e in view.entrants}
        order = [u for d in leagues.next_edition(finished, returning, [], ratings) for u in d]
        assert row.repeat_days is not None
        edition_id = await self.store.create(
            tx, guild_id=row.guild_id, channel_id=row.channel_id, created_by=row.created_by, name=row.name,
            game=row.game, variant=row.variant, format=row.format, table_size=row.table_size, rounds=row.rounds,
            schedule=row.schedule, days_per_move=row.days_per_move, rated=row.rated,
            start_at=self.ctx.later(timedelta(days=row.repeat_days)), min_entrants=row.min_entrants,
            max_entrants=row.max_entrants, round_days=row.round_days, now=now, repeat_days=row.repeat_days,
            series_id=row.series_id or row.id, edition=row.edition + 1)
        names = {e.user_id: e.name for e in view.entrants}
        for place, user_id in enumerate(order):
            await self.store.add_entrant(tx, edition_id, user_id=user_id, name=names[user_id],
                                         rating=ratings[user_id], joined_round=1, now=now, seed_order=place)
        await self._tell(tx, edition_id, [TournamentCard("open")], now)
        return edition_id

    async def pair_round(self, tournament_id: int, round_no: int, *, completes: int | None = None,
                         compute: Compute | None = None) -> bool:
        """Pair round ``round_no`` (computed off the event loop) and start its matches, in one transaction,
        once: False when it is paired already (or the tournament ended). ``completes``: the pairing row.
        ``compute`` runs ``pairing`` (a thread by default; the pairing worker uses a process for big fields)."""
        found = await self.store.load(tournament_id)
        if found is None:
            return False
        row, entrants, tables = found
        if row.status != "running" or row.current_round != round_no - 1:
            return False
        forbidden = await self.store.forbidden(self.ctx.db, tournament_id)
        rounds = await (compute or in_thread)(pairing, row, entrants, tables, round_no, forbidden)
        now = self.ctx.now()
        started: list[Match] = []
        async with self.ctx.db.transaction() as tx:
            await self.store.lock(tx, tournament_id)
            last = rounds[-1][0].round if rounds and rounds[-1] else round_no
            deadline = self.ctx.later(timedelta(days=row.round_days)) if row.round_days else None
            if not await self.store.advance(tx, tournament_id, from_round=round_no - 1, to_round=last,
                                            deadline=deadline):
                return False
            names = {e.user_id: e.name for e in entrants}
            match_ids: list[int] = []
            for tables_of_round in rounds:
                new: list[NewTable] = []
                for number, t in enumerate(tables_of_round, start=1):
                    match_id = None
                    if t.kind is TableKind.GAME and t.ranks is None:
                        match = await self.challenges.start_seated(
                            tx, row.game, variant=row.variant, guild_id=row.guild_id, channel_id=row.channel_id,
                            seats=[Person(u, names.get(u, str(u))) for u in t.seats], teams=t.teams,
                            time_per_move=row.days_per_move * 86400, rated=row.rated,
                            tournament=(tournament_id, t.round), created_by=row.created_by, now=now)
                        await self.ctx.outbox.add(tx, match.id, start_announcements(match), now=now)
                        started.append(match)
                        match_id = match.id
                        match_ids.append(match.id)
                    new.append(NewTable(t.round, number, t.kind.value, t.seats, t.teams, t.ranks, t.forfeit,
                                        match_id))
                await self.store.add_tables(tx, tournament_id, new)
            await self._tell(tx, tournament_id, [TournamentRound(round_no, tuple(match_ids), deadline)], now)
            if completes is not None:
                await self.ctx.outbox.done(tx, completes, now=now, result="paired")
            await self._round_end(tx, tournament_id, now)   # a round of byes and forfeits only is over at once
        for match in started:
            self.challenges.queries.remember(match)
            self.ctx.events.deadline_set.emit(match.next_timer)
            self.ctx.events.announcements.emit(match.id)
        self._after(deadline)
        return True

    async def start_due(self) -> list[int]:
        """The scheduler: start the open tournaments whose start time has come (cancelled below the minimum)."""
        done = []
        for tournament_id in await self.store.due_starts(self.ctx.now()):
            now = self.ctx.now()
            async with self.ctx.db.transaction() as tx:
                await self.store.lock(tx, tournament_id)
                found = await self.store.read(tx, tournament_id)
                if found is None or found[0].status != "open":
                    continue
                row, entrants, _tables = found
                if len(entrants) >= row.min_entrants:
                    told = await self._start_in(tx, row, now)
                else:
                    await self.store.end(tx, tournament_id, "cancelled", now=now)
                    told = [TournamentCard("update", status="cancelled", reason="too_few")]
                await self._tell(tx, tournament_id, told, now)
            done.append(tournament_id)
        if done:
            self.ctx.events.announcements.emit(0)
        return done

    async def adjudicate_due(self) -> list[int]:
        """The scheduler: adjudicate the games unfinished at their round's deadline (scoring.ADJUDICATION_RULE)."""
        done = []
        for tournament_id in await self.store.due_deadlines(self.ctx.now()):
            found = await self.store.load(tournament_id)
            if found is None:
                continue
            row, _entrants, tables = found
            for t in tables:
                if t.round <= row.current_round and t.match_id is not None and t.ranks is None and not t.annulled:
                    if await self._adjudicate(t.match_id):
                        done.append(t.match_id)
        return done

    async def _adjudicate(self, match_id: int) -> bool:
        match = await self.challenges.queries.get(match_id)
        if match.status != "active":
            return False
        used = await self._time_used(match)
        table = Table(1, tuple(p.user_id for p in sorted(match.seated, key=lambda p: p.seat or 0)),
                      teams=match.game.teams.get(match.row.players, ()))
        ranks = scoring.adjudicate(table, used).ranks or ()
        winners = tuple(s for s, r in enumerate(ranks) if r == 1)
        result = Result("finished", winners, ranks, "adjudicated", {})
        try:
            await self.play.end(match, result, event=(None, "adjudicate", scoring.ADJUDICATION_RULE))
        except StalePosition:
            return False
        return True

    async def _time_used(self, match: Match) -> dict[int, float]:
        """Seconds each player thought: from each move to the one before (or the start), and the running turn."""
        moves = await self.ctx.matches.moves(match.id)
        user_at = {p.seat: p.user_id for p in match.seated}
        used: dict[int, float] = {uid: 0.0 for uid in user_at.values()}
        before = datetime.fromisoformat(match.row.started_at or match.row.created_at)
        for m in moves:
            at = datetime.fromisoformat(m.played_at)
            used[user_at[m.seat]] += (at - before).total_seconds()
            before = at
        if match.row.to_move is not None:
            used[user_at[match.row.to_move]] += (self.ctx.clock() - before).total_seconds()
        return used

    async def next_due(self) -> datetime | None:
        """When the scheduler next has a tournament start or a round deadline to look at."""
        when = await self.store.next_due()
        return datetime.fromisoformat(when) if when else None

    # ---- internals ------------------------------------------------------------------------------------------
    async def _of_server(self, tournament_id: int, guild_id: int) -> TournamentRow:
        found = await self.store.load(tournament_id)
        if found is None or found[0].guild_id != guild_id:
            raise NotFound(T("There is no tournament {id} on this server.", id=tournament_id))
        return found[0]

    async def _running_matches(self, tournament_id: int, user_id: int | None = None) -> list[int]:
        """The tournament's games still running (of one entrant), as read before a decision that ends them."""
        found = await self.store.load(tournament_id)
        assert found is not None
        return sorted(t.match_id for t in found[2] if t.match_id is not None and t.ranks is None
                      and (user_id is None or user_id in t.seats))

    async def _locked(self, tx: Tx, tournament_id: int) -> tuple[TournamentRow, list[EntrantRow], list[TableRow]]:
        """The tournament as ``tx`` sees it once it holds the tournament's lock (its decisions one at a time)."""
        await self.store.lock(tx, tournament_id)      # one decision at a time: entries counted, then written
        found = await self.store.read(tx, tournament_id)
        assert found is not None
        return found

    async def _lock_matches_then(self, tx: Tx, tournament_id: int, match_ids: Sequence[int]) -> None:
        """The matches a decision will end, then the tournament: the order a match's ending takes them in
        (``Play._settle``), so that a withdrawal or a cancellation and a game's ending never deadlock."""
        for match_id in sorted(match_ids):
            await tx.lock_match(match_id)
        await self.store.lock(tx, tournament_id)

    async def _rating(self, guild_id: int, game: str, user_id: int) -> float:
        rating = next((r for r in await self.ctx.ratings.of_user(guild_id, user_id) if r.game == game), None)
        return float(display(rating.mu)) if rating is not None else NEWCOMER_RATING

    async def _tell(self, tx: Tx, tournament_id: int, told: Sequence[Notice], now: str, *,
                    after: int | None = None) -> None:
        """A tournament's rows; ``after`` a match: delivered in that match's order, after its result post (the
        standings follow the result they count, the final announcement the last standings)."""
        await self.ctx.outbox.add(tx, after, told, now=now, tournament_id=tournament_id)

    def _after(self, deadline: str | None) -> None:
        if deadline is not None:
            self.ctx.events.deadline_set.emit(datetime.fromisoformat(deadline))
        self.ctx.events.announcements.emit(0)


# ---- pure helpers: the stored rows as the core's values, the read model ------------------------------------------

def _settings(row: TournamentRow) -> Settings:
    return Settings(Format(row.format), row.game, row.variant, row.table_size, row.rounds, Schedule(row.schedule))


def _entrant(e: EntrantRow) -> Entrant:
    return Entrant(e.user_id, e.rating, e.joined_round, e.withdrawn_round)


def _table(t: TableRow) -> Table:
    return Table(t.round, t.seats, t.ranks, TableKind(t.kind), t.teams, t.forfeit, t.adjudicated)


def _model(row: TournamentRow, entrants: Sequence[EntrantRow],
           tables: Sequence[TableRow]) -> tuple[list[Entrant], list[Table]]:
    """The entrants who count (not annulled) and every table that counts, late entrants' missed rounds included."""
    people = [_entrant(e) for e in entrants if not e.annulled]
    counted = [_table(t) for t in tables if not t.annulled]
    if row.format == Format.SWISS.value:
        counted += [t for e in people for t in swiss.late_tables(e)]
    return people, counted


def _scheduled_games(row: TournamentRow, entrants: Sequence[EntrantRow], division: int | None = None) -> int:
    """A round robin entrant's games in all: one per opponent (of their division, in a league) per leg."""
    legs = 2 if row.format == Format.DOUBLE_ROUND_ROBIN.value else 1
    return (sum(1 for e in entrants if e.division == division) - 1) * legs


def league_divisions(entrants: Sequence[EntrantRow]) -> list[list[int]]:
    """A league edition's divisions at its start: a first edition by rating (leagues.first_edition); a later
    one in the order carried from the last (promotion and relegation applied), newcomers placed by rating before
    the first returning player rated lower, cut again into divisions (leagues.split)."""
    carried = sorted((e for e in entrants if e.seed_order is not None), key=lambda e: e.seed_order or 0)
    newcomers = [e for e in entrants if e.seed_order is None]
    if not carried:
        return leagues.first_edition([_entrant(e) for e in entrants])
    order = [e.user_id for e in carried]
    ratings = {e.user_id: e.rating for e in entrants}
    for e in sorted(newcomers, key=lambda e: (-e.rating, e.user_id)):
        at = next((i for i, u in enumerate(order) if ratings[u] < e.rating), len(order))
        order.insert(at, e.user_id)
    return leagues.split(order)


def _total_rounds(row: TournamentRow, entrants: int) -> int:
    if row.table_size == 2 and row.format in (Format.ROUND_ROBIN.value, Format.DOUBLE_ROUND_ROBIN.value):
        per_leg = entrants - 1 + entrants % 2
        return per_leg * (2 if row.format == Format.DOUBLE_ROUND_ROBIN.value else 1)
    rounds = row.rounds or 1
    return min(rounds, entrants - 1) if row.format == Format.SWISS.value else rounds


def _table_result(match: Match, table: TableRow) -> tuple[tuple[int, ...], bool]:
    """A finished match's table result: (ranks per seat, forfeit). See ABORTED_GAME and the withdrawal rule."""
    row = match.row
    roles = row.outcome.get("roles", {}) if row.outcome else {}
    if row.status == "aborted":
        loser = roles.get("loser")      # the seat that never moved
        if row.termination == "never_moved" and loser is not None:
            user = match.at_seat(int(loser)).user_id
            ranks = scoring.forfeited(_table(table), user).ranks
            assert ranks is not None
            return ranks, True
        return tuple(1 for _ in table.seats), True
    ranks = row.ranks or tuple(1 if s in row.winners else 2 for s in range(len(table.seats)))
    return tuple(ranks), row.termination == "withdrew"


def pairing(row: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[TableRow],
            round_no: int, forbidden: Sequence[tuple[int, int]] = ()) -> list[list[Table]]:
    """The tables of the rounds to start now (every round of an all-at-once round robin at its first): pure,
    and run in a thread (a Swiss of a big field takes seconds)."""
    settings = _settings(row)
    people, counted = _model(row, entrants, tables)
    if settings.is_round_robin:
        divisions = sorted({e.division for e in entrants}, key=lambda d: d or 0)
        schedules = [roundrobin.schedule([_entrant(e) for e in entrants if e.joined_round == 1 and e.division == d],
                                         double=row.format == Format.DOUBLE_ROUND_ROBIN.value) for d in divisions]
        schedule = [[t for s in schedules if r < len(s) for t in s[r]] for r in range(max(map(len, schedules)))]
        wanted = schedule if settings.schedule is Schedule.ALL_AT_ONCE else [schedule[round_no - 1]]
        gone = {e.user_id: e for e in entrants if e.withdrawn_round is not None}
        out: list[list[Table]] = []
        for tables_of in wanted:
            kept = [_without_withdrawn(t, gone) for t in tables_of]
            out.append([t for t in kept if t is not None])
        return out
    if row.table_size > 2:
        teams = GAMES[row.game].teams
        return [pods.pair_pods(people, counted, round_no, row.table_size, teams=teams)]
    half = {e.user_id for e in entrants if round_no in e.half_byes and e.withdrawn_round is None}
    return [swiss.pair_round(people, counted, round_no, row.total_rounds, half_byes=half,
                             forbidden=[frozenset(pair) for pair in forbidden])]


def _without_withdrawn(t: Table, gone: dict[int, EntrantRow]) -> Table | None:
    """A round robin table with an entrant who withdrew before its round: the opponent sits out (annulled) or
    wins by forfeit; None when no one is left to play it."""
    out = [u for u in t.seats if u in gone and not _entrant(gone[u]).plays(t.round)]
    if not out or t.kind is not TableKind.GAME:
        return t if not out else None
    left = [u for u in t.seats if u not in out]
    if not left:
        return None
    if gone[out[0]].annulled or len(out) > 1:
        return Table(t.round, (left[0],), kind=TableKind.ABSENT)
    return scoring.forfeited(t, out[0])


def build_view(row: TournamentRow, entrants: Sequence[EntrantRow], tables: Sequence[TableRow]) -> TournamentView:
    """The read model of one tournament's rows."""
    settings = TournamentSettings(
        game=row.game, format=Format(row.format), variant=row.variant, table_size=row.table_size, rounds=row.rounds,
        schedule=Schedule(row.schedule), days_per_move=row.days_per_move, rated=row.rated, start_at=row.start_at,
        min_entrants=row.min_entrants, max_entrants=row.max_entrants, round_days=row.round_days,
        repeat_days=row.repeat_days)
    people, counted = _model(row, entrants, tables)
    names = {e.user_id: e.name for e in entrants}
    seeds = {e.id: n for n, e in enumerate(roundrobin.seeding([_entrant(e) for e in entrants]), start=1)}
    entrant_views = tuple(EntrantView(e.user_id, e.name, e.rating, seeds[e.user_id], e.joined_round,
                                      e.withdrawn_round, e.half_byes, e.division) for e in entrants)
    by_round: dict[int, list[TableView]] = {}
    for t in tables:
        if t.annulled:
            continue
        model = _table(t)
        got = scoring.table_points(model)
        points = tuple(got.get(u, Fraction(0)) for u in t.seats) if model.finished else None
        by_round.setdefault(t.round, []).append(TableView(t.round, t.number, TableKind(t.kind), t.seats, t.match_id,
                                                          t.ranks, t.teams, t.forfeit, t.adjudicated, points))
    rounds = tuple(RoundView(n, tuple(ts), row.round_deadline if n == row.current_round else None)
                   for n, ts in sorted(by_round.items()))
    withdrawn = {e.user_id for e in entrants if e.withdrawn_round is not None}
    division_of = {e.user_id: e.division for e in entrants}
    groups = sorted({division_of[p.id] for p in people}, key=lambda d: d or 0) or [None]
    standings: tuple[StandingView, ...] = ()
    for division in groups:           # a league: each division's own table, the top one first
        members = [p for p in people if division_of[p.id] == division]
        inside = {p.id for p in members}
        own = [t for t in counted if set(t.seats) <= inside]
        standings += tuple(StandingView(s.rank, s.entrant, names.get(s.entrant, str(s.entrant)), s.points,
                                        s.sonneborn_berger, s.buchholz_cut1, s.direct_encounter, s.wins, s.rating,
                                        s.games, s.entrant in withdrawn, division)
                           for s in (scoring.standings(members, own) if members else []))
    crosstable = None
    if _settings(row).is_round_robin and standings and len(groups) == 1:
        crosstable = scoring.crosstable([s.user_id for s in standings], counted)
    winners = tuple(s.user_id for s in standings if s.rank == 1 and s.division in (None, 1)) \
        if row.status == "finished" else ()
    return TournamentView(
        id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, created_by=row.created_by, name=row.name,
        settings=settings, status=row.status, current_round=row.current_round, total_rounds=row.total_rounds,
        created_at=row.created_at, entrants=entrant_views, rounds=rounds, standings=standings,
        crosstable=crosstable, winners=winners, started_at=row.started_at, finished_at=row.finished_at,
        round_deadline=row.round_deadline, card_message_id=row.card_message_id, edition=row.edition,
        series_id=row.series_id)
