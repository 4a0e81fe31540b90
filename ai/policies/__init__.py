"""Per-game knowledge for the search: playout steps, evaluations, depth caps and level efforts, by game key.

Everything goes through the engine contract (``legal_moves``, ``play``, ``scores``, ``to_move``) plus the finished
engines' public extras (Tintas ``holdings``/``cell``, Rincala ``sowing``). Each game's policy lives in its own
module (``ai/policies/<game>.py`` defining ``POLICY``), so tuning one game leaves the others' code, and their
recorded benchmark games, untouched. A game without a module gets ``DEFAULT``: uniform random playouts and a
score-difference evaluation.
"""

from __future__ import annotations

import importlib

from ai.policies.common import Evaluation, PlayoutStep, Policy, greedy_step, random_step, score_evaluation
from engines import GAME_MODULES

DEFAULT = Policy(evaluate=score_evaluation(2.0), depth_cap=80)


def _load() -> dict[str, Policy]:
    policies = {}
    for key in GAME_MODULES:
        try:
            module = importlib.import_module(f"ai.policies.{key}")
        except ModuleNotFoundError as error:
            if error.name != f"ai.policies.{key}":
                raise
            continue
        policies[key] = module.POLICY
    return policies


POLICIES: dict[str, Policy] = _load()


def policy_for(key: str) -> Policy:
    return POLICIES.get(key, DEFAULT)


__all__ = ["DEFAULT", "POLICIES", "Evaluation", "PlayoutStep", "Policy", "greedy_step", "policy_for", "random_step",
           "score_evaluation"]
