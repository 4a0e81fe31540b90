"""Monte Carlo tree search (UCT) over atomic moves, for every game of the engine contract.

One tree node per position. Each node stores the reward *from the point of view of the seat that made the move
into it* (max-n), so the same code plays 2, 3 and 4 players and teams. Terminal rewards come from
``state.winners``: one point split among the winning seats, or among the winning teams when the game has teams
(both partners then score the team's share); a draw (all seats win) is an even share.

A fresh node's children are all generated at once and seeded with ``PRIOR_VISITS`` virtual visits worth the
game's evaluation of the position after the move (``ai.policies``), so few iterations still play the moves the
evaluation likes, and many iterations let the playouts overrule it. Playouts use the game's playout step until
the game ends or the depth cap is reached, where the evaluation estimates the result.

Determinism: all randomness comes from ``random.Random(seed)`` and the ITERATION count is the limit, so a seed
gives the same turn on any machine, however loaded. ``time_budget`` is only a safety net far above a level's
normal duration: a search stopped by it has done fewer iterations and may choose differently, so it says so
(``TurnChoice.out_of_time``, ``Analysis.out_of_time``) and the bot logs and counts it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from ai.policies import Policy, policy_for
from engines import GAMES, State

LEVELS = (1, 2, 3, 4, 5)

# Iterations per atomic decision, by level: the default row. A level's strength is this fixed amount of search;
# a game's policy (``ai/policies/<game>.py``, ``levels``) overrides the row where its moves are much cheaper or
# dearer. Sized so that a level-5 turn takes a second or two on one core of the 2-core reference machine
# (``bench/bench_ai.py --turn-times`` prints the figures per game and level), far below ``SAFETY_NET``.
LEVEL_ITERATIONS: dict[int, int] = {1: 30, 2: 150, 3: 500, 4: 1000, 5: 1500}

SAFETY_NET = 60.0           # seconds: the default time budget, only there to end a search that something slowed
                            # down beyond reason (a normal level-5 turn takes about a tenth of it)
PRIOR_VISITS = 2            # virtual visits that carry the evaluation of a freshly generated move
CHECK_EVERY = 32            # iterations between two looks at the cancel token (it may be a cross-process proxy)
                            # and at whether the move is already decided
MAX_TURN_MOVES = 1000       # a guard: no game has turns anywhere near this long
MIN_FOLLOW_UP = 4           # a later decision of a turn keeps at least iterations // MIN_FOLLOW_UP new iterations


class CancelToken(Protocol):
    def is_set(self) -> bool: ...


class GameOverError(ValueError):
    """choose_turn was asked to move in a finished game."""


class SearchCancelled(Exception):
    """The cancel token was set while searching (for example: the match ended)."""


def iterations_for(key: str, level: int) -> int:
    """The search effort (iterations per atomic decision) of ``level`` in game ``key``."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
    return policy_for(key).levels.get(level, LEVEL_ITERATIONS[level])


def terminal_reward(state: State) -> tuple[float, ...]:
    """One point split among the winners (among winning teams when the game has teams)."""
    players = state.players
    winners = set(state.winners)
    teams = GAMES[state.game.key].teams.get(players) if state.game.key in GAMES else None
    if teams:
        won = [team for team in teams if winners & set(team)]
        share = 1.0 / len(won)
        out = [0.0] * players
        for team in won:
            for seat in team:
                out[seat] = share
        return tuple(out)
    share = 1.0 / len(winners)
    return tuple(share if seat in winners else 0.0 for seat in range(players))


class Node:
    """A position in the tree. ``value`` sums the rewards of ``mover``, the seat whose move led here."""

    __slots__ = ("state", "mover", "visits", "value", "children", "terminal", "seen")

    def __init__(self, state: State, mover: int | None):
        self.state = state
        self.mover = mover
        self.visits = 0
        self.value = 0.0
        self.children: list[tuple[str, Node]] | None = None
        self.terminal: tuple[float, ...] | None = terminal_reward(state) if state.is_over else None
        self.seen = False   # played out once already: the next visit expands it

    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.0


