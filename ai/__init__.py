"""AI opponents: one Monte Carlo tree search over the engine contract for every game (see ai.search).

``choose_turn`` runs in the calling process; ``AIPool`` runs it in worker processes for the bot's event loop.
"""

from ai.search import (
    LEVEL_ITERATIONS,
    LEVELS,
    GameOverError,
    SearchCancelled,
    choose_turn,
    iterations_for,
)

__all__ = ["LEVELS", "LEVEL_ITERATIONS", "GameOverError", "SearchCancelled", "choose_turn", "iterations_for"]
