"""Positions of matches, from a bounded cache or one read of the log.

A match's position is needed on every move, board and autocomplete. Kept per match for the last
``CAPACITY`` matches touched (least recently used leaves first), so memory stays bounded however many
matches are active. On a miss, a game whose position code holds everything (``history_in_state`` False)
decodes the stored codes (constant time); the others replay the log once, since their repetition rules
count positions the code does not hold.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from bot.store.rows import MatchRow, MoveRow
from engines import GAMES, State

CAPACITY = 2048


@dataclass(frozen=True)
class Position:
    ply: int
    state: State
    previous: State | None        # before the last turn
    last_turn: tuple[str, ...]    # the moves of the last turn


class Positions:
    def __init__(self, capacity: int = CAPACITY):
        self.capacity = capacity
        self._cache: OrderedDict[int, Position] = OrderedDict()
        self.misses = 0

    def __len__(self) -> int:
        return len(self._cache)

    def get(self, match_id: int, ply: int) -> Position | None:
        found = self._cache.get(match_id)
        if found is None or found.ply != ply:
            return None
        self._cache.move_to_end(match_id)
        return found

    def put(self, match_id: int, position: Position) -> None:
        self._cache[match_id] = position
        self._cache.move_to_end(match_id)
        while len(self._cache) > self.capacity:
            self._cache.popitem(last=False)

    def forget(self, match_id: int) -> None:
        self._cache.pop(match_id, None)

    def build(self, row: MatchRow, moves: list[MoveRow]) -> Position:
        """The position from the log: ``moves`` are the moves in force (taken-back ones skipped): all of them for
        a game with history in its state, else those from the last one at or before ``row.turn_start_ply`` on.

        ``previous`` is the position after the last move in force at or before the turn's start (after a takeback
        that ply may be an undone one, or no move at all)."""
        self.misses += 1
        game = GAMES[row.game]
        start = row.turn_start_ply
        fresh = game.new(players=row.players, seed=row.seed, variant=row.variant)
        if game.history_in_state:
            state = previous = fresh
            for mv in moves:
                state = state.play(mv.move)
                if mv.ply <= start:
                    previous = state
        else:
            assert row.position is not None
            state = game.decode(row.position)
            before = [mv.position for mv in moves if mv.ply <= start]
            previous = game.decode(before[-1]) if before else fresh
        last = tuple(mv.move for mv in moves if mv.ply > start)
        return Position(row.ply, state, previous if last else None, last)
