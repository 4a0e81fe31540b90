"""Tintas (Clemens Gerhards, 2016) as ../shared/rules/tintas.md specifies it.

One atomic move collects one piece and is written as the label of the cell the pawn goes to (``E4``);
``end`` stops an optional same-colour chain. Geometry is precomputed at import: labels, axial
coordinates, the six directions and, for every cell, the ray of cells in each direction.

A state stores the board as 49 bytes (colour index 0..6, ``EMPTY`` = 7) in label order, the two
holdings as 7-tuples, the pawn's cell index (-1 before the first move), the side to move and the chain
colour (-1 when a new turn starts). ``play`` builds the next state with a few slices and tuple copies.
"""

from __future__ import annotations

import random
import re

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

# --------------------------------------------------------------------------------------------------------
# Geometry (spec A.3)
# --------------------------------------------------------------------------------------------------------

COLUMNS = "ABCDEFGHI"
COLUMN_SIZES = (2, 5, 7, 7, 7, 7, 7, 5, 2)
# Height of each column's bottom cell, in half cells above F1 (boardspace's ZfirstInCol).
COLUMN_BOTTOM = (7, 2, 1, 2, 1, 0, 1, 4, 5)


def _axial(i: int, k: int) -> tuple[int, int]:
    q = i - 4
    r2 = 7 - COLUMN_BOTTOM[i] - 2 * (k - 1) - q
    assert r2 % 2 == 0
    return q, r2 // 2


LABELS: tuple[str, ...] = tuple(
    f"{c}{k}" for i, c in enumerate(COLUMNS) for k in range(1, COLUMN_SIZES[i] + 1)
)
AXIAL: dict[str, tuple[int, int]] = {
    f"{c}{k}": _axial(i, k) for i, c in enumerate(COLUMNS) for k in range(1, COLUMN_SIZES[i] + 1)
}
INDEX: dict[str, int] = {label: n for n, label in enumerate(LABELS)}
N_CELLS = len(LABELS)  # 49

# Flat-topped hexes, screen-y down (spec A.3.3).
DIRECTIONS: tuple[tuple[str, tuple[int, int]], ...] = (
    ("N", (0, -1)),
    ("NE", (1, -1)),
    ("SE", (1, 0)),
    ("S", (0, 1)),
    ("SW", (-1, 1)),
    ("NW", (-1, 0)),
)
DIRECTION_NAMES: tuple[str, ...] = tuple(name for name, _ in DIRECTIONS)
DIRECTION_INDEX: dict[str, int] = {name.lower(): d for d, name in enumerate(DIRECTION_NAMES)}

_BY_AXIAL = {qr: n for n, qr in enumerate(AXIAL[label] for label in LABELS)}


def _ray(n: int, dq: int, dr: int) -> tuple[int, ...]:
    q, r = AXIAL[LABELS[n]]
    out: list[int] = []
    while True:
        q, r = q + dq, r + dr
        m = _BY_AXIAL.get((q, r))
        if m is None:  # every line is gap-free (A.3.1): once off the board, stay off
            return tuple(out)
        out.append(m)


# RAYS[cell][direction] = the cell indices along that ray, nearest first.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(n, dq, dr) for _, (dq, dr) in DIRECTIONS) for n in range(N_CELLS)
)
# Only the non-empty rays, for the move generator.
_RAYS_NZ: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(r for r in rays if r) for rays in RAYS)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(r[0] for r in rays if r) for rays in RAYS)
# LINE[a * 49 + b] = (direction, distance - 1) when b lies on a ray from a, else None.
LINE: list[tuple[int, int] | None] = [None] * (N_CELLS * N_CELLS)
for _a in range(N_CELLS):
    for _d, _cells in enumerate(RAYS[_a]):
        for _k, _b in enumerate(_cells):
            LINE[_a * N_CELLS + _b] = (_d, _k)

# --------------------------------------------------------------------------------------------------------
# Colours and rule constants
# --------------------------------------------------------------------------------------------------------

