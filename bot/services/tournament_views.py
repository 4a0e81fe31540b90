"""What the tournament service hands out: a tournament's settings, entrants, rounds and standings, as frozen values.

The read model of ``bot.services.tournaments``: the front ends (Discord's card, pairings and standings posts, the
terminal, the web pages) draw from these and never read the tables. Every user is named by the name they had when
they joined; scores are exact fractions (``bot.tournaments.scoring.figure`` writes them as players read them).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bot.tournaments.model import Format, Schedule, TableKind

STATUSES = ("open", "running", "finished", "cancelled")
WHO_MAY_CREATE = ("managers", "everyone")     # the server setting; 'managers' by default


@dataclass(frozen=True)
class TournamentSettings:
    """How a tournament runs, as its creator chose it.

    ``rounds``: a Swiss's or a pod event's rounds (round robins derive theirs; a Swiss is capped at its entrants
    less one when it starts). ``start_at``: ISO time the scheduler starts it; None starts it when full (or by hand).
    ``round_days``: days a round may last before its unfinished games are adjudicated (None: no round deadline;
    a round-by-round event without one waits for its last game).
    """

    game: str
    format: Format
    variant: str | None = None
    table_size: int = 2
    rounds: int | None = None
    schedule: Schedule = Schedule.ROUND_BY_ROUND
    days_per_move: int = 3
    rated: bool = True
    start_at: str | None = None
    min_entrants: int = 2
    max_entrants: int = 16
    round_days: int | None = None
    repeat_days: int | None = None  # a league: its next edition starts this many days after one ends


@dataclass(frozen=True)
class EntrantView:
    user_id: int
    name: str                       # as they were called when they joined
    rating: float                   # their rating of the game on the server when they joined (the seed)
    seed: int                       # 1 = the highest rated
    joined_round: int = 1           # > 1: a late entrant (Swiss), ½ point per round missed
    withdrawn_round: int | None = None   # the first round they no longer play
    half_byes: tuple[int, ...] = ()      # rounds they asked to sit out for ½ point (Swiss)
    division: int | None = None          # a league: 1 the top division


@dataclass(frozen=True)
class TableView:
    """One game (or bye) of a round. ``seats``: user ids in seat order (seat 0 moves first)."""

    round: int
    number: int                     # 1-based within the round
    kind: TableKind
    seats: tuple[int, ...]
    match_id: int | None = None     # the match that plays it (games only)
    ranks: tuple[int, ...] | None = None   # 1 the best; None while it runs
    teams: tuple[tuple[int, ...], ...] = ()   # seat indices per team (Spinca with four)
    forfeit: bool = False
    adjudicated: bool = False
    points: tuple[Fraction, ...] | None = None   # each seat's points from it, once finished

    @property
    def finished(self) -> bool:
        return self.kind is not TableKind.GAME or self.ranks is not None


@dataclass(frozen=True)
class RoundView:
    number: int
    tables: tuple[TableView, ...]
    deadline: str | None = None     # ISO time its unfinished games are adjudicated

    @property
    def finished(self) -> bool:
        return all(t.finished for t in self.tables)


@dataclass(frozen=True)
class StandingView:
    """A row of the standings: points, then the tiebreaks in ``bot.tournaments.scoring.TIEBREAKS`` order."""

    rank: int                       # shared when every criterion is equal
    user_id: int
    name: str
    points: Fraction
    sonneborn_berger: Fraction
    buchholz_cut1: Fraction
    direct_encounter: Fraction
    wins: int
    rating: float
    games: int                      # games finished over the board
    withdrawn: bool = False
    division: int | None = None     # a league: the division whose table this row is of (rank within it)


@dataclass(frozen=True)
class TournamentView:
    id: int
    guild_id: int
    channel_id: int
    created_by: int
    name: str
    settings: TournamentSettings
    status: str                     # one of STATUSES
    current_round: int              # 0 before the start
    total_rounds: int               # as planned (a Swiss's capped at the start; 0 before the start when derived)
    created_at: str
    entrants: tuple[EntrantView, ...]
    rounds: tuple[RoundView, ...]
    standings: tuple[StandingView, ...]
    crosstable: tuple[tuple[str, ...], ...] | None = None   # round robins: by standings order (scoring.crosstable)
    winners: tuple[int, ...] = ()   # user ids ranked first, once finished
    started_at: str | None = None
    finished_at: str | None = None
    round_deadline: str | None = None
    card_message_id: int | None = None
    forbidden: tuple[tuple[int, int], ...] = ()   # pairs a Swiss never pairs (user ids, the lower first)
    edition: int = 1                # a league's edition
    series_id: int | None = None    # a league's first edition (None: this is it)

    def entrant(self, user_id: int) -> EntrantView | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def name_of(self, user_id: int) -> str:
        e = self.entrant(user_id)
        return e.name if e is not None else str(user_id)

    @property
    def active_entrants(self) -> tuple[EntrantView, ...]:
        """Entrants still playing (not withdrawn)."""
        return tuple(e for e in self.entrants if e.withdrawn_round is None)


@dataclass(frozen=True)
class TournamentSummary:
    """A line of a server's list of tournaments."""

    id: int
    name: str
    game: str
    variant: str | None
    format: Format
    status: str
    entrants: int                   # not withdrawn
    max_entrants: int
    current_round: int
    total_rounds: int
    start_at: str | None
