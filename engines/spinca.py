"""Spinca (Phil Leduc, 2011, for the Shibumi set), exactly as ../shared/rules/spinca.md specifies.

A turn is one atomic move: an optional slide of any free, unlocked marble to a playable neighbour on its
own level (with the tumble chain it causes), then a mandatory placement. 29 turns build the "temple";
face scores decide, the inner pyramid breaks ties.

Representation (built for speed): cells are indices 0..28 in the canonical order of the spec (level 1's rows
south to north, each west to east, then level 2, then level 3); a state holds a tuple of 29 colour codes
(0 empty, 1 W, 2 B, 3 R), the occupancy bitmask, the locked bitmask and the seat to move. Geometry
(supporters, cells resting on a cell, same-level neighbours, faces) is precomputed at import.
"""

from __future__ import annotations

import re
from itertools import product

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
    mark_in,
    normalise,
    outcome_phrase,
    phrase,
    rank_seats,
)

# --- Interpretations (§9 of the spec; each is the project's binding choice) -------------------------------

# §9 row 1: a player with no marble on a face scores 0 for that face.
EMPTY_FACE_SCORE = 0
# §9 row 2: "connected" means physical contact among the face's own 9 marbles: left/right neighbours in a
# row, and each upper ball touching the two balls below it; no links through hidden or other-face marbles.
# Face positions are (row t, place j), j counted left to right as seen from outside the face.
FACE_ADJACENCY = tuple(
    sorted({((t, j), (t, j + 1)) for t in range(3) for j in range(3 - t)}
           | {((t, j), (t + 1, j)) for t in range(2) for j in range(3 - t)}
           | {((t, j + 1), (t + 1, j)) for t in range(2) for j in range(3 - t)}))
# §9 row 3: a slide goes to one of the 8 neighbours on the marble's own level; no climbing, no descending.
SLIDE_SAME_LEVEL_ONLY = True
# §9 row 4: four players play as two teams sharing White (seats 1 and 3) and Black (seats 2 and 4).
TEAM_SEATS: dict[int, tuple[tuple[int, ...], ...]] = {4: ((0, 2), (1, 3))}
# §9 row 5: with 3 players, a two-way tie for the *highest* total is won by the third player (the lowest).
THREE_PLAYER_TWO_WAY_TIE_LOWEST_WINS = True
# §9 row 6: a lock lasts for the immediately following player's turn only (then that player's own turn
# defines the new locked set). The engine stores exactly one locked set, which is this rule.
LOCK_LASTS_ONE_TURN = True
# §9 row 7: the slid marble may be of any colour, an opponent's included.
SLIDE_ANY_COLOUR = True
# §9 row 8: the per-colour supply is not limited beyond the 29 turns (no colour ever needs more than 15).
SUPPLY_LIMIT = None
# §9 row 9: no repetition rule: the game always lasts exactly 29 turns.
REPETITION_RULE = None
# §9 row 10: a marble that tumbled down counts as moved and is locked for the next player.
TUMBLED_MARBLES_LOCK = True

# --- Geometry (§2) ----------------------------------------------------------------------------------------

SIZE = (4, 3, 2)
OFFSET = (0, 16, 25)
NCELLS = 29
FULL = (1 << NCELLS) - 1
CELLS = tuple((k, x, y) for k in range(3) for y in range(SIZE[k]) for x in range(SIZE[k]))
NAMES = tuple(f"{k + 1}{'abcd'[x]}{y + 1}" for k, x, y in CELLS)
INDEX = {name: i for i, name in enumerate(NAMES)}
LEVEL = tuple(k for k, _, _ in CELLS)
LEVEL_MASK = tuple(sum(1 << i for i in range(NCELLS) if LEVEL[i] == k) for k in range(3))
COLOURS = ".WBR"          # colour code -> letter in the position code
COLOUR_NAMES = ("", "White", "Black", "Red")
# A colour's letter on the text board and in descriptions, in the reader's language (the code's letter in English).
LETTER = "Spinca colour letter"
_LETTERS = ("", mark_in("Spinca colour letter", "W"), mark_in("Spinca colour letter", "B"),
            mark_in("Spinca colour letter", "R"))


def _letter(colour: int) -> Phrase:
    """A marble's colour letter (W, B, R in English) as a phrase; '.' for an empty point."""
    return Phrase(_LETTERS[colour], context=LETTER) if colour else Phrase(".")


def _on_board(k: int, x: int, y: int) -> bool:
    return 0 <= k < 3 and 0 <= x < SIZE[k] and 0 <= y < SIZE[k]


def _index(k: int, x: int, y: int) -> int:
    return OFFSET[k] + y * SIZE[k] + x


# SUPPORT[i]: bitmask of the 4 cells i rests on (0 on the base). §2.2
SUPPORT = tuple(0 if k == 0 else sum(1 << _index(k - 1, x + dx, y + dy)
                                     for dx, dy in product((0, 1), repeat=2))
                for k, x, y in CELLS)
