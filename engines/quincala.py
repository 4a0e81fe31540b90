"""Quincala (Game 3, "Quincala Standard", short rules of 02/06/2010) as ../shared/rules/quincala.md says.

The designer's three figures (board, white dots, placing areas and paths) are unpublished, so the project
plays **reconstruction R1** (spec §4) with every switch of §4.11 at its R1 default. The geometry — dots,
white-dot roles, placing areas, travel paths and start layouts — is *data*: one ``BoardData`` table per
variant (``BOARDS``), kept apart from the rules code so the real figures can replace it.

Atomic moves (spec "Moves"): placements ``w5@c2``, ``home``, legs ``d3-d6``, ``end`` and ``pass``. A turn is
several of them by the same player; ``to_move`` stays on that player until the turn ends.

A state stores the board as a tuple of ints, one per grid point: bit ``s-1`` is White's piece of size ``s``,
bit ``8+s-1`` Black's (a dot holds at most one piece per size, so this is exact). Hands and ledges are four
sorted tuples of sizes, immunity marks are ``(dot index, size)`` pairs (a piece is identified by its dot and
size, as in the position code). ``play`` copies the tuple and rebuilds only what changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import itemgetter
from typing import NamedTuple, NoReturn

from engines.base import (
    NOTHING,
    TURN_CAP_TERMINATION,
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
    normalise,
    outcome_phrase,
    phrase,
    rank_seats,
)

# --------------------------------------------------------------------------------------------------------
# §4.11 engine switches, each at its R1 default
# --------------------------------------------------------------------------------------------------------

RELEASE_SCOPE = "board"  # R-R1 [I]: "board" (every mixed black tower) | "endpoint" (the last leg's)
TRAVEL_ORDER = ("opp_home", "own_quincala")  # §4.5 [R], relative to the travelling piece's owner; any
#                                  sequence of "opp_home", "own_quincala", "own_home", "opp_quincala"
OVERFLOW = "hand_ledge"  # §4.5 [R]: "hand_ledge" (own colour to hand, mover's to ledge) | "reserve"
#                                  (one pile: only changes R-T5's priority, which then ignores colour)
WHITE_DOT_LANDING = "allowed"  # R-M5 [R]: "allowed" unless a lifted size is already there | "forbidden"
CONTINUE_FROM_WHITE_DOT = True  # R-M8 [R]: a further leg may start on a white dot the last leg ended on
IMMUNE_BLOCKS_RELEASE = True  # R-R3 [R]: immune pieces are not released while their immunity lasts
CONTINUE_OPTIONAL = True  # R-M7 [I]: ``end`` may stop a move that could go on
RELEASE_TIE_ORDER = "dot"  # R-R4: same colour and size on several dots travel in field-2 dot order

# --------------------------------------------------------------------------------------------------------
# Geometry as data: one table per variant (spec §4.2–§4.6, all [R])
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardData:
    """Everything the missing figures would fix. Replace a table to play the real board."""

    sizes: int  # k: pieces come in sizes 1..k
    pieces_per_size: int  # of each size, per colour (R-C2)
    files: str  # file letters, left to right from White's side
    ranks: int  # ranks 1..ranks, from White's edge
    white_dots: dict[str, tuple[str, str]]  # dot -> (role "home" | "quincala", owner "w" | "b")
    placing_areas: dict[str, tuple[tuple[str, tuple[str, ...]], ...]]  # colour -> ((area name, dots), ...)
    paths: dict[str, tuple[str, ...]]  # piece colour -> white dots tried in order (Fig. 3)
    start: dict[str, str]  # dot -> piece ("w3") in the starting position (Fig. 1)
    holes: frozenset[str] = field(default_factory=frozenset)  # grid points outside the playing area


def _block(files: str, first_rank: int, last_rank: int) -> tuple[str, ...]:
    return tuple(f"{f}{r}" for r in range(first_rank, last_rank + 1) for f in files)


def _rows(files: str, rows: dict[int, str]) -> dict[str, str]:
    """A start layout written rank by rank as in the spec's pictures ('.' = empty)."""
    out = {}
    for rank, row in rows.items():
        cells = row.split()
        assert len(cells) == len(files), (rank, row)
        for f, cell in zip(files, cells, strict=True):
            if cell != ".":
                out[f"{f}{rank}"] = cell
    return out


def _paths_by_role(
    white_dots: dict[str, tuple[str, str]], order: tuple[str, ...]
) -> dict[str, tuple[str, ...]]:
    """§4.5: the white dots a piece of each colour tries, from roles relative to the piece's owner."""
    by_role = {(role, owner): dot for dot, (role, owner) in white_dots.items()}
    out = {}
    for me, opp in (("w", "b"), ("b", "w")):
        want = {
            "opp_home": ("home", opp),
            "own_quincala": ("quincala", me),
            "own_home": ("home", me),
            "opp_quincala": ("quincala", opp),
        }
        out[me] = tuple(by_role[want[step]] for step in order)
    return out


_R1_FILES = "abcdefghij"
_R1_WHITE_DOTS = {"e5": ("home", "w"), "f5": ("quincala", "w"), "e6": ("quincala", "b"), "f6": ("home", "b")}
_R1_PLACING: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "w": (("files a–e", _block("abcde", 1, 4)), ("files f–j", _block("fghij", 1, 4))),
    "b": (("files a–e", _block("abcde", 7, 10)), ("files f–j", _block("fghij", 7, 10))),
}
_R1_PATHS = _paths_by_role(_R1_WHITE_DOTS, TRAVEL_ORDER)  # White's pieces f6, f5; Black's e5, e6

# The start layouts by number of sizes (Fig. 1 as reconstructed, rank by rank as in the spec's pictures);
# everything else is the same board.
_R1_STARTS = {
    5: {
        10: "b5 b4 b3 b2 b1 b5 b4 b3 b2 b1",
        9: "b2 b1 b5 b4 b3 b2 b1 b5 b4 b3",
        2: "w3 w4 w5 w1 w2 w3 w4 w5 w1 w2",
        1: "w1 w2 w3 w4 w5 w1 w2 w3 w4 w5",
    },
    4: {
        10: ". b4 b3 b2 b1 b4 b3 b2 b1 .",
        9: ". b2 b1 b4 b3 b2 b1 b4 b3 .",
        2: ". w3 w4 w1 w2 w3 w4 w1 w2 .",
        1: ". w1 w2 w3 w4 w1 w2 w3 w4 .",
    },
    3: {
        10: ". . b3 b2 b1 b3 b2 b1 . .",
        8: ". . b1 b3 b2 b1 b3 b2 . .",
        3: ". . w2 w3 w1 w2 w3 w1 . .",
        1: ". . w1 w2 w3 w1 w2 w3 . .",
    },
}


def _r1_board(sizes: int) -> BoardData:
    """R1's board played with ``sizes`` sizes of pieces."""
    return BoardData(sizes=sizes, pieces_per_size=4, files=_R1_FILES, ranks=10, white_dots=_R1_WHITE_DOTS,
                     placing_areas=_R1_PLACING, paths=_R1_PATHS, start=_rows(_R1_FILES, _R1_STARTS[sizes]))


BOARDS: dict[str, BoardData] = {str(sizes): _r1_board(sizes) for sizes in _R1_STARTS}
BOARD_5, BOARD_4, BOARD_3 = BOARDS["5"], BOARDS["4"], BOARDS["3"]

# --------------------------------------------------------------------------------------------------------
# Compiled geometry (built once per table at import)
# --------------------------------------------------------------------------------------------------------

SH = 8  # Black's sizes sit 8 bits above White's in a cell
LOW = 0xFF
COLOURS = "wb"
SEAT_NAMES = ("White", "Black")
# Where a player's pieces wait to be placed.
HAND, LEDGE = mark("hand"), mark("ledge")
TRAYS = {"hand": HAND, "ledge": LEDGE}
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
PLACE, PLACED = -1, -2  # phases; a phase >= 0 is leg@<that dot index>
_POP = tuple(bin(i).count("1") for i in range(256))
_TOP = tuple((1 << (i.bit_length() - 1)) if i else 0 for i in range(256))  # the largest size's bit
_BITS = tuple(tuple(s + 1 for s in range(8) if i >> s & 1) for i in range(256))  # sizes, small first
ROLE_LABEL = {("home", "w"): "WH", ("quincala", "w"): "WQ", ("home", "b"): "BH", ("quincala", "b"): "BQ"}


Cells = tuple[int, ...]  # per grid point: bit s-1 = White's piece of size s, bit SH+s-1 = Black's
Stash = tuple[tuple[int, ...], ...]  # White's hand, White's ledge, Black's hand, Black's ledge: sorted sizes
Marks = tuple[tuple[int, int], ...]  # immunity marks: (dot index, size), in field order


def piece_name(colour: int, size: int) -> str:
    return f"{COLOURS[colour]}{size}"


def _picker(indices: tuple[int, ...]):
    """``cells -> tuple of cells[i] for i in indices``, done in C (itemgetter alone returns a bare item for one)."""
    if len(indices) == 1:
        i = indices[0]
        return lambda cells: (cells[i],)
    return itemgetter(*indices)


