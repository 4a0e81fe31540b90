"""The start-up check of the game registry: every game can be drawn, played by the bot and named as a command.

A game is an engine (``engines.GAMES``), a renderer (``render.games.RENDERERS``), optionally an AI policy
(``ai.policies.POLICIES``) and its texts (one sentence per way it ends; its rules, quick start and summary in
every language, ``bot.gametexts``), each layer's entry under the engine's key. mypy checks the entries against
their contracts (``render.games.Renderer``, ``ai.policies.Policy``); this check holds the lists to each other
and fails early, with a message that says what to fix, when an entry is missing or wrong, or a game's key
clashes with another command.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ai.policies import POLICIES, Policy
from bot import gametexts
from engines import Game
from engines.base import TURN_CAP_TERMINATION, Termination
from render.games import RENDERER_MEMBERS, RENDERERS

COMMAND_NAME = re.compile(r"^[a-z0-9_-]{1,32}$")     # Discord's rule for a slash command's name

# How the start-up check calls each callable member of a renderer: the arguments of ``Renderer``'s methods.
RENDERER_CALLS: dict[str, tuple[object, ...]] = {"draw": (None, (), None, None), "palette": (None,),
                                              "mark_centre": (None, "a1")}


class RegistryError(RuntimeError):
    """The game registry cannot be served as it is; the message says what to fix."""


def check_games(games: Mapping[str, Game], taken: Iterable[str] = (), renderers: Mapping[str, Any] = RENDERERS,
                policies: Mapping[str, Any] = POLICIES, texts: Path = gametexts.TEXTS_DIR) -> None:
    """Raise RegistryError unless every game has a usable key, a renderer with every member of
    ``render.games.Renderer``, a sentence for each of its terminations, its texts (rules, quick start, summary)
    in every language under ``texts``, and every renderer and policy a game."""
    taken = set(taken)
    problems = []
    for key, game in games.items():
        problems += key_problems(key, game, taken)
        problems += renderer_problems(key, renderers)
        problems += termination_problems(key, game)
        problems += [f"game {key!r} has no text {texts / path} (see bot/gametexts.py)"
                     for path in gametexts.missing(key, texts)]
    for key in renderers.keys() - games.keys():
        problems.append(f"render.games.RENDERERS lists {key!r}, which is no game of engines.GAMES")
    for key, policy in policies.items():
        if key not in games:
            problems.append(f"ai.policies.POLICIES lists {key!r}, which is no game of engines.GAMES")
        elif not isinstance(policy, Policy):
            problems.append(f"ai/policies/{key}.py: POLICY is a {type(policy).__name__}, not an ai.policies.Policy")
    if problems:
        raise RegistryError("The game registry cannot start:\n- " + "\n- ".join(problems))


def key_problems(key: str, game: Game, taken: set[str]) -> list[str]:
    problems = []
    if key != game.key:
        problems.append(f"the registry lists {game.title or key!r} under {key!r} but its key is {game.key!r}")
    if not COMMAND_NAME.match(key):
        problems.append(f"game key {key!r} is not a valid command name (1-32 of a-z, 0-9, '-', '_')")
    if key in taken:
        problems.append(f"game key {key!r} clashes with the /{key} command; give the game another key")
    return problems


def renderer_problems(key: str, renderers: Mapping[str, Any]) -> list[str]:
    """What the renderer of game ``key`` lacks of ``render.games.Renderer``: a member, or a callable one that
    cannot be called as the contract calls it."""
    if key not in renderers:
        return [f"game {key!r} has no renderer: add render/{key}.py (a render.games.Renderer) and list it in "
                "render.games.RENDERERS"]
    renderer, where = renderers[key], f"render/{key}.py"
    problems = []
    for member in RENDERER_MEMBERS:
        value = getattr(renderer, member, None)
        if value is None:
            problems.append(f"{where} has no {member} (see render.games.Renderer)")
        elif member in RENDERER_CALLS and not _callable_with(value, RENDERER_CALLS[member]):
            problems.append(f"{where}: {member} cannot be called as render.games.Renderer.{member} "
                            f"({len(RENDERER_CALLS[member])} positional arguments)")
        elif member == "TEXTS" and not (isinstance(value, tuple) and all(isinstance(t, str) for t in value)):
            problems.append(f"{where}: TEXTS is not a tuple of English templates")
    return problems


def _callable_with(function: object, arguments: tuple[object, ...]) -> bool:
    if not callable(function):
        return False
    try:
        inspect.signature(function).bind(*arguments)
    except (TypeError, ValueError):
        return False
    return True


def termination_problems(key: str, game: Game) -> list[str]:
    """A game's ways to end against its sentences: one sentence per ``Termination`` member, none for another."""
    kinds = game.termination_kinds
    if not (isinstance(kinds, type) and issubclass(kinds, Termination)) or kinds is Termination:
        return [f"game {key!r} has no Termination enum of its own: set termination_kinds to one"]
    members = {kind.value for kind in kinds}
    worded = set(game.terminations) - {TURN_CAP_TERMINATION}
    return ([f"game {key!r} has no sentence in terminations for {value!r}" for value in sorted(members - worded)]
            + [f"game {key!r} words {value!r}, which is no member of {kinds.__name__}"
               for value in sorted(worded - members)])