# RESTING[i]: cells of the level above that rest on i (1-4 of them; none on the top level). §2.2
RESTING = tuple(tuple(_index(k + 1, x - dx, y - dy) for dx, dy in product((0, 1), repeat=2)
                      if k + 1 < 3 and _on_board(k + 1, x - dx, y - dy)) for k, x, y in CELLS)
RESTING_MASK = tuple(sum(1 << j for j in r) for r in RESTING)
# NEIGHBOURS[i]: the 8-neighbourhood on i's own level. §2.3
NEIGHBOURS = tuple(sum(1 << _index(k, x + dx, y + dy) for dx, dy in product((-1, 0, 1), repeat=2)
                       if (dx or dy) and _on_board(k, x + dx, y + dy)) for k, x, y in CELLS)
UPPER = tuple(i for i in range(NCELLS) if LEVEL[i] > 0)


def _face(kind: str) -> tuple[int, ...]:
    """The 9 cells of a face, rows bottom to top, each row left to right as seen from outside. §2.6"""
    out = []
    for k in range(3):
        n = SIZE[k]
        for j in range(n):
            x, y = {"S": (j, 0), "E": (n - 1, j), "N": (n - 1 - j, n - 1), "W": (0, n - 1 - j)}[kind]
            out.append(_index(k, x, y))
    return tuple(out)


FACE_NAMES = ("S", "E", "N", "W")
FACES = {f: _face(f) for f in FACE_NAMES}
FACE_POSITIONS = tuple((t, j) for t in range(3) for j in range(4 - t))   # face slot p -> (row, place)
_SLOT = {pos: p for p, pos in enumerate(FACE_POSITIONS)}
FACE_NEIGHBOURS = tuple(
    sum(1 << _SLOT[b] for a, b in FACE_ADJACENCY if a == pos) | sum(1 << _SLOT[a] for a, b in FACE_ADJACENCY
                                                                      if b == pos)
    for pos in FACE_POSITIONS)
INNER = tuple(INDEX[n] for n in ("1b2", "1c2", "1b3", "1c3", "2b2"))
INNER_MASK = sum(1 << i for i in INNER)
EDGES = {"SW": ("1a1", "2a1", "3a1"), "SE": ("1d1", "2c1", "3b1"),
         "NE": ("1d4", "2c3", "3b2"), "NW": ("1a4", "2a3", "3a2")}


def _groups(mask: int) -> tuple[int, ...]:
    """Sizes of the connected groups of a set of face slots (9-bit mask), smallest first."""
    sizes = []
    while mask:
        frontier = mask & -mask
        group = 0
        while frontier:
            group |= frontier
            nxt = 0
            f = frontier
            while f:
                b = f & -f
                nxt |= FACE_NEIGHBOURS[b.bit_length() - 1]
                f ^= b
            frontier = nxt & mask & ~group
        sizes.append(bin(group).count("1"))
        mask &= ~group
    return tuple(sorted(sizes))


GROUPS = tuple(_groups(m) for m in range(512))   # every subset of a face -> its group sizes
_FACE_CELLS = tuple(FACES[f] for f in FACE_NAMES)

# Canonical move strings, precomputed: SLIDE_PREFIX[src][dst] + NAMES[place].
SLIDE_PREFIX = tuple(tuple(f"{NAMES[s]}-{NAMES[d]} " for d in range(NCELLS)) for s in range(NCELLS))


# Speed tables: the set bits of every byte value, per byte of a 29-bit mask (as indices and as cell names).
_BYTE_BITS = tuple(tuple(i for i in range(8) if b >> i & 1) for b in range(256))
_BITS_AT = tuple(tuple(tuple(8 * k + i for i in _BYTE_BITS[b]) for b in range(256)) for k in range(4))
_NAMES_AT = tuple(tuple(tuple(NAMES[i] for i in bits if i < NCELLS) for bits in table) for table in _BITS_AT)
_BASE_MASK = LEVEL_MASK[0]


def _platforms(width: int) -> tuple[int, ...]:
    """For every occupancy of two adjacent rows of ``width`` cells (lower row in the low bits): the cells of the
    row above them (``width - 1`` cells, one level up) whose 2x2 platform is full."""
    out = []
    for m in range(1 << 2 * width):
        both = m & m >> width
        out.append(sum(1 << x for x in range(width - 1) if both >> x & 3 == 3))
    return tuple(out)


_PLATFORMS_4, _PLATFORMS_3 = _platforms(4), _platforms(3)


def _bits(mask: int) -> tuple[int, ...]:
    """The set bits of a cell mask, ascending."""
    b0, b1, b2, b3 = _BITS_AT
    return b0[mask & 255] + b1[mask >> 8 & 255] + b2[mask >> 16 & 255] + b3[mask >> 24 & 255]


