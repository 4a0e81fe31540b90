"""Roocala: score-greedy playouts capped at 50 plies, judged by the captured checkers."""

from __future__ import annotations

from ai.policies.common import Policy, greedy_step, score_evaluation

# Long games (170-400 plies at random): cap the playouts, judge by the captured checkers. The default level row:
# 1,800 iterations at level 5 overran the 2 s cap from the hex opening (measured ~2.4 s).
POLICY = Policy(evaluate=score_evaluation(3.0), step=greedy_step(0.2, sample=4), depth_cap=50)