class Geometry:
    """Index tables for one ``BoardData``: dot names, rays, white-dot roles, placing sets, paths."""

    def __init__(self, data: BoardData):
        self.data = data
        self.k = data.sizes
        self.full = (1 << data.sizes) - 1
        self.width, self.height = len(data.files), data.ranks
        n = self.width * self.height
        self.n = n
        self.names = tuple(f"{data.files[i % self.width]}{i // self.width + 1}" for i in range(n))
        self.index = {name: i for i, name in enumerate(self.names)}
        holes = {self.index[h] for h in data.holes}
        self.is_dot = tuple(i not in holes for i in range(n))
        self.dots = tuple(i for i in range(n) if self.is_dot[i])
        self.is_white = tuple(self.names[i] in data.white_dots for i in range(n))
        self.white = tuple(i for i in range(n) if self.is_white[i])
        self.black = tuple(i for i in self.dots if not self.is_white[i])
        self.role = {self.index[d]: rc for d, rc in data.white_dots.items()}
        self.home, self.quincala = (
            tuple(next(self.index[d] for d, (r, o) in data.white_dots.items() if r == role and o == c)
                  for c in COLOURS)
            for role in ("home", "quincala")
        )
        # beneficiary: a quincala dot wins for its owner, a home dot for its owner's opponent (§4.3)
        self.beneficiary = {
            i: (COLOURS.index(o) if r == "quincala" else 1 - COLOURS.index(o))
            for i, (r, o) in self.role.items()
        }
        self.win_dots = tuple(
            tuple(sorted(i for i, b in self.beneficiary.items() if b == seat)) for seat in (0, 1)
        )
        self.placing = tuple(
            tuple(sorted(self.index[d] for _, dots in data.placing_areas[c] for d in dots)) for c in COLOURS
        )
        self.placing_set = tuple(frozenset(p) for p in self.placing)
        self.paths = tuple(tuple(self.index[d] for d in data.paths[c]) for c in COLOURS)
        rays = []
        for i in range(n):
            x, y = i % self.width, i // self.width
            mine = []
            for dx, dy in DIRECTIONS:
                ray = []
                cx, cy = x + dx, y + dy
                while 0 <= cx < self.width and 0 <= cy < self.height and self.is_dot[cy * self.width + cx]:
                    ray.append(cy * self.width + cx)
                    cx, cy = cx + dx, cy + dy
                if ray:
                    mine.append(tuple(ray))
            rays.append(tuple(mine))
        self.rays = tuple(rays)
        self.leg_name = tuple(
            {b: f"{self.names[a]}-{self.names[b]}" for ray in self.rays[a] for b in ray} for a in range(n)
        )
        cells = [0] * n
        for d, p in data.start.items():
            c, s = COLOURS.index(p[0]), int(p[1:])
            cells[self.index[d]] |= 1 << (s - 1 + SH * c)
        self.start = tuple(cells)
        self._check()
        self._hot_tables()

    def _hot_tables(self) -> None:
        """Tables derived from the above that only make the hot paths (generation, play, releasing) cheaper."""
        n, names = self.n, self.names
        # rays[d] cut to each leg length 0..8 (legs carry at most 8 sizes), empty rays dropped
        self.rays_upto = tuple(
            tuple(tuple(ray[:steps] for ray in self.rays[d] if ray[:steps]) for steps in range(9))
            for d in range(n)
        )
        # a -> {b: (steps, dots strictly between)} for every b straight ahead of a through dots only
        self.lines = tuple(
            {b: (i, ray[: i - 1]) for ray in self.rays[a] for i, b in enumerate(ray, 1)} for a in range(n)
        )
        self.identity = tuple(range(n))  # dot -> dot and, below, dot -> leg move: what ``_targets`` lists
        self.leg_move = tuple(tuple(self.leg_name[a].get(b) for b in range(n)) for a in range(n))  # [a][b] -> "a-b"
        self.black_cells = _picker(self.black)
        # cell values with pieces of both colours, and of one colour only (only sizes 1..k exist)
        self.mixed = frozenset(w | b << SH for w in range(1, self.full + 1) for b in range(1, self.full + 1))
        self.own_only = tuple(frozenset(s << SH * c for s in range(1, self.full + 1)) for c in (0, 1))
        # placing dots in name order, and per mover and piece the placement moves on them in that order,
        # so that ``compress`` with the empty-dot mask yields a sorted run of moves
        self.placing_by_name = tuple(tuple(sorted(p, key=names.__getitem__)) for p in self.placing)
        self.placing_cells = tuple(_picker(p) for p in self.placing_by_name)
        self.place_moves = tuple(
            {
                (c, s): tuple(f"{piece_name(c, s)}@{names[d]}" for d in self.placing_by_name[m])
                for c in (0, 1)
                for s in range(1, self.k + 1)
            }
            for m in (0, 1)
        )
        # every canonical move string -> its parsed action, so ``play`` skips the text clean-up and regexes
        actions: dict[str, tuple] = {"end": ("end",), "pass": ("pass",), "home": ("home",)}
        for c in (0, 1):
            for s in range(1, self.k + 1):
                for d in self.dots:
                    actions[f"{piece_name(c, s)}@{names[d]}"] = ("place", c, s, d)
        for a in self.dots:
            for b, text in self.leg_name[a].items():
                actions[text] = ("leg", a, b)
        self.actions = actions

    def _check(self) -> None:
        d = self.data
        assert len(self.white) == 4 and len(self.role) == 4
        for c in (0, 1):
            assert not (self.placing_set[c] & set(self.white)), "placing areas hold black dots only"
            assert set(self.paths[c]) <= set(self.white), "pieces travel to white dots only"
            for s in range(1, self.k + 1):
                assert sum(1 for p in d.start.values() if p == f"{COLOURS[c]}{s}") == d.pieces_per_size

    def name(self, i: int) -> str:
        return self.names[i]


GEOMETRY: dict[str, Geometry] = {v: Geometry(b) for v, b in BOARDS.items()}


def _tower_text(cell: int) -> str:
    """A dot's pieces smallest first, colour letter + size each (the position code's form)."""
    if not cell:
        return "."
    out = []
    for s in range(1, 9):
        if cell >> (s - 1) & 1:
            out.append(f"w{s}")
        if cell >> (s - 1 + SH) & 1:
            out.append(f"b{s}")
    return "".join(out)


def _tower_table(sizes: int) -> tuple[str | None, ...]:
    """``_tower_text`` of every cell a board of at most ``sizes`` sizes can hold, indexed by the cell: ``encode``
    writes every dot of every position a record replays, and indexing a tuple is twice as fast as looking up a
    dict (None at the indices no such cell has: sizes above ``sizes``, which no position holds)."""
    full = (1 << sizes) - 1
    table: list[str | None] = [None] * ((full << SH | full) + 1)
    for white in range(full + 1):
        for black in range(full + 1):
            table[white | black << SH] = _tower_text(white | black << SH)
    return tuple(table)


_TOWER_TABLE = _tower_table(max(board.sizes for board in BOARDS.values()))
_STASH_COLOUR = (0, 1, 1, 0)  # the colour of the pieces in each stash field: a ledge holds the other's


class _StashTexts(dict[tuple[int, tuple[int, ...]], str]):
    """A stash field of the position code by (colour, sorted sizes), each written once: a tray holds at most
    pieces-per-size (4) pieces of each of k sizes, so at most 5**k texts per colour."""

    def __missing__(self, key: tuple[int, tuple[int, ...]]) -> str:
        colour, sizes = key
        text = self[key] = "".join([piece_name(colour, s) for s in sizes]) or "-"
        return text


_STASH_TEXTS = _StashTexts()
_NO_STASH = " ".join(["-"] * 4)  # the four stash fields when every hand and ledge is empty


def _compact(cell: int) -> str:
    """``w134`` for White's 1, 3, 4; the colour letter is written again at each colour change (``w2b5``)."""
    if not cell:
        return "."
    out, last = [], ""
    for s in range(1, 9):
        for colour in (0, 1):
            if cell >> (s - 1 + SH * colour) & 1:
                if COLOURS[colour] != last:
                    out.append(COLOURS[colour])
                    last = COLOURS[colour]
                out.append(str(s))
    return "".join(out)


class Event(NamedTuple):
    """One thing that happened during a move, for describe(), the record and the renderer.

    ``kind``: "place", "home", "leg", "knock", "release", "win", "pass", "end". ``piece`` like "b3" (or the
    lifted pieces "w1 w3" for a leg), ``frm``/``to``: dot names, or "hand:w" / "ledge:b" for a tray.
    """

    kind: str
    piece: str
    frm: str
    to: str


Events = list[Event] | None  # where play_traced collects what happened; None when nobody asks


# --------------------------------------------------------------------------------------------------------
# Move parsing
# --------------------------------------------------------------------------------------------------------

# What a mover still owes in a turn (``QuincalaState.instruction``): English templates with named facts.
PLACE_FIRST = "place {pieces} (pieces in hand and on the ledge must be placed first)"
MOVE_NOW = "now move: lift a tower of your own colour from a black dot (e.g. {move})"
NO_FIRST_LEG = "no first leg is possible: pass"
INSTRUCTIONS = (PLACE_FIRST, MOVE_NOW, NO_FIRST_LEG)

_DASHES = re.compile(r"[–—→>]")
_LEG_RE = re.compile(r"^([a-z])([0-9]{1,2})-?([a-z])([0-9]{1,2})$")
_PLACE_RE = re.compile(r"^([wb])([0-9])@?([a-z])([0-9]{1,2})$")
_SPLIT_RE = re.compile(r"[\s;,]+")


def _clean(move: str) -> str:
    return re.sub(r"\s+", "", _DASHES.sub("-", move.strip().lower()))


