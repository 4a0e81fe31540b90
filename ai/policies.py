"""Per-game knowledge for the search: playout steps, evaluations and depth caps, keyed by game key.

Everything here goes through the engine contract (``legal_moves``, ``play``, ``scores``, ``to_move``) plus the
finished engines' public extras (Tintas ``holdings``/``cell``). A game without an entry gets ``DEFAULT``:
uniform random playouts and a score-difference evaluation.

An *evaluation* maps a non-terminal state to one estimated reward per seat in [0, 1] (1 = sure win); it is used
when a playout reaches the depth cap and to rank the moves of a freshly expanded node (the search's prior).
A *playout step* maps a state to the next state; it is called only on states that are not over.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from engines import State

Evaluation = Callable[[State], tuple[float, ...]]
PlayoutStep = Callable[[State, random.Random], State]


def random_step(state: State, rng: random.Random) -> State:
    """The uniform random playout step."""
    return state.play(rng.choice(state.legal_moves()))


def score_evaluation(scale: float) -> Evaluation:
    """Each seat's lead over the best other seat in ``state.scores``, squashed to (0, 1) by a logistic curve."""

    def evaluate(state: State) -> tuple[float, ...]:
        scores = state.scores
        out = []
        for i, mine in enumerate(scores):
            best_other = max(s for j, s in enumerate(scores) if j != i)
            out.append(_logistic((mine - best_other) / scale))
        return tuple(out)

    return evaluate


def _logistic(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


@dataclass(frozen=True)
class Policy:
    """How the search plays out and judges positions of one game."""

    evaluate: Evaluation
    step: PlayoutStep = random_step
    depth_cap: int | None = None    # playout plies after which ``evaluate`` estimates the result
    exploration: float = 0.8        # the UCT constant (rewards lie in [0, 1])


# --- score-greedy playouts (captures first) -------------------------------------------------------------------

def greedy_step(epsilon: float, sample: int | None = None) -> PlayoutStep:
    """A playout step that takes the move gaining the mover most points (a capture), random among equals.

    With probability ``epsilon`` it plays a uniformly random move instead. ``sample`` limits how many moves are
    tried (drawn at random) so games with many moves stay cheap; None tries them all.
    """

    def step(state: State, rng: random.Random) -> State:
        moves = state.legal_moves()
        if len(moves) == 1 or rng.random() < epsilon:
            return state.play(rng.choice(moves))
        if sample is not None and len(moves) > sample:
            moves = rng.sample(moves, sample)
        me = state.to_move
        before = state.scores[me]
        best, best_gain, ties = None, -math.inf, 0
        for move in moves:
            child = state.play(move)
            gain = child.scores[me] - before
            if gain > best_gain:
                best, best_gain, ties = child, gain, 1
            elif gain == best_gain:
                ties += 1
                if rng.randrange(ties) == 0:   # reservoir choice: uniform among the equal best
                    best = child
        return best

    return step


# --- Tintas ---------------------------------------------------------------------------------------------------

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
    a, b = _tintas_value(state.holdings(0)), _tintas_value(state.holdings(1))
    p = _logistic((a - b) / 8.0)
    return (p, 1.0 - p)


def tintas_step(state: State, rng: random.Random) -> State:
    """Keep a chain going and take colours the mover is close to 4 / 7 in (or the opponent is); 10 % random."""
    moves = state.legal_moves()
    if len(moves) == 1 or rng.random() < 0.1:
        return state.play(rng.choice(moves))
    me = state.to_move
    mine, theirs = state.holdings(me), state.holdings(1 - me)
    best, best_score, ties = moves[0], -math.inf, 0
    for move in moves:
        if move == "end":
            score = -1.0
        else:
            c = _TINTAS_INDEX[state.cell(move)]
            score = mine[c] + 0.5 * theirs[c] + (3.0 if mine[c] == 3 else 0.0) + (50.0 if mine[c] == 6 else 0.0)
        if score > best_score:
            best, best_score, ties = move, score, 1
        elif score == best_score:
            ties += 1
            if rng.randrange(ties) == 0:
                best = move
    return state.play(best)


# --- Rincala -------------------------------------------------------------------------------------------------

_RINCALA_VALUES = {"R": 4, "G": 3, "Y": 2, "W": 1}


def rincala_evaluate(state: State) -> tuple[float, ...]:
    """Captured points, plus half of what the seat to move could collect with its best next move (the threat)."""
    scores = list(state.scores)
    seat = state.to_move
    if seat is not None:
        best = 0
        for move in state.legal_moves():
            gain = sum(_RINCALA_VALUES[c] for _, c in state.sowing(move).captures)
            if gain > best:
                best = gain
        scores[seat] += 0.5 * best
    out = []
    for i, mine in enumerate(scores):
        best_other = max(s for j, s in enumerate(scores) if j != i)
        out.append(_logistic((mine - best_other) / 4.0))
    return tuple(out)


# --- the table ------------------------------------------------------------------------------------------------

DEFAULT = Policy(evaluate=score_evaluation(2.0), depth_cap=80)

POLICIES: dict[str, Policy] = {
    # Short games (about 50 plies): play out to the end; the evaluation only ranks fresh moves.
    "tintas": Policy(evaluate=tintas_evaluate, step=tintas_step),
    # Captured points decide; captures are what matters in a playout.
    "rincala": Policy(evaluate=rincala_evaluate, depth_cap=60),
    # Long games (170-400 plies at random): cap the playouts, judge by the captured checkers.
    "roocala": Policy(evaluate=score_evaluation(3.0), step=greedy_step(0.2, sample=4), depth_cap=50),
    # Very long random games and a 400-turn draw rule: cap and judge by tower progress on the winning dots.
    "quincala": Policy(evaluate=score_evaluation(1.0), depth_cap=40),
    # Always exactly 29 plies: play out to the end; face totals rank fresh moves.
    "spinca": Policy(evaluate=score_evaluation(3.0)),
}


def policy_for(key: str) -> Policy:
    return POLICIES.get(key, DEFAULT)
