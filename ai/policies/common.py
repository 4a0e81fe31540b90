"""What every game's policy is made of: the Policy record, random and score-greedy playout steps, the
score-difference evaluation.

An *evaluation* maps a non-terminal state to one estimated reward per seat in [0, 1] (1 = sure win); it is used
when a playout reaches the depth cap and to rank the moves of a freshly expanded node (the search's prior).
A *playout step* maps a state to the next state; it is called only on states that are not over.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engines import State

Evaluation = Callable[[State], tuple[float, ...]]
PlayoutStep = Callable[[State, random.Random], State]
TurnStop = Callable[[State, list[str]], str | None]   # (position, moves played so far this turn) -> move or None


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
            out.append(logistic((mine - best_other) / scale))
        return tuple(out)

    return evaluate


def logistic(x: float) -> float:
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
    levels: Mapping[int, int] = field(default_factory=dict)   # iterations per level where the default row is wrong
    stop_turn: TurnStop | None = None   # a move that ends the turn here without searching (a game's own limit)


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
        assert me is not None, "playout steps are called on states that are not over"
        before = state.scores[me]
        best: State | None = None
        best_gain, ties = -math.inf, 0
        for move in moves:
            child = state.play(move)
            gain = child.scores[me] - before
            if gain > best_gain:
                best, best_gain, ties = child, gain, 1
            elif gain == best_gain:
                ties += 1
                if rng.randrange(ties) == 0:   # reservoir choice: uniform among the equal best
                    best = child
        assert best is not None   # moves is not empty
        return best

    return step