COLOURS = "ROYGBPW"
COLOUR_NAMES = {
    "R": mark("red"), "O": mark("orange"), "Y": mark("yellow"), "G": mark("green"), "B": mark("blue"),
    "P": mark("purple"), "W": mark("white"),
}
_NAMES = tuple(COLOUR_NAMES[c] for c in COLOURS)
# A colour's letter on the text board, in the reader's language (the letter of the position code in English).
LETTER = "Tintas colour letter"
_LETTERS = (mark_in("Tintas colour letter", "R"), mark_in("Tintas colour letter", "O"),
            mark_in("Tintas colour letter", "Y"), mark_in("Tintas colour letter", "G"),
            mark_in("Tintas colour letter", "B"), mark_in("Tintas colour letter", "P"),
            mark_in("Tintas colour letter", "W"))
EMPTY = 7
_EMPTY_BYTE = bytes([EMPTY])
_ENCODE_TABLE = bytes.maketrans(bytes(range(8)), (COLOURS + ".").encode())
_DECODE_TABLE = bytes.maketrans((COLOURS + ".").encode(), bytes(range(8)))
PIECES_PER_COLOUR = 7
MAJORITY = 4          # "four or more pieces ..."
MAJORITY_COLOURS = 4  # "... in at least four colours"
NO_CHAIN = -1
NO_PAWN = -1

# [INTERPRETATION T1] "all seven pieces of one colour adjacent to one another" is read as: the seven cells of
# one colour form ONE edge-connected group. new() re-deals while that is so.
REDEAL_GROUP_SIZE = 7

# [INTERPRETATION A.5] after every single piece collected by X: X wins if X holds 7 of a colour, or if X holds
# at least one piece of every colour AND 4+ pieces in at least 4 colours. We never end the game merely because
# nobody can get 7 any more.
#
# [INTERPRETATION, open case] Only a decoded position with fewer than 49 pieces (the spec's worked examples)
# can run out of pieces before A.5 names a winner. Then the game ends when the board is empty: the player with
# more colours at 4+ wins, equal counts share the result (a draw). A real game never gets there (A.5 proof).
EMPTY_BOARD_ENDS_GAME = True

# T6: after a jump the turn ends (the official text; boardspace lets the player chain, we do not).
CHAIN_AFTER_JUMP = False
# The first turn is one placement, no chaining (T3). No pie / swap rule.
PIE_RULE = False


def seven_connected(board: bytes | list[int] | tuple[int, ...]) -> bool:
    """True when the seven pieces of some colour form one edge-connected group (the T1 re-deal test)."""
    seen = [False] * N_CELLS
    for start in range(N_CELLS):
        colour = board[start]
        if seen[start] or colour == EMPTY:
            continue
        seen[start] = True
        stack, size = [start], 0
        while stack:
            n = stack.pop()
            size += 1
            for m in NEIGHBOURS[n]:
                if not seen[m] and board[m] == colour:
                    seen[m] = True
                    stack.append(m)
        if size >= REDEAL_GROUP_SIZE:
            return True
    return False


def _wins(h: tuple[int, ...]) -> bool:
    """A.5 for one player's holdings."""
    if PIECES_PER_COLOUR in h:
        return True
    if 0 in h:
        return False
    return sum(1 for x in h if x >= MAJORITY) >= MAJORITY_COLOURS


def _first_pieces(board: bytes, pawn: int) -> list[int]:
    out = []
    for ray in _RAYS_NZ[pawn]:
        for j in ray:
            if board[j] != EMPTY:
                out.append(j)
                break
    return out


def _can_continue(board: bytes, pawn: int, colour: int) -> bool:
    for ray in _RAYS_NZ[pawn]:
        for j in ray:
            c = board[j]
            if c != EMPTY:
                if c == colour:
                    return True
                break
    return False


# --------------------------------------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------------------------------------

_MOVE_INDEX: dict[str, int] = {}
for _n, _label in enumerate(LABELS):
    _MOVE_INDEX[_label] = _n
    _MOVE_INDEX[_label.lower()] = _n
END = "end"