def _bit_names(mask: int) -> tuple[str, ...]:
    """The names of the cells of a mask, in index order."""
    n0, n1, n2, n3 = _NAMES_AT
    return n0[mask & 255] + n1[mask >> 8 & 255] + n2[mask >> 16 & 255] + n3[mask >> 24 & 255]


def _playable(occ: int) -> int:
    """Bitmask of the playable points: empty holes, and empty points over a full 2x2 platform. §2.2"""
    p4, p3 = _PLATFORMS_4, _PLATFORMS_3
    supported = (p4[occ & 255] << 16 | p4[occ >> 4 & 255] << 19 | p4[occ >> 8 & 255] << 22   # level 2 rows
                 | p3[occ >> 16 & 63] << 25 | p3[occ >> 19 & 63] << 27)                   # level 3 rows
    return (_BASE_MASK | supported) & ~occ


def _chain(occ: int, src: int) -> list[int]:
    """The cells whose marbles tumble when the marble on ``src`` is lifted, lowest first (src not pinned)."""
    out: list[int] = []
    hole = src
    while True:
        up = RESTING_MASK[hole] & occ
        if not up:
            return out
        hole = up.bit_length() - 1
        out.append(hole)


# --- Seats ------------------------------------------------------------------------------------------------

def seat_colour(players: int, seat: int) -> int:
    """Colour code (1 W, 2 B, 3 R) a seat places. §3 rule 2"""
    return seat % 2 + 1 if players in TEAM_SEATS else seat + 1


SEAT_NAMES = {2: ("White", "Black"), 3: ("White", "Black", "Red"),
              4: ("White A", "Black A", "White B", "Black B")}

# --- Move parsing (§5) ------------------------------------------------------------------------------------

_TOKEN = r"[0-9a-z]+"
_TURN_RE = re.compile(
    rf"^(?:(?P<src>{_TOKEN})\s*-\s*(?P<dst>{_TOKEN})\s*(?:[,;+]\s*|\s+))?(?P<place>{_TOKEN})$")
_SLIDE_ONLY_RE = re.compile(rf"^(?P<src>{_TOKEN})\s*-\s*(?P<dst>{_TOKEN})\s*[,;+]?$")
_CELL_RE = re.compile(r"^([0-9]+)([a-z])([0-9]+)$")
_FORMAT = phrase("Type a turn as `place` or `from-to place`, for example `1c3` or `1b1-1c2 2a1`.")


def _cell(token: str, level: int | None = None) -> int:
    """The index of a typed cell name; ``level`` fills in a destination typed without its level."""
    if level is not None and re.fullmatch(r"[a-z][0-9]+", token):
        token = f"{level + 1}{token}"
    if token in INDEX:
        return INDEX[token]
    m = _CELL_RE.match(token)
    if not m:
        raise IllegalMove(phrase(
            "`{token}` is not a cell name: cells are written level, file, rank, like `1a1` or `2b3`.", token=token
        ))
    lev = int(m.group(1)) if len(m.group(1)) < 4 else 0    # (int() refuses very long digit strings)
    if lev == 4:
        raise IllegalMove(phrase(
            "{token} is on the peak, which Spinca never uses (levels 1 to 3 only).", token=token
        ))
    if not 1 <= lev <= 3:
        raise IllegalMove(phrase("{token} is not a cell: the levels are 1, 2 and 3.", token=token))
    n = SIZE[lev - 1]
    raise IllegalMove(phrase(
        "{token} is not a cell: level {level} has files a–{last} and ranks 1–{n}.",
        token=token, level=lev, last='abcd'[n - 1], n=n
    ))


def parse_turn(text: str) -> tuple[int, int, int]:
    """(src, dst, place) indices of a typed turn, src = dst = -1 without a slide. Lenient forms of §5."""
    known = _CANONICAL_TURNS.get(text)   # the canonical strings legal_moves() produces: no parsing needed
    if known is not None:
        return known
    t = text.strip().lower()
    if t in INDEX:
        return -1, -1, INDEX[t]
    t = re.sub(r"\([^)]*\)", " ", t)        # the informational "(2a1↓1b1)" of a log line
    t = t.replace("->", "-").replace("→", "-").replace("–", "-").replace(">", "-")
    t = re.sub(r"\s+", " ", t).strip()
    m = _TURN_RE.match(t)
    if not m:
        s = _SLIDE_ONLY_RE.match(t)
        if s:
            src = _cell(s.group("src"))
            _cell(s.group("dst"), LEVEL[src])
            raise IllegalMove(phrase("You must also place a marble: a turn always ends with a placement."))
        raise IllegalMove(_FORMAT if t else phrase("Type a turn, for example `1c3` or `1b1-1c2 2a1`."))
    place = _cell(m.group("place"))
    if m.group("src") is None:
        return -1, -1, place
    src = _cell(m.group("src"))
    return src, _cell(m.group("dst"), LEVEL[src]), place


