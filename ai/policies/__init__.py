"""Per-game knowledge for the search: playout steps, evaluations, depth caps and level efforts, by game key.

Everything goes through the engine contract (``legal_moves``, ``play``, ``scores``, ``to_move``) plus the finished
engines' public extras (Tintas ``holdings``/``cell``, Rincala ``sowing``). Each game's policy lives in its own
module (``ai/policies/<game>.py`` defining ``POLICY``, a ``Policy``: the typed contract), so tuning one game leaves
the others' code, and their recorded benchmark games, untouched; ``POLICIES`` lists it under its engine's key
(``engines.GAMES``). A game without an entry gets ``DEFAULT``: uniform random playouts and a score-difference
evaluation.
"""

from __future__ import annotations

from ai.policies import quincala, rincala, roocala, spinca, tintas
from ai.policies.common import Evaluation, PlayoutStep, Policy, greedy_step, random_step, score_evaluation

DEFAULT = Policy(evaluate=score_evaluation(2.0), depth_cap=80)

POLICIES: dict[str, Policy] = {
    "tintas": tintas.POLICY,
    "rincala": rincala.POLICY,
    "roocala": roocala.POLICY,
    "quincala": quincala.POLICY,
    "spinca": spinca.POLICY,
}
"""Game key -> its search policy (the bot's start-up check holds the keys to ``engines.GAMES``)."""


def policy_for(key: str) -> Policy:
    return POLICIES.get(key, DEFAULT)


__all__ = ["DEFAULT", "POLICIES", "Evaluation", "PlayoutStep", "Policy", "greedy_step", "policy_for", "random_step",
           "score_evaluation"]
