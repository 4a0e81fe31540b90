"""Quincala: short random playouts, judged by how near each player's two winning towers are to complete.

A player wins with a tower of every size on his own quincala dot or on his opponent's home dot (§4.3). The two
are not worth the same: the opponent can sweep his home dot clear (``home``) at the start of any turn, so sizes
gathered there are a threat he must answer, not a lasting gain, while the quincala dot only grows. The value of a
dot rises steeply as its missing sizes run out, so one size short is worth far more than one size started.
"""

from __future__ import annotations

from ai.policies.common import Policy, logistic
from engines.quincala import _POP, LOW, SH, QuincalaState

# Worth of a winning dot that holds pieces, by the number of sizes it still misses (index 0, complete, is a won
# game: never scored); an empty dot is worth nothing in every variant.
QUINCALA_DOT_WORTH = (0.0, 6.0, 3.5, 2.0, 1.0)
OPPONENT_HOME_WORTH = (0.0, 2.5, 1.5, 1.0, 0.5)
EVALUATION_SCALE = 2.0   # worth difference that makes a 73 % favourite (logistic)
# R-M10 sets no limit on the legs of a move and advises bots to cap them ("3-4 legs is plenty"): two towers can
# pass pieces back and forth for ever (d3-d4, d4-d3, ...), and without a cap a search that sees no gain in
# stopping may keep going, turn after turn of pointless legs.
BOT_MAX_LEGS = 4


def quincala_evaluate(state: QuincalaState) -> tuple[float, float]:
    """Each seat's chance from the sizes its quincala dot and its opponent's home dot still miss."""
    geo = state.geo
    cells, k = state.cells, geo.k
    worth = []
    for seat in (0, 1):
        q, h = cells[geo.quincala[seat]], cells[geo.home[1 - seat]]
        worth.append((QUINCALA_DOT_WORTH[k - _POP[(q | q >> SH) & LOW]] if q else 0.0)
                     + (OPPONENT_HOME_WORTH[k - _POP[(h | h >> SH) & LOW]] if h else 0.0))
    lead = (worth[0] - worth[1]) / EVALUATION_SCALE
    return logistic(lead), logistic(-lead)


def stop_after_max_legs(state: QuincalaState, moves: list[str]) -> str | None:
    """``end`` once the bot's move has had BOT_MAX_LEGS legs and could still go on."""
    if state.phase >= 0 and sum(1 for m in moves if "-" in m) >= BOT_MAX_LEGS and "end" in state.legal_moves():
        return "end"
    return None


# Random Quincala is aimless, so playouts stop after 10 atomic moves (a turn or two) and the evaluation judges:
# longer ones (40) cost more than half of a level-5 turn and pushed turns with many decisions into the 2 s cap.
# With them (and the faster engine) the default level row fits: level 5 takes about 0.8 s a turn on average and 1.5 s at
# the 90th percentile (24 mid-game positions, one core of the 2-core machine).
#
# The evaluation tells most moves apart by a few hundredths (a piece more or less on a dot), and a decision has about
# 110 moves at the start of a turn, so with the usual UCT constant (0.8) the bonus for a less-visited move outweighed
# those differences at every level: visits stayed nearly even, the "most visited" move was a coin toss among the
# plausible ones, and more iterations bought nothing (levels 3, 4 and 5 scored 51 %, 47.5 % and 50 % against the
# level below). A small constant lets the search follow the moves that keep looking best and read deeper along them.
# Scratch games at 500 iterations, seats alternating: 0.25 beat 0.8 in 10 of 10; 0.1 beat 0.25 in 6 of 7 games;
# 0.03 against 0.1 scored 58 % of 6 with longer games, so 0.1 it is.
QUINCALA_EXPLORATION = 0.1
POLICY = Policy(evaluate=quincala_evaluate, depth_cap=10, exploration=QUINCALA_EXPLORATION,
                stop_turn=stop_after_max_legs)