# Every canonical turn string (placements, and slides between same-level neighbours then a placement) -> its
# (src, dst, place) triple, exactly what parsing it gives; a speed table for parse_turn.
_CANONICAL_TURNS: dict[str, tuple[int, int, int]] = {NAMES[p]: (-1, -1, p) for p in range(NCELLS)}
_CANONICAL_TURNS.update({SLIDE_PREFIX[s][d] + NAMES[p]: (s, d, p)
                         for s in range(NCELLS) for d in _bits(NEIGHBOURS[s]) for p in range(NCELLS)})


def decide_winner(totals: dict[int, int], inner: dict[int, int]) -> int:
    """The winning colour from face totals and inner-pyramid counts (colour code -> number). §3 rules 12-14

    Highest total wins. With 2 colours (2 players or teams) a tie goes to the inner pyramid. With 3 colours
    a two-way tie for the highest is won by the third (lowest); a three-way tie goes to the inner pyramid,
    decided the same way (highest inner count; a two-way tie there is won by the lowest).
    """
    codes = sorted(totals)
    for score in (totals, inner):
        best = max(score[c] for c in codes)
        top = [c for c in codes if score[c] == best]
        if len(top) == 1:
            return top[0]
        if len(codes) == 3 and len(top) == 2 and THREE_PLAYER_TWO_WAY_TIE_LOWEST_WINS:
            return next(c for c in codes if c not in top)
    raise AssertionError("Spinca cannot end without a winner")   # §3 rule 14 (5 inner marbles)


# --- State ------------------------------------------------------------------------------------------------