class TintasState(State):
    """A Tintas position. Immutable; ``play`` returns a new state."""

    __slots__ = ("_board", "_hold", "_pawn", "_side", "_chain", "_over", "_winners", "_moves")

    players = 2
    variant = None

    def __init__(self, board: bytes, hold: tuple[tuple[int, ...], tuple[int, ...]], pawn: int, side: int,
                 chain: int, over: bool = False, winners: tuple[int, ...] = ()):
        self._board = board
        self._hold = hold
        self._pawn = pawn
        self._side = side      # the player to move; once over, the opponent of the last mover
        self._chain = chain    # colour being collected by the player continuing a turn, or NO_CHAIN
        self._over = over
        self._winners = winners
        self._moves: list[str] | None = None

    # --- contract ------------------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return None if self._over else self._side

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def winners(self) -> tuple[int, ...]:
        return self._winners

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(sum(1 for x in h if x >= MAJORITY) for h in self._hold)

    def legal_indices(self) -> list[int]:
        """Target cells of the legal cell moves, ascending (= sorted label order). ``end`` not included."""
        if self._over:
            return []
        board, pawn = self._board, self._pawn
        if pawn == NO_PAWN:  # T3: the first placement goes to any (occupied) cell
            return [n for n in range(N_CELLS) if board[n] != EMPTY]
        if self._chain != NO_CHAIN:  # T5: continue with the chain colour only
            chain = self._chain
            return sorted(j for j in _first_pieces(board, pawn) if board[j] == chain)
        firsts = _first_pieces(board, pawn)
        if firsts:  # T4
            firsts.sort()
            return firsts
        return [n for n in range(N_CELLS) if board[n] != EMPTY]  # T6: jump to any occupied cell

    def legal_moves(self) -> list[str]:
        if self._moves is None:
            moves = [LABELS[n] for n in self.legal_indices()]
            if self._chain != NO_CHAIN and not self._over:
                moves.append(END)
            self._moves = moves
        return list(self._moves)

    def play(self, move: str) -> TintasState:
        if self._over:
            raise IllegalMove(phrase("The game is over."))
        target = _MOVE_INDEX.get(move)
        if target is None:
            text = move.strip().lower() if isinstance(move, str) else ""
            if text == END:
                return self._play_end()
            target = _MOVE_INDEX.get(text)
            if target is None:
                d = DIRECTION_INDEX.get(text)
                if d is None:
                    raise IllegalMove(
                        phrase(
                            "{move!r} is not a cell or a move: type a cell A1…I2 such as E4, a direction (n ne "
                            "se s sw nw) or end.", move=move
                        )
                    )
                target = self._resolve_direction(d)
        self._check(target)
        return self._apply(target)

    def encode(self) -> str:
        hold = self._hold
        return " ".join((
            self._board.translate(_ENCODE_TABLE).decode("ascii"),
            "-" if self._pawn == NO_PAWN else LABELS[self._pawn],
            "".join(map(str, hold[0])),
            "".join(map(str, hold[1])),
            str(self._side + 1),
            "-" if self._chain == NO_CHAIN else COLOURS[self._chain],
        ))

    # --- rules -------------------------------------------------------------------------------------------
    def _play_end(self) -> TintasState:
        if self._chain == NO_CHAIN:
            raise IllegalMove(
                phrase(
                    "end is only possible while continuing a turn: after collecting a piece, with another "
                    "piece of that colour in line (T5)."
                )
            )
        return TintasState(self._board, self._hold, self._pawn, 1 - self._side, NO_CHAIN)

    def _resolve_direction(self, d: int) -> int:
        name = DIRECTION_NAMES[d]
        if self._pawn == NO_PAWN:
            raise IllegalMove(
                phrase(
                    "The first move places the pawn on any cell (T3), so there is no direction to slide {name} "
                    "yet.", name=name
                )
            )
        board = self._board
        for j in RAYS[self._pawn][d]:
            if board[j] != EMPTY:
                return j
        raise IllegalMove(
            phrase(
                "No piece lies {name} of the pawn on {cell} (T4: a direction without a piece cannot be used).",
                name=name, cell=LABELS[self._pawn]
            )
        )

    def _check(self, target: int) -> None:
        """Raise IllegalMove unless collecting the piece on ``target`` is legal now."""
        board, pawn = self._board, self._pawn
        label = LABELS[target]
        colour = board[target]
        if pawn == NO_PAWN:  # T3
            if colour == EMPTY:  # cannot happen in a real first turn (the board is full)
                raise IllegalMove(phrase(
                    "{label} is empty: the first move places the pawn on a piece (T3).", label=label
                ))
            return
        chain = self._chain
        if chain == NO_CHAIN and not _first_pieces(board, pawn):  # T6
            if colour == EMPTY:
                raise IllegalMove(phrase(
                    "{label} is empty: with no piece in line, the pawn jumps to a piece (T6).", label=label
                ))
            return
        if target == pawn:
            raise IllegalMove(phrase("The pawn is already on {label}: it must slide to a piece (T4).", label=label))
        if colour == EMPTY:
            raise IllegalMove(phrase("{label} is empty: the pawn must stop on a piece (T4).", label=label))
        line = LINE[pawn * N_CELLS + target]
        if line is None:
            raise IllegalMove(
                phrase(
                    "{label} is not in line with the pawn on {cell} (T4: the pawn slides straight to the first "
                    "piece).", label=label, cell=LABELS[pawn]
                )
            )
        d, k = line
        for j in RAYS[pawn][d][:k]:
            if board[j] != EMPTY:
                raise IllegalMove(
                    phrase(
                        "{label} is behind {cell} as seen from the pawn on {cell2} (T4: the pawn stops at the "
                        "first piece in a direction).", label=label, cell=LABELS[j], cell2=LABELS[pawn]
                    )
                )
        if chain != NO_CHAIN and colour != chain:
            raise IllegalMove(phrase(
                "{label} is {colour} but this turn collects {chain} (T5).",
                label=label, colour=Phrase(_NAMES[colour]), chain=Phrase(_NAMES[chain])
            ))

    def _apply(self, target: int) -> TintasState:
        """Collect the piece on ``target`` (already checked legal) and return the next state."""
        board, side, pawn = self._board, self._side, self._pawn
        colour = board[target]
        new_board = board[:target] + _EMPTY_BYTE + board[target + 1:]
        h = list(self._hold[side])
        h[colour] += 1
        mine = tuple(h)
        hold = (mine, self._hold[1]) if side == 0 else (self._hold[0], mine)
        if _wins(mine):  # A.5, after every single piece
            return TintasState(new_board, hold, target, 1 - side, NO_CHAIN, True, (side,))
        if pawn != NO_PAWN:  # T3: no chaining on the first turn
            # A legal target out of line is a T6 jump (a jump happens only when nothing is in line).
            jump = self._chain == NO_CHAIN and LINE[pawn * N_CELLS + target] is None
            if (CHAIN_AFTER_JUMP or not jump) and _can_continue(new_board, target, colour):
                return TintasState(new_board, hold, target, side, colour)  # T5: may continue
        if EMPTY_BOARD_ENDS_GAME and new_board.count(EMPTY) == N_CELLS:
            return TintasState(new_board, hold, target, 1 - side, NO_CHAIN, True, _empty_board_winners(hold))
        return TintasState(new_board, hold, target, 1 - side, NO_CHAIN)

    # --- extras --------------------------------------------------------------------------------------------
    @property
    def pawn(self) -> str | None:
        """The pawn's cell label, or None before the first move."""
        return None if self._pawn == NO_PAWN else LABELS[self._pawn]

    @property
    def chain_colour(self) -> str | None:
        """The colour letter being collected by the player continuing a turn, else None."""
        return None if self._chain == NO_CHAIN else COLOURS[self._chain]

    @property
    def continuing(self) -> bool:
        """True while the player to move is inside an optional same-colour chain (``end`` is legal)."""
        return self._chain != NO_CHAIN and not self._over

    @property
    def first_turn(self) -> bool:
        return self._pawn == NO_PAWN

    @property
    def must_jump(self) -> bool:
        """True when a normal turn starts with no piece in line, so the player jumps (T6)."""
        return (not self._over and self._pawn != NO_PAWN and self._chain == NO_CHAIN
                and not _first_pieces(self._board, self._pawn))

    def holdings(self, seat: int) -> tuple[int, ...]:
        """Seven counts in ROYGBPW order."""
        return self._hold[seat]

    def cell(self, label: str) -> str | None:
        """The colour letter on ``label``, or None when empty."""
        c = self._board[INDEX[label.upper()]]
        return None if c == EMPTY else COLOURS[c]

    def board_letters(self) -> str:
        """The 49 cells in label order: colour letters and '.' (field 1 of the position code)."""
        return self._board.translate(_ENCODE_TABLE).decode("ascii")

    def describe_phrase(self, move: str) -> Phrase:
        try:
            after = self.play(move)
        except IllegalMove:
            return NOTHING
        if move.strip().lower() == END:
            return phrase("ends the turn")
        name = Phrase(_NAMES[self._board[after._pawn]])
        take = phrase("jump: takes {colour}", colour=name) if self.must_jump else phrase("takes {colour}", colour=name)
        if after._over:
            return joined([take, phrase("wins the game")])
        if after.continuing:
            return joined([take, phrase("may continue")])
        return joined([take, phrase("turn ends")])

    def turn_record(self, moves: list[str]) -> str:
        return str(self.turn_record_phrase(moves))

    def turn_record_phrase(self, moves: list[str]) -> Phrase:
        """A.7 game record: ``E4 (G)`` for the placement, ``F5-H4-C3-E2 (3×G)``, ``F4*B3 (P)`` for a jump."""
        cells = [m for m in moves if m != END]
        if not cells:
            return Phrase(END)
        colour = self.cell(cells[0]) if cells[0].upper() in INDEX else None
        if colour is None:
            raise IllegalMove(phrase("{cells} holds no piece, so no turn starts by collecting it.", cells=cells[0]))
        letter = self._letter(COLOURS.index(colour))
        taken = Phrase("{n}×{letter}", {"n": len(cells), "letter": letter}) if len(cells) > 1 else letter
        name = Phrase(COLOUR_NAMES[colour])
        what = phrase("collected {n} {colour}", n=len(cells), colour=name) if len(cells) > 1 else \
            phrase("collected {colour}", colour=name)
        if self._pawn == NO_PAWN:
            path = cells[0]
        elif self.must_jump:
            path = f"{LABELS[self._pawn]}*{cells[0]}"
            what = joined([phrase("jumped"), what])
        else:
            path = "-".join([LABELS[self._pawn], *cells])
        return Phrase("{path} ({taken}) — {what}", {"path": path, "taken": taken, "what": what})

    def outcome(self) -> Outcome | None:
        if not self._over:
            return None
        winners = self._winners
        ranks = rank_seats(self, winners)
        if len(winners) != 1:
            return Outcome(TintasTermination.EMPTY_BOARD_DRAW, winners, ranks)
        w = winners[0]
        h = self._hold[w]
        if PIECES_PER_COLOUR in h:  # A.5, first goal
            return Outcome(TintasTermination.ALL_SEVEN, winners, ranks, {"winner": w},
                           {"colour": _NAMES[h.index(PIECES_PER_COLOUR)]})
        if _wins(h):  # A.5, second goal
            many = [_NAMES[c] for c in range(7) if h[c] >= MAJORITY]
            return Outcome(TintasTermination.FOUR_COLOURS, winners, ranks, {"winner": w, "loser": 1 - w},
                           {"count": len(many), "colours": ", ".join(many)})
        # the open case of a decoded position
        return Outcome(TintasTermination.EMPTY_BOARD, winners, ranks, {"winner": w})

    def text_board_phrase(self) -> Phrase:
        """The board as cells ``E4:G`` (a colour's letter, ``*`` the pawn), the holdings and who is to move; the
        letters in the reader's language, with a legend."""
        width = 5 * 8 + 4
        lines = [[" "] * width for _ in range(15)]
        cells: dict[str, object] = {}
        for n, label in enumerate(LABELS):
            i = COLUMNS.index(label[0])
            y2 = COLUMN_BOTTOM[i] + 2 * (int(label[1:]) - 1)
            c = self._board[n]
            cells[label] = "*" if n == self._pawn else ("." if c == EMPTY else self._letter(c))
            x = 5 * i
            lines[14 - y2][x:x + 4] = [f"{label}:{{{label}}}", "", "", ""]    # 4 characters once composed
        board = Phrase("\n".join("".join(row).rstrip() for row in lines), cells)
        out: list[Phrase | str] = [board, joined([Phrase("{letter} = {colour}", {"letter": self._letter(c),
                                                                                  "colour": Phrase(_NAMES[c])})
                                                  for c in range(7)])]
        for seat in (0, 1):
            h = self._hold[seat]
            counts = joined([Phrase("{letter}{n}", {"letter": self._letter(c), "n": h[c]}) for c in range(7)], " ")
            out.append(phrase("{seat}: {counts}  (colours with 4+: {score})", seat=Phrase(GAME.seat_names(2)[seat]),
                              counts=counts, score=self.scores[seat]))
        outcome = self.outcome()
        mover = Phrase(GAME.seat_names(2)[self._side])
        if outcome is not None:
            out.append(phrase("Game over. {result}", result=outcome_phrase(GAME, outcome, GAME.seat_names(2))))
        elif self._chain != NO_CHAIN:
            out.append(phrase("{seat} to move, continuing {colour} (or end)", seat=mover,
                              colour=Phrase(_NAMES[self._chain])))
        elif self._pawn == NO_PAWN:
            out.append(phrase("{seat} to move: place the pawn on any cell", seat=mover))
        elif self.must_jump:
            out.append(phrase("{seat} to move: no piece in line, jump to any piece", seat=mover))
        else:
            out.append(phrase("{seat} to move", seat=mover))
        return joined(out, "\n")

    @staticmethod
    def _letter(colour: int) -> Phrase:
        return Phrase(_LETTERS[colour], context=LETTER)

    def __repr__(self) -> str:
        return f"TintasState({self.encode()!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, TintasState) and self.encode() == other.encode()
                and self._winners == other._winners)

    def __hash__(self) -> int:
        return hash(self.encode())


