"""Tintas: chain-keeping playouts and an evaluation of colour holdings (the 4th and the 7th count most)."""

from __future__ import annotations

import math
import random

from ai.policies.common import Policy, logistic
from engines import State
from engines.tintas import TintasState

_TINTAS_COLOURS = "ROYGBPW"
_TINTAS_INDEX = {c: i for i, c in enumerate(_TINTAS_COLOURS)}
# Worth of holding k pieces of one colour: the 4th (a majority) and the 7th (an outright win) count most.
_TINTAS_WORTH = (0.0, 1.0, 2.0, 3.0, 5.0, 5.5, 6.0, 40.0)


def _tintas_value(hold: tuple[int, ...]) -> float:
    value = sum(_TINTAS_WORTH[k] for k in hold)
    if 0 not in hold:      # holding every colour denies the opponent all 7s: close to the second goal
        value += 2.0 * sum(1 for k in hold if k >= 4)
    return value


def tintas_evaluate(state: State) -> tuple[float, float]:
    assert isinstance(state, TintasState)
    a, b = _tintas_value(state.holdings(0)), _tintas_value(state.holdings(1))
    p = logistic((a - b) / 8.0)
    return (p, 1.0 - p)


def tintas_step(state: State, rng: random.Random) -> State:
    """Keep a chain going and take colours the mover is close to 4 / 7 in (or the opponent is); 10 % random."""
    assert isinstance(state, TintasState)
    moves = state.legal_moves()
    if len(moves) == 1 or rng.random() < 0.1:
        return state.play(rng.choice(moves))
    me = state.to_move
    assert me is not None, "playout steps are called on states that are not over"
    mine, theirs = state.holdings(me), state.holdings(1 - me)
    best, best_score, ties = moves[0], -math.inf, 0
    for move in moves:
        if move == "end":
            score = -1.0
        else:
            colour = state.cell(move)
            assert colour is not None, "a listed cell move collects a piece"
            c = _TINTAS_INDEX[colour]
            score = mine[c] + 0.5 * theirs[c] + (3.0 if mine[c] == 3 else 0.0) + (50.0 if mine[c] == 6 else 0.0)
        if score > best_score:
            best, best_score, ties = move, score, 1
        elif score == best_score:
            ties += 1
            if rng.randrange(ties) == 0:
                best = move
    return state.play(best)


# Short games (about 50 plies): play out to the end; the evaluation only ranks fresh moves. Moves are cheap, so
# the upper levels search much more than the default row.
POLICY = Policy(evaluate=tintas_evaluate, step=tintas_step, levels={2: 200, 3: 800, 4: 3000, 5: 10000})