def _canonical_text(move: str) -> str:
    """The canonical spelling of a move typed some other way (``D3 – D6`` -> ``d3-d6``)."""
    mv = _clean(move)
    pm = _PLACE_RE.match(mv)
    if pm:
        return f"{pm.group(1)}{pm.group(2)}@{pm.group(3)}{pm.group(4)}"
    lm = _LEG_RE.match(mv)
    if lm:
        return f"{lm.group(1)}{lm.group(2)}-{lm.group(3)}{lm.group(4)}"
    return mv


# --------------------------------------------------------------------------------------------------------
# The state
# --------------------------------------------------------------------------------------------------------


class QuincalaState(State):
    """One position. ``cells``: per grid point the size bits of each colour; ``stash``: White's hand, White's
    ledge, Black's hand, Black's ledge (sorted sizes); ``immune``: marks protected this turn (field 9);
    ``gained``: marks won this turn (field 10); ``passes``: consecutive passes before this turn."""

    players = 2
    variant: str
    __slots__ = (
        "geo",
        "variant",
        "cells",
        "stash",
        "mover",
        "phase",
        "immune",
        "gained",
        "passes",
        "result",
        "started",
        "_legal",
        "_imm",
        "_mixed",
        "_played",
    )

    def __init__(
        self,
        geo: Geometry,
        variant: str,
        cells: Cells,
        stash: Stash,
        mover: int,
        phase: int,
        immune: Marks,
        gained: Marks,
        passes: int,
        result: int | None,
        started: bool = False,
    ):
        self.geo = geo
        self.variant = variant
        self.cells = cells
        self.stash = stash
        self.mover = mover  # whose turn the position code names (also after the game ends)
        self.phase = phase
        self.immune = immune
        self.gained = gained
        self.passes = passes
        self.result = result  # None, 0 / 1 = that seat won, 2 = draw by passing (a function of the code alone)
        self.started = started  # the mover has played something this turn (history, for pending())
        self._legal: list[str] | None = None
        self._imm: dict[int, int] | None = None
        self._mixed: tuple[int, ...] | None = None
        self._played: tuple[str, QuincalaState] | None = None  # the last ``canonical`` move and its position

    # --- contract -------------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return None if self.result is not None else self.mover

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def winners(self) -> tuple[int, ...]:
        if self.result is None:
            return ()
        return (self.result,) if self.result in (0, 1) else (0, 1)

    @property
    def scores(self) -> tuple[int, ...]:
        """Per player: the most sizes on one of his two winning dots (a complete tower has k)."""
        g, cells = self.geo, self.cells
        return tuple(
            max(_POP[(cells[d] | cells[d] >> SH) & LOW] for d in g.win_dots[seat]) for seat in (0, 1)
        )

    def legal_moves(self) -> list[str]:
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def play(self, move: str) -> QuincalaState:
        played, self._played = self._played, None      # used once: a state keeps no chain of later positions
        if played is not None and played[0] == move:   # just checked by ``canonical``: not played twice
            return played[1]
        return self._play(move, None)

    def play_traced(self, move: str) -> tuple[QuincalaState, list[Event]]:
        """``play`` plus what happened: the legs, knocks, releases, travels and the win, in order."""
        events: list[Event] = []
        return self._play(move, events), events

    def encode(self) -> str:
        g, names, ph = self.geo, self.geo.names, self.phase
        # itemgetter looks every dot up in C (a board has dozens of dots, so it always returns a tuple)
        towers = ",".join(itemgetter(*self.cells)(_TOWER_TABLE))
        stash = (" ".join(map(_STASH_TEXTS.__getitem__, zip(_STASH_COLOUR, self.stash, strict=True)))
                 if any(self.stash) else _NO_STASH)   # after a whole turn every tray is all but always empty
        phase = "place" if ph == PLACE else "placed" if ph == PLACED else f"leg@{names[ph]}"
        immune = ",".join([f"{names[d]}:{s}" for d, s in self.immune]) if self.immune else "-"
        gained = ",".join([f"{names[d]}:{s}" for d, s in self.gained]) if self.gained else "-"
        return f"{g.k} {towers} {stash} {COLOURS[self.mover]} {phase} {immune} {gained}/{self.passes}"

    def position_key(self) -> str:
        """The code without the pass counter (field 10's ``/n``): it decides only whether a pass ends the game
        (R-W2), never the board, the mover or the legal turns, so ``-/0`` and ``-/1`` are one position here."""
        return self.encode().rsplit("/", 1)[0]

    # --- helpers --------------------------------------------------------------------------------------
    def _imm_masks(self) -> dict[int, int]:
        """Field-9 marks as dot -> size bits (per colour bits: the piece's own colour lane)."""
        if self._imm is None:
            masks: dict[int, int] = {}
            for d, s in self.immune:
                masks[d] = masks.get(d, 0) | 1 << (s - 1)
            self._imm = masks
        return self._imm

    def _mixed_black(self) -> tuple[int, ...]:
        """Black dots holding pieces of both colours, the only ones that can release (cached)."""
        if self._mixed is None:
            g = self.geo
            on_black = g.black_cells(self.cells)
            if g.mixed.isdisjoint(on_black):  # the usual case, checked in C
                self._mixed = ()
            else:
                self._mixed = tuple(compress(g.black, map(g.mixed.__contains__, on_black)))  # in C too
        return self._mixed

    def _mixed_after_leg(self, a: int, b: int, cells: Cells) -> list[int]:
        """``_mixed_black`` once this state's leg a->b has left ``cells``: of the black dots only a and b changed."""
        g = self.geo
        before = self._mixed_black()
        out = [d for d in before if d != a and d != b] if before else []
        for d in (a, b):
            if cells[d] in g.mixed and not g.is_white[d]:
                out.append(d)
        return out

    def _required(self) -> list[tuple[int, int]]:
        """The pieces the mover must still place (R-T2, with R-T5's priority when the dots are too few)."""
        m = self.mover
        hand, ledge = self.stash[2 * m], self.stash[2 * m + 1]
        if not hand and not ledge:
            return []
        pieces = [(m, s) for s in reversed(hand)] + [(1 - m, s) for s in reversed(ledge)]
        free = self._free_places()
        if free >= len(pieces):
            return pieces
        if OVERFLOW == "reserve":
            pieces.sort(key=lambda p: -p[1])
        return pieces[:free]  # R-T5: hand, then ledge, larger first, as many as fit

    def _free_places(self) -> int:
        return self.geo.placing_cells[self.mover](self.cells).count(0)

    def _targets(self, legs: list[tuple[int, int]], names: bool = False) -> list:
        """End dots of the legs from each ``(start, lifted sizes)`` of ``legs`` (R-M2, R-M4, R-M5); with ``names``
        the legs' move strings instead. (One call for many starts: this is the hottest loop of a search.)"""
        g, cells = self.geo, self.cells
        is_white, rays_upto, leg_move, identity = g.is_white, g.rays_upto, g.leg_move, g.identity
        land_white = WHITE_DOT_LANDING != "forbidden"
        imm = self._imm_masks() if self.immune else None
        out = []
        for start, lifted in legs:
            label = leg_move[start] if names else identity  # end dot -> what to list
            for ray in rays_upto[start][_POP[lifted]]:
                for d in ray:
                    c = cells[d]
                    if not c:
                        if land_white or not is_white[d]:
                            out.append(label[d])
                        continue
                    if is_white[d]:
                        if land_white and not ((c | c >> SH) & lifted):
                            out.append(label[d])
                    elif not (imm and imm.get(d, 0) & lifted):  # R-M4: an immune piece of a lifted size
                        out.append(label[d])
                    break
        return out

    def _continuation_lift(self) -> int:
        """Sizes lifted for a further leg from the current end-point: own pieces minus the largest (R-M6)."""
        own = (self.cells[self.phase] >> (SH * self.mover)) & LOW
        return own & ~_TOP[own]

    def _has_first_leg(self) -> bool:
        return bool(self._targets(self._first_legs()))

    def _first_legs(self) -> list[tuple[int, int]]:
        """``(start, lifted sizes)`` for the first legs: black dots holding only the mover's pieces, all lifted
        (R-M1)."""
        g, cells, sh = self.geo, self.cells, SH * self.mover
        own = g.own_only[self.mover]
        return [(d, cells[d] >> sh) for d in g.black if cells[d] in own]

    def _generate(self) -> list[str]:
        if self.result is not None:
            return []
        g, m = self.geo, self.mover
        out: list[str] = []
        if self.phase >= 0:
            a = self.phase
            out = self._targets([(a, self._continuation_lift())], names=True)
            if CONTINUE_OPTIONAL or not out:
                out.append("end")
        else:
            req = self._required()
            if req:
                empty = [not c for c in g.placing_cells[m](self.cells)]  # in g.placing_by_name[m] order
                # sorted runs of ready-made moves (no string formatting; the final sort is then cheap)
                moves = g.place_moves[m]
                for piece in sorted(set(req)):
                    out.extend(compress(moves[piece], empty))
            else:
                out = self._targets(self._first_legs(), names=True)
                if not out:
                    out.append("pass")
            if self._home_allowed():
                out.append("home")
        out.sort()
        return out

    def _home_allowed(self) -> bool:
        if self.phase != PLACE:
            return False
        home = self.cells[self.geo.home[self.mover]]
        if not home:
            return False
        m = self.mover
        waiting = len(self.stash[2 * m]) + len(self.stash[2 * m + 1])
        return self._free_places() >= waiting + _POP[home & LOW] + _POP[home >> SH]  # R-T5

    # --- playing --------------------------------------------------------------------------------------
    def _play(self, move: str, events: list[Event] | None) -> QuincalaState:
        if self.result is not None:
            raise IllegalMove(phrase("The game is over: no more moves can be played."))
        if not isinstance(move, str):
            raise IllegalMove(phrase("{move!r} is not a Quincala move.", move=move))
        action = self.geo.actions.get(move) or self._parse(move)  # canonical strings skip the parsing
        kind = action[0]
        if kind == "leg":
            return self._leg(action[1], action[2], events)
        if kind == "place":
            return self._place(action[1], action[2], action[3], events)
        if kind == "end":
            return self._end(events)
        if kind == "pass":
            return self._pass(events)
        return self._home(events)

    def _parse(self, move: str) -> tuple:
        """Any spelling of a move -> the action tuple of ``Geometry.actions``; raises IllegalMove if none."""
        mv = _clean(move)
        g = self.geo
        if mv in ("end", "pass", "home"):
            return (mv,)
        pm = _PLACE_RE.match(mv)
        if pm:
            colour, size, dot = COLOURS.index(pm.group(1)), int(pm.group(2)), pm.group(3) + pm.group(4)
            if dot not in g.index or not g.is_dot[g.index[dot]]:
                raise IllegalMove(phrase("{dot} is not a dot of the board (R-B2).", dot=dot))
            return ("place", colour, size, g.index[dot])
        if mv.count("-") > 1:
            raise IllegalMove(
                phrase(
                    "{strip!r} is several legs: play one leg at a time (d3-d6, then d6-b6) (R-M2).",
                    strip=move.strip()
                )
            )
        lm = _LEG_RE.match(mv)
        if lm:
            a, b = lm.group(1) + lm.group(2), lm.group(3) + lm.group(4)
            for dot in (a, b):
                if dot not in g.index or not g.is_dot[g.index[dot]]:
                    raise IllegalMove(phrase("{dot} is not a dot of the board (R-B2).", dot=dot))
            return ("leg", g.index[a], g.index[b])
        raise IllegalMove(
            phrase(
                "{strip!r} is not a Quincala move: type a placement like w5@c2, home, a leg like d3-d6, end or "
                "pass.", strip=move.strip()
            )
        )

    def _next(self, cells: Cells, stash: Stash, phase: int, immune: Marks, gained: Marks,
              mixed: tuple[int, ...] | None = None) -> QuincalaState:
        """The same player's turn goes on from the given fields; ``mixed``, when known, is its ``_mixed_black``."""
        nxt = QuincalaState(
            self.geo,
            self.variant,
            cells,
            stash,
            self.mover,
            phase,
            immune,
            gained,
            self.passes,
            self.result,
            True,
        )
        nxt._mixed = mixed
        return nxt

    def _must_place_msg(self, req: list[tuple[int, int]]) -> Phrase:
        names = ", ".join(piece_name(c, s) for c, s in sorted(req, key=lambda p: (p[0] != self.mover, p[1])))
        return phrase("You must first place {pieces}: pieces in hand and on the ledge are placed before moving "
                      "(R-T2).", pieces=names)

    def _place(self, colour: int, size: int, d: int, events: Events) -> QuincalaState:
        g, m = self.geo, self.mover
        p = piece_name(colour, size)
        if self.phase >= 0:
            raise IllegalMove(phrase(
                "Placing is over once the move has begun: {p} cannot be placed now (R-T1).", p=p
            ))
        if not 1 <= size <= g.k:
            raise IllegalMove(phrase("There is no piece {p} in the {k}-size game (R-C2).", p=p, k=g.k))
        req = self._required()
        slot = 2 * m + (0 if colour == m else 1)
        if size not in self.stash[slot]:
            where = Phrase(HAND if colour == m else LEDGE)
            if req:
                raise IllegalMove(
                    phrase(
                        "There is no {p} in your {where} to place; you must place {pieces} (R-T2).",
                        p=p, where=where, pieces=', '.join((piece_name(c, s) for c, s in req))
                    )
                )
            raise IllegalMove(
                phrase(
                    "There is no {p} in your {where}: only pieces in hand, on the ledge or taken off your home "
                    "dot are placed (R-T2).", p=p, where=where
                )
            )
        if (colour, size) not in req:
            raise IllegalMove(
                phrase(
                    "Too few empty placing dots: {p} must wait; place {pieces} first (R-T5).",
                    p=p, pieces=', '.join((piece_name(c, s) for c, s in req))
                )
            )
        if d not in g.placing_set[m]:
            raise IllegalMove(
                phrase(
                    "{cell} is not in your placing areas: pieces are placed on empty black dots there (R-T4).",
                    cell=g.names[d]
                )
            )
        if self.cells[d]:
            raise IllegalMove(
                phrase(
                    "{cell} is not empty: each piece is placed alone on an empty black dot (R-T4).", cell=g.names[d]
                )
            )
        cells = list(self.cells)
        cells[d] = 1 << (size - 1 + SH * colour)
        stash = list(self.stash)
        lst = list(stash[slot])
        lst.remove(size)
        stash[slot] = tuple(lst)
        if events is not None:
            events.append(Event("place", p, f"{'hand' if colour == m else 'ledge'}:{COLOURS[m]}", g.names[d]))
        # one piece on an empty dot makes no mixed tower: the mixed black dots stay those of this position
        return self._next(tuple(cells), tuple(stash), self.phase, self.immune, self.gained, self._mixed)

    def _home(self, events: Events) -> QuincalaState:
        g, m = self.geo, self.mover
        h = g.home[m]
        cell = self.cells[h]
        if self.phase != PLACE:
            raise IllegalMove(
                phrase(
                    "Your home dot can only be cleared once, in the placing phase before the first leg (R-T3)."
                )
            )
        if not cell:
            raise IllegalMove(phrase(
                "Your home dot {cell} is empty: there is nothing to take off (R-T3).", cell=g.names[h]
            ))
        if not self._home_allowed():
            raise IllegalMove(phrase("Too few empty placing dots to place every piece of your home dot (R-T5)."))
        stash = list(self.stash)
        for colour in (0, 1):
            sizes = _BITS[(cell >> (SH * colour)) & LOW]
            slot = 2 * m + (0 if colour == m else 1)
            stash[slot] = tuple(sorted(stash[slot] + sizes))
        cells = list(self.cells)
        cells[h] = 0
        immune = tuple(x for x in self.immune if x[0] != h)  # R-K2: a flush clears the mark
        if events is not None:
            events.append(Event("home", _tower_text(cell), g.names[h], f"hand:{COLOURS[m]}"))
        # the home dot is white: the mixed black dots stay those of this position
        return self._next(tuple(cells), tuple(stash), PLACED, immune, self.gained, self._mixed)

    def _leg_lift(self, a: int, b: int) -> int:
        """Validate the leg a->b and return the lifted sizes; raises IllegalMove naming the rule."""
        g, m, cells = self.geo, self.mover, self.cells
        if self.phase >= 0:
            if a != self.phase:
                raise IllegalMove(
                    phrase(
                        "The move goes on from {cell}: the next leg starts there (R-M6).", cell=g.names[self.phase]
                    )
                )
            lifted = self._continuation_lift()
        else:
            req = self._required()
            if req:
                raise IllegalMove(self._must_place_msg(req))
            if g.is_white[a]:
                raise IllegalMove(phrase(
                    "{cell} is a white dot: the first leg starts on a black dot (R-M1).", cell=g.names[a]
                ))
            c = cells[a]
            if not c:
                raise IllegalMove(phrase("There is no piece on {cell} to lift (R-M1).", cell=g.names[a]))
            if (c >> (SH * (1 - m))) & LOW:
                raise IllegalMove(
                    phrase(
                        "{cell} holds {seat}'s pieces: the first leg lifts a tower of your own colour only "
                        "(R-M1).", cell=g.names[a], seat=Phrase(SEAT_NAMES[1 - m])
                    )
                )
            lifted = (c >> (SH * m)) & LOW
        line = g.lines[a].get(b)  # (steps, dots passed over) when b lies straight ahead of a
        if line is None or line[0] > _POP[lifted]:
            self._leg_path_error(a, b, lifted)
        for d in line[1]:
            if cells[d]:
                self._leg_path_error(a, b, lifted)
        c = cells[b]
        if g.is_white[b]:
            if WHITE_DOT_LANDING == "forbidden":
                raise IllegalMove(
                    phrase(
                        "{leg} ends on the white dot {cell}, where legs may not end (R-M5).",
                        leg=g.leg_name[a][b], cell=g.names[b]
                    )
                )
            dup = (c | c >> SH) & lifted
            if dup:
                s = _BITS[dup][0]
                raise IllegalMove(
                    phrase(
                        "{leg} cannot land on the white dot {cell}: it already holds a size-{s} piece and white "
                        "dots do not knock (R-M5).", leg=g.leg_name[a][b], cell=g.names[b], s=s
                    )
                )
        elif self.immune:
            imm = self._imm_masks().get(b, 0) & lifted & ((c | c >> SH) & LOW)
            if imm:
                s = _BITS[imm][0]
                colour = 0 if c >> (s - 1) & 1 else 1
                raise IllegalMove(
                    phrase(
                        "{leg} would knock the immune {piece} on {cell}, which cannot be knocked this turn "
                        "(R-M4).", leg=g.leg_name[a][b], piece=piece_name(colour, s), cell=g.names[b]
                    )
                )
        return lifted

    def _leg_path_error(self, a: int, b: int, lifted: int) -> NoReturn:
        """Raise the reason the path a->b is not a leg for ``lifted`` (called once ``Geometry.lines`` says so)."""
        g, cells = self.geo, self.cells
        text = f"{g.names[a]}-{g.names[b]}"
        ax, ay = a % g.width, a // g.width
        bx, by = b % g.width, b // g.width
        dx, dy = bx - ax, by - ay
        if a == b or (dx and dy and abs(dx) != abs(dy)):
            raise IllegalMove(phrase(
                "{text} is not a straight line along a rank, file or diagonal (R-M2).", text=text
            ))
        steps = max(abs(dx), abs(dy))
        n = _POP[lifted]
        if steps > n:
            raise IllegalMove(
                phrase("{text} is {steps} steps but only {n} pieces are moving (R-M2).", text=text, steps=steps, n=n)
                if n > 1 else phrase("{text} is {steps} steps but only 1 piece is moving (R-M2).", text=text,
                                     steps=steps)
            )
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        for i in range(1, steps):
            d = (ay + sy * i) * g.width + ax + sx * i
            if not g.is_dot[d]:
                raise IllegalMove(phrase("{text} leaves the playing area (R-M2).", text=text))
            if cells[d]:
                several = _POP[cells[d] & LOW] + _POP[cells[d] >> SH] > 1
                raise IllegalMove(
                    phrase("{text} is blocked by the pieces on {cell}: a leg cannot jump over pieces (R-M2).",
                           text=text, cell=g.names[d]) if several else
                    phrase("{text} is blocked by the piece on {cell}: a leg cannot jump over pieces (R-M2).",
                           text=text, cell=g.names[d])
                )
        raise AssertionError(f"{text} is a valid path for {lifted}")  # Geometry.lines disagrees

    def _leg(self, a: int, b: int, events: Events) -> QuincalaState:
        g, m = self.geo, self.mover
        o = 1 - m
        lifted = self._leg_lift(a, b)
        sh = SH * m
        cells = list(self.cells)
        cells[a] &= ~(lifted << sh)
        if events is not None:
            events.append(
                Event("leg", " ".join(piece_name(m, s) for s in _BITS[lifted]), g.names[a], g.names[b])
            )
        tgt = cells[b]
        winner: int | None = None
        hit = 0 if g.is_white[b] else tgt & (lifted | lifted << SH)  # white dots never knock
        stash: Stash
        gained: Marks
        if hit or self.gained:
            trays = list(self.stash)
            marks = set(self.gained)
            knocked: list[tuple[int, int, bool]] = []  # (colour, size, carries a mark)
            kw, kb = hit & LOW, hit >> SH
            for colour, bits in ((o, kb if o else kw), (m, kb if m else kw)):  # R-M3: non-mover first
                for s in reversed(_BITS[bits]):  # larger first
                    knocked.append((colour, s, colour == m and (b, s) in marks))
            cells[b] = tgt & ~hit
            marks -= {(b, s) for _, s, _ in knocked}
            new_marks = {(b, s) for colour, s, _ in knocked if colour == o}  # R-K2: other colour only
            # the lifted pieces' marks ride along (clarification 2)
            marks = {(b, s) if d == a and lifted >> (s - 1) & 1 else (d, s) for d, s in marks} | new_marks
            for colour, s, mark in knocked:
                if winner is not None:  # clarification 1: straight to the non-mover, no white dot
                    dest = self._stash_piece(trays, colour, s)
                else:
                    dest = self._travel(cells, trays, marks, colour, s, mark)
                    if dest >= 0 and (cells[dest] | cells[dest] >> SH) & LOW == g.full:
                        winner = g.beneficiary[dest]
                if events is not None:
                    events.append(Event("knock", piece_name(colour, s), g.names[b], self._dest_name(dest)))
            stash, gained = tuple(trays), tuple(sorted(marks))
        else:  # nothing knocked and no marks to carry: trays and marks stay as they are
            stash, gained = self.stash, ()
        cells[b] |= lifted << sh
        if winner is None and g.is_white[b] and (cells[b] | cells[b] >> SH) & LOW == g.full:
            winner = g.beneficiary[b]
        if winner is not None:
            return self._end_turn(cells, stash, gained, winner, events)
        after = tuple(cells)
        mixed = self._mixed_after_leg(a, b, after)
        own = (after[b] >> sh) & LOW
        if _POP[own] >= 2 and (CONTINUE_FROM_WHITE_DOT or not g.is_white[b]):
            nxt = self._next(after, stash, b, self.immune, gained, tuple(sorted(mixed)))
            if nxt._targets([(b, own & ~_TOP[own])]):
                return nxt
        return self._release(after, stash, gained, b, mixed, events)  # the move ends

    def _stash_piece(self, stash: list[tuple[int, ...]], colour: int, size: int) -> int:
        """Off the board to the non-mover: his hand for his colour, his ledge for the mover's (§4.5)."""
        o = 1 - self.mover
        slot = 2 * o + (0 if colour == o else 1)
        stash[slot] = tuple(sorted(stash[slot] + (size,)))
        return -1 - slot

    def _dest_name(self, dest: int) -> str:
        if dest >= 0:
            return self.geo.names[dest]
        slot = -1 - dest
        return f"{'hand' if slot % 2 == 0 else 'ledge'}:{COLOURS[slot // 2]}"

    def _travel(self, cells: list[int], stash: list[tuple[int, ...]], gained: set[tuple[int, int]], colour: int,
                size: int, mark: bool) -> int:
        """§4.5: the first white dot on the piece's path without its size, else the non-mover's tray.

        Returns the dot index, or -1 - tray slot."""
        bit = 1 << (size - 1)
        for w in self.geo.paths[colour]:
            if not ((cells[w] | cells[w] >> SH) & bit):
                cells[w] |= bit << (SH * colour)
                if mark:
                    gained.add((w, size))
                return w
        return self._stash_piece(stash, colour, size)

    def _end(self, events: Events) -> QuincalaState:
        if self.phase < 0:
            raise IllegalMove(
                phrase(
                    "There is no move to end: end stops a move after a leg, while it could go on (R-M7)."
                )
            )
        if not CONTINUE_OPTIONAL and self._targets([(self.phase, self._continuation_lift())]):
            raise IllegalMove(phrase("The move must go on while a further leg is possible (R-M7)."))
        if events is not None:
            events.append(Event("end", "", self.geo.names[self.phase], ""))
        return self._finish_move(events)

    def _finish_move(self, events: Events) -> QuincalaState:
        """The move has ended on ``self.phase``: the releasing phase (R-R1…R-R5), then the turn passes."""
        return self._release(self.cells, self.stash, self.gained, self.phase, self._mixed_black(), events)

    def _release(
        self, cells: Cells, stash: Stash, gained: Marks, endpoint: int, mixed: Sequence[int], events: Events
    ) -> QuincalaState:
        """``_finish_move`` for a move of this state's mover that ended on ``endpoint`` with these fields;
        ``mixed``: the black dots then holding pieces of both colours (any order: releases are sorted)."""
        g, m = self.geo, self.mover
        scope = mixed if RELEASE_SCOPE == "board" else (() if g.is_white[endpoint] else (endpoint,))
        if not scope:  # the usual case: no mixed tower on a black dot, nothing can be released
            return self._end_turn(cells, stash, gained, None, events, () if RELEASE_SCOPE == "board" else None)
        o = 1 - m
        board = list(cells)
        trays = list(stash)
        marks = set(gained)
        imm = self._imm_masks() if IMMUNE_BLOCKS_RELEASE else {}
        is_white, rays = g.is_white, g.rays_upto
        k = g.k  # a single-colour tower is at most k high, so only the first k dots of a ray can reach
        released = []
        for d in scope:
            c = board[d]
            if not (c & LOW and c >> SH):
                continue
            reach = 0
            for ray in rays[d][k]:
                for i, s_dot in enumerate(ray, 1):
                    sc = board[s_dot]
                    if sc:
                        if (
                            not is_white[s_dot]
                            and not (sc & LOW and sc >> SH)
                            and _POP[sc & LOW] + _POP[sc >> SH] >= i
                        ):
                            reach |= (sc | sc >> SH) & LOW
                        break
            if reach:
                blocked = imm.get(d, 0)
                for colour in (0, 1):
                    for s in _BITS[(c >> (SH * colour)) & reach & ~blocked]:
                        released.append((colour != o, -s, d, colour, s))
        released.sort()  # R-R4: non-mover's colour first, larger first, then dot order
        winner = None
        for _, _, d, colour, s in released:
            board[d] &= ~(1 << (s - 1 + SH * colour))
            mark = (d, s) in marks and colour == m
            if mark:
                marks.discard((d, s))
            dest = self._travel(board, trays, marks, colour, s, mark)
            if events is not None:
                events.append(Event("release", piece_name(colour, s), g.names[d], self._dest_name(dest)))
            if dest >= 0 and (board[dest] | board[dest] >> SH) & LOW == g.full:
                winner = g.beneficiary[dest]
                break  # R-R5: the turn stops as soon as someone has won
        # releases only empty black dots of ``scope`` (pieces travel to white dots), so with the board's scope the
        # next position's mixed black dots are those of ``scope`` still mixed: ``_mixed_black`` without the scan
        after = tuple(sorted(d for d in scope if board[d] in g.mixed)) if RELEASE_SCOPE == "board" else None
        return self._end_turn(board, trays, marks, winner, events, after)

    def _end_turn(self, cells: Sequence[int], stash: Sequence[tuple[int, ...]], gained: Iterable[tuple[int, int]],
                  winner: int | None, events: Events, mixed: tuple[int, ...] | None = None) -> QuincalaState:
        """The position after this turn; ``mixed``, when the caller knows it, is its ``_mixed_black``."""
        if winner is not None and events is not None:
            d = next(w for w in self.geo.white if (cells[w] | cells[w] >> SH) & LOW == self.geo.full)
            events.append(Event("win", SEAT_NAMES[winner], self.geo.names[d], ""))
        nxt = QuincalaState(
            self.geo,
            self.variant,
            tuple(cells),
            tuple(stash),
            1 - self.mover,
            PLACE,
            tuple(sorted(gained)),
            (),
            0,
            winner,
            False,
        )
        nxt._mixed = mixed
        return nxt

    def _pass(self, events: Events) -> QuincalaState:
        if self.phase >= 0:
            raise IllegalMove(phrase("You cannot pass in the middle of a move: play a leg or end (R-M9)."))
        req = self._required()
        if req:
            raise IllegalMove(self._must_place_msg(req))
        if self._has_first_leg():
            raise IllegalMove(
                phrase(
                    "You have a legal first leg, so you must move: passing is only allowed without one (R-M9)."
                )
            )
        if events is not None:
            events.append(Event("pass", "", "", ""))
        passes = self.passes + 1
        result = 2 if passes >= 2 else None  # R-W2
        return QuincalaState(
            self.geo,
            self.variant,
            self.cells,
            self.stash,
            1 - self.mover,
            PLACE,
            (),
            (),
            passes,
            result,
            False,
        )

    # --- read-only accessors (renderer, bot) ----------------------------------------------------------
    @property
    def sizes(self) -> int:
        return self.geo.k

    def tower(self, dot: str) -> list[str]:
        """The pieces on ``dot`` smallest first, e.g. ['w1', 'b3']."""
        c = self.cells[self.geo.index[dot]]
        t = _tower_text(c)
        return [] if t == "." else re.findall(r"[wb][0-9]", t)

    def towers(self) -> dict[str, list[str]]:
        """Every occupied dot with its pieces."""
        return {self.geo.names[d]: self.tower(self.geo.names[d]) for d in self.geo.dots if self.cells[d]}

    def hand(self, seat: int) -> list[str]:
        return [piece_name(seat, s) for s in self.stash[2 * seat]]

    def ledge(self, seat: int) -> list[str]:
        return [piece_name(1 - seat, s) for s in self.stash[2 * seat + 1]]

    def immune_pieces(self) -> list[tuple[str, int]]:
        """Marks protected during this turn (field 9)."""
        return [(self.geo.names[d], s) for d, s in self.immune]

    def gained_pieces(self) -> list[tuple[str, int]]:
        """Marks won during this turn, protected in the opponent's next (field 10)."""
        return [(self.geo.names[d], s) for d, s in self.gained]

    @property
    def phase_name(self) -> str:
        ph = self.phase
        return "place" if ph == PLACE else "placed" if ph == PLACED else f"leg@{self.geo.names[ph]}"

    @property
    def leg_dot(self) -> str | None:
        return self.geo.names[self.phase] if self.phase >= 0 else None

    @property
    def seat_to_show(self) -> int:
        """The player the position code names to move (also once the game is over)."""
        return self.mover

    def white_dot_roles(self) -> dict[str, str]:
        """White dot -> 'WH' / 'WQ' / 'BH' / 'BQ'."""
        return {self.geo.names[d]: ROLE_LABEL[r] for d, r in self.geo.role.items()}

    def winning_dots(self, seat: int) -> tuple[str, ...]:
        return tuple(self.geo.names[d] for d in self.geo.win_dots[seat])

    def complete_dot(self) -> str | None:
        g = self.geo
        for w in g.white:
            if (self.cells[w] | self.cells[w] >> SH) & LOW == g.full:
                return g.names[w]
        return None

    # --- by dot index and size mask, for the AI's evaluation (a hot path: no names, no lists) ------------
    # A dot index counts the dots in the order of field 2 of the position code (rank 1 first, files a to j);
    # a size mask has bit s-1 set for size s.
    def dot_name(self, dot: int) -> str:
        """The name of the dot with index ``dot`` ('f5')."""
        return self.geo.names[dot]

    def quincala_dot(self, seat: int) -> int:
        """The index of ``seat``'s quincala dot: a complete tower there wins for ``seat`` (§4.3)."""
        return self.geo.quincala[seat]

    def home_dot(self, seat: int) -> int:
        """The index of ``seat``'s home dot: a complete tower there wins for ``seat``'s opponent (§4.3)."""
        return self.geo.home[seat]

    def sizes_on(self, dot: int) -> int:
        """The size mask of the pieces on the dot with index ``dot``, whatever their colour."""
        c = self.cells[dot]
        return (c | c >> SH) & LOW

    def reaching_tower(self, target: int, seat: int) -> int:
        """The size mask of the tallest of ``seat``'s towers that one first leg could land on the white dot with
        index ``target`` now, or 0: a black dot holding only ``seat``'s pieces (R-M1), the first piece met on a
        line out of ``target`` and no farther than the tower is high (R-M2), none of its sizes on ``target``
        yet (R-M5). The first line in direction order wins a tie. Whose turn it is, and the pieces still to be
        placed, are not considered: this is a threat, not a legal move."""
        g, cells = self.geo, self.cells
        own, is_white, shift = g.own_only[seat], g.is_white, SH * seat
        c = cells[target]
        have = (c | c >> SH) & LOW
        best = 0
        for ray in g.rays[target]:
            for distance, dot in enumerate(ray, 1):
                cell = cells[dot]
                if cell:
                    if cell in own and not is_white[dot]:
                        sizes = cell >> shift
                        height = _POP[sizes]
                        if height >= distance and not sizes & have and height > _POP[best]:
                            best = sizes
                    break
        return best

    # --- extras ---------------------------------------------------------------------------------------
    def describe_phrase(self, move: str) -> Phrase:
        try:
            nxt, events = self.play_traced(move)
        except IllegalMove:
            return NOTHING
        return _describe_events(self, nxt, events)

    def canonical(self, move: str) -> str:
        """The canonical spelling; the position it plays to is kept, so that ``play`` of that spelling (what
        ``play_turn`` does next) is not computed a second time."""
        after = self.play(move)  # raises IllegalMove with the rule's name
        canon = move if move in self.geo.actions else _canonical_text(move)
        self._played = (canon, after)
        return canon

    def pending_phrase(self) -> Phrase:
        found = self.instruction()
        return Phrase(found[0], dict(found[1])) if found else NOTHING

    def instruction(self) -> tuple[str, dict[str, str]] | None:
        """What the mover must do next before the turn can end, as data: one of ``INSTRUCTIONS`` and its facts
        (``pending`` fills it in English, the renderer in the post's language); None when nothing is owed."""
        if self.result is not None or self.phase >= 0:
            return None
        req = self._required()
        if req:
            ordered = sorted(req, key=lambda p: (p[0] != self.mover, p[1]))
            return PLACE_FIRST, {"pieces": ", ".join(piece_name(c, s) for c, s in ordered)}
        if self.phase == PLACED or self.started:
            if self._has_first_leg():
                return MOVE_NOW, {"move": next(m for m in self.legal_moves() if "-" in m)}
            return NO_FIRST_LEG, {}
        return None

    def turn_record(self, moves: list[str]) -> str:
        """§7 notation: placements, then ``;`` and the legs chained (``w5@c2 ; d3-d6-b6``)."""
        return turn_notation(moves)

    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        winners = self.winners
        ranks = rank_seats(self, winners)
        if self.result == 2:  # R-W2
            return Outcome(QuincalaTermination.PASSES, winners, ranks)
        dot = self.complete_dot()  # R-W1: a finished game without two passes has exactly one
        assert dot is not None, "a won game has a complete tower"
        role, owner = self.geo.role[self.geo.index[dot]]
        return Outcome(QuincalaTermination.COMPLETE_TOWER, winners, ranks,
                       {"winner": self.result, "owner": COLOURS.index(owner)}, {"dot": dot, "dot_role": role})

    def text_board_phrase(self) -> Phrase:
        """§6 text fallback: one cell per dot, ``w134`` = White's 1, 3, 4; ``w2b5`` mixed; ``[WH]`` empty white."""
        g = self.geo
        roles = self.white_dot_roles()
        cells = {}
        for d in range(g.n):
            t = _compact(self.cells[d])
            if g.is_white[d]:
                t = f"[{t if t != '.' else roles[g.names[d]]}]"
            cells[d] = t
        w = max(5, max(len(t) for t in cells.values()) + 1)
        lines: list[Phrase | str] = ["     " + "".join(f"{f:<{w}}" for f in g.data.files).rstrip()]
        for y in range(g.height - 1, -1, -1):
            row = "".join(f"{cells[y * g.width + x]:<{w}}" for x in range(g.width))
            lines.append(f"{y + 1:>3}  " + row.rstrip())
        for seat in (1, 0):
            lines.append(phrase("{seat}: hand {hand} · ledge {ledge}", seat=Phrase(SEAT_NAMES[seat]),
                                hand=" ".join(self.hand(seat)) or "-", ledge=" ".join(self.ledge(seat)) or "-"))
        if self.immune:
            lines.append(phrase("immune: {pieces}", pieces=", ".join(f"{d}:{s}" for d, s in self.immune_pieces())))
        outcome = self.outcome()
        if outcome is None:
            lines.append(phrase("{seat} to move ({phase})", seat=Phrase(SEAT_NAMES[self.mover]),
                                phase=self._phase_phrase()))
        else:
            lines.append(outcome_phrase(GAME, outcome, SEAT_NAMES))
        return joined(lines, "\n")

    def _phase_phrase(self) -> Phrase:
        """``phase_name`` as words: place, placed, leg@d6."""
        ph = self.phase
        return phrase("place") if ph == PLACE else phrase("placed") if ph == PLACED \
            else phrase("leg@{dot}", dot=self.geo.names[ph])

    def __repr__(self) -> str:
        return f"QuincalaState({self.encode()!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, QuincalaState)
            and self.encode() == other.encode()
            and self.result == other.result
        )

    def __hash__(self) -> int:
        return hash(self.encode())


