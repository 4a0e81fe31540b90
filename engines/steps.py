"""A turn as steps: what a player picks next, for any game, derived from ``legal_moves()`` (docs/engine-steps.md).

Each legal move is cut into steps by its game's ``Game.move_steps`` (``e2>f3`` -> ``e2``, ``>f3``). The move
being built is a text: the steps chosen so far, joined. ``step_options`` lists what can follow it. Where more
than ``MAX_OPTIONS`` different steps could follow, it first offers narrowing groups: longer prefixes of those
steps (the column of a cell, ``E`` for ``E1``...``E7``), each standing for all the moves behind it, so no step
ever shows more than ``MAX_OPTIONS`` options and none is cut. Choosing a group is choosing its text, like any
option, so a path of choices is always a prefix of legal moves.

The options are data (texts, cells, counts); the words a player reads are made by the bot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple

from engines.base import IllegalMove, State, normalise, phrase

MAX_OPTIONS = 25
"""The most options one step shows: Discord's cap for an autocomplete list and for a select menu."""

_SEPARATORS = " >-@x+,;:/"


@dataclass(frozen=True)
class StepOption:
    """One thing the player can pick next.

    ``text`` is the move built so far after picking it (a prefix of ``count`` legal moves, or one whole move);
    ``label`` is what it adds, without separators (``f3``, ``cw``; for a group the shared start, ``E``).
    ``complete``: ``text`` is a legal move, and ``ends_turn`` then says whether the turn is over after it
    (the mover changes or the game ends). ``group``: a narrowing group, picked only to see the moves in it.
    ``cells``: the cells it involves (for a group, those of every step in it), for marking on a board.
    """

    text: str
    label: str
    complete: bool
    group: bool
    count: int
    cells: tuple[str, ...]
    ends_turn: bool = False


def picked_turn(picks: Sequence[StepOption]) -> tuple[list[str], str]:
    """What a list of picked options amounts to: the whole moves chosen, and the text of the move being built
    (the last pick that is not yet a whole move; "" after a whole move)."""
    turn: list[str] = []
    chosen = ""
    for pick in picks:
        if pick.complete:
            turn.append(pick.text)
            chosen = ""
        else:
            chosen = pick.text
    return turn, chosen


def turn_state(state: State, turn: Sequence[str] = ()) -> State:
    """``state`` after the moves already chosen in this turn; IllegalMove when one does not play or the turn
    was already over before it."""
    mover = state.to_move
    current = state
    for move in turn:
        if current.is_over or current.to_move != mover:
            raise IllegalMove(phrase("The turn is over before {move!r}.", move=move))
        current = current.play(move)
    return current


def step_options(state: State, turn: Sequence[str] = (), chosen: str = "") -> list[StepOption]:
    """What can be picked next in the turn that starts at ``state``, after the whole moves ``turn`` (played in
    order) and the text ``chosen`` of the move being built. Empty when the turn is over. Raises IllegalMove when
    ``turn`` does not play or no legal move starts with ``chosen``.
    """
    current = turn_state(state, turn)
    if current.is_over or (turn and current.to_move != state.to_move):
        return []
    moves = [m for m in current.legal_moves() if m.startswith(chosen)]
    if not moves:
        raise IllegalMove(phrase("No legal move starts with {chosen!r}.", chosen=chosen))
    game = current.game
    behind: dict[str, list[str]] = {}          # next text -> the moves it leads to
    for move in moves:
        behind.setdefault(next_text(game.move_steps(move), chosen), []).append(move)
    texts = list(behind)
    if len(texts) > MAX_OPTIONS:
        texts = _narrowed(chosen, texts)
    legal = set(moves)
    return [_option(current, chosen, text, behind.get(text) or [m for m in moves if m.startswith(text)],
                    complete=text in legal, group=text not in behind) for text in texts]


def next_text(steps: Sequence[str], chosen: str) -> str:
    """The move's text up to the end of the step that follows ``chosen`` (or that ``chosen`` ends inside);
    the whole move when ``chosen`` is the whole move."""
    ends = list(accumulate(steps))
    return ends[_step_index(ends, chosen)]


def _step_index(ends: Sequence[str], chosen: str) -> int:
    """The index of the step that follows ``chosen`` in a move whose step ends are ``ends``."""
    return next((i for i, end in enumerate(ends) if len(end) > len(chosen)), len(ends) - 1)


