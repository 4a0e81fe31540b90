"""Fair play: no engine evaluation of a rated match in progress, nor of any position within one whole turn of it.

While a rated (timed) match runs, nobody — its players or anyone else — gets the bot's analysis of its current
position or of any position its mover's whole turn passes through or ends in (so nobody can score the options
of the turn to play, nor the opponent prepare replies). Positions are compared as the engine plays them
(``State.position_key``), not as codes are spelled. Each running match's keys are listed once per ply and kept
(``CACHED``); a game whose turns reach too many positions to list (``Game.turn_reach``) is compared by nearness.
The engine work runs in a worker thread, off the event loop. Hints keep their own rules (services.hints).
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Sequence

from bot.i18n import T
from bot.model import NotAllowed
from bot.services.context import Context
from engines import Game, State
from engines.base import key_distance, turn_positions

TURN_POSITIONS = 5000    # positions one whole turn may reach and still be listed (measured most: Rincala 3,947)
CACHED = 4096            # running matches whose turn's keys are kept, least recently used leaves first


class FairPlay:
    def __init__(self, ctx: Context, *, turn_positions_limit: int = TURN_POSITIONS, cached: int = CACHED):
        self.ctx = ctx
        self.limit = turn_positions_limit
        self.capacity = cached
        self._turns: OrderedDict[tuple[int, int], tuple[str, frozenset[str] | None]] = OrderedDict()
        self._lock = threading.Lock()      # the cache is read and filled from worker threads
        self.listed = 0                    # running positions read (cache misses), for tests and benches

    async def check(self, state: State) -> None:
        """Refuse the analysis of ``state`` if it is within one whole turn of a running rated match's position."""
        running = await self.ctx.matches.rated_in_play(state.game.key)
        near = bool(running) and await asyncio.to_thread(self.near_rated_play, state, running)
        if near:
            raise NotAllowed(T("Fair play: that position is a rated match in progress or within one turn of it, "
                               "so no analysis of it until the match has ended (hints are for casual matches)."))

    def near_rated_play(self, state: State, running: Sequence[tuple[int, int, str]]) -> bool:
        """Whether ``state`` is one of the positions within one whole turn of a running match in ``running``
        ((id, ply, position code) rows). Engine work: call it off the event loop."""
        reach = state.game.turn_reach
        key = state.position_key()
        for match_id, ply, code in running:
            current, keys = self._turn(state.game, match_id, ply, code)
            if reach is not None:                  # too many positions to list: near enough is within
                distance = key_distance(key, current)
                if distance is not None and distance <= reach:
                    return True
            elif keys is None:                     # more positions than listed: as near as a key may be
                if key_distance(key, current) is not None:
                    return True
            elif key in keys:
                return True
        return False

    def _turn(self, game: Game, match_id: int, ply: int, code: str) -> tuple[str, frozenset[str] | None]:
        """The key of a running match's position and the keys its mover's whole turn reaches (None: too many to
        list, or a game compared by nearness), listed once per (match, ply)."""
        with self._lock:
            found = self._turns.get((match_id, ply))
            if found is not None:
                self._turns.move_to_end((match_id, ply))
                return found
        current = game.decode(code)    # no history: a fresh one can only lengthen the turn
        listed = None if game.turn_reach is not None else turn_positions(current, self.limit)
        entry = (current.position_key(), None if listed is None else frozenset(listed))
        with self._lock:
            self.listed += 1
            self._turns[(match_id, ply)] = entry
            while len(self._turns) > self.capacity:
                self._turns.popitem(last=False)
        return entry
