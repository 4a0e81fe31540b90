"""Positions of matches, from a bounded cache or one read of the log.

A match's position is needed on every move, board and autocomplete. Kept per match for the last
``CAPACITY`` matches touched (least recently used leaves first), so memory stays bounded however many
matches are active. On a miss the position comes from one read of the log through ``bot.history``: decoded
from the stored codes (constant time), or, for a game with history in its state, replayed once.
"""

from __future__ import annotations

from collections import OrderedDict

from bot import history
from bot.history import Position
from bot.store.rows import MatchRow, MoveRow

CAPACITY = 2048


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
        """The current position from the log (``history.position_at``): ``moves`` are the moves in force — all
        of them for a game with history in its state, else those from the last one at or before
        ``row.turn_start_ply`` on; ``previous`` is the position there (after a takeback that ply may be an undone
        one, or no move at all). The position is the stored one (``row.position``), decoded where it holds
        everything."""
        self.misses += 1
        return history.position_at(row, moves, row.ply, turn_start=row.turn_start_ply, code=row.position)
