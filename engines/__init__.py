"""The game engines, reached through one contract (see ../shared/ENGINES.md and engines.base)."""

import importlib

from engines.base import Game, IllegalMove, InvalidPosition, Outcome, State, outcome_text, rank_seats, turn_cap_outcome

# The registry: every game module defines ``GAME``. Order is the order the bot lists games in.
GAME_MODULES = ("tintas", "rincala", "roocala", "quincala", "spinca")

GAMES: dict[str, Game] = {}
for _name in GAME_MODULES:
    _game = importlib.import_module(f"engines.{_name}").GAME
    GAMES[_game.key] = _game

__all__ = ["GAMES", "GAME_MODULES", "Game", "IllegalMove", "InvalidPosition", "Outcome", "State", "outcome_text",
           "rank_seats", "turn_cap_outcome"]
