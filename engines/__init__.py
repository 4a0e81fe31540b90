"""The game engines, reached through one contract (see ../shared/ENGINES.md and engines.base).

``GAMES`` is the registry of the rules; the renderers (``render.games``) and the AI policies (``ai.policies``) keep
their own entries under the same keys, since engines import nothing of theirs.
"""

from engines import quincala, rincala, roocala, spinca, tintas
from engines.base import Game, IllegalMove, InvalidPosition, Outcome, State, outcome_text, rank_seats, turn_cap_outcome

# The registry: every game module defines ``GAME``, listed here once. Order is the order the bot lists games in.
GAMES: dict[str, Game] = {game.key: game for game in (tintas.GAME, rincala.GAME, roocala.GAME, quincala.GAME,
                                                        spinca.GAME)}

# The games' keys (= their module names): every other layer's registry (render.games.RENDERERS,
# ai.policies.POLICIES) is keyed by them, and the bot's start-up check (bot.registry) holds them to it.
GAME_MODULES = tuple(GAMES)

__all__ = ["GAMES", "GAME_MODULES", "Game", "IllegalMove", "InvalidPosition", "Outcome", "State", "outcome_text",
           "rank_seats", "turn_cap_outcome"]