class Search:
    """One MCTS over a tree that later decisions of the same turn reuse."""

    def __init__(self, policy: Policy, rng: random.Random, deadline: float, cancel: CancelToken | None):
        self.policy = policy
        self.rng = rng
        self.deadline = deadline
        self.cancel = cancel
        self.iterations_done = 0
        self.out_of_time = False    # the safety net stopped a search before its iterations were done

    def run(self, root: Node, iterations: int, *, early_stop: bool = True) -> None:
        """Up to ``iterations`` iterations; raises SearchCancelled.

        Stops early at the deadline, and (with ``early_stop``) at once when a move wins outright or as soon as
        the most visited child leads the next one by more visits than there are iterations left: the rest could
        not change the move (``best_child``), only cost time. An analysis ranks several moves, so it passes
        ``early_stop=False``.
        """
        self.expand(root)
        if early_stop and winning_move(root) is not None:
            return
        for i in range(iterations):
            if i % CHECK_EVERY == 0:
                if self.cancel is not None and self.cancel.is_set():
                    raise SearchCancelled("search cancelled")
                if early_stop and decided(root, iterations - i):
                    return
            if time.perf_counter() >= self.deadline:
                self.out_of_time = True
                return
            self.iterate(root)
            self.iterations_done += 1

    def iterate(self, root: Node) -> None:
        path = [root]
        node = root
        while node.children is not None and node.terminal is None:
            node = self.select(node)
            path.append(node)
        if node.terminal is not None:
            reward = node.terminal
        elif node.seen:
            self.expand(node)
            child = self.select(node)
            path.append(child)
            reward = child.terminal if child.terminal is not None else self.playout(child.state)
            child.seen = True
        else:
            reward = self.playout(node.state)
            node.seen = True
        for n in path:
            n.visits += 1
            if n.mover is not None:
                n.value += reward[n.mover]

    def expand(self, node: Node) -> None:
        """Generate every child, each with virtual visits worth the evaluation for its mover."""
        if node.children is not None or node.terminal is not None:
            return
        state = node.state
        me = state.to_move
        assert me is not None, "a node that is not terminal has a player to move"
        evaluate = self.policy.evaluate
        children = []
        for move in state.legal_moves():
            child = Node(state.play(move), me)
            prior = child.terminal[me] if child.terminal is not None else evaluate(child.state)[me]
            child.visits = PRIOR_VISITS
            child.value = prior * PRIOR_VISITS
            children.append((move, child))
        node.children = children

    def select(self, node: Node) -> Node:
        """UCT: the child with the best mean plus exploration bonus; the first such child on ties."""
        assert node.children, "select() follows an expanded node"
        c = self.policy.exploration
        log_n = math.log(node.visits + 1)
        best, best_score = node.children[0][1], -math.inf
        for _, child in node.children:
            score = child.value / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def playout(self, state: State) -> tuple[float, ...]:
        step, cap, rng = self.policy.step, self.policy.depth_cap, self.rng
        depth = 0
        while not state.is_over:
            if cap is not None and depth >= cap:
                return self.policy.evaluate(state)
            state = step(state, rng)
            depth += 1
        return terminal_reward(state)


def decided(root: Node, remaining: int) -> bool:
    """True when ``remaining`` more iterations could not change the most visited child of ``root``."""
    assert root.children is not None, "decided() looks at an expanded root"
    first = second = 0
    for _, child in root.children:
        v = child.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > remaining


def winning_move(root: Node) -> tuple[str, Node] | None:
    """A child of the expanded ``root`` that wins the game outright for the seat to move, if there is one."""
    me = root.state.to_move
    assert me is not None and root.children is not None, "winning_move() looks at an expanded root"
    for move, child in root.children:
        if child.terminal is not None and child.terminal[me] >= 1.0:
            return move, child
    return None


def best_child(root: Node) -> tuple[str, Node]:
    """The move to play: a winning move at once, else the most visited child (better mean on ties)."""
    assert root.children, "best_child() looks at an expanded root"
    return winning_move(root) or max(root.children, key=lambda mc: (mc[1].visits, mc[1].mean()))


