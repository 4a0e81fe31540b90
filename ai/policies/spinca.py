"""Spinca: random playouts to the end, face totals rank fresh moves."""

from __future__ import annotations

from ai.policies.common import Policy, score_evaluation

# Always exactly 29 plies: play out to the end; face totals rank fresh moves.
POLICY = Policy(evaluate=score_evaluation(3.0))