def _tray_words(where: str) -> Phrase:
    kind, colour = where.split(":")
    return phrase("{seat}'s {tray}", seat=Phrase(SEAT_NAMES[COLOURS.index(colour)]), tray=Phrase(TRAYS[kind]))


def _event_phrase(e: Event) -> Phrase | None:
    """One event of a move in words (None for an event a description leaves out)."""
    if e.kind == "place":
        return phrase("place {piece} from your {tray} on {dot}", piece=e.piece, tray=Phrase(TRAYS[e.frm.split(":")[0]]),
                      dot=e.to)
    if e.kind == "home":
        n = len(re.findall(r"[wb][0-9]", e.piece))
        return phrase("take the {n} pieces off your home dot {dot} to place them", n=n, dot=e.frm) if n > 1 \
            else phrase("take the 1 piece off your home dot {dot} to place them", dot=e.frm)
    if e.kind == "leg":
        return Phrase("{piece} {from_}→{to}", {"piece": e.piece, "from_": e.frm, "to": e.to})
    if e.kind in ("knock", "release"):
        to: Phrase | str = e.to if ":" not in e.to else _tray_words(e.to)
        return phrase("knocks {piece} → {to}", piece=e.piece, to=to) if e.kind == "knock" \
            else phrase("releases {piece} → {to}", piece=e.piece, to=to)
    if e.kind == "win":
        return phrase("{seat} WINS on {dot}", seat=Phrase(e.piece), dot=e.frm)
    if e.kind == "pass":
        return phrase("no first leg: pass the turn")
    if e.kind == "end":
        return phrase("stop on {dot}", dot=e.frm)
    return None


