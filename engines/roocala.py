"""Roocala (Christian Freeling) as ../shared/rules/roocala.md specifies it.

One atomic move per turn: a checker sowing (``e2>f3``: departure ``>`` the cell that receives the first
checker), a hybrid sowing that carries the Rook one drop further (``c1>d1+R``), or a Rook move
(``Rf4-c4``, ``Rf4xc4`` when it captures). Both boards (``hex``, 37 cells; ``square``, 6x6) are precomputed
at import as ``Board`` tables: cell names, ownership, the counter-clockwise edge track, rays, and for every
departure cell and direction the whole drop path (line, then CCW laps with the skip rule), so a sowing is a
slice of a precomputed tuple.

A state stores the checker counts and the Rook owners as tuples indexed like the position code (``-1`` = no
Rook, ``0`` = South, ``1`` = North), the two scores as the code writes them, the side to move and the
positions seen since the last capture (captures are irreversible, so no earlier position can come back).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

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
    mark,
    outcome_phrase,
    phrase,
    rank_seats,
)

# --------------------------------------------------------------------------------------------------------
# Interpretations (spec §11); every [INTERP] of the spec sits behind one of these names.
# --------------------------------------------------------------------------------------------------------

# Q2 (§3.2): hex Rook start cells, the side vertices of the inner hexagon.
HEX_ROOKS_START = {"S": ("b4", "d2"), "N": ("d6", "f4")}
# Q3 (§4): square Rook start cells, each player's Rooks on the inner corners next to their own side.
SQ_ROOKS_START = {"S": ("b2", "e2"), "N": ("b5", "e5")}
# Q4 (§4): square straight lines (sowing and Rooks) are orthogonal only; True adds the diagonals.
SQ_DIAGONAL_SOWING = False
# Q8 (§5 R-S5): an own cell in the capture chain breaks it (False: it is skipped and the chain goes on).
CHAIN_OWN_CELL_BREAKS = True
# Q10 (§5 R-H4): a hybrid target holding an opponent's Rook captures it even on the mover's own cell.
# False makes such a hybrid illegal (a cell holds one Rook, so the literal "move ends" cannot be played).
HYBRID_CAPTURES_ROOK_ON_OWN_CELL = True
# Q11 (§5 R-H6): a hybrid whose target holds a friendly Rook is illegal. The position code writes one Rook
# per cell, so True is not representable; the constant documents the choice.
HYBRID_ONTO_FRIENDLY_ROOK = False
# Q13 (§5 R-E1, §10): the threshold is compared with the score including North's starting point.
THRESHOLD_COUNTS_KOMI = True
# Q14 (§5 R-E4): "3-fold" is the third occurrence of the same position with the same player to move.
REPETITION_MODE = "position"
REPETITION_DRAW = 3
# Q5 (first step of a line from an edge cell enters the inner area), Q6 (the edge cell ending a line gets a
# drop), Q7 (laps skip the departure cell), Q9 (hybrids never chain-capture), Q12 (the hybrid captures the
# maximum) and Q15 (Rooks score nothing) have no switch in the spec; the code below follows them.
KOMI = 1  # R-G1: North starts with one point.

assert not HYBRID_ONTO_FRIENDLY_ROOK, "one Rook per cell: the position code cannot hold two"
assert REPETITION_MODE == "position", "only position repetition is implemented"

SOUTH, NORTH = 0, 1
SEATS = ("South", "North")
SEAT_LETTERS = "SN"
NO_ROOK = -1
NEUTRAL = -1
EDGE = -1  # the "direction" of a sowing along the edge track
MAX_PATH = 48  # longer than any sowing (at most 40 checkers + the Rook)


# --------------------------------------------------------------------------------------------------------
# Geometry (spec §3, §4)
# --------------------------------------------------------------------------------------------------------

class Board:
    """The precomputed tables of one variant; cells are indices into ``names`` (position-code order)."""

    def __init__(self, variant: str, coords: list[tuple[int, int]], names: list[str], edge: list[bool],
                 owner: list[int], track: list[str], dirs: list[tuple[str, tuple[int, int]]],
                 rooks: Mapping[str, tuple[str, ...]], threshold: int):
        self.variant = variant
        self.n = len(names)
        self.names = tuple(names)
        self.index = {name: i for i, name in enumerate(names)}
        self.coords = tuple(coords)
        self.edge = tuple(edge)
        self.owner = tuple(owner)
        self.track = tuple(self.index[c] for c in track)
        assert sorted(self.track) == [i for i in range(self.n) if edge[i]]
        self.track_pos = tuple(self.track.index(i) if edge[i] else -1 for i in range(self.n))
        self.dir_names = tuple(d for d, _ in dirs)
        self.dir_index = {d: k for k, d in enumerate(self.dir_names)}
        self.threshold = threshold
        self.checkers = 2 * len(track)  # every edge cell starts with 2 (§3.2, §4)
        at = {xy: i for i, xy in enumerate(coords)}
        # step[c][d]: the neighbour of c in direction d, or -1; ray[c][d]: the cells beyond c, nearest first.
        step, ray = [], []
        for (x, y) in coords:
            s, r = [], []
            for _, (dx, dy) in dirs:
                line, k = [], 1
                while (x + k * dx, y + k * dy) in at:
                    line.append(at[(x + k * dx, y + k * dy)])
                    k += 1
                s.append(line[0] if line else -1)
                r.append(tuple(line))
            step.append(tuple(s))
            ray.append(tuple(r))
        self.step = tuple(step)
        self.ray = tuple(ray)
        # line[a][b] = direction from a to b when b lies on a ray of a.
        self.line = tuple({b: d for d, cells in enumerate(ray[a]) for b in cells} for a in range(self.n))
        # path[c][d] (d = EDGE for the edge track) = the drop cells, first MAX_PATH of them (§6 path()).
        self.path = tuple({d: self._path(c, d) for d in (EDGE, *range(len(dirs)))} for c in range(self.n))
        # R-S3: the sowing directions open at c for seat p (EDGE only from an own edge cell; a line from an
        # edge cell must step into the inner area, Q5).
        self.sow_dirs = tuple(
            tuple(tuple(
                ([EDGE] if edge[c] and owner[c] == p else [])
                + [d for d in range(len(dirs)) if step[c][d] >= 0 and not (edge[c] and edge[step[c][d]])])
                for c in range(self.n)) for p in (SOUTH, NORTH))
        # Canonical move strings.
        self.sow_str = tuple({d: f"{names[c]}>{names[self.path[c][d][0]]}"
                              for d in set(self.sow_dirs[SOUTH][c] + self.sow_dirs[NORTH][c])}
                             for c in range(self.n))
        self.rook_str = tuple(
            tuple((f"R{names[a]}-{names[b]}", f"R{names[a]}x{names[b]}") for b in range(self.n))
            for a in range(self.n))
        # Opening position.
        self.start_rooks = tuple(
            SOUTH if names[i] in rooks["S"] else NORTH if names[i] in rooks["N"] else NO_ROOK
            for i in range(self.n))
        self.start_board = tuple(2 if edge[i] else 0 for i in range(self.n))

    def _path(self, frm: int, d: int) -> tuple[int, ...]:
        out: list[int] = []
        cur = frm
        if d != EDGE:  # the straight part: on until an edge cell, which receives a drop (Q6)
            while True:
                cur = self.step[cur][d]
                if cur < 0:
                    return ()  # no cell that way
                out.append(cur)
                if self.edge[cur]:
                    break
        t = self.track_pos[cur]
        size = len(self.track)
        while len(out) < MAX_PATH:  # the edge part, CCW, skipping the departure cell (R-S3d, Q7)
            t = (t + 1) % size
            if self.track[t] != frm:
                out.append(self.track[t])
        return tuple(out)


def _hex_board() -> Board:
    cells = [(i, j) for i in range(1, 8) for j in range(1, 8) if abs(i - j) <= 3]
    names = [f"{'abcdefg'[i - 1]}{j}" for i, j in cells]
    edge = [i in (1, 7) or j in (1, 7) or abs(i - j) == 3 for i, j in cells]
    owner = [NEUTRAL if not e else SOUTH if i + j <= 7 else NORTH
             for (i, j), e in zip(cells, edge, strict=True)]
    track = "a1 b1 c1 d1 e2 f3 g4 g5 g6 g7 f7 e7 d7 c6 b5 a4 a3 a2".split()  # §3.3
    dirs = [("n", (1, 1)), ("s", (-1, -1)), ("ne", (1, 0)), ("sw", (-1, 0)), ("nw", (0, 1)), ("se", (0, -1))]
    return Board("hex", cells, names, edge, owner, track, dirs, HEX_ROOKS_START, 19)


def _square_board() -> Board:
    cells = [(f, r) for r in range(1, 7) for f in range(1, 7)]
    names = [f"{'abcdef'[f - 1]}{r}" for f, r in cells]
    edge = [f in (1, 6) or r in (1, 6) for f, r in cells]
    owner = [NEUTRAL if not e else SOUTH if r <= 3 else NORTH for (f, r), e in zip(cells, edge, strict=True)]
    track = "a1 b1 c1 d1 e1 f1 f2 f3 f4 f5 f6 e6 d6 c6 b6 a6 a5 a4 a3 a2".split()  # §4
    dirs = [("n", (0, 1)), ("s", (0, -1)), ("e", (1, 0)), ("w", (-1, 0))]
    if SQ_DIAGONAL_SOWING:
        dirs += [("ne", (1, 1)), ("sw", (-1, -1)), ("nw", (-1, 1)), ("se", (1, -1))]
    return Board("square", cells, names, edge, owner, track, dirs, SQ_ROOKS_START, 21)


BOARDS: dict[str, Board] = {"hex": _hex_board(), "square": _square_board()}
BOARD_WORDS = {"hex": mark("hex"), "square": mark("square")}     # '... of the {variant} board'
VARIANTS = ("hex", "square")


# --------------------------------------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------------------------------------

SOW, HYBRID, ROOK = 0, 1, 2

_CELL = r"([a-z][0-9]+)"
_ROOK_RE = re.compile(rf"^r?{_CELL}(?:([-x]){_CELL})?$")
_STEP_RE = re.compile(r"R?[a-z]\d+|[>\-x][a-z]\d+(?:\+R)?")
_SOW_RE = re.compile(rf"^{_CELL}(?:>{_CELL}| ?(ne|nw|se|sw|n|s|e|w))?(\+r)?$")
_MOVE_FORMS = phrase("e2>f3 (sowing), c1>d1+R (hybrid) or Rf4-c4 (Rook)")
# A count in a position code: ASCII digits, no leading zero, short (a longer one is too many anyway, and int()
# refuses very long digit strings with a ValueError).
_COUNT = r"0|[1-9][0-9]{0,5}"


def _threshold_reached(board: Board, seat: int, score: int) -> bool:
    """R-E1 with Q13: the score (North's point included unless the switch says otherwise)."""
    if not THRESHOLD_COUNTS_KOMI and seat == NORTH:
        score -= KOMI
    return score >= board.threshold


class RoocalaState(State):
    """One Roocala position; immutable."""

    __slots__ = ("variant", "_g", "_b", "_r", "_sc", "_side", "_hist", "_end", "_final", "_moves")

    players = 2

    def __init__(self, g: Board, b: tuple[int, ...], r: tuple[int, ...], sc: tuple[int, int], side: int,
                 hist: tuple, end: str = ""):
        self.variant = g.variant
        self._g = g
        self._b = b
        self._r = r
        self._sc = sc
        self._side = side
        self._hist = hist      # position keys since the last capture, the current one last
        self._end = end        # '' while playing; 'threshold', 'no_move' or 'repetition' once over
        self._moves: list[str] | None = None
        if end == "no_move":   # R-E2: the checkers left go to the last mover
            last = 1 - side
            left = sum(b)
            self._final = (sc[0] + left, sc[1]) if last == SOUTH else (sc[0], sc[1] + left)
        else:
            self._final = sc

    # --- contract ------------------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return None if self._end else self._side

    @property
    def is_over(self) -> bool:
        return bool(self._end)

    @property
    def scores(self) -> tuple[int, int]:
        return self._final

    @property
    def winners(self) -> tuple[int, ...]:
        if not self._end:
            return ()
        if self._end == "repetition":
            return (SOUTH, NORTH)
        s, n = self._final
        return (SOUTH,) if s > n else (NORTH,) if n > s else (SOUTH, NORTH)  # R-E3

    def legal_moves(self) -> list[str]:
        return list(self._legal())

    def play(self, move: str) -> RoocalaState:
        if move not in self._legal():
            move = self.canonical(move)
        return self._apply(*_parse_canonical(self._g, move))

    def encode(self) -> str:
        g = self._g
        cells = ",".join(f"{k}{'' if r < 0 else SEAT_LETTERS[r]}"
                         for k, r in zip(self._b, self._r, strict=True))
        return f"{g.variant} {cells} {self._sc[0]} {self._sc[1]} {SEAT_LETTERS[self._side]}"

    # --- move generation -----------------------------------------------------------------------------------
    def _legal(self) -> list[str]:
        """The legal moves, sorted, worked out once (the shared list: callers must not change it)."""
        if self._moves is None:
            self._moves = [] if self._end else sorted(self._generate())
        return self._moves

    def _generate(self) -> list[str]:
        g, b, r, me = self._g, self._b, self._r, self._side
        opp = 1 - me
        owner, sow_dirs, paths, sow_str = g.owner, g.sow_dirs[me], g.path, g.sow_str
        out: list[str] = []
        for c in range(g.n):
            k = b[c]
            if k:
                if owner[c] == opp:  # R-S1 / R-H1: never from the opponent's cells
                    continue
                strs = sow_str[c]
                dirs = sow_dirs[c]
                for d in dirs:
                    out.append(strs[d])
                if r[c] == me:  # R-H1: a friendly Rook with checkers may come along
                    for d in dirs:
                        t = paths[c][d][k]
                        rt = r[t]
                        if rt == me:  # R-H6 (Q11)
                            continue
                        if rt == opp and owner[t] == me and not HYBRID_CAPTURES_ROOK_ON_OWN_CELL:
                            continue
                        out.append(strs[d] + "+R")
            elif r[c] == me:  # R-R1: a Rook alone on its cell
                rs = g.rook_str[c]
                for cells in g.ray[c]:
                    for t in cells:
                        if b[t] or r[t] >= 0:
                            break
                    else:
                        continue  # R-R3: only vacant cells that way
                    rt = r[t]
                    if rt == me or (rt == opp and not b[t]):  # R-R4
                        continue
                    out.append(rs[t][1] if rt == opp or owner[t] != me else rs[t][0])
        return out

    def _has_move(self) -> bool:
        """R-E2: whether the side to move has any legal move (cheaper than generating them)."""
        g, b, r, me = self._g, self._b, self._r, self._side
        opp = 1 - me
        owner = g.owner
        for c in range(g.n):
            if b[c]:
                if owner[c] != opp:
                    return True  # R-S1: every such cell has at least one sowing
            elif r[c] == me:
                for cells in g.ray[c]:
                    for t in cells:
                        if b[t] or r[t] >= 0:
                            rt = r[t]
                            if rt != me and (rt != opp or b[t]):
                                return True
                            break
        return False

    # --- applying a move -----------------------------------------------------------------------------------
    def _effects(self, kind: int, frm: int, arg: int
                 ) -> tuple[list[int], list[int], dict[int, int], int, int]:
        """(board, rooks, captured checkers by cell, Rook target or -1, captured Rook's cell or -1)."""
        g, me = self._g, self._side
        b = list(self._b)
        r = list(self._r)
        captured: dict[int, int] = {}
        rook_to = rook_taken = -1
        owner = g.owner
        if kind == ROOK:
            r[frm] = NO_ROOK
            rook_to = arg
            if r[arg] >= 0:  # R-R4: an opponent's Rook on checkers is replaced
                rook_taken = arg
            elif owner[arg] != me:  # R-R4: one checker from a cell not the mover's
                b[arg] -= 1
                captured[arg] = 1
            r[arg] = me
            return b, r, captured, rook_to, rook_taken
        n = b[frm]
        b[frm] = 0
        path = g.path[frm][arg]
        if kind == SOW:  # R-S2..R-S5
            drops = path[:n]
            before = []
            for c in drops:
                before.append(b[c])
                b[c] += 1
            last = drops[-1]
            if owner[last] != me and before[-1] == 1:
                for k in range(n - 1, -1, -1):
                    c = drops[k]
                    if owner[c] == me:
                        if CHAIN_OWN_CELL_BREAKS:
                            break
                        continue
                    if before[k] != 1:
                        break
                    b[c] -= 1
                    captured[c] = captured.get(c, 0) + 1
            return b, r, captured, rook_to, rook_taken
        # HYBRID: R-H2..R-H5, no chain capture (Q9).
        for c in path[:n]:
            b[c] += 1
        t = path[n]
        r[frm] = NO_ROOK
        rook_to = t
        if r[t] >= 0:  # an opponent's Rook (R-H6 keeps friendly ones out), own cell included (Q10)
            rook_taken = t
        elif owner[t] != me and b[t]:
            x = min(n, b[t])  # Q12: the maximum, not the player's choice
            b[t] -= x
            captured[t] = x
        r[t] = me
        return b, r, captured, rook_to, rook_taken

    def _apply(self, kind: int, frm: int, arg: int) -> RoocalaState:
        b, r, captured, _, rook_taken = self._effects(kind, frm, arg)
        me = self._side
        gain = sum(captured.values())
        sc = self._sc
        if gain:
            sc = (sc[0] + gain, sc[1]) if me == SOUTH else (sc[0], sc[1] + gain)
        bt, rt = tuple(b), tuple(r)
        side = 1 - me
        key = (bt, rt, side)
        # Captures are irreversible: no position before one can occur again, so the history restarts.
        hist = (key,) if gain or rook_taken >= 0 else self._hist + (key,)
        end = ""
        if _threshold_reached(self._g, me, sc[me]):
            end = "threshold"  # R-E1
        elif not (gain or rook_taken >= 0) and hist.count(key) >= REPETITION_DRAW:
            end = "repetition"  # R-E4
        nxt = RoocalaState(self._g, bt, rt, sc, side, hist, end)
        if not end and not nxt._has_move():
            nxt = RoocalaState(self._g, bt, rt, sc, side, hist, "no_move")  # R-E2
        return nxt

    # --- reading lenient input (§7) ------------------------------------------------------------------------
    def canonical(self, move: str) -> str:
        """The canonical string of ``move`` in any form §7 allows; IllegalMove naming the rule otherwise."""
        legal = self._legal()
        if move in legal:
            return move
        if self._end:
            raise IllegalMove(phrase("The game is over: {result}", result=self._result_phrase()))
        text = re.sub(r"\s*([>+\-x])\s*", r"\1", " ".join(move.lower().split()))
        text = re.sub(r"^r ", "r", text)
        m = _SOW_RE.match(text)
        if m:
            canon = self._read_sowing(m.group(1), m.group(2), m.group(3), bool(m.group(4)))
        else:
            m = _ROOK_RE.match(text)
            if not m:
                raise IllegalMove(phrase(
                    "'{strip}' is not a Roocala move: type e.g. {move_forms} (§7).",
                    strip=move.strip(), move_forms=_MOVE_FORMS
                ))
            canon = self._read_rook(m.group(1), m.group(3))
        if canon not in legal:  # (every refusal above names its rule)
            raise IllegalMove(phrase("{canon} is not a legal move in this position.", canon=canon))
        return canon

    def _cell(self, name: str) -> int:
        i = self._g.index.get(name)
        if i is None:
            raise IllegalMove(phrase("{name} is not a cell of the {variant} board.", name=name,
                                     variant=Phrase(BOARD_WORDS[self._g.variant])))
        return i

    def _read_sowing(self, frm_name: str, first: str | None, word: str | None, hybrid: bool) -> str:
        g, me = self._g, self._side
        frm = self._cell(frm_name)
        rule = "R-H1" if hybrid else "R-S1"
        if g.owner[frm] == 1 - me:
            raise IllegalMove(phrase(
                "{frm_name} is {seat}'s cell, and nobody sows from the opponent's cells ({rule}).",
                frm_name=frm_name, seat=Phrase(SEATS[1 - me]), rule=rule
            ))
        if not self._b[frm]:
            hint = phrase("; your Rook there moves as R{cell}-…", cell=frm_name) if self._r[frm] == me else NOTHING
            raise IllegalMove(phrase(
                "{frm_name} holds no checkers to sow ({rule}){hint}.", frm_name=frm_name, rule=rule, hint=hint
            ))
        if hybrid and self._r[frm] != me:
            raise IllegalMove(phrase(
                "A hybrid move needs one of your Rooks on {frm_name}, together with the checkers (R-H1).",
                frm_name=frm_name
            ))
        dirs = g.sow_dirs[me][frm]
        suffix = "+R" if hybrid else ""
        if first is not None:
            to = self._cell(first)
            d = next((d for d in dirs if g.path[frm][d][0] == to), None)
            if d is None:
                if g.edge[frm] and g.edge[to] and to in g.line[frm] and g.step[frm][g.line[frm][to]] == to:
                    ccw = phrase(" Sowing along the edge, the first checker goes to {cell}.",
                                 cell=g.sow_str[frm][EDGE][-2:]) if EDGE in dirs else NOTHING
                    raise IllegalMove(phrase(
                        "{first} is an edge cell: a line from the edge cell {frm_name} must start into the "
                        "inner area (R-S3).{ccw}", first=first, frm_name=frm_name, ccw=ccw
                    ))
                options = ", ".join(g.sow_str[frm][d] + suffix for d in dirs)
                raise IllegalMove(phrase(
                    "{first} does not receive the first checker of any sowing from {frm_name} (R-S3): name "
                    "the first cell, one of {options}.", first=first, frm_name=frm_name, options=options
                ))
        elif word is not None:
            d = g.dir_index.get(word)
            if d is None:
                raise IllegalMove(phrase(
                    "'{word}' is not a direction on the {variant} board: use {join} (§7).",
                    word=word, variant=Phrase(BOARD_WORDS[g.variant]), join=', '.join(g.dir_names)
                ))
            if g.step[frm][d] < 0:
                raise IllegalMove(phrase(
                    "There is no cell {word} of {frm_name} (R-S3).", word=word, frm_name=frm_name
                ))
            if d not in dirs:
                raise IllegalMove(phrase(
                    "A line from the edge cell {frm_name} must start into the inner area, and {word} leads "
                    "to the edge cell {cell} (R-S3).", frm_name=frm_name, word=word, cell=g.names[g.step[frm][d]]
                ))
        elif EDGE in dirs:
            d = EDGE  # §7: an own edge cell alone sows along the edge
        elif len(dirs) == 1:
            d = dirs[0]
        else:
            options = ", ".join(g.sow_str[frm][d] + suffix for d in dirs)
            raise IllegalMove(phrase(
                "{frm_name} is an inner cell, so the sowing needs a direction (R-S3): type one of "
                "{options}.", frm_name=frm_name, options=options
            ))
        canon = g.sow_str[frm][d] + suffix
        if hybrid and canon not in self._legal():
            t = g.path[frm][d][self._b[frm]]
            if self._r[t] == me:
                raise IllegalMove(phrase(
                    "The Rook would land on {cell}, where your other Rook stands (R-H6).", cell=g.names[t]
                ))
            raise IllegalMove(phrase(
                "The Rook would land on {cell}, your own cell holding the opponent's Rook (R-H4).",
                cell=g.names[t]
            ))
        return canon

    def _read_rook(self, frm_name: str, to_name: str | None) -> str:
        g, me = self._g, self._side
        frm = self._cell(frm_name)
        mine = [m for m in self._legal() if m[:len(frm_name) + 2] in (f"R{frm_name}-", f"R{frm_name}x")]
        if self._r[frm] != me:
            if self._r[frm] < 0:
                raise IllegalMove(phrase("There is no Rook on {cell}, and you move only your own Rooks (R-R1).",
                                         cell=frm_name))
            raise IllegalMove(phrase("There is {seat}'s Rook on {cell}, and you move only your own Rooks (R-R1).",
                                     seat=Phrase(SEATS[self._r[frm]]), cell=frm_name))
        if self._b[frm]:
            if g.owner[frm] == 1 - me:
                raise IllegalMove(phrase(
                    "The Rook on {frm_name} shares its cell with checkers, and on the opponent's cell it "
                    "cannot lead a hybrid sowing either (R-R1, R-H1).", frm_name=frm_name
                ))
            raise IllegalMove(phrase(
                "The Rook on {frm_name} shares its cell with checkers, so it moves only in a hybrid sowing "
                "such as {x}+R (R-R1).", frm_name=frm_name, x=g.sow_str[frm][g.sow_dirs[me][frm][0]]
            ))
        if to_name is None:
            if len(mine) == 1:
                return mine[0]
            if not mine:
                raise IllegalMove(phrase("The Rook on {frm_name} has no legal move (R-R3, R-R4).", frm_name=frm_name))
            raise IllegalMove(phrase(
                "Which way should the Rook on {frm_name} go? Type one of {join}.",
                frm_name=frm_name, join=', '.join(mine)
            ))
        to = self._cell(to_name)
        d = g.line[frm].get(to)
        if d is None:
            raise IllegalMove(phrase(
                "{to_name} is not in a straight line from {frm_name} (R-R2).", to_name=to_name, frm_name=frm_name
            ))
        for c in g.ray[frm][d]:
            if c == to:
                break
            if self._b[c] or self._r[c] >= 0:
                raise IllegalMove(phrase(
                    "The Rook cannot pass over {cell}, which is occupied (R-R2).", cell=g.names[c]
                ))
        if not self._b[to] and self._r[to] < 0:
            raise IllegalMove(phrase("A Rook may not stop on the vacant cell {to_name} (R-R3).", to_name=to_name))
        if self._r[to] == me:
            raise IllegalMove(phrase(
                "A Rook may not land on {to_name}, where your other Rook stands (R-R4).", to_name=to_name
            ))
        if not self._b[to]:
            raise IllegalMove(phrase(
                "A Rook may not land on {to_name}, where the opponent's Rook stands without checkers "
                "(R-R4).", to_name=to_name
            ))
        capture = self._r[to] >= 0 or g.owner[to] != me
        return g.rook_str[frm][to][1 if capture else 0]

    # --- extras --------------------------------------------------------------------------------------------
    def effects(self, move: str) -> dict:
        """What ``move`` does, for describe() and the renderer: the kind, the departure cell, the drop cells
        in order, the checkers captured by cell, the Rook's landing cell and a captured Rook's cell."""
        canon = self.canonical(move)
        kind, frm, arg = _parse_canonical(self._g, canon)
        _, _, captured, rook_to, rook_taken = self._effects(kind, frm, arg)
        names = self._g.names
        drops: tuple[int, ...] = ()
        if kind != ROOK:
            drops = self._g.path[frm][arg][:self._b[frm]]
        return {
            "move": canon,
            "kind": ("sow", "hybrid", "rook")[kind],
            "edge": kind != ROOK and arg == EDGE,
            "from": names[frm],
            "drops": [names[c] for c in drops],
            "captured": {names[c]: k for c, k in captured.items()},
            "rook_to": names[rook_to] if rook_to >= 0 else None,
            "rook_captured": names[rook_taken] if rook_taken >= 0 else None,
        }

    def describe_phrase(self, move: str) -> Phrase:
        try:
            fx = self.effects(move)
        except IllegalMove:
            return NOTHING
        took = sum(fx["captured"].values())
        gain = phrase("captures {n}", n=took) if took else NOTHING
        if fx["rook_captured"]:
            gain = phrase("captures {seat}'s Rook", seat=Phrase(SEATS[1 - self._side]))
        if fx["kind"] == "rook":
            if fx["rook_captured"]:
                return gain
            if took:
                return phrase("captures 1 checker")
            return phrase("joins your checkers on {cell}, no capture", cell=fx["rook_to"])
        edge = fx["edge"]
        if fx["kind"] == "sow":
            way = phrase("along the edge") if edge else phrase("line")
            return joined([way, gain]) if took else joined([way, phrase("ends {cell}", cell=fx["drops"][-1])])
        hybrid = phrase("hybrid along the edge, Rook to {cell}", cell=fx["rook_to"]) if edge \
            else phrase("hybrid line, Rook to {cell}", cell=fx["rook_to"])
        return joined([hybrid, gain]) if gain.template else hybrid

    def turn_record(self, moves: list[str]) -> str:
        return str(self.turn_record_phrase(moves))

    def turn_record_phrase(self, moves: list[str]) -> Phrase:
        """§7 game record: the move and its result in braces (``e2>f3 {x3}``, ``b2>c3+R {xR}``)."""
        out: list[Phrase | str] = []
        st = self
        for m in moves:
            try:
                fx = st.effects(m)
                nxt = st.play(m)
            except IllegalMove:
                out.append(m)
                continue
            took = sum(fx["captured"].values())
            notes: list[Phrase | str] = [f"x{took}"] if took else []
            if fx["rook_captured"]:
                notes.append("xR")
            if nxt._end == "no_move":
                notes.append(phrase("end: no moves, +{left} to {seat}", left=sum(nxt._b),
                                    seat=Phrase(SEATS[1 - nxt._side])))
            out.append(Phrase("{move} {{{notes}}}", {"move": fx["move"], "notes": joined(notes)}) if notes
                       else fx["move"])
            st = nxt
        return joined(out)

    def outcome(self) -> Outcome | None:
        if not self._end:
            return None
        winners = self.winners
        ranks = rank_seats(self, winners)
        s, n = self._final
        seats = {"south": SOUTH, "north": NORTH}
        scores: dict[str, str | int] = {"south_score": s, "north_score": n}
        if self._end == "threshold":  # R-E1: only one side can pass half of all points, and it wins
            seat = SOUTH if _threshold_reached(self._g, SOUTH, s) else NORTH
            return Outcome(RoocalaTermination.THRESHOLD, winners, ranks, {"winner": seat, **seats},
                           {"threshold": self._g.threshold, **scores})
        if self._end == "no_move":  # R-E2
            left = sum(self._b)
            return Outcome(RoocalaTermination.NO_MOVE, winners, ranks,
                           {"stuck": self._side, "gainer": 1 - self._side, **seats},
                           {"left": left, "checkers": "checker" if left == 1 else "checkers", **scores})
        return Outcome(RoocalaTermination.REPETITION, winners, ranks)  # R-E4

    def pending(self) -> str:
        return ""

    def _result_phrase(self) -> Phrase:
        """Once over: the outcome's sentence with the seat names (South, North); nothing while the game runs."""
        outcome = self.outcome()
        return NOTHING if outcome is None else outcome_phrase(GAME, outcome, SEATS)

    def repetitions(self) -> int:
        """How often the current position has occurred in this state's history (1 the first time)."""
        return self._hist.count(self._hist[-1]) if self._hist else 1

    # Read-only accessors for the renderer and the tests.
    @property
    def board(self) -> Board:
        return self._g

    @property
    def side(self) -> int:
        """The player whose turn it is, or after the end the one who did not make the last move (the code)."""
        return self._side

    @property
    def code_scores(self) -> tuple[int, int]:
        """The scores as the position code writes them (without an R-E2 award)."""
        return self._sc

    def checkers(self, cell: str) -> int:
        return self._b[self._g.index[cell]]

    def rook(self, cell: str) -> int | None:
        """The seat whose Rook stands on ``cell``, or None."""
        r = self._r[self._g.index[cell]]
        return None if r < 0 else r

    def owner(self, cell: str) -> int | None:
        """The seat owning the edge cell ``cell``; None for an inner cell."""
        o = self._g.owner[self._g.index[cell]]
        return None if o < 0 else o

    def text_board_phrase(self) -> Phrase:
        g = self._g

        def token(i: int) -> str:
            k = self._b[i]
            rook = "" if self._r[i] < 0 else "Rr"[self._r[i]]
            owner = "." if g.owner[i] < 0 else "sn"[g.owner[i]]
            return f"{g.names[i]}{owner}{k if k else '-'}{rook}"

        lines: list[Phrase | str] = []
        if g.variant == "hex":
            for row in range(14, 1, -1):  # i + j, North's vertex on top
                cols = [" " * 7] * 7
                for i, (a, b) in enumerate(g.coords):
                    if a + b == row:
                        cols[a - b + 3] = f"{token(i):<7}"
                lines.append("".join(cols).rstrip())
        else:
            for rank in range(6, 0, -1):
                lines.append("  ".join(f"{token(g.index[f'{f}{rank}']):<6}" for f in "abcdef").rstrip())
        s, n = self._final
        turn = phrase("{seat} to move", seat=Phrase(SEATS[self._side])) if not self._end \
            else phrase("over: {result}", result=self._result_phrase())
        lines.append(phrase("R = South Rook, r = North Rook; s/n = owner of an edge cell; CCW = {cells} …",
                            cells=" ".join(g.names[c] for c in g.track[:3])))
        lines.append(phrase("Score: South {south}, North {north}. {turn}", south=s, north=n, turn=turn))
        return joined(lines, "\n")

    def __repr__(self) -> str:
        return f"RoocalaState({self.encode()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RoocalaState) and self.encode() == other.encode()

    def __hash__(self) -> int:
        return hash(self.encode())


_CANON: dict[str, dict[str, tuple[int, int, int]]] = {}
for _v, _g in BOARDS.items():
    _table: dict[str, tuple[int, int, int]] = {}
    for _c in range(_g.n):
        for _d in set(_g.sow_dirs[SOUTH][_c] + _g.sow_dirs[NORTH][_c]):  # the directions a sowing may take
            _s = _g.sow_str[_c][_d]
            assert _s not in _table
            _table[_s] = (SOW, _c, _d)
            _table[_s + "+R"] = (HYBRID, _c, _d)
        for _t in range(_g.n):
            if _t in _g.line[_c]:
                _table[_g.rook_str[_c][_t][0]] = _table[_g.rook_str[_c][_t][1]] = (ROOK, _c, _t)
    _CANON[_v] = _table


def _parse_canonical(g: Board, move: str) -> tuple[int, int, int]:
    return _CANON[g.variant][move]



class RoocalaTermination(Termination):
    """How a game of Roocala ends (the keys of ``RoocalaGame.terminations``)."""

    THRESHOLD = "threshold"
    NO_MOVE = "no_move"
    REPETITION = "repetition"


class RoocalaGame(Game):
    key = "roocala"
    title = "Roocala"
    player_counts = (2,)
    variants = VARIANTS
    variant_option = "variant"
    variant_labels = {"hex": "Hex board (37 cells)", "square": "Square board (6×6)"}
    history_in_state = True   # R-E4 counts positions the code does not hold
    fact_words = ("checker", "checkers")    # the {checkers} fact
    termination_kinds = RoocalaTermination
    terminations = {
        "threshold": "{winner} reached {threshold} points, more than half of all points "
                     "({south} {south_score}, {north} {north_score}).",
        "no_move": "{stuck} has no legal move, so the {left} {checkers} left on the board go to {gainer} "
                   "({south} {south_score}, {north} {north_score}).",
        "repetition": "The same position occurred for the third time with the same player to move: a draw.",
    }

    def new(self, players: int = 2, seed: int | None = None, variant: str | None = None) -> RoocalaState:
        if players != 2:
            raise ValueError("Roocala is played by 2 players.")
        variant = variant or VARIANTS[0]
        if variant not in BOARDS:
            raise ValueError(f"Unknown Roocala variant {variant!r}; choose hex or square.")
        g = BOARDS[variant]
        key = (g.start_board, g.start_rooks, SOUTH)
        return RoocalaState(g, g.start_board, g.start_rooks, (0, KOMI), SOUTH, (key,))

    def decode(self, code: str) -> RoocalaState:
        parts = code.strip().split(" ")
        if len(parts) != 5:
            raise InvalidPosition(phrase(
                "A Roocala position code has five fields separated by single spaces: variant, cells, "
                "South's score, North's score, player to move."
            ))
        variant, cells, s_txt, n_txt, side_txt = parts
        g = BOARDS.get(variant)
        if g is None:
            raise InvalidPosition(phrase(
                "Unknown variant {variant!r}: the code starts with hex or square.", variant=variant
            ))
        tokens = cells.split(",")
        if len(tokens) != g.n:
            raise InvalidPosition(phrase(
                "The {variant} board has {n} cells, but the code lists {count}.",
                variant=Phrase(BOARD_WORDS[variant]), n=g.n, count=len(tokens)
            ))
        b, r = [], []
        rooks = [0, 0]
        for name, tok in zip(g.names, tokens, strict=True):
            m = re.fullmatch(rf"({_COUNT})([SN]?)", tok)
            if not m:
                raise InvalidPosition(phrase(
                    "Cell {name} is written {tok!r}: a checker count, then S or N for a Rook.", name=name, tok=tok
                ))
            b.append(int(m.group(1)))
            seat = SEAT_LETTERS.find(m.group(2)) if m.group(2) else NO_ROOK
            r.append(seat)
            if seat >= 0:
                rooks[seat] += 1
        for seat in (SOUTH, NORTH):
            if rooks[seat] > 2:
                raise InvalidPosition(phrase(
                    "{seat} has {rooks} Rooks on the board, but only 2 exist.",
                    seat=Phrase(SEATS[seat]), rooks=rooks[seat]
                ))
        if not re.fullmatch(_COUNT, s_txt) or not re.fullmatch(_COUNT, n_txt):
            raise InvalidPosition(phrase("The scores must be whole numbers."))
        s, n = int(s_txt), int(n_txt)
        if n < KOMI:
            raise InvalidPosition(phrase(
                "North's score includes its starting point, so it is at least {komi}.", komi=KOMI
            ))
        if sum(b) + s + n - KOMI > g.checkers:
            raise InvalidPosition(phrase(
                "The board and the scores account for {value} checkers, but the {variant} game has only "
                "{checkers}.", value=sum(b) + s + n - KOMI, variant=Phrase(BOARD_WORDS[variant]),
                checkers=g.checkers
            ))
        if side_txt not in ("S", "N"):
            raise InvalidPosition(phrase("The last field, the player to move, is S or N."))
        side = SEAT_LETTERS.index(side_txt)
        bt, rt = tuple(b), tuple(r)
        hist = ((bt, rt, side),)
        end = ""
        if _threshold_reached(g, SOUTH, s) or _threshold_reached(g, NORTH, n):
            end = "threshold"
        st = RoocalaState(g, bt, rt, (s, n), side, hist, end)
        if not end and not st._has_move():
            st = RoocalaState(g, bt, rt, (s, n), side, hist, "no_move")
        return st

    def seat_names(self, players: int = 2) -> tuple[str, ...]:
        return SEATS

    def turn_suggestions(self, state: State, typed: str, limit: int = 25) -> list[tuple[str, str]]:
        """The default prefix matches, led by the move a complete lenient form stands for (``d4 sw``)."""
        out = super().turn_suggestions(state, typed, limit)
        if typed.strip() and isinstance(state, RoocalaState) and not state.is_over:
            try:
                canon = state.canonical(typed)
            except IllegalMove:
                return out
            note = state.describe(canon)
            out = [(canon, f"{canon} — {note}" if note else canon)] + [o for o in out if o[0] != canon]
        return out[:limit]

    def move_steps(self, move: str) -> tuple[str, ...]:
        """From, then to: ``Rd2xc2`` -> ``Rd2``, ``xc2``; a promotion stays with its arrival (``>f3+R``), so
        ``e2>f3`` and ``e2>f3+R`` are two choices of one step."""
        steps = tuple(_STEP_RE.findall(move))
        return steps if "".join(steps) == move else super().move_steps(move)

    def split_turn(self, text: str) -> list[str]:
        """One move per turn: the whole submission is one move."""
        text = text.strip()
        return [text] if text else []


GAME = RoocalaGame()
RoocalaState.game = GAME
