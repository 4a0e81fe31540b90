"""Rincala: sowing stacks of coloured pieces round a ring of eight hollows.

Rules as ../shared/rules/rincala.md specifies them (section numbers R1–R8 and B.x refer to it). The
project's interpretations, each marked ``INTERPRETATION`` below and stated in the rules text players read
(``bot/texts/<language>/rincala/rules.md``):
- R3.4 a full stack (8 pieces) is tested at the moment of each drop, so a lapping sowing skips a hollow
  it filled earlier in the same sowing;
- R3.5 the emptied start hollow is an ordinary empty hollow: a lapping sowing drops into it, and that
  counts as a drop into an empty hollow;
- house rule: the third time the same position (fields 1–3 of the code) arises at the start of a turn,
  the game ends and is scored as it stands.

A state is a tuple of eight stacks (strings, bottom → top), one capture string per seat, the seat named by
field 3 of the position code, the phase, why the game ended (or None) and the counts of the positions seen
at turn starts (shared between states, never mutated).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from types import MappingProxyType

from engines.base import (
    NOTHING,
    Game,
    IllegalMove,
    InvalidPosition,
    Outcome,
    Phrase,
    State,
    Termination,
    joined,
    labelled,
    mark,
    mark_in,
    outcome_phrase,
    phrase,
    rank_seats,
)

# --- rule constants ---------------------------------------------------------------------------------------
HOLLOWS = "ABCDEFGH"                 # clockwise (B.3)
COLOURS = "RGYW"                     # the capture order of the position code
VALUES = MappingProxyType({"R": 4, "G": 3, "Y": 2, "W": 1})   # R8
COLOUR_NAMES = MappingProxyType({"R": mark("red"), "G": mark("green"), "Y": mark("yellow"), "W": mark("white")})
# A colour's letter on the text board and in descriptions, in the reader's language (the code's letter in English).
LETTER = "Rincala colour letter"
_LETTERS = MappingProxyType({"R": mark_in("Rincala colour letter", "R"), "G": mark_in("Rincala colour letter", "G"),
                             "Y": mark_in("Rincala colour letter", "Y"), "W": mark_in("Rincala colour letter", "W")})
PER_COLOUR = 6                       # 24 pieces, six of each colour (B.2)
START_HEIGHT = 3                     # R1
FULL = 8                             # R3.4: a stack never exceeds eight pieces
REPETITIONS = 3                      # house rule: the third occurrence ends the game
CW, CCW = 1, -1
DIRECTIONS = {CW: "cw", CCW: "ccw"}
PHASES = ("first", "again", "turn")


class RincalaTermination(Termination):
    """How a game of Rincala ends (the keys of ``RincalaGame.terminations``)."""

    ONE_OF_EACH = "one_of_each"
    NO_MOVE = "no_move"
    REPETITION = "repetition"


# R7's three ends, as the state keeps them
END_FOUR, END_STUCK, END_REPETITION = (RincalaTermination.ONE_OF_EACH, RincalaTermination.NO_MOVE,
                                       RincalaTermination.REPETITION)
_UNKNOWN = "?"

_MOVE_RE = re.compile(
    r"^\s*([a-h])\s*(cw|ccw|>|<|clockwise|anticlockwise|counterclockwise|counter-clockwise)\s*$", re.I)
_STACK_RE = re.compile(r"-|[RGYW]+")
_CCW_WORDS = {"ccw", "<", "anticlockwise", "counterclockwise", "counter-clockwise"}


@dataclass(frozen=True, slots=True)
class Sowing:
    """One move worked out on a board: where each piece went and what the mover collects (R3, R5)."""

    start: int
    direction: int                          # CW or CCW
    path: tuple[tuple[int, str], ...]       # each hollow passed, in order, with the colour dropped there
                                            # ('' where a full stack was jumped, R3.4)
    empty_drops: tuple[int, ...]            # hollows that were empty when their piece arrived (R3.5, R6)
    captures: tuple[tuple[int, str], ...]   # (hollow, colour) collected after the sowing (R5)
    board: tuple[str, ...]                  # the stacks after sowing and collecting

    @property
    def drops(self) -> tuple[tuple[int, str], ...]:
        return tuple(step for step in self.path if step[1])

    @property
    def skipped(self) -> tuple[int, ...]:
        return tuple(h for h, colour in self.path if not colour)

    @property
    def move(self) -> str:
        return f"{HOLLOWS[self.start]} {DIRECTIONS[self.direction]}"

    @property
    def legal(self) -> bool:
        # R4: at least one piece must land on a stack.
        return len(self.empty_drops) < len(self.drops)

    @property
    def ends_turn(self) -> bool:
        # R6: a capture and/or a drop into an empty hollow ends the turn.
        return bool(self.captures or self.empty_drops)


def sow(board: tuple[str, ...], start: int, direction: int) -> Sowing:
    """Sow the stack of ``start`` (R3) and collect (R5); the result says whether the move is legal (R4)."""
    stacks = list(board)
    hand, stacks[start] = stacks[start], ""          # R3.5: the start hollow is now an ordinary empty one
    path, empty = [], []
    pos = start
    for colour in hand:                             # bottom piece first (R3.2)
        pos = (pos + direction) % 8
        while len(stacks[pos]) >= FULL:             # R3.4 INTERPRETATION: tested at each drop
            path.append((pos, ""))
            pos = (pos + direction) % 8
        if not stacks[pos]:
            empty.append(pos)
        stacks[pos] += colour
        path.append((pos, colour))
    captures = []
    for i, stack in enumerate(stacks):              # R5: every hollow, after the whole sowing
        if len(stack) >= 2 and stack[-1] == stack[-2]:
            captures.append((i, stack[-1]))
            stacks[i] = stack[:-1]
    return Sowing(start, direction, tuple(path), tuple(empty), tuple(captures), tuple(stacks))


_MOVE_NAMES = tuple((f"{h} ccw", f"{h} cw") for h in HOLLOWS)    # sorted order of each hollow's two moves


def _legal_moves(board: tuple[str, ...]) -> list[str]:
    """The sorted legal moves of ``board``: those where some piece lands on a stack (R4), as ``sow`` decides.

    Follows the heights only: until a piece lands on a stack every drop goes into an empty hollow, so the first
    drop onto a non-empty (and not full, R3.4) hollow settles that the move is legal.
    """
    heights = [len(stack) for stack in board]
    out = []
    for start, k in enumerate(heights):
        if not k:
            continue
        for direction, name in ((CCW, _MOVE_NAMES[start][0]), (CW, _MOVE_NAMES[start][1])):
            h = heights.copy()
            h[start] = 0
            pos = start
            for _ in range(k):
                pos = (pos + direction) % 8
                while h[pos] >= FULL:
                    pos = (pos + direction) % 8
                if h[pos]:
                    out.append(name)
                    break
                h[pos] = 1
    return out


def parse_move(text: str) -> str:
    """The canonical ``C cw`` / ``C ccw`` of a typed move; accepts ``C>``, ``C<``, ``Ccw``, any case."""
    m = _MOVE_RE.match(text)
    if not m:
        raise IllegalMove(phrase(
            "'{strip}' is not a move: write a hollow and a direction, like 'C cw' or 'C ccw'.", strip=text.strip()
        ))
    direction = "ccw" if m.group(2).lower() in _CCW_WORDS else "cw"
    return f"{m.group(1).upper()} {direction}"


def one_of_each(board: tuple[str, ...]) -> bool:
    """R7(a), tested literally: exactly one piece of each of the four colours on the board."""
    pieces = "".join(board)
    return len(pieces) == 4 and set(pieces) == set(COLOURS)


def points(captured: str) -> int:
    return sum(VALUES[c] for c in captured)


def sort_pieces(pieces: str) -> str:
    return "".join(sorted(pieces, key=COLOURS.index))


class RincalaState(State):
    __slots__ = ("players", "variant", "board", "captured", "seat", "phase", "_end", "_seen", "_sowings", "_moves")

    def __init__(self, board: tuple[str, ...], captured: tuple[str, ...], seat: int, phase: str,
                 seen: dict[tuple, int] | None = None):
        self.players = len(captured)
        self.variant = None
        self.board = board
        self.captured = captured
        self.seat = seat              # field 3 of the code, 0-based: the player to move while the game runs
        self.phase = phase
        self._end: str | None = _UNKNOWN          # worked out when first asked (see ``end``)
        self._sowings: dict[str, Sowing] = {}    # worked out on demand, per legal move
        self._moves: list[str] | None = None       # the legal moves, sorted (see ``_legal``)
        if seen is None:              # a fresh history (new game or decoded code) holds this position
            seen = {self._key(): 1} if phase != "again" else {}
        self._seen = seen

    @property
    def end(self) -> str | None:
        """Why the game is over (END_FOUR, END_STUCK, END_REPETITION), or None while it runs."""
        if self._end is _UNKNOWN:                  # R7: the board alone decides, unless a repetition did
            self._end = END_FOUR if one_of_each(self.board) else None if self._legal() else END_STUCK
        return self._end

    # --- contract ---------------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return None if self.end else self.seat

    @property
    def is_over(self) -> bool:
        return self.end is not None

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(points(c) for c in self.captured)

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.end:
            return ()
        best = max(self.scores)      # R8: an equal top score is a shared win
        return tuple(i for i, s in enumerate(self.scores) if s == best)

    def legal_moves(self) -> list[str]:
        if self.end:
            return []
        return list(self._legal())

    def play(self, move: str) -> RincalaState:
        return self._after(self.sowing(move))

    def encode(self) -> str:
        stacks = "/".join(s or "-" for s in self.board)
        caps = "/".join(c or "-" for c in self.captured)
        return f"{stacks} {caps} {self.seat + 1} {self.phase}"

    # --- extras -----------------------------------------------------------------------------------------
    def sowing(self, move: str) -> Sowing:
        """What the legal ``move`` does here (drops, skips, captures); the renderer draws it."""
        if self.end:
            raise IllegalMove(phrase("The game is over."))
        legal = self._legal()
        canonical = move if move in legal else parse_move(move)   # a canonical move needs no parsing
        sowing = self._sowings.get(canonical)
        if sowing is None and canonical in legal:
            sowing = self._sowings[canonical] = sow(self.board, HOLLOWS.index(canonical[0]),
                                                    CCW if canonical.endswith("ccw") else CW)
        if sowing is None:
            if not self.board[HOLLOWS.index(canonical[0])]:
                raise IllegalMove(phrase(
                    "Hollow {canonical} is empty: choose a hollow that holds pieces.", canonical=canonical[0]
                ))
            raise IllegalMove(phrase(
                "{canonical} would drop pieces into empty hollows only; a move must drop at least one "
                "piece onto a stack.", canonical=canonical
            ))
        return sowing

    def canonical(self, move: str) -> str:
        return self.sowing(move).move

    def turn_record(self, moves: list[str]) -> str:
        return str(self.turn_record_phrase(moves))

    def turn_record_phrase(self, moves: list[str]) -> Phrase:
        """``A ccw, D cw — collected green (3 points)``; ``A ccw — must move again`` mid-turn."""
        state, taken = self, ""
        for move in moves:
            sowing = state.sowing(move)
            taken += "".join(c for _, c in sowing.captures)
            state = state._after(sowing)
        record = ", ".join(moves)
        if taken:
            counts = Counter(sort_pieces(taken))
            what = joined([Phrase("{n}× {colour}", {"n": n, "colour": Phrase(COLOUR_NAMES[c])}) if n > 1
                           else Phrase(COLOUR_NAMES[c]) for c, n in counts.items()])
            got = points(taken)
            return phrase("{moves} — collected {what} ({n} points)", moves=record, what=what, n=got) if got > 1 \
                else phrase("{moves} — collected {what} (1 point)", moves=record, what=what)
        if state.pending():
            return phrase("{moves} — must move again", moves=record)
        return Phrase("{moves}", {"moves": record})

    def describe_phrase(self, move: str) -> Phrase:
        try:
            sowing = self.sowing(move)
        except IllegalMove:
            return NOTHING
        parts = []
        if sowing.empty_drops:
            parts.append(phrase("drops into empty {hollows}",
                                hollows=", ".join(HOLLOWS[i] for i in sowing.empty_drops)))
        if sowing.captures:
            parts.append(phrase("collects {pieces}", pieces=joined([self._letter(c) for _, c in sowing.captures])))
        after = self._after(sowing)
        if after.is_over:
            parts.append(phrase("game ends"))
        elif after.seat == self.seat and after.phase == "again":
            parts.append(phrase("move again"))
        else:
            parts.append(phrase("turn ends"))
        return joined(parts)

    def pending_phrase(self) -> Phrase:
        return phrase("move again") if self.phase == "again" and not self.end else NOTHING

    @staticmethod
    def _letter(colour: str) -> Phrase:
        return Phrase(_LETTERS[colour], context=LETTER)

    def _stack(self, pieces: str) -> Phrase:
        """A stack (or captured pieces) as colour letters in the reader's language; '-' when empty."""
        return joined([self._letter(c) for c in pieces], "") if pieces else Phrase("-")

    def outcome(self) -> Outcome | None:
        end = self.end
        if end is None:
            return None
        winners = self.winners
        return Outcome(RincalaTermination(end), winners, rank_seats(self, winners))

    def text_board_phrase(self) -> Phrase:
        lines: list[Phrase | str] = []
        for i, stack in enumerate(self.board):
            line = Phrase("{hollow}: {stack}{pad} {n}", {"hollow": HOLLOWS[i], "stack": self._stack(stack),
                                                          "pad": " " * (8 - max(1, len(stack))), "n": len(stack)})
            lines.append(phrase("{line}  (full)", line=line) if len(stack) >= FULL else line)
        lines.append(joined([Phrase("{letter} = {colour}", {"letter": self._letter(c),
                                                             "colour": Phrase(COLOUR_NAMES[c])}) for c in COLOURS]))
        seats = GAME.seat_names(self.players)
        for p, caps in enumerate(self.captured):
            lines.append(phrase("{seat}: {n:>2} points  {pieces}", seat=Phrase(seats[p]), n=points(caps),
                                pieces=self._stack(caps)))
        outcome = self.outcome()
        if outcome is not None:
            lines.append(phrase("Game over. {result}", result=outcome_phrase(GAME, outcome, seats)))
        elif self.pending():
            lines.append(phrase("{seat} to move, must move again", seat=Phrase(seats[self.seat])))
        else:
            lines.append(phrase("{seat} to move", seat=Phrase(seats[self.seat])))
        return joined(lines, "\n")

    # --- internals --------------------------------------------------------------------------------------
    def _key(self) -> tuple:
        # Fields 1–3 of the position code: stacks, captures, player to move.
        return (self.board, self.captured, self.seat)

    def _legal(self) -> list[str]:
        """The legal moves, sorted; only which moves are legal (R4) is worked out here, not their sowings."""
        if self._moves is None:
            self._moves = _legal_moves(self.board)
        return self._moves

    def _after(self, sowing: Sowing) -> RincalaState:
        mover = self.seat
        captured = list(self.captured)
        if sowing.captures:
            captured[mover] = sort_pieces(captured[mover] + "".join(c for _, c in sowing.captures))
        nxt = (mover + 1) % self.players
        if self.phase == "first" or sowing.ends_turn:    # R6: the first turn is exactly one move
            seat, phase = nxt, "turn"
        else:
            seat, phase = mover, "again"                  # R6: forced continuation
        state = RincalaState(sowing.board, tuple(captured), seat, phase, seen=self._seen)
        if state.end:                                     # R7: scored now; field 3 names the next player
            state.seat, state.phase = nxt, "turn"
        elif phase == "turn":                             # house rule, counted at turn starts only
            key = state._key()
            seen = dict(self._seen)
            seen[key] = seen.get(key, 0) + 1
            state._seen = seen
            if seen[key] >= REPETITIONS:
                state._end = END_REPETITION
        return state