def _describe_events(before: QuincalaState, after: QuincalaState, events: list[Event]) -> Phrase:
    parts = [p for p in map(_event_phrase, events) if p is not None]
    if after.result is None:
        if after.phase >= 0 and after.mover == before.mover:
            parts.append(phrase("ends the turn here (type on to go further)"))
        elif after.mover != before.mover and events and events[-1].kind not in ("pass",):
            parts.append(phrase("turn ends"))
    elif after.result == 2:
        parts.append(phrase("draw"))
    return joined(parts)


def turn_notation(moves: Sequence[str]) -> str:
    """The atomic moves of one turn in the §7 notation: placements and ``home``, ``;``, then the legs chained
    (``w5@c2 b2@j4 ; d3-d6-b6``); ``end`` is left out. What the game record and the board image show."""
    head: list[str] = []
    chain: list[str] = []
    for mv in moves:
        if "-" in mv:
            a, b = mv.split("-")
            if chain and chain[-1] == a:
                chain.append(b)
            else:
                if chain:
                    head.append("-".join(chain))
                chain = [a, b]
        elif mv != "end":
            head.append(mv)
    legs = "-".join(chain)
    if head and legs:
        return " ".join(head) + " ; " + legs
    return " ".join(head) or legs


# --------------------------------------------------------------------------------------------------------
# The game
# --------------------------------------------------------------------------------------------------------