class SpincaState(State):
    """A Spinca position. Immutable; ``play`` returns a new state."""

    __slots__ = ("players", "variant", "board", "occ", "locked", "turn", "count", "_moves", "_totals",
                 "_winners")

    def __init__(self, players: int, board: tuple[int, ...], locked: int, turn: int):
        self.players = players
        self.variant = None
        self.board = board          # 29 colour codes
        occ = 0
        for i, c in enumerate(board):
            if c:
                occ |= 1 << i
        self.occ = occ
        self.locked = locked        # bitmask of the cells locked for the player to move
        self.turn = turn            # seat to move (after the end: the seat that would move next)
        self.count = bin(occ).count("1")
        self._moves: list[str] | None = None
        self._totals: dict[int, int] | None = None
        self._winners: tuple[int, ...] | None = None

    # --- contract ----------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.count == NCELLS   # §3 rule 10: the temple is complete after the 29th placement

    @property
    def to_move(self) -> int | None:
        return None if self.count == NCELLS else self.turn

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's face total (provisional until the end); in a team game each seat has its team's."""
        totals = self.totals
        return tuple(totals[seat_colour(self.players, s)] for s in range(self.players))

    @property
    def winners(self) -> tuple[int, ...]:
        if self.count != NCELLS:
            return ()
        if self._winners is None:
            colour = self.winning_colour()
            self._winners = tuple(s for s in range(self.players) if seat_colour(self.players, s) == colour)
        return self._winners

    def slides(self) -> list[tuple[int, int]]:
        """Every legal (src, dst) slide. §3 rule 6"""
        occ, locked, board = self.occ, self.locked, self.board
        mine = seat_colour(self.players, self.turn)
        out = []
        free_dst = ~occ
        for src in _bits(occ & ~locked):
            if not SLIDE_ANY_COLOUR and board[src] != mine:
                continue
            up = RESTING_MASK[src] & occ
            if up & (up - 1):
                continue                                  # pinned: carries two or more
            dsts = NEIGHBOURS[src] & free_dst
            if not dsts:
                continue
            hole = src
            blocked = False
            while up:                                     # the tumble chain (never branches, §2.4)
                hole = up.bit_length() - 1
                if locked >> hole & 1:
                    blocked = True
                    break
                up = RESTING_MASK[hole] & occ
            if blocked:
                continue
            for dst in _bits(dsts):
                s = SUPPORT[dst]
                if occ & s == s:
                    out.append((src, dst))
        return out

    def legal_moves(self) -> list[str]:
        if self._moves is None:
            if self.count == NCELLS:
                self._moves = []
            else:
                occ = self.occ
                moves = list(_bit_names(_playable(occ)))
                for src, dst in self.slides():
                    chain = _chain(occ, src)
                    top = chain[-1] if chain else src
                    prefix = SLIDE_PREFIX[src][dst]
                    moves += [prefix + name for name in _bit_names(_playable(occ & ~(1 << top) | 1 << dst))]
                moves.sort()
                self._moves = moves
        return list(self._moves)

    def play(self, move: str) -> SpincaState:
        if self.count == NCELLS:
            raise IllegalMove(phrase("The game is over: the temple is complete."))
        src, dst, place = parse_turn(move)
        occ, board = self.occ, list(self.board)
        moved = 0
        if src >= 0:
            chain = self._check_slide(src, dst)
            colour = board[src]
            hole = src
            for c in chain:                              # each marble drops into the cell just vacated
                board[hole] = board[c]
                moved |= 1 << hole if TUMBLED_MARBLES_LOCK else 0
                hole = c
            board[hole] = 0
            board[dst] = colour
            moved |= 1 << dst
            occ = occ & ~(1 << hole) | 1 << dst
        if occ >> place & 1:
            raise IllegalMove(phrase("{cell} is occupied: place your marble on an empty point.", cell=NAMES[place]))
        s = SUPPORT[place]
        if occ & s != s:
            raise IllegalMove(phrase(
                "{cell} is not supported: a marble goes on the base or on a full 2×2 platform ({missing} "
                "is empty).", cell=NAMES[place], missing=self._missing(occ, place)
            ))
        board[place] = seat_colour(self.players, self.turn)
        return SpincaState(self.players, tuple(board), moved | 1 << place, (self.turn + 1) % self.players)

    def encode(self) -> str:
        b = "".join(COLOURS[c] for c in self.board)
        rows = [b[0:4], b[4:8], b[8:12], b[12:16], b[16:19], b[19:22], b[22:25], b[25:27], b[27:29]]
        locked = ",".join(NAMES[i] for i in _bits(self.locked)) or "-"
        return f"{self.players} {'/'.join(rows)} {self.turn + 1} {locked}"

    # --- rule checks with messages ------------------------------------------------------------------------
    @staticmethod
    def _missing(occ: int, cell: int) -> str:
        return next(NAMES[i] for i in _bits(SUPPORT[cell]) if not occ >> i & 1)

    def _check_slide(self, src: int, dst: int) -> list[int]:
        """The tumble chain of a legal slide; IllegalMove naming the rule otherwise. §3 rules 6-7, §5"""
        occ, locked = self.occ, self.locked
        s, d = NAMES[src], NAMES[dst]
        if not occ >> src & 1:
            raise IllegalMove(phrase("There is no marble on {s} to slide.", s=s))
        if not SLIDE_ANY_COLOUR and self.board[src] != seat_colour(self.players, self.turn):
            raise IllegalMove(phrase("{s} is not your marble.", s=s))
        if locked >> src & 1:
            raise IllegalMove(phrase(
                "{s} was moved or placed last turn (locked), so it cannot slide this turn.", s=s
            ))
        up = RESTING_MASK[src] & occ
        n = bin(up).count("1")
        if n >= 2:
            raise IllegalMove(phrase("{s} carries {n} marbles (pinned), so it cannot slide.", s=s, n=n))
        chain = _chain(occ, src)
        for c in chain:
            if locked >> c & 1:
                raise IllegalMove(phrase(
                    "Moving {s} would tumble locked {cell}, which was moved or placed last turn.",
                    s=s, cell=NAMES[c]
                ))
        if SLIDE_SAME_LEVEL_ONLY and LEVEL[dst] != LEVEL[src]:
            raise IllegalMove(phrase("{s}→{d} changes level: a marble slides only on its own level.", s=s, d=d))
        if not NEIGHBOURS[src] >> dst & 1:
            raise IllegalMove(phrase(
                "{s}→{d} is not a slide to an adjacent cell (orthogonal or diagonal).", s=s, d=d
            ))
        if occ >> dst & 1:
            raise IllegalMove(phrase("{d} is occupied: a marble slides only to an empty point.", d=d))
        sup = SUPPORT[dst]
        if occ & sup != sup:
            raise IllegalMove(phrase(
                "{d} is not supported: a marble slides only onto a full 2×2 platform ({missing} is empty).",
                d=d, missing=self._missing(occ, dst)
            ))
        return chain

    # --- read-only accessors for the bot and the renderer ---------------------------------------------------
    @property
    def colours(self) -> tuple[str, ...]:
        """Colour letters in play: ('W', 'B') or ('W', 'B', 'R')."""
        return ("W", "B", "R") if self.players == 3 else ("W", "B")

    def colour_at(self, cell: str | int) -> str | None:
        """'W', 'B', 'R' or None for a cell name or index."""
        c = self.board[INDEX[cell] if isinstance(cell, str) else cell]
        return COLOURS[c] if c else None

    @property
    def cells(self) -> dict[str, str]:
        """Occupied cells: name -> colour letter."""
        return {NAMES[i]: COLOURS[c] for i, c in enumerate(self.board) if c}

    @property
    def locked_cells(self) -> tuple[str, ...]:
        """The cells the player to move may not slide (nor tumble), in canonical order."""
        return tuple(NAMES[i] for i in _bits(self.locked))

    def playable_cells(self) -> tuple[str, ...]:
        return tuple(NAMES[i] for i in _bits(_playable(self.occ)))

    def seat_colour(self, seat: int) -> str:
        return COLOURS[seat_colour(self.players, seat)]

    @property
    def marbles_left(self) -> tuple[int, ...]:
        """Placements left per seat (§3 rule 3: marbles left = placements left)."""
        left = [0] * self.players
        for i in range(NCELLS - self.count):
            left[(self.turn + i) % self.players] += 1
        return tuple(left)

    def face_cells(self, face: str) -> tuple[str, ...]:
        return tuple(NAMES[i] for i in FACES[face])

    def face_groups(self, face: str) -> dict[str, tuple[int, ...]]:
        """Each colour's group sizes on a face (smallest first; () when absent). §3 rule 11"""
        out = {}
        for letter in self.colours:
            code = COLOURS.index(letter)
            mask = 0
            for p, i in enumerate(FACES[face]):
                if self.board[i] == code:
                    mask |= 1 << p
            out[letter] = GROUPS[mask]
        return out

    def face_scores(self, face: str) -> dict[str, int]:
        return {c: (g[0] if g else EMPTY_FACE_SCORE) for c, g in self.face_groups(face).items()}

    @property
    def totals(self) -> dict[int, int]:
        """Colour code -> sum of the four face scores."""
        if self._totals is None:   # face_scores() for every face, without the dicts (a hot path of the AI)
            board = self.board
            codes = (1, 2, 3) if self.players == 3 else (1, 2)
            totals = dict.fromkeys(codes, 0)
            for cells in _FACE_CELLS:
                masks = [0, 0, 0, 0]
                for p, i in enumerate(cells):
                    masks[board[i]] |= 1 << p
                for c in codes:
                    groups = GROUPS[masks[c]]
                    totals[c] += groups[0] if groups else EMPTY_FACE_SCORE
            self._totals = totals
        return self._totals

    def inner_counts(self) -> dict[str, int]:
        """Marbles of each colour in the inner pyramid (1b2 1c2 1b3 1c3 2b2)."""
        return {c: sum(self.board[i] == COLOURS.index(c) for i in INNER) for c in self.colours}

    def winning_colour(self) -> int:
        """Colour code of the winner of a complete temple. §3 rules 12-13"""
        inner = {COLOURS.index(c): n for c, n in self.inner_counts().items()}
        return decide_winner(self.totals, inner)

    def tumbles(self, move: str) -> list[tuple[str, str]]:
        """The (from, to) drops a legal turn causes, lowest first."""
        src, dst, _ = parse_turn(move)
        if src < 0:
            return []
        chain = _chain(self.occ, src)
        return [(NAMES[c], NAMES[h]) for h, c in zip([src] + chain, chain, strict=False)]

    def describe_phrase(self, move: str) -> Phrase:
        try:
            src, dst, place = parse_turn(move)
        except IllegalMove:
            return NOTHING
        put = phrase("place {cell}", cell=NAMES[place])
        if src < 0:
            return put
        drops = self.tumbles(move)
        colour = _letter(self.board[src]) if self.board[src] else "?"
        slide = phrase("slide {colour} {from_}→{to}", colour=colour, from_=NAMES[src], to=NAMES[dst])
        if drops:
            cells = [f for f, _ in drops]
            tumbled = phrase("{a} and {b}", a=", ".join(cells[:-1]), b=cells[-1]) if len(cells) > 1 else cells[0]
            slide = phrase("{slide}, tumbles {cells}", slide=slide, cells=tumbled)
        return joined([slide, put])

    def outcome(self) -> Outcome | None:
        """§3 rules 12-14 as data. The roles: ``winner`` (and ``partner`` in a team game), ``loser`` (and
        ``loser_partner``) with 2 colours, ``other1`` and ``other2`` (in colour order) with 3."""
        if not self.is_over:
            return None
        winners = self.winners
        ranks = rank_seats(self, winners)
        players = self.players
        win = self.winning_colour()
        totals = self.totals
        inner = self.inner_counts()
        others = [c for c in sorted(totals) if c != win]
        best = max(totals.values())
        top_inner = max(inner.values())

        def seats(code: int) -> list[int]:
            return [seat for seat in range(players) if seat_colour(players, seat) == code]

        facts: dict[str, str | int] = {"points": totals[win], "best": best, "inner": inner[COLOURS[win]],
                                       "top_inner": top_inner}
        if len(others) == 2:      # 3 players
            suffix = "_three"
            roles = {"winner": seats(win)[0]}
            for name, code in zip(("other1", "other2"), others, strict=True):
                roles[name] = seats(code)[0]
                facts[f"{name}_points"] = totals[code]
                facts[f"{name}_inner"] = inner[COLOURS[code]]
        else:                     # 2 colours: 2 players, or two teams of 2
            suffix = "_teams" if players in TEAM_SEATS else ""
            roles = {}
            for name, code in (("winner", win), ("loser", others[0])):
                first, *partner = seats(code)
                roles[name] = first
                if partner:
                    roles[f"{name}_partner" if name == "loser" else "partner"] = partner[0]
            facts["loser_points"] = totals[others[0]]
            facts["loser_inner"] = inner[COLOURS[others[0]]]
        if totals[win] == best and all(totals[c] < best for c in others):
            termination = "faces" + suffix
        elif totals[win] < best:          # 3 players: the other two tied for the highest total
            termination = "highest_tied"
        elif inner[COLOURS[win]] < top_inner:   # 3 players: the other two tied in the inner pyramid
            termination = "inner_tied"
        else:
            termination = "inner" + suffix
        return Outcome(SpincaTermination(termination), winners, ranks, roles, facts)

    def text_board_phrase(self) -> Phrase:
        def row(k: int, y: int) -> Phrase:
            return joined([_letter(self.board[_index(k, x, y)]) for x in range(SIZE[k])], " ")

        def cells(level: int, y: int, width: int) -> Phrase | str:
            """A level's row ``y`` padded to ``width`` (its letters are one character in every language)."""
            if y >= SIZE[level]:
                return " " * width
            return Phrase("{rank}   {row}{pad}", {"rank": f" {y + 1}", "row": row(level, y),
                                                   "pad": " " * (width - 5 - 2 * SIZE[level] + 1)})
        lines: list[Phrase | str] = ["L3   a b        L2   a b c        L1   a b c d"]
        for y in range(3, -1, -1):
            lines.append(Phrase("{l3}{l2}{l1}", {"l3": cells(2, y, 16), "l2": cells(1, y, 18), "l1": cells(0, y, 0)}))
        lines.append(phrase("locked: {cells}", cells=" ".join(self.locked_cells) or "-"))
        names = SEAT_NAMES[self.players]
        totals = joined([Phrase("{letter} {n}", {"letter": _letter(COLOURS.index(c)),
                                                 "n": self.totals[COLOURS.index(c)]}) for c in self.colours], " ")
        outcome = self.outcome()
        if outcome is not None:
            lines.append(phrase("over: {result}", result=outcome_phrase(GAME, outcome, names)))
        else:
            lines.append(phrase("turn {n}/29, {seat} to move; face points {totals}", n=self.count + 1,
                                seat=Phrase(names[self.turn]), totals=totals))
        return joined(lines, "\n")

    def turn_record(self, moves: list[str]) -> str:
        """§5 log line of a turn played from this state: ``1b1-1c2 (2a1↓1b1) 2a1``."""
        if not moves:
            return ""
        src, dst, place = parse_turn(moves[0])
        if src < 0:
            return NAMES[place]
        drops = " ".join(f"{a}↓{b}" for a, b in self.tumbles(moves[0]))
        return f"{NAMES[src]}-{NAMES[dst]} " + (f"({drops}) " if drops else "") + NAMES[place]

    def __repr__(self) -> str:
        return f"<SpincaState {self.encode()}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpincaState) and self.encode() == other.encode()

    def __hash__(self) -> int:
        return hash(self.encode())