@dataclass(frozen=True)
class TurnChoice:
    """A whole turn the search chose, with how much it searched: ``out_of_time`` when the safety net (the time
    budget) stopped a search before the level's iterations were done (then the turn may differ by machine)."""

    moves: list[str]
    iterations: int
    out_of_time: bool


def choose_turn(state: State, *, level: int, seed: int, time_budget: float = SAFETY_NET,
                cancel: CancelToken | None = None, iterations: int | None = None) -> list[str]:
    """The canonical atomic moves of one whole turn for ``state.to_move`` (``search_turn(...).moves``)."""
    return search_turn(state, level=level, seed=seed, time_budget=time_budget, cancel=cancel,
                       iterations=iterations).moves


def search_turn(state: State, *, level: int, seed: int, time_budget: float = SAFETY_NET,
                cancel: CancelToken | None = None, iterations: int | None = None) -> TurnChoice:
    """One whole turn for ``state.to_move``, and how the search went.

    Searches each atomic decision while the same seat stays to move and the game is not over (so an optional
    continuation is stopped with ``end`` when the search prefers that, and a forced one is played through), unless
    the game's policy stops the turn (``Policy.stop_turn``: Quincala caps the legs of a move).
    ``iterations`` overrides the level's effort (tests, benchmarks). ``time_budget`` (seconds, whole turn, counted
    from this call) is a safety net; once it is spent, the remaining decisions of the turn follow the evaluation
    alone. Raises GameOverError when the game is over, SearchCancelled when ``cancel`` is set.
    """
    if state.is_over:
        raise GameOverError("The game is over: there is no turn to play.")
    effort = iterations if iterations is not None else iterations_for(state.game.key, level)
    search = Search(policy_for(state.game.key), random.Random(seed),
                    time.perf_counter() + time_budget, cancel)
    seat = state.to_move
    root = Node(state, None)
    moves: list[str] = []
    while len(moves) < MAX_TURN_MOVES:
        move = _forced(search, root.state, moves)
        if move is not None:
            root = Node(root.state.play(move), None)
        else:
            done = max(0, root.visits - PRIOR_VISITS)   # iterations this subtree already had
            search.run(root, max(effort - done, effort // MIN_FOLLOW_UP))
            move, root = best_child(root)
            root.mover = None
        moves.append(move)
        if root.state.is_over or root.state.to_move != seat:
            break
    return TurnChoice(moves, search.iterations_done, search.out_of_time)


# ---- analysis: the best few turns with their evaluations ----------------------------------------------------------
ANALYSIS_LEVEL = 5          # the effort an analysis (and a hint) searches with: the bot's best


@dataclass(frozen=True)
class ScoredTurn:
    """One whole turn the analysis proposes, and how good the search thinks it is for the seat that plays it.

    ``value`` is that seat's expected share of the win after the turn, in [0, 1] (terminal rewards and the
    policies' evaluations use the same scale: 1 = a sure win, 0.5 = an even two-player game). ``final``: the turn
    ends the game, so ``value`` is exact (1.0 = it wins at once).
    """

    moves: tuple[str, ...]
    value: float
    visits: int
    final: bool


@dataclass(frozen=True)
class Analysis:
    """The best turns an analysis found; ``out_of_time`` as in ``TurnChoice``."""

    turns: list[ScoredTurn]
    iterations: int
    out_of_time: bool


def best_turns(state: State, *, top: int = 3, seed: int = 0, time_budget: float = SAFETY_NET,
               cancel: CancelToken | None = None, iterations: int | None = None) -> list[ScoredTurn]:
    """The ``top`` best whole turns for ``state.to_move``, best first (``analyse(...).turns``)."""
    return analyse(state, top=top, seed=seed, time_budget=time_budget, cancel=cancel, iterations=iterations).turns


def analyse(state: State, *, top: int = 3, seed: int = 0, time_budget: float = SAFETY_NET,
            cancel: CancelToken | None = None, iterations: int | None = None) -> Analysis:
    """The ``top`` best whole turns for ``state.to_move``, best first, each with its evaluation.

    One search from ``state`` at the analysis effort (no early stop: every first move gets its share of the
    iterations); the candidates are the first moves ranked like ``best_child`` (a move that wins at once first,
    then by visits and mean), each completed to a whole turn the way ``search_turn`` completes one (searching each
    further decision of the same seat within the same deadline). Turns that reach the same position are listed
    once. Raises GameOverError when the game is over, SearchCancelled when ``cancel`` is set.
    """
    if state.is_over:
        raise GameOverError("The game is over: there is no turn to play.")
    effort = iterations if iterations is not None else iterations_for(state.game.key, ANALYSIS_LEVEL)
    search = Search(policy_for(state.game.key), random.Random(seed), time.perf_counter() + time_budget, cancel)
    seat = state.to_move
    assert seat is not None
    root = Node(state, None)
    search.run(root, effort, early_stop=False)
    return Analysis(_listed_turns(search, root, seat, top, effort), search.iterations_done, search.out_of_time)


def _listed_turns(search: Search, root: Node, seat: int, top: int, effort: int) -> list[ScoredTurn]:
    """Up to ``top`` whole turns from the searched ``root``, best first (see ``analyse``)."""
    assert root.children is not None

    def rank(mc: tuple[str, Node]) -> tuple[bool, int, float]:
        child = mc[1]
        return (child.terminal is not None and child.terminal[seat] >= 1.0, child.visits, child.mean())

    out: list[ScoredTurn] = []
    seen: set[str] = set()

    def add(moves: list[str], node: Node, chosen: Node) -> bool:
        """List the turn ``moves`` (ending at ``node``; ``chosen`` holds its evaluation) unless its position is
        listed already; whether ``top`` turns are listed now."""
        code = node.state.encode()
        if code not in seen:
            seen.add(code)
            final = node.terminal is not None
            value = node.terminal[seat] if node.terminal is not None else chosen.mean()
            out.append(ScoredTurn(tuple(moves), value, chosen.visits, final))
        return len(out) >= top

    ranked = sorted(root.children, key=rank, reverse=True)
    for move, child in ranked:
        if add(*_complete_turn(search, child, move, seat, effort), child):
            return out
    for move, child in ranked:    # fewer first moves than turns asked: the other ways on after the best ones
        for moves, node, chosen in _other_completions(search, child, move, seat, effort):
            if add(moves, node, chosen):
                return out
    return out


def _forced(search: Search, state: State, moves: list[str]) -> str | None:
    """The move a turn takes without a choice: the policy's stop (``stop_turn``), or the only legal move."""
    stop_turn = search.policy.stop_turn
    stop = stop_turn(state, moves) if stop_turn is not None else None
    if stop is not None:
        return stop
    legal = state.legal_moves()
    return legal[0] if len(legal) == 1 else None


def _other_completions(search: Search, node: Node, first: str, seat: int, effort: int
                       ) -> Iterator[tuple[list[str], Node, Node]]:
    """The whole turns that start with ``first`` (leading to ``node``) and leave its best completion at a later
    decision: each other choice there, completed as ``_complete_turn`` does, with the node of that choice."""
    moves = [first]
    while not node.state.is_over and node.state.to_move == seat and len(moves) < MAX_TURN_MOVES:
        move = _forced(search, node.state, moves)
        if move is not None:
            node = Node(node.state.play(move), seat)
        else:
            if not node.children:
                search.run(node, max(effort // MIN_FOLLOW_UP, 1))
            move, best = best_child(node)
            assert node.children is not None
            for other, child in sorted(node.children, key=lambda mc: (mc[1].visits, mc[1].mean()), reverse=True):
                if other != move:
                    rest, end = _complete_turn(search, child, other, seat, effort)
                    yield moves + rest, end, child
            node = best
        moves.append(move)


def _complete_turn(search: Search, node: Node, first: str, seat: int, effort: int) -> tuple[list[str], Node]:
    """The rest of the turn that starts with ``first`` (leading to ``node``), decided as ``choose_turn`` does."""
    moves = [first]
    while not node.state.is_over and node.state.to_move == seat and len(moves) < MAX_TURN_MOVES:
        move = _forced(search, node.state, moves)
        if move is not None:
            node = Node(node.state.play(move), seat)
        else:
            search.run(node, max(effort // MIN_FOLLOW_UP, 1))
            move, node = best_child(node)
        moves.append(move)
    return moves, node
