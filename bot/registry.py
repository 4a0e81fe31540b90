"""The start-up check of the game registry: every game can be drawn and named as a command.

A game is an engine module, a renderer and a registry line; this fails early, with a message that says
what to fix, when one of them is missing or a game's key clashes with another command.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping

from engines import Game

COMMAND_NAME = re.compile(r"^[a-z0-9_-]{1,32}$")     # Discord's rule for a slash command's name


class RegistryError(RuntimeError):
    """The game registry cannot be served as it is; the message says what to fix."""


def check_games(games: Mapping[str, Game], taken: Iterable[str] = ()) -> None:
    """Raise RegistryError unless every game has a usable key and a renderer with ``draw``."""
    taken = set(taken)
    problems = []
    for key, game in games.items():
        if key != game.key:
            problems.append(f"the registry lists {game.title or key!r} under {key!r} but its key is {game.key!r}")
        if not COMMAND_NAME.match(key):
            problems.append(f"game key {key!r} is not a valid command name (1-32 of a-z, 0-9, '-', '_')")
        if key in taken:
            problems.append(f"game key {key!r} clashes with the /{key} command; give the game another key")
        try:
            module = importlib.import_module(f"render.{key}")
        except ModuleNotFoundError:
            problems.append(f"game {key!r} has no renderer: add render/{key}.py with draw(state, last_turn, names, "
                            "previous)")
            continue
        if not callable(getattr(module, "draw", None)):
            problems.append(f"render/{key}.py has no draw(state, last_turn, names, previous) function")
    if problems:
        raise RegistryError("The game registry cannot start:\n- " + "\n- ".join(problems))