# --- Game -------------------------------------------------------------------------------------------------


class SpincaTermination(Termination):
    """How a game of Spinca ends (the keys of ``SpincaGame.terminations``): by face points or
    the inner pyramid, for two players, two teams or three players."""

    FACES = "faces"
    FACES_TEAMS = "faces_teams"
    FACES_THREE = "faces_three"
    HIGHEST_TIED = "highest_tied"
    INNER_TIED = "inner_tied"
    INNER = "inner"
    INNER_TEAMS = "inner_teams"
    INNER_THREE = "inner_three"


class SpincaGame(Game):
    key = "spinca"
    title = "Spinca"
    player_counts = (2, 3, 4)
    variants = ()
    teams = TEAM_SEATS
    termination_kinds = SpincaTermination
    terminations = {
        "faces": "{winner} wins with {points} face points ({loser} {loser_points}).",
        "faces_teams": "{winner} and {partner} win with {points} face points "
                       "({loser} and {loser_partner} {loser_points}).",
        "faces_three": "{winner} wins with {points} face points ({other1} {other1_points}, "
                       "{other2} {other2_points}).",
        "highest_tied": "{other1} and {other2} tied for the highest total ({best}), so {winner} wins with "
                        "{points} face points.",
        "inner_tied": "All face totals tied at {best} and {other1} and {other2} tied in the inner pyramid with "
                      "{top_inner} marbles each, so {winner} wins with {inner}.",
        "inner": "Face points tied at {best}; {winner} wins with {inner} of the 5 inner-pyramid marbles "
                 "({loser} {loser_inner}).",
        "inner_teams": "Face points tied at {best}; {winner} and {partner} win with {inner} of the 5 "
                       "inner-pyramid marbles ({loser} and {loser_partner} {loser_inner}).",
        "inner_three": "Face points tied at {best}; {winner} wins with {inner} of the 5 inner-pyramid marbles "
                       "({other1} {other1_inner}, {other2} {other2_inner}).",
    }

    def new(self, players: int = 2, seed: int | None = None, variant: str | None = None) -> SpincaState:
        if players not in self.player_counts:
            raise ValueError("Spinca is played by 2, 3 or 4 players.")
        if variant is not None:
            raise ValueError("Spinca has no variants.")
        return SpincaState(players, (0,) * NCELLS, 0, 0)   # §3 rule 4: empty board, White first

    def seat_names(self, players: int) -> tuple[str, ...]:
        return SEAT_NAMES[players]

    def step_cells(self, move: str, index: int) -> tuple[str, ...]:
        """A Spinca cell is named with its level: ``1b1``."""
        return tuple(re.findall(r"\d[a-z]\d", self.move_steps(move)[index]))

    def split_turn(self, text: str) -> list[str]:
        text = text.strip()
        return [text] if text else []        # one move per turn: the whole text is the move

    def decode(self, code: str) -> SpincaState:
        fields = code.split()
        if len(fields) != 4:
            raise InvalidPosition(phrase(
                "A Spinca position code has four fields: players, cells, seat to move, locked cells."
            ))
        players_s, cells_s, seat_s, locked_s = fields
        if players_s not in ("2", "3", "4"):
            raise InvalidPosition(phrase(
                "The number of players must be 2, 3 or 4, not {players_s!r}.", players_s=players_s
            ))
        players = int(players_s)
        rows = cells_s.split("/")
        widths = (4, 4, 4, 4, 3, 3, 3, 2, 2)
        if len(rows) != 9 or tuple(len(r) for r in rows) != widths:
            raise InvalidPosition(phrase(
                "The cells field must be 9 rows joined by '/': four of 4 cells, three of 3 and two of 2."
            ))
        allowed = ".WBR" if players == 3 else ".WB"
        bad = next((ch for ch in "".join(rows) if ch not in allowed and ch not in allowed.lower()), None)
        if bad is not None:
            raise InvalidPosition(phrase(
                "{bad!r} is not a marble in a {players}-player game (use {join}).",
                bad=bad, players=players, join=', '.join(allowed)
            ))
        letters = "".join(rows).upper()
        board = tuple(COLOURS.index(ch) for ch in letters)
        occ = sum(1 << i for i, c in enumerate(board) if c)
        for i in UPPER:
            if occ >> i & 1 and occ & SUPPORT[i] != SUPPORT[i]:
                raise InvalidPosition(phrase(
                    "The marble on {cell} has no support: {missing} under it is empty.",
                    cell=NAMES[i], missing=SpincaState._missing(occ, i)
                ))
        if seat_s not in [str(seat) for seat in range(1, players + 1)]:   # (isdigit() holds for '²' too)
            raise InvalidPosition(phrase(
                "The seat to move must be 1 to {players}, not {seat_s!r}.", players=players, seat_s=seat_s
            ))
        locked = 0
        if locked_s != "-":
            for name in locked_s.lower().split(","):
                if name not in INDEX:
                    raise InvalidPosition(phrase("Locked cell {name!r} is not a cell.", name=name))
                i = INDEX[name]
                if locked >> i & 1:
                    raise InvalidPosition(phrase("Locked cell {name} is listed twice.", name=name))
                if not occ >> i & 1:
                    raise InvalidPosition(phrase(
                        "Locked cell {name} is empty: only marbles can be locked.", name=name
                    ))
                locked |= 1 << i
            if bin(locked).count("1") > 4:
                raise InvalidPosition(phrase(
                    "At most four marbles can be locked (the slid one, two tumbled ones and the placed "
                    "one)."
                ))
        return SpincaState(players, board, locked, int(seat_s) - 1)

    def suggestion_phrases(self, state: State, typed: str, limit: int = 25) -> list[tuple[str, Phrase]]:
        """Place-only turns first, then slide-then-place turns, matching what was typed (lenient forms)."""
        want = normalise(typed)
        want = re.sub(r"\([^)]*\)?", " ", want)
        want = want.replace("->", "-").replace("→", "-").replace("–", "-").replace(">", "-")
        want = re.sub(r"\s*-\s*", "-", want)
        want = re.sub(r"\s*[,;+]\s*", " ", want)
        want = re.sub(r"^([0-9])([a-z][0-9])-([a-z])", r"\1\2-\1\3", want)   # destination level left out
        want = re.sub(r"\s+", " ", want).lstrip()
        moves = state.legal_moves()
        places = [m for m in moves if " " not in m and m.startswith(want)]
        slides = [m for m in moves if " " in m and m.startswith(want)]
        out = []
        for move in (places + slides)[:limit]:
            out.append((move, labelled(move, state.describe_phrase(move))))
        return out


GAME = SpincaGame()
SpincaState.game = GAME