def _narrowed(chosen: str, texts: list[str]) -> list[str]:
    """Prefixes of ``texts`` longer than ``chosen`` that cover each of them once, at most MAX_OPTIONS of them:
    each text without its trailing digits (a cell's column), else its next character, else longer starts.
    A prefix that only one text has is that text itself."""
    def column(text: str) -> str:
        return chosen + _head(text[len(chosen):])

    keys: list[Callable[[str], str]] = [column]
    keys += [_cut(len(chosen) + n) for n in range(1, max(len(t) for t in texts) - len(chosen) + 1)]
    for key in keys:
        groups: dict[str, list[str]] = {}
        for text in texts:
            groups.setdefault(key(text), []).append(text)
        if 1 < len(groups) <= MAX_OPTIONS:
            return [prefix if len(members) > 1 else members[0] for prefix, members in groups.items()]
    raise ValueError(f"More than {MAX_OPTIONS} steps follow {chosen!r} and no prefix groups them; "
                     "the game's move_steps must cut its moves finer.")


def _cut(length: int) -> Callable[[str], str]:
    return lambda text: text[:length]


def _head(rest: str) -> str:
    """``rest`` without its trailing digits, but at least its separators and one more character."""
    bare = rest.rstrip("0123456789")
    lead = len(rest) - len(rest.lstrip(_SEPARATORS))
    return bare if len(bare) > lead else rest[:lead + 1]


def _option(state: State, chosen: str, text: str, moves: list[str], *, complete: bool, group: bool) -> StepOption:
    game = state.game
    cells: dict[str, None] = {}
    for move in moves:
        index = _step_index(list(accumulate(game.move_steps(move))), chosen)
        cells.update(dict.fromkeys(game.step_cells(move, index)))
    ends_turn = False
    if complete:
        after = state.play(text)
        ends_turn = after.is_over or after.to_move != state.to_move
    label = text[len(chosen):].lstrip(_SEPARATORS) or text[len(chosen):]
    return StepOption(text, label, complete, group, len(moves), tuple(cells), ends_turn)


def step_path(state: State, move: str, turn: Sequence[str] = ()) -> list[StepOption]:
    """The options a player picks, one per step, to build ``move`` (a legal move after ``turn``)."""
    path: list[StepOption] = []
    chosen = ""
    while chosen != move:
        ends = set(accumulate(state.game.move_steps(move)))
        options = [o for o in step_options(state, turn, chosen)
                   if (o.group and move.startswith(o.text)) or (not o.group and o.text in ends)]
        if len(options) != 1:
            raise ValueError(f"{move!r} is reached through {len(options)} options after {chosen!r}.")
        path.append(options[0])
        chosen = options[0].text
    return path


class TypedSteps(NamedTuple):
    """What ``typed_options`` found: the whole moves typed (as typed, up to the last separator: ``w5@c2 ``), the
    position after them, and the options of the next step of the move being typed (their texts follow head)."""

    head: str
    state: State
    options: list[StepOption]


def typed_options(state: State, typed: str) -> TypedSteps | None:
    """For a move autocomplete: when more than MAX_OPTIONS legal moves can come next after what was typed, the
    next step's options after it; else None. Case and spacing are ignored. Also None when the typed text is not
    whole moves of this turn (``Game.split_turn``) followed by the start of a legal move as written."""
    for head, partial in _heads(typed):
        current = _after(state, head)
        if current is None:
            continue
        want = normalise(partial)
        moves = [m for m in current.legal_moves() if normalise(m).startswith(want)]
        if len(moves) <= MAX_OPTIONS:
            return None
        out: list[StepOption] = []
        for chosen in dict.fromkeys(m[:len(want)] for m in moves):
            out += step_options(current, (), chosen)
        return TypedSteps(head, current, out) if len(out) <= MAX_OPTIONS else None
    return None


_TURN_SEPARATORS = " ,;"


def _heads(typed: str) -> list[tuple[str, str]]:
    """``typed`` cut into (whole moves, the move being typed): nothing typed as a whole move first, then cuts
    after each run of separators between moves, the last one first."""
    text = typed.lstrip()
    cuts = [i + 1 for i, ch in enumerate(text)
            if ch in _TURN_SEPARATORS and (i + 1 == len(text) or text[i + 1] not in _TURN_SEPARATORS)]
    return [(text[:cut], text[cut:]) for cut in reversed(cuts)] + [("", text)]


def _after(state: State, head: str) -> State | None:
    """``state`` after the whole moves in ``head`` when they all play and leave the same player to move."""
    current = state
    try:
        for move in state.game.split_turn(head):
            current = current.play(move)
    except IllegalMove:
        return None
    return None if current.is_over or current.to_move != state.to_move else current