class QuincalaTermination(Termination):
    """How the rules end a game of Quincala (the keys of ``QuincalaGame.terminations`` but R-W3's cap, which is
    the match service's: ``CapTermination``)."""

    COMPLETE_TOWER = "complete_tower"
    PASSES = "passes"


class QuincalaGame(Game):
    key = "quincala"
    title = "Quincala"
    player_counts = (2,)
    variants = ("5", "4", "3")
    variant_option = "sizes"
    variant_labels = {"5": "5 sizes (standard)", "4": "4 sizes", "3": "3 sizes"}
    # R-W3 / clarification 7: the bot's draw after 400 turns without a win. The match service applies it from
    # the move log; the engine has no cap (its result is a function of the position code alone).
    turn_cap = 400
    # One whole turn reaches tens of thousands of positions (placements times chains of legs), too many to list:
    # fair play compares keys by nearness instead. Measured: one turn changed at most 14 fields of the key over
    # exhaustive listings of sampled turns (up to 4,000 positions each), 8 over long random turns (bench_fairplay).
    turn_reach = 20
    fact_words = ("home", "quincala")    # the {dot_role} fact
    termination_kinds = QuincalaTermination
    terminations = {
        "complete_tower": "{winner} wins with a complete tower on {owner}'s {dot_role} dot {dot}.",
        "passes": "Both players passed in succession, so the game is a draw.",
        TURN_CAP_TERMINATION: "No one completed a tower in {turns} turns, so the game is a draw.",
    }

    def new(self, players: int = 2, seed: int | None = None, variant: str | None = None) -> QuincalaState:
        if players != 2:
            raise ValueError("Quincala is played by 2 players.")
        variant = self.variants[0] if variant is None else str(variant)
        if variant not in GEOMETRY:
            raise ValueError(f"Unknown Quincala variant {variant!r}: choose 5, 4 or 3 sizes.")
        # the set-up is fixed (Fig. 1 / §4.6): the seed changes nothing
        geo = GEOMETRY[variant]
        return QuincalaState(geo, variant, geo.start, ((), (), (), ()), 0, PLACE, (), (), 0, None)

    def seat_names(self, players: int = 2) -> tuple[str, ...]:
        return SEAT_NAMES

    # --- decoding -------------------------------------------------------------------------------------
    def decode(self, code: str) -> QuincalaState:
        if not isinstance(code, str):
            raise InvalidPosition(phrase("A Quincala position code is a line of text."))
        f = code.strip().split()
        if len(f) != 10:
            raise InvalidPosition(
                phrase(
                    "A Quincala position code has 10 fields separated by spaces, not {count}.", count=len(f)
                )
            )
        if f[0] not in GEOMETRY:
            raise InvalidPosition(phrase("The number of sizes must be 3, 4 or 5, not {f!r}.", f=f[0]))
        geo = GEOMETRY[f[0]]
        k = geo.k
        dots = f[1].split(",")
        if len(dots) != geo.n:
            raise InvalidPosition(phrase(
                "Field 2 must list all {n} dots separated by commas, not {count}.", n=geo.n, count=len(dots)
            ))
        counts = [[0] * (k + 1) for _ in range(2)]
        cells = []
        for i, t in enumerate(dots):
            if t == ".":  # an empty dot, most of them: nothing to check (and no phrase made for a refusal)
                cells.append(0)
                continue
            name = geo.names[i]
            pieces = self._pieces(t, k, phrase("The dot {name}", name=name))
            cell = 0
            last = 0
            for colour, s in pieces:
                if s == last:
                    raise InvalidPosition(
                        phrase(
                            "{name} holds two pieces of size {s}; a dot holds one of each size.", name=name, s=s
                        )
                    )
                if s < last:
                    raise InvalidPosition(phrase(
                        "The pieces on {name} must be written smallest to largest.", name=name
                    ))
                last = s
                cell |= 1 << (s - 1 + SH * colour)
                counts[colour][s] += 1
            if cell and not geo.is_dot[i]:
                raise InvalidPosition(phrase("{name} is outside the playing area but holds pieces.", name=name))
            cells.append(cell)
        stash = []
        labels = tuple(phrase("{seat}'s {tray}", seat=Phrase(SEAT_NAMES[j // 2]), tray=Phrase(TRAYS[tray]))
                       for j, tray in enumerate(("hand", "ledge", "hand", "ledge")))
        for j in range(4):
            owner = j // 2
            want = owner if j % 2 == 0 else 1 - owner
            pieces = self._pieces(f[2 + j], k, labels[j], allow_dash=True)
            sizes: list[int] = []
            for colour, s in pieces:
                if colour != want:
                    raise InvalidPosition(
                        phrase(
                            "{cell} holds only {seat}'s pieces, not {piece_name}.",
                            cell=labels[j], seat=Phrase(SEAT_NAMES[want]), piece_name=piece_name(colour, s)
                        )
                    )
                if sizes and s < sizes[-1]:
                    raise InvalidPosition(phrase("{cell} must be written smallest to largest.", cell=labels[j]))
                sizes.append(s)
                counts[colour][s] += 1
            stash.append(tuple(sizes))
        per = geo.data.pieces_per_size
        for colour in (0, 1):
            for s in range(1, k + 1):
                if counts[colour][s] != per:
                    raise InvalidPosition(
                        phrase(
                            "There must be {per} pieces {piece_name}, not {x}.",
                            per=per, piece_name=piece_name(colour, s), x=counts[colour][s]
                        )
                    )
        if f[6] not in ("w", "b"):
            raise InvalidPosition(phrase("Field 7 (the player to move) must be w or b, not {f!r}.", f=f[6]))
        mover = COLOURS.index(f[6])
        if f[7] == "place":
            phase = PLACE
        elif f[7] == "placed":
            phase = PLACED
        elif f[7].startswith("leg@") and f[7][4:] in geo.index and geo.is_dot[geo.index[f[7][4:]]]:
            phase = geo.index[f[7][4:]]
        else:
            raise InvalidPosition(phrase(
                "Field 8 (the phase) must be place, placed or leg@<dot>, not {f!r}.", f=f[7]
            ))
        imm = self._marks(f[8], geo, cells, "Field 9")
        if "/" not in f[9]:
            raise InvalidPosition(phrase("Field 10 must be the gained marks, '/', and the pass counter (e.g. -/0)."))
        g_text, p_text = f[9].rsplit("/", 1)
        gained = self._marks(g_text, geo, cells, "Field 10")
        if p_text not in ("0", "1", "2"):
            raise InvalidPosition(phrase("The pass counter must be 0, 1 or 2, not {p_text!r}.", p_text=p_text))
        passes = int(p_text)
        o = 1 - mover
        for d, s in imm:
            if not cells[d] >> (s - 1 + SH * o) & 1:
                raise InvalidPosition(
                    phrase(
                        "The immune piece {cell}:{s} must be {seat}'s: only the player who moved last can have "
                        "gained immunity.", cell=geo.names[d], s=s, seat=Phrase(SEAT_NAMES[o])
                    )
                )
        for d, s in gained:
            if not cells[d] >> (s - 1 + SH * mover) & 1:
                raise InvalidPosition(
                    phrase(
                        "The marked piece {cell}:{s} must be {seat}'s: only the mover's knocking pieces gain "
                        "immunity.", cell=geo.names[d], s=s, seat=Phrase(SEAT_NAMES[mover])
                    )
                )
        if passes and imm:
            raise InvalidPosition(phrase("After a pass no piece can be immune."))
        if gained and phase < 0:
            raise InvalidPosition(
                phrase(
                    "Pieces can only have gained immunity this turn once a leg has been played."
                )
            )
        if phase < 0 and (stash[2 * o] or stash[2 * o + 1]):
            raise InvalidPosition(
                phrase(
                    "At the start of a turn only the player to move can hold pieces in hand or on the ledge, "
                    "but {seat} does.", seat=Phrase(SEAT_NAMES[o])
                )
            )
        if phase == PLACED and cells[geo.home[mover]]:
            raise InvalidPosition(
                phrase(
                    "In phase placed the mover's home dot has been cleared, so it must be empty."
                )
            )
        complete = [w for w in geo.white if (cells[w] | cells[w] >> SH) & LOW == geo.full]
        if len(complete) > 1:
            raise InvalidPosition(phrase("Two white dots hold complete towers; the game ends at the first one."))
        result = None
        if complete:
            result = geo.beneficiary[complete[0]]
        elif passes == 2:
            result = 2
        if result is not None and (phase != PLACE or gained):
            raise InvalidPosition(
                phrase(
                    "A finished game is written at the end of a turn: phase place and no marks in field 10."
                )
            )
        if complete and passes == 2:
            raise InvalidPosition(phrase("A game cannot end both by a complete tower and by two passes."))
        st = QuincalaState(geo, f[0], tuple(cells), tuple(stash), mover, phase, imm, gained, passes, result)
        if phase >= 0:
            own = (cells[phase] >> (SH * mover)) & LOW
            if _POP[own] < 2:
                raise InvalidPosition(
                    phrase(
                        "Phase leg@{cell} needs at least two of the mover's pieces there to go on.",
                        cell=geo.names[phase]
                    )
                )
            if geo.is_white[phase] and not CONTINUE_FROM_WHITE_DOT:
                raise InvalidPosition(phrase("A move cannot go on from a white dot."))
            if st._required():
                raise InvalidPosition(phrase("The mover is in the middle of a move but still has pieces to place."))
        return st

    @staticmethod
    def _pieces(text: str, k: int, where: Phrase, allow_dash: bool = False) -> list[tuple[int, int]]:
        if text == ("-" if allow_dash else "."):
            return []
        if not re.fullmatch(r"(?:[wb][0-9])+", text):
            raise InvalidPosition(
                phrase(
                    "{where} is written {text!r}; expected pieces like w1b3 or {empty} when empty.",
                    where=where, text=text, empty="-" if allow_dash else "."
                )
            )
        out = []
        for c, s in re.findall(r"([wb])([0-9])", text):
            size = int(s)
            if not 1 <= size <= k:
                raise InvalidPosition(
                    phrase(
                        "{where} holds a piece of size {size}, but this game has sizes 1 to {k}.",
                        where=where, size=size, k=k
                    )
                )
            out.append((COLOURS.index(c), size))
        return out

    @staticmethod
    def _marks(text: str, geo: Geometry, cells: list[int], label: str) -> tuple[tuple[int, int], ...]:
        if text == "-":
            return ()
        out = []
        for item in text.split(","):
            m = re.fullmatch(r"([a-z][0-9]{1,2}):([0-9])", item)
            if not m or m.group(1) not in geo.index:
                raise InvalidPosition(phrase("{label}: {item!r} is not a mark like d6:3.", label=label, item=item))
            d, s = geo.index[m.group(1)], int(m.group(2))
            if s < 1 or not ((cells[d] | cells[d] >> SH) >> (s - 1)) & 1:
                raise InvalidPosition(phrase(
                    "{label}: there is no piece of size {s} on {group}.", label=label, s=s, group=m.group(1)
                ))
            out.append((d, s))
        if out != sorted(set(out)):
            raise InvalidPosition(phrase(
                "{label}: marks must be listed once each, in the order of field 2.", label=label
            ))
        return tuple(out)

    # --- steps -----------------------------------------------------------------------------------------
    def step_cells(self, move: str, index: int) -> tuple[str, ...]:
        """The piece of a placement (``w5`` in ``w5@c2``) is no dot."""
        steps = self.move_steps(move)
        if index + 1 < len(steps) and steps[index + 1].startswith("@"):
            return ()
        return super().step_cells(move, index)

    # --- typing turns ---------------------------------------------------------------------------------
    def split_turn(self, text: str) -> list[str]:
        """``w5@c2 b2@j4 ; d3-d6-b6-b7`` -> ``w5@c2``, ``b2@j4``, ``d3-d6``, ``d6-b6``, ``b6-b7``."""
        text = _DASHES.sub("-", text.lower())
        text = re.sub(r"\s*-\s*", "-", text)
        text = re.sub(r"\s*@\s*", "@", text)
        out: list[str] = []
        for token in _SPLIT_RE.split(text.strip()):
            if not token:
                continue
            if "-" in token:
                dots = [d for d in token.split("-")]
                if len(dots) > 2 and all(dots):
                    out.extend(f"{a}-{b}" for a, b in zip(dots, dots[1:], strict=False))
                    continue
            out.append(token)
        return out

    def suggestion_phrases(self, state: State, typed: str, limit: int = 25) -> list[tuple[str, Phrase]]:
        """The next atomic steps after what was typed: complete moves replayed, the partial one filtered."""
        assert isinstance(state, QuincalaState)
        text = _DASHES.sub("-", typed.lower())
        text = re.sub(r"\s*-\s*", "-", text)
        text = re.sub(r"\s*@\s*", "@", text).lstrip()
        if not text or re.search(r"[\s;,]$", text):
            head, partial = text.rstrip(), ""
            sep_head = text
        else:
            m = re.search(r"[\s;,]+(?=[^\s;,]*$)", text)
            cut = m.end() if m else 0
            sep_head, partial = text[:cut], text[cut:]
            head = sep_head.rstrip()
        st = state
        try:
            for mv in self.split_turn(head):
                st = st.play(mv)
            chain_prefix = ""
            if "-" in partial:
                dots = partial.split("-")
                for a, b in zip(dots[:-2], dots[1:-1], strict=False):
                    st = st.play(f"{a}-{b}")
                chain_prefix = "-".join(dots[:-1])
                start, partial_to = dots[-2], dots[-1]
        except IllegalMove:
            return []
        if st.is_over or st.to_move != state.to_move:
            return []
        out: list[tuple[str, Phrase]] = []

        def add(value: str, step: str, st_: QuincalaState) -> None:
            if len(out) >= limit or len(value) > 100:
                return
            out.append((value, labelled(value, st_.describe_phrase(step))))

        if chain_prefix:
            for mv in st.legal_moves():
                if "-" in mv and mv.split("-")[0] == start and mv.split("-")[1].startswith(partial_to):
                    add(f"{sep_head}{chain_prefix}-{mv.split('-')[1]}", mv, st)
            # the typed leg itself complete: offer its continuations
            full = f"{start}-{partial_to}"
            if full in st.legal_moves():
                nxt = st.play(full)
                if nxt.to_move == st.to_move and nxt.phase >= 0:
                    for mv in nxt.legal_moves():
                        if "-" in mv:
                            add(f"{sep_head}{chain_prefix}-{partial_to}-{mv.split('-')[1]}", mv, nxt)
            return out
        for mv in st.legal_moves():
            if normalise(mv).startswith(partial):
                add(f"{sep_head}{mv}", mv, st)
        return out


GAME = QuincalaGame()
QuincalaState.game = GAME