class Rincala(Game):
    key = "rincala"
    title = "Rincala"
    player_counts = (2, 3)
    variants = ()
    history_in_state = True           # the house rule counts positions the code does not hold
    termination_kinds = RincalaTermination
    terminations = {
        END_FOUR: "Only one piece of each colour is left on the board.",
        END_STUCK: "No move is possible: every sowing would drop into empty hollows only.",
        END_REPETITION: "The same position arose for the third time at the start of a turn (house rule).",
    }

    def new(self, players: int = 2, seed: int | None = None, variant: str | None = None) -> RincalaState:
        if players not in self.player_counts:
            raise ValueError(f"Rincala is for 2 or 3 players, not {players}.")
        if variant is not None:
            raise ValueError("Rincala has no variants.")
        rng = random.Random(seed)
        pieces = list(COLOURS * PER_COLOUR)
        while True:                                   # R1: rejection sampling is uniform over valid deals
            rng.shuffle(pieces)
            stacks = tuple("".join(pieces[i:i + START_HEIGHT]) for i in range(0, len(pieces), START_HEIGHT))
            if all(s[0] != s[1] and s[1] != s[2] for s in stacks):
                break
        return RincalaState(stacks, ("",) * players, rng.randrange(players), "first")

    def decode(self, code: str) -> RincalaState:
        fields = code.strip().split(" ")
        if len(fields) != 4:
            raise InvalidPosition(phrase("A Rincala position has four fields: stacks, captures, player, phase."))
        stacks_f, caps_f, player_f, phase = fields
        stacks = stacks_f.split("/")
        if len(stacks) != 8:
            raise InvalidPosition(phrase("The first field needs eight stacks, A to H, separated by '/'."))
        board = []
        for name, s in zip(HOLLOWS, stacks, strict=True):
            if not _STACK_RE.fullmatch(s):
                raise InvalidPosition(phrase(
                    "Hollow {name}: write a stack with R, G, Y, W, or '-' when empty.", name=name
                ))
            if len(s) > FULL:
                raise InvalidPosition(phrase(
                    "Hollow {name} holds {count} pieces; a stack has at most {full}.",
                    name=name, count=len(s), full=FULL
                ))
            board.append("" if s == "-" else s)
        caps = caps_f.split("/")
        if len(caps) not in self.player_counts:
            raise InvalidPosition(phrase("The second field lists the captures of 2 or 3 players, separated by '/'."))
        captured = []
        for p, c in enumerate(caps, 1):
            if not _STACK_RE.fullmatch(c):
                raise InvalidPosition(phrase(
                    "Player {p}'s captures are written with R, G, Y, W, or '-' if none.", p=p
                ))
            captured.append("" if c == "-" else sort_pieces(c))
        everything = "".join(board) + "".join(captured)
        for colour in COLOURS:
            if everything.count(colour) > PER_COLOUR:
                raise InvalidPosition(phrase(
                    "There are only {per_colour} {colour_names} pieces, not {count}.",
                    per_colour=PER_COLOUR, colour_names=Phrase(COLOUR_NAMES[colour]), count=everything.count(colour)
                ))
        if player_f not in [str(p) for p in range(1, len(caps) + 1)]:   # (isdigit() holds for '²' too)
            raise InvalidPosition(phrase("The player to move is a number from 1 to {count}.", count=len(caps)))
        if phase not in PHASES:
            raise InvalidPosition(phrase("The phase is 'first', 'again' or 'turn'."))
        return RincalaState(tuple(board), tuple(captured), int(player_f) - 1, phase)

    def step_cells(self, move: str, index: int) -> tuple[str, ...]:
        """The pit a move sows from (``C`` in ``C cw``); the direction involves no pit."""
        return (move.split()[0],) if index == 0 and move != "end" else ()

    def split_turn(self, text: str) -> list[str]:
        """Several moves in one submission, separated by commas: ``A cw, C ccw``."""
        return [part.strip() for part in text.split(",") if part.strip()]

    def suggestion_phrases(self, state: State, typed: str, limit: int = 25) -> list[tuple[str, Phrase]]:
        """Single moves, or after ``A cw, `` the moves that continue that turn, each with what it does."""
        *done, partial = typed.split(",") if typed else [""]
        prefix = []
        for part in (p.strip() for p in done):
            if not part:
                continue
            try:
                canonical = parse_move(part)
                before = state.to_move
                state = state.play(canonical)
            except IllegalMove:
                return []
            if state.to_move != before:        # the turn is over; nothing more can follow
                return []
            prefix.append(canonical)
        want = partial.strip().lower()
        try:                                   # a complete lenient form ('c>') matches its canonical move
            want = parse_move(partial).lower()
        except IllegalMove:
            want = re.sub(r"\s+", " ", want)
        out = []
        for move in state.legal_moves():
            if move.lower().startswith(want):
                value = ", ".join([*prefix, move])
                out.append((value, labelled(value, state.describe_phrase(move))))
                if len(out) >= limit:
                    break
        return out


GAME = Rincala()
RincalaState.game = GAME
