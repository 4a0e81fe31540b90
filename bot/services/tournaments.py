"""Tournaments: create, join, withdraw, start, cancel, run and read a server's events. Knows nothing of Discord.

Every call decides in ONE transaction that also writes its announcements (a tournament's outbox rows: no match,
ordered per tournament). Running it: a round's matches are ordinary matches (``matches.tournament_id`` and
``tournament_round`` label them), started with the round's ``TournamentRound`` in one transaction; a tournament
match's ending records its table's result in the ending's own transaction (``record_result``, a hook of the play
service) with a ``TournamentStandings``; the round's last result writes a ``TournamentPairing`` (the worker pairs
the next round off the event loop and commits it once: a conditional write on the current round) or, after the
last round, ``TournamentEnd``. The scheduler starts events at their start time and adjudicates games unfinished
at a round's deadline. A tournament of another server is out of reach (the same answer as a missing one).
"""

from __future__ import annotations

from bot.model import Match, Person
from bot.services.challenges import Challenges
from bot.services.context import Context
from bot.services.play import Play
from bot.services.tournament_views import TournamentSettings, TournamentSummary, TournamentView
from bot.store.db import Tx


class Tournaments:
    def __init__(self, ctx: Context, challenges: Challenges, play: Play):
        self.ctx = ctx
        self.challenges = challenges
        self.play = play

    # ---- commands -------------------------------------------------------------------------------------------
    async def create(self, settings: TournamentSettings, *, guild_id: int, channel_id: int, creator: Person,
                     manager: bool, name: str) -> TournamentView:
        """Open a tournament for entries (its card: ``TournamentCard('open')``). ``manager``: whether the creator
        may manage the server (the front end's fact); others may create only where the server allows it
        (``who_may_create``). Refused with a specific reason, nothing written, when a setting is out of range."""
        raise NotImplementedError

    async def join(self, tournament_id: int, person: Person, *, guild_id: int) -> TournamentView:
        """Enter an open tournament (once; not when full). A running Swiss takes late entrants, who score
        LATE_JOIN_POINTS per round missed; starts it when the last place is taken and it starts when full."""
        raise NotImplementedError

    async def withdraw(self, tournament_id: int, user_id: int, *, guild_id: int) -> TournamentView:
        """Leave: before the start the entry is removed; during it, the running game is lost by forfeit and no
        later round pairs them — in a round robin, below ANNUL_BELOW_SHARE of their games played, every game of
        theirs is annulled instead (scoring.withdraw)."""
        raise NotImplementedError

    async def request_half_bye(self, tournament_id: int, user_id: int, *, guild_id: int,
                               round_no: int | None = None) -> TournamentView:
        """Sit out a Swiss round not yet paired (the next one by default) for REQUESTED_BYE_POINTS."""
        raise NotImplementedError

    async def start(self, tournament_id: int, user_id: int, *, guild_id: int, manager: bool) -> TournamentView:
        """Start by hand (the creator or a manager), with at least the minimum of entrants: round 1 is paired by
        the worker (``TournamentPairing``)."""
        raise NotImplementedError

    async def cancel(self, tournament_id: int, user_id: int, *, guild_id: int, manager: bool) -> TournamentView:
        """Cancel an open or running tournament (the creator or a manager); its running matches are aborted."""
        raise NotImplementedError

    async def set_who_may_create(self, guild_id: int, who: str, *, manager: bool) -> str:
        """The server setting ('managers' | 'everyone'); only a manager changes it."""
        raise NotImplementedError

    async def who_may_create(self, guild_id: int) -> str:
        raise NotImplementedError

    # ---- reads ----------------------------------------------------------------------------------------------
    async def view(self, tournament_id: int, *, guild_id: int) -> TournamentView:
        """The whole tournament: settings, entrants, rounds with tables and match ids, standings (NotFound when
        missing or another server's)."""
        raise NotImplementedError

    async def read(self, tournament_id: int) -> TournamentView:
        """The tournament a delivery announces (no server check: the row names it; NotFound when missing)."""
        raise NotImplementedError

    async def of_server(self, guild_id: int, *, statuses: tuple[str, ...] = ("open", "running"),
                        limit: int = 25) -> list[TournamentSummary]:
        """A server's tournaments of these statuses, newest first."""
        raise NotImplementedError

    async def trf(self, tournament_id: int, *, guild_id: int) -> str:
        """The event as FIDE TRF16 text (two-player events only: NotAllowed otherwise)."""
        raise NotImplementedError

    # ---- running it (the play service's hook, the pairing worker, the scheduler) ---------------------------
    async def record_result(self, tx: Tx, match: Match, *, now: str) -> None:
        """In a tournament match's ending transaction: its table's result, the standings announcement, and the
        round's end (the next round's pairing row, or the tournament's end)."""
        raise NotImplementedError

    async def pair_round(self, tournament_id: int, round_no: int, *, completes: int | None = None) -> bool:
        """Pair round ``round_no`` (computed off the event loop) and start its matches, in one transaction,
        once: False when it is paired already (or the tournament ended). ``completes``: the pairing row."""
        raise NotImplementedError

    async def start_due(self) -> list[int]:
        """The scheduler: start the open tournaments whose start time has come (cancelled below the minimum)."""
        raise NotImplementedError

    async def adjudicate_due(self) -> list[int]:
        """The scheduler: adjudicate the games unfinished at their round's deadline (scoring.ADJUDICATION_RULE)."""
        raise NotImplementedError

    async def next_due(self) -> str | None:
        """When the scheduler next has a tournament start or a round deadline to look at."""
        raise NotImplementedError
