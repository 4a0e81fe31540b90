"""Quincala: random playouts capped at 40 plies, judged by tower progress on the winning dots."""

from __future__ import annotations

from ai.policies.common import Policy, score_evaluation

# Very long random games and a 400-turn draw rule: cap and judge by tower progress on the winning dots.
# Iterations are expensive (long turns, many moves), so the levels search less than the default row.
POLICY = Policy(evaluate=score_evaluation(1.0), depth_cap=40, levels={2: 100, 3: 200, 4: 320, 5: 450})
