"""Quincala: short random playouts, judged by how near each player's two winning towers are to complete.

A player wins with a tower of every size on his own quincala dot or on his opponent's home dot (§4.3). The two
are not worth the same: the opponent can sweep his home dot clear (``home``) at the start of any turn, so sizes
gathered there are a threat he must answer, not a lasting gain, while the quincala dot only grows. The value of a
dot rises steeply as its missing sizes run out, so one size short is worth far more than one size started.

The quincala dot is also judged by what can reach it next: a tower of the player's own pieces that a first leg can
land on it. Without that, a bot only saw sizes already on the dot; pieces next to it were worth no more than pieces
far away, so neither side built threats and games against a steady defender drifted to the 400-turn draw.
"""

from __future__ import annotations

from ai.policies.common import Policy, logistic
from engines import State
from engines.quincala import QuincalaState

# Worth of a winning dot that holds pieces, by the number of sizes it still misses; an empty dot is worth nothing in
# every variant. Index 0 (complete) is a won game and is only reached by a threat to complete the quincala dot.
QUINCALA_DOT_WORTH = (10.0, 6.0, 3.5, 2.0, 1.0)
OPPONENT_HOME_WORTH = (0.0, 2.5, 1.5, 1.0, 0.5)
EVALUATION_SCALE = 2.0   # worth difference that makes a 73 % favourite (logistic)
# The share of a threat's gain (the sizes a first leg could add to the quincala dot) that the evaluation counts: the
# player to move, before his first leg, can play it at once; otherwise the opponent moves first and may knock or bury
# the tower. Scratch games, level 5 against level 1 with both using the evaluation, 8 games each: threats counted at
# 0.5 for both players won 6 and lost 2 (84 turns a game); 0.9 to move and 0.4 waiting won 7 and lost 1 (59 turns).
# The evaluation without threats won 4 and drew 4 of the same 8 games at the 400-turn cap.
THREAT_SHARE_TO_MOVE = 0.9
THREAT_SHARE_WAITING = 0.4
# R-M10 sets no limit on the legs of a move and advises bots to cap them ("3-4 legs is plenty"): two towers can
# pass pieces back and forth for ever (d3-d4, d4-d3, ...), and without a cap a search that sees no gain in
# stopping may keep going, turn after turn of pointless legs.
BOT_MAX_LEGS = 4


def quincala_evaluate(state: State) -> tuple[float, float]:
    """Each seat's chance from the sizes its winning dots still miss and the sizes its next leg could add."""
    assert isinstance(state, QuincalaState)
    k = state.sizes
    mover = state.to_move if state.leg_dot is None else None   # before the first leg of a turn
    worth = []
    for seat in (0, 1):
        target = state.quincala_dot(seat)
        have = state.sizes_on(target)
        value = QUINCALA_DOT_WORTH[k - have.bit_count()] if have else 0.0
        arriving = state.reaching_tower(target, seat)   # a threat: what a first leg could add to the dot
        if arriving:
            share = THREAT_SHARE_TO_MOVE if seat == mover else THREAT_SHARE_WAITING
            value += share * (QUINCALA_DOT_WORTH[k - (have | arriving).bit_count()] - value)
        home = state.sizes_on(state.home_dot(1 - seat))
        worth.append(value + (OPPONENT_HOME_WORTH[k - home.bit_count()] if home else 0.0))
    lead = (worth[0] - worth[1]) / EVALUATION_SCALE
    return logistic(lead), logistic(-lead)


def stop_after_max_legs(state: State, moves: list[str]) -> str | None:
    """``end`` once the bot's move has had BOT_MAX_LEGS legs and could still go on."""
    assert isinstance(state, QuincalaState)
    if state.leg_dot is not None and sum(1 for m in moves if "-" in m) >= BOT_MAX_LEGS and "end" in state.legal_moves():
        return "end"
    return None


# Random Quincala is aimless, so playouts stop after 10 atomic moves (a turn or two) and the evaluation judges:
# longer ones (40) cost more than half of a level-5 turn and pushed turns with many decisions into the 2 s cap.
# With them the default level row fits the 2 s cap: in the scratch games of the threat shares above level 5 took 1.1 s
# a turn on average (two games at once on the 2-core machine). Threats make the evaluation dearer (about 1 us -> 8 us),
# so turns from crowded positions of random play (24 of them, uncapped) average 2.4 s (1.6 s without threats): there
# the 2 s cap cuts the search short.
#
# The evaluation tells most moves apart by a few hundredths (a piece more or less on a dot), and a decision has about
# 110 moves at the start of a turn, so with the usual UCT constant (0.8) the bonus for a less-visited move outweighed
# those differences at every level: visits stayed nearly even, the "most visited" move was a coin toss among the
# plausible ones, and more iterations bought nothing (levels 3, 4 and 5 scored 51 %, 47.5 % and 50 % against the
# level below). A small constant lets the search follow the moves that keep looking best and read deeper along them.
# Scratch games at 500 iterations, seats alternating: 0.25 beat 0.8 in 10 of 10; 0.1 beat 0.25 in 6 of 7 games;
# 0.03 against 0.1 scored 58 % of 6 with longer games, so 0.1 it is.
QUINCALA_EXPLORATION = 0.1

# Iterations per decision by level. The default row (30, 150, 500, 1000, 1500) put four levels where more search buys
# Quincala little: with the threat evaluation, recorded games (50 a pairing) scored 66 % for 150 against 30, but 52 %
# for 500 against 150 and 44 % for 1000 against 500. Below about 100 iterations every step counts (scratch games, 20 a
# pairing: 30 against 10 67.5 %, 100 against 30 75 %; above it, 300 against 100 55.6 % of 18, 1500 against 100 57.9 %
# of 19), so the lower levels are spread over that range and level 5 keeps its effort. Level 1 at 10 iterations still
# judges every move by the evaluation (each fresh move carries it as a prior), so it takes sizes onto its dot and
# plays a winning leg; at 3 iterations 14 of 20 games against 10 ran to the 400-turn draw.
QUINCALA_LEVELS = {1: 10, 2: 30, 3: 100, 4: 300, 5: 1500}
POLICY = Policy(evaluate=quincala_evaluate, depth_cap=10, exploration=QUINCALA_EXPLORATION,
                stop_turn=stop_after_max_legs, levels=QUINCALA_LEVELS)
