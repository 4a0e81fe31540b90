"""One position history: a match's position at any ply and the turn that led there, from its move log.

Every reader of a position other than the one just played asks here: the cache of current positions
(``services.positions``), a takeback's plan, a board delivered late (``Queries.position_at``), a replay and a
record (``turns``), the check that a log reproduces its codes, and the archive's replay (``replay``).

The log is rows in ply order, as ``MatchStore.moves`` reads them. A game whose position code holds everything
(``history_in_state`` False) decodes the code stored with a row (constant time); the others replay from the
start, since their repetition rules count positions the code does not hold. A row a takeback undid
(``undone_at_ply``: the match's ply once it was undone) is in force only before that ply.

Below the store (it imports only the engines), so the archive replays through it too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from engines import GAMES, State


class Setup(Protocol):
    """What a match starts from (``MatchRow``, the archive's ``Setup``)."""

    @property
    def game(self) -> str: ...
    @property
    def variant(self) -> str | None: ...
    @property
    def players(self) -> int: ...
    @property
    def seed(self) -> int: ...


class Played(Protocol):
    """A row of the log (``MoveRow``, the archive's ``LoggedMove``)."""

    @property
    def ply(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def move(self) -> str: ...
    @property
    def undone_at_ply(self) -> int | None: ...


class Coded(Played, Protocol):
    """A row of the log with the position code after it (``MoveRow``)."""

    @property
    def position(self) -> str: ...


@dataclass(frozen=True)
class Position:
    """The position at ``ply`` and the turn that led there."""

    ply: int
    state: State
    previous: State | None        # before the turn that led here (None when no turn did)
    last_turn: tuple[str, ...]    # that turn's moves


P = TypeVar("P", bound=Played)

Frame = tuple[State, State | None, list[str]]
"""A whole turn of a replay: (the position after it, the one before it, its moves)."""


def start(setup: Setup) -> State:
    """The position a match starts from."""
    return GAMES[setup.game].new(players=setup.players, seed=setup.seed, variant=setup.variant)


def in_force_at(rows: Iterable[P], ply: int) -> list[P]:
    """The rows in force when the match stood at ``ply``: played by then and not undone by then."""
    return [r for r in rows if r.ply <= ply and (r.undone_at_ply is None or r.undone_at_ply > ply)]


def position_at(setup: Setup, moves: Sequence[Coded], ply: int, *, turn_start: int,
                code: str | None = None) -> Position:
    """The position at ``ply`` and the turn that led there: the moves after ``turn_start`` (the ply that turn
    started from; ``previous`` is the position there).

    ``moves``: the moves in force at ``ply``, in ply order (later ones are ignored) — every one for a game with
    history in its state, else at least those from the last one at or before ``turn_start`` on. ``code``: the
    stored code of the position at ``ply`` (the match row's, for the current position), decoded rather than
    the last move's where the code holds everything.
    """
    game = GAMES[setup.game]
    fresh = start(setup)
    played = [mv for mv in moves if mv.ply <= ply]
    last_turn = tuple(mv.move for mv in played if mv.ply > turn_start)
    if game.history_in_state:            # replayed: repetition counts need the whole history
        state = previous = fresh
        for mv in played:
            state = state.play(mv.move)
            if mv.ply <= turn_start:
                previous = state
    else:                                # the codes hold everything: decoded
        before = [mv for mv in played if mv.ply <= turn_start]
        if code is None and played:
            code = played[-1].position
        state = game.decode(code) if code is not None else fresh
        previous = game.decode(before[-1].position) if before else fresh
    return Position(ply, state, previous if last_turn else None, last_turn)


def after(setup: Setup, moves: Sequence[Coded]) -> State:
    """The position after ``moves`` (moves in force, in ply order: as ``position_at`` wants them)."""
    ply = moves[-1].ply if moves else 0
    return position_at(setup, moves, ply, turn_start=ply).state


def replay(setup: Setup, rows: Iterable[Played]) -> list[State]:
    """The position after each row, played on the engine on the position of the rows in force when it was
    played: a takeback undoes the last turns, so the rows it undid (``undone_at_ply`` at or before this row's
    ply) are the top of the stack, dropped first. ``rows``: the log in ply order, undone rows included or not."""
    fresh = start(setup)
    stack: list[tuple[Played, State]] = []
    states: list[State] = []
    for r in rows:
        while stack and (undone := stack[-1][0].undone_at_ply) is not None and undone <= r.ply:
            stack.pop()
        state = (stack[-1][1] if stack else fresh).play(r.move)
        stack.append((r, state))
        states.append(state)
    return states


def turns(setup: Setup, moves: Iterable[Played]) -> list[Frame]:
    """Every whole turn of the moves in force (a turn ends when the seat that moves changes), the start first
    (with no position before it and no moves): one replay."""
    state = start(setup)
    frames: list[Frame] = [(state, None, [])]
    before, seat, turn = state, None, list[str]()
    for mv in moves:
        if turn and mv.seat != seat:
            frames.append((state, before, turn))
            before, turn = state, []
        seat = mv.seat
        state = state.play(mv.move)
        turn.append(mv.move)
    if turn:
        frames.append((state, before, turn))
    return frames
