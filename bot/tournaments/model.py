"""What a tournament is made of: its settings, its entrants and its tables (games and byes), as frozen values.

Pure data: no database, no Discord, no clock. The service stores these and hands them back to the functions of
this package (pairings, scoring, leagues, TRF), which decide without side effects.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

TABLE_SIZES = (2, 3, 4)         # players per table; 3 and 4 are pods (pods.py)


class Format(StrEnum):
    ROUND_ROBIN = "round_robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin"    # a second leg with the seats swapped
    SWISS = "swiss"
    LEAGUE = "league"                            # an edition of a recurring series: divisions play round robins


class Schedule(StrEnum):
    ALL_AT_ONCE = "all_at_once"                  # every game of the event starts together (AbstractPlay's way)
    ROUND_BY_ROUND = "round_by_round"


class TableKind(StrEnum):
    GAME = "game"
    BYE = "bye"                  # the pairing's bye for an odd player: BYE_POINTS
    HALF_BYE = "half_bye"        # a bye the player asked for (Swiss): REQUESTED_BYE_POINTS
    LATE = "late"                # a round played before the player joined (Swiss): LATE_JOIN_POINTS
    ABSENT = "absent"            # not paired (withdrawn, or a pod round without a seat left): no points


@dataclass(frozen=True)
class Settings:
    """How an event runs. ``rounds`` is required for a Swiss and for pods; round robins derive theirs."""

    format: Format
    game: str
    variant: str | None = None
    table_size: int = 2
    rounds: int | None = None
    schedule: Schedule = Schedule.ROUND_BY_ROUND

    def __post_init__(self) -> None:
        if self.table_size not in TABLE_SIZES:
            raise ValueError(f"a table seats 2, 3 or 4 players, not {self.table_size}")
        if self.rounds is not None and self.rounds < 1:
            raise ValueError(f"an event has at least one round, not {self.rounds}")
        needs_rounds = self.format is Format.SWISS or self.table_size > 2
        if needs_rounds and self.rounds is None:
            raise ValueError("a Swiss or a pod event needs its number of rounds")
        if self.format is Format.SWISS and self.schedule is Schedule.ALL_AT_ONCE:
            raise ValueError("a Swiss pairs each round from the results before it, so it runs round by round")

    @property
    def is_round_robin(self) -> bool:
        return self.table_size == 2 and self.format in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN, Format.LEAGUE)


@dataclass(frozen=True)
class Entrant:
    """A player in one event. ``withdrawn_round``: the first round they no longer play (None: still in)."""

    id: int
    rating: float
    joined_round: int = 1
    withdrawn_round: int | None = None

    def plays(self, round_no: int) -> bool:
        """Whether the entrant is to be paired in ``round_no``."""
        return self.joined_round <= round_no and (self.withdrawn_round is None or round_no < self.withdrawn_round)


@dataclass(frozen=True)
class Table:
    """One game (or bye) of a round. ``seats``: entrant ids in seat order (seat 0 moves first, "white").

    ``ranks``: one per seat, 1 the best, equal numbers for a draw or a shared place; None while the game runs.
    ``teams``: for team games (Spinca with four), seat indices per team; teammates share their team's rank.
    ``forfeit``: the result was decided without play (a withdrawal or a time-out before any move), so tiebreaks
    that count games over the board leave it out. ``adjudicated``: ended at the round deadline (ADJUDICATION).
    """

    round: int
    seats: tuple[int, ...]
    ranks: tuple[int, ...] | None = None
    kind: TableKind = TableKind.GAME
    teams: tuple[tuple[int, ...], ...] = ()
    forfeit: bool = False
    adjudicated: bool = False

    def __post_init__(self) -> None:
        if len(set(self.seats)) != len(self.seats):
            raise ValueError(f"a player sits once at a table: {self.seats}")
        if self.kind is TableKind.GAME and len(self.seats) < 2:
            raise ValueError("a game needs two seats or more")
        if self.kind is not TableKind.GAME and len(self.seats) != 1:
            raise ValueError("a bye or an absence has one seat")
        if self.ranks is not None and len(self.ranks) != len(self.seats):
            raise ValueError("one rank per seat")

    @property
    def finished(self) -> bool:
        return self.kind is not TableKind.GAME or self.ranks is not None

    def finish(self, ranks: tuple[int, ...], *, forfeit: bool = False, adjudicated: bool = False) -> Table:
        """This table with its result."""
        return Table(self.round, self.seats, ranks, self.kind, self.teams, forfeit, adjudicated)


def game(round_no: int, *seats: int, ranks: tuple[int, ...] | None = None, forfeit: bool = False,
         adjudicated: bool = False) -> Table:
    """A game table (a shorthand for tests and the service)."""
    return Table(round_no, tuple(seats), ranks, TableKind.GAME, (), forfeit, adjudicated)


def two_player_ranks(result: float) -> tuple[int, int]:
    """The ranks of a two-player game from the first seat's score: 1 win, 0.5 draw, 0 loss."""
    return {1.0: (1, 2), 0.5: (1, 1), 0.0: (2, 1)}[result]