def _empty_board_winners(hold) -> tuple[int, ...]:
    a, b = (sum(1 for x in h if x >= MAJORITY) for h in hold)
    if a == b:
        return (0, 1)
    return (0,) if a > b else (1,)


# --------------------------------------------------------------------------------------------------------
# Game
# --------------------------------------------------------------------------------------------------------

_SPLIT = re.compile(r"[\s,\-]+")


class TintasTermination(Termination):
    """How a game of Tintas ends (the keys of ``TintasGame.terminations``)."""

    ALL_SEVEN = "all_seven"
    FOUR_COLOURS = "four_colours"
    EMPTY_BOARD = "empty_board"
    EMPTY_BOARD_DRAW = "empty_board_draw"


class TintasGame(Game):
    key = "tintas"
    title = "Tintas"
    player_counts = (2,)
    variants = ()
    fact_words = _NAMES    # the colours of the {colour} and {colours} facts
    termination_kinds = TintasTermination
    terminations = {
        "all_seven": "{winner} holds all seven {colour} pieces.",
        "four_colours": "{winner} holds 4 or more pieces in {count} colours ({colours}) and at least one of every "
                        "colour, so {loser} can no longer collect seven of any colour.",
        "empty_board": "The board is empty and {winner} holds 4 or more pieces in more colours.",
        "empty_board_draw": "The board is empty and neither player holds 4 or more pieces in more colours: a draw.",
    }

    def new(self, players: int = 2, seed: int | None = None, variant: str | None = None) -> TintasState:
        if players != 2:
            raise ValueError("Tintas is for exactly 2 players.")
        if variant is not None:
            raise ValueError("Tintas has no variants.")
        rng = random.Random(seed)
        pieces = [c for c in range(7) for _ in range(PIECES_PER_COLOUR)]
        while True:  # T1: re-deal while a colour forms one connected group of 7
            rng.shuffle(pieces)
            if not seven_connected(pieces):
                break
        start = rng.randrange(2)  # T2: the start player is drawn by lot
        zero = (0,) * 7
        return TintasState(bytes(pieces), (zero, zero), NO_PAWN, start, NO_CHAIN)

    def decode(self, code: str) -> TintasState:
        if not isinstance(code, str):
            raise InvalidPosition(phrase("A position code is a line of text."))
        fields = code.strip().split()
        if len(fields) != 6:
            raise InvalidPosition(
                phrase(
                    "A Tintas position code has 6 fields separated by spaces, this one has {count}.",
                    count=len(fields)
                )
            )
        board_s, pawn_s, h1_s, h2_s, side_s, chain_s = fields
        if len(board_s) != N_CELLS:
            raise InvalidPosition(phrase(
                "The board field must have 49 characters, it has {count}.", count=len(board_s)
            ))
        bad = set(board_s) - set(COLOURS + ".")
        if bad:
            raise InvalidPosition(
                phrase(
                    "The board field may hold only {colours} and '.', not {join!r}.",
                    colours=COLOURS, join=''.join(sorted(bad))
                )
            )
        board = board_s.encode("ascii").translate(_DECODE_TABLE)
        hold = []
        for n, h in enumerate((h1_s, h2_s)):
            if len(h) != 7 or not h.isascii() or not h.isdigit():
                raise InvalidPosition(
                    phrase(
                        "Player {value}'s holdings must be 7 digits (counts of {colours}), not {h!r}.",
                        value=n + 1, colours=COLOURS, h=h
                    )
                )
            hold.append(tuple(int(x) for x in h))
        for c in range(7):
            total = board.count(c) + hold[0][c] + hold[1][c]
            if total > PIECES_PER_COLOUR:
                raise InvalidPosition(phrase(
                    "There are {total} {colour} pieces; the game has only 7.", total=total, colour=Phrase(_NAMES[c])
                ))
        if side_s not in ("1", "2"):
            raise InvalidPosition(phrase("The player to move must be 1 or 2, not {side_s!r}.", side_s=side_s))
        side = int(side_s) - 1
        if pawn_s == "-":
            pawn = NO_PAWN
        else:
            pawn = INDEX.get(pawn_s.upper(), -2)
            if pawn == -2:
                raise InvalidPosition(phrase(
                    "The pawn's cell {pawn_s!r} is not a cell of the board (A1…I2).", pawn_s=pawn_s
                ))
            if board[pawn] != EMPTY:
                raise InvalidPosition(
                    phrase(
                        "The pawn is on {cell}, which holds a piece; its cell is always empty.", cell=LABELS[pawn]
                    )
                )
        if chain_s == "-":
            chain = NO_CHAIN
        elif len(chain_s) == 1 and chain_s in COLOURS:
            chain = COLOURS.index(chain_s)
        else:
            raise InvalidPosition(phrase(
                "The chain colour must be '-' or one of {colours}, not {chain_s!r}.",
                colours=COLOURS, chain_s=chain_s
            ))
        hold_t = (hold[0], hold[1])
        if pawn == NO_PAWN:
            if board.count(EMPTY) or any(hold[0]) or any(hold[1]):
                raise InvalidPosition(
                    phrase(
                        "Before the first move (pawn '-') every cell holds a piece and nobody holds any."
                    )
                )
            if chain != NO_CHAIN:
                raise InvalidPosition(phrase("A chain colour needs a pawn on the board."))
            return TintasState(board, hold_t, pawn, side, chain)
        mover_wins, last_wins = _wins(hold[side]), _wins(hold[1 - side])
        if mover_wins:
            raise InvalidPosition(
                phrase(
                    "Player {value} already meets a winning condition, so the game would have ended before "
                    "their turn.", value=side + 1
                )
            )
        if last_wins:
            if chain != NO_CHAIN:
                raise InvalidPosition(phrase("A finished game has no chain colour (field 6 must be '-')."))
            return TintasState(board, hold_t, pawn, side, NO_CHAIN, True, (1 - side,))
        if chain != NO_CHAIN:
            if hold[side][chain] == 0:
                raise InvalidPosition(
                    phrase(
                        "Player {value} is shown continuing {colour} but holds no {colour} piece.",
                        value=side + 1, colour=Phrase(_NAMES[chain])
                    )
                )
            if not _can_continue(board, pawn, chain):
                raise InvalidPosition(
                    phrase(
                        "No {colour} piece is in line with the pawn, so the turn would already have passed.",
                        colour=Phrase(_NAMES[chain])
                    )
                )
        if EMPTY_BOARD_ENDS_GAME and board.count(EMPTY) == N_CELLS:
            if chain != NO_CHAIN:
                raise InvalidPosition(phrase("A finished game has no chain colour (field 6 must be '-')."))
            return TintasState(board, hold_t, pawn, side, NO_CHAIN, True, _empty_board_winners(hold_t))
        return TintasState(board, hold_t, pawn, side, chain)

    # --- extras ---------------------------------------------------------------------------------------------
    def seat_names(self, players: int = 2) -> tuple[str, ...]:
        return ("Player 1", "Player 2")

    def split_turn(self, text: str) -> list[str]:
        out = []
        for tok in _SPLIT.split(text.strip()):
            if not tok:
                continue
            low = tok.lower()
            out.append(LABELS[_MOVE_INDEX[low]] if low in _MOVE_INDEX else low)
        return out

    def suggestion_phrases(self, state: State, typed: str, limit: int = 25) -> list[tuple[str, Phrase]]:
        if not isinstance(state, TintasState) or state.is_over or limit <= 0:
            return []
        text = typed.lstrip()
        tokens = [t for t in _SPLIT.split(text) if t]
        partial = ""
        if tokens and not _SPLIT.fullmatch(text[-1:] or " "):
            partial = tokens.pop().lower()
        # play the complete tokens: they are the first moves of the turn
        player = state.to_move
        prefix: list[int] = []
        st = state
        for tok in tokens:
            if st.is_over or st.to_move != player or tok.lower() == END:
                return []
            try:
                nxt = st.play(tok)
            except IllegalMove:
                return []
            prefix.append(nxt._pawn)
            st = nxt
        results: list[tuple[tuple[int, ...], TintasState]] = []
        if prefix and not partial:
            results.append((tuple(prefix), st))
        if st.is_over or st.to_move != player:
            return self._label(state, results)
        # first extension filtered by the partial token, then breadth first until the limit
        first: list[tuple[tuple[int, ...], TintasState]] = []
        want_dir = DIRECTION_INDEX.get(partial)
        for n in st.legal_indices():
            if partial and not LABELS[n].lower().startswith(partial):
                if want_dir is None:
                    continue
                try:
                    if st._resolve_direction(want_dir) != n:
                        continue
                except IllegalMove:
                    continue
            first.append((tuple(prefix) + (n,), st._apply(n)))
        level = first
        while level and len(results) < limit:
            nxt_level = []
            for seq, s in level:
                if len(results) >= limit:
                    break
                results.append((seq, s))
                if not s._over and s._side == player and s._chain != NO_CHAIN:
                    for n in s.legal_indices():
                        nxt_level.append((seq + (n,), s._apply(n)))
            level = nxt_level
        return self._label(state, results)

    @staticmethod
    def _label(state: TintasState, results) -> list[tuple[str, Phrase]]:
        out = []
        jump = state.must_jump
        for seq, s in sorted(results, key=lambda item: item[0]):
            value = " ".join(LABELS[n] for n in seq)
            name = Phrase(_NAMES[state._board[seq[0]]])
            if jump:
                note = phrase("jump: takes {colour}", colour=name)
            elif len(seq) == 1:
                note = phrase("takes {colour}", colour=name)
            else:
                note = Phrase("{n}× {colour}", {"n": len(seq), "colour": name})
            if s._over:
                then = phrase("wins the game") if s.winners == (state._side,) else phrase("game over")
            elif s._side == state._side and s._chain != NO_CHAIN:
                then = phrase("may continue")
            else:
                then = phrase("turn ends")
            out.append((value, labelled(value, joined([note, then]))))
        return out


GAME = TintasGame()
TintasState.game = GAME
