"""The game engines, reached through one contract (see ../shared/ENGINES.md and engines.base)."""

from engines.base import Game, IllegalMove, InvalidPosition, State

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    GAMES[game.key] = game
    return game


def _load() -> None:
    # Importing a game module registers it. Order is the order the bot lists games in.
    from engines import tintas  # noqa: F401


_load()

__all__ = ["GAMES", "Game", "IllegalMove", "InvalidPosition", "State", "register"]
