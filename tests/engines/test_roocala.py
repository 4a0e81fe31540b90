"""Roocala engine: the geometry, worked examples (§8) and vectors (§9) of ../shared/rules/roocala.md,
rule by rule (R-S, R-R, R-H, R-E), the position code, lenient input (§7) and random-game properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import GAMES, IllegalMove, InvalidPosition, outcome_text
from engines import roocala as R

GAME = GAMES["roocala"]

def reason(state) -> str:
    """The outcome's sentence with the rules' seat names, as the terminal mode shows it."""
    return outcome_text(GAME, state.outcome(), GAME.seat_names(state.players))


# Cell orders written from the spec's text (§3.1 / position code), not from the engine.
HEX_CELLS = [f"{'abcdefg'[i - 1]}{j}" for i in range(1, 8) for j in range(1, 8) if abs(i - j) <= 3]
SQ_CELLS = [f"{f}{r}" for r in range(1, 7) for f in "abcdef"]
CELLS = {"hex": HEX_CELLS, "square": SQ_CELLS}

HEX_SOUTH = "a1 a2 a3 a4 b5 b1 c1 d1 e2".split()
HEX_NORTH = "g7 g6 g5 g4 f3 f7 e7 d7 c6".split()
SQ_SOUTH = "a1 b1 c1 d1 e1 f1 a2 a3 f2 f3".split()
SQ_NORTH = "a6 b6 c6 d6 e6 f6 a4 a5 f4 f5".split()
HEX_TRACK = "a1 b1 c1 d1 e2 f3 g4 g5 g6 g7 f7 e7 d7 c6 b5 a4 a3 a2".split()
SQ_TRACK = "a1 b1 c1 d1 e1 f1 f2 f3 f4 f5 f6 e6 d6 c6 b6 a6 a5 a4 a3 a2".split()
HEX_ROOKS = {"b4": "S", "d2": "S", "d6": "N", "f4": "N"}
SQ_ROOKS = {"b2": "S", "e2": "S", "b5": "N", "e5": "N"}
START_ROOKS = {"hex": HEX_ROOKS, "square": SQ_ROOKS}
EDGES = {"hex": HEX_SOUTH + HEX_NORTH, "square": SQ_SOUTH + SQ_NORTH}


def code(variant: str, counts: dict[str, int] | None = None, rooks: dict[str, str] | None = None,
         s: int = 0, n: int = 1, side: str = "S", base: str = "empty") -> str:
    """A position code built from the spec's format; ``base`` 'start' fills every edge cell with 2."""
    board = {c: 0 for c in CELLS[variant]}
    if base == "start":
        board.update({c: 2 for c in EDGES[variant]})
    board.update(counts or {})
    rooks = START_ROOKS[variant] if rooks is None else rooks
    cells = ",".join(f"{board[c]}{rooks.get(c, '')}" for c in CELLS[variant])
    return f"{variant} {cells} {s} {n} {side}"


def start(variant: str = "hex", counts=None, rooks=None, s=0, n=1, side="S") -> str:
    return code(variant, counts, rooks, s, n, side, base="start")


def play(state, *moves):
    for m in moves:
        state = state.play(m)
    return state


# --- metadata and geometry ---------------------------------------------------------------------------------

def test_game_metadata():
    assert GAME.key == "roocala" and GAME.title == "Roocala"
    assert GAME.player_counts == (2,)
    assert GAME.variants == ("hex", "square")
    assert GAME.seat_names(2) == ("South", "North")
    assert GAME.variant_option == "variant"
    assert GAME.variant_labels == {"hex": "Hex board (37 cells)", "square": "Square board (6×6)"}
    assert GAME.split_turn("  c1>d1+R ") == ["c1>d1+R"]
    assert GAME.new().variant == "hex"


@pytest.mark.parametrize("variant, cells, edge, inner, south, north, threshold", [
    ("hex", 37, 18, 19, HEX_SOUTH, HEX_NORTH, 19),
    ("square", 36, 20, 16, SQ_SOUTH, SQ_NORTH, 21),
])
def test_board_counts_and_ownership(variant, cells, edge, inner, south, north, threshold):  # §9, §3.2, §4
    st0 = GAME.new(variant=variant)
    names = CELLS[variant]
    assert len(names) == cells
    owners = {c: st0.owner(c) for c in names}
    assert sorted(c for c, o in owners.items() if o == 0) == sorted(south)
    assert sorted(c for c, o in owners.items() if o == 1) == sorted(north)
    assert sum(o is None for o in owners.values()) == inner
    assert len(south) + len(north) == edge
    assert sum(st0.checkers(c) for c in names) == 2 * edge  # 36 / 40 checkers
    assert st0.board.threshold == threshold
    assert {c for c in names if st0.rook(c) is not None} == set(START_ROOKS[variant])


def test_hex_ownership_formula():  # §3.2: South = edge cells with i + j <= 7
    for name in HEX_SOUTH:
        assert "abcdefg".index(name[0]) + 1 + int(name[1]) <= 7
    for name in HEX_NORTH:
        assert "abcdefg".index(name[0]) + 1 + int(name[1]) >= 9


@pytest.mark.parametrize("variant, track", [("hex", HEX_TRACK), ("square", SQ_TRACK)])
def test_edge_track_is_ccw(variant, track):  # §3.3 / §4: a full lap visits the track in order
    g = R.BOARDS[variant]
    assert [g.names[c] for c in g.track] == track
    first = track[0]
    n = len(track)
    st0 = GAME.decode(code(variant, {first: n - 1}))
    assert st0.effects(first)["drops"] == track[1:]


# §3.3: the straight lines from each edge cell into the inner area (first cell ... edge cell where it ends).
HEX_LINES = {
    "a1": {"n": "b2 c3 d4 e5 f6 g7"},
    "b1": {"n": "c2 d3 e4 f5 g6", "nw": "b2 b3 b4 b5"},
    "c1": {"n": "d2 e3 f4 g5", "nw": "c2 c3 c4 c5 c6"},
    "d1": {"nw": "d2 d3 d4 d5 d6 d7"},
    "e2": {"sw": "d2 c2 b2 a2", "nw": "e3 e4 e5 e6 e7"},
    "f3": {"sw": "e3 d3 c3 b3 a3", "nw": "f4 f5 f6 f7"},
    "g4": {"sw": "f4 e4 d4 c4 b4 a4"},
    "g5": {"s": "f4 e3 d2 c1", "sw": "f5 e5 d5 c5 b5"},
    "g6": {"s": "f5 e4 d3 c2 b1", "sw": "f6 e6 d6 c6"},
    "g7": {"s": "f6 e5 d4 c3 b2 a1"},
    "f7": {"s": "e6 d5 c4 b3 a2", "se": "f6 f5 f4 f3"},
    "e7": {"s": "d6 c5 b4 a3", "se": "e6 e5 e4 e3 e2"},
    "d7": {"se": "d6 d5 d4 d3 d2 d1"},
    "c6": {"ne": "d6 e6 f6 g6", "se": "c5 c4 c3 c2 c1"},
    "b5": {"ne": "c5 d5 e5 f5 g5", "se": "b4 b3 b2 b1"},
    "a4": {"ne": "b4 c4 d4 e4 f4 g4"},
    "a3": {"n": "b4 c5 d6 e7", "ne": "b3 c3 d3 e3 f3"},
    "a2": {"n": "b3 c4 d5 e6 f7", "ne": "b2 c2 d2 e2"},
}


@pytest.mark.parametrize("cell", sorted(HEX_LINES))
def test_hex_inward_lines(cell):
    side = "S" if cell in HEX_SOUTH else "N"
    nxt = HEX_TRACK[(HEX_TRACK.index(cell) + 1) % 18]
    for direction, line in HEX_LINES[cell].items():
        cells = line.split()
        after = HEX_TRACK[(HEX_TRACK.index(cells[-1]) + 1) % 18]  # then CCW from the line's end cell...
        if after == cell:  # ...skipping the departure cell
            after = HEX_TRACK[(HEX_TRACK.index(cell) + 1) % 18]
        st0 = GAME.decode(code("hex", {cell: len(cells) + 1}, side=side))
        fx = st0.effects(f"{cell} {direction}")
        assert fx["drops"] == cells + [after]
        assert fx["move"] == f"{cell}>{cells[0]}"
    # Exactly these lines (plus the edge) are open from the cell.
    st0 = GAME.decode(code("hex", {cell: 1}, {}, side=side))
    firsts = {m.split(">")[1] for m in st0.legal_moves()}
    assert firsts == {line.split()[0] for line in HEX_LINES[cell].values()} | {nxt}


def test_square_inward_lines():  # §4: b1..e1 go n; a2 a3 e; f2 f3 w; corners only along the edge
    expected = {"b1": "b2", "c1": "c2", "d1": "d2", "e1": "e2", "a2": "b2", "a3": "b3", "f2": "e2", "f3": "e3",
                "a1": None, "f1": None}
    for cell, first in expected.items():
        st0 = GAME.decode(code("square", {cell: 1}, {}))
        lines = {m for m in st0.legal_moves() if not m.endswith(SQ_TRACK[(SQ_TRACK.index(cell) + 1) % 20])}
        assert lines == ({f"{cell}>{first}"} if first else set()), cell


# --- §9: the opening --------------------------------------------------------------------------------------

def test_hex_opening_moves():  # §9: 32 = 9 edge + 15 line + 8 Rook moves
    moves = GAME.new(variant="hex").legal_moves()
    edge = {f"{c}>{HEX_TRACK[(HEX_TRACK.index(c) + 1) % 18]}" for c in HEX_SOUTH}
    lines = {f"{c}>{line.split()[0]}" for c in HEX_SOUTH for line in HEX_LINES[c].values()}
    rooks = set("Rb4-a3 Rb4-a4 Rb4-b5 Rb4-b1 Rd2-c1 Rd2-e2 Rd2-a2 Rd2-d1".split())
    assert (len(edge), len(lines), len(rooks)) == (9, 15, 8)
    assert moves == sorted(edge | lines | rooks)
    assert len(moves) == 32


def test_square_opening_moves():  # §9: 22 = 10 edge + 8 line + 4 Rook moves (orthogonal, Q4)
    moves = GAME.new(variant="square").legal_moves()
    edge = {f"{c}>{SQ_TRACK[(SQ_TRACK.index(c) + 1) % 20]}" for c in SQ_SOUTH}
    lines = set("b1>b2 c1>c2 d1>d2 e1>e2 a2>b2 a3>b3 f2>e2 f3>e3".split())
    rooks = set("Rb2-b1 Rb2-a2 Re2-e1 Re2-f2".split())
    assert moves == sorted(edge | lines | rooks)
    assert len(moves) == 22


@pytest.mark.parametrize("variant, count", [("hex", 32), ("square", 22)])
def test_north_moving_first_has_as_many_moves(variant, count):  # §9 symmetry
    assert len(GAME.decode(start(variant, side="N")).legal_moves()) == count


def test_blocked_rook_directions_at_opening():  # §9: b4 n, b4 ne, d2 n, d2 nw run into a lone enemy Rook
    st0 = GAME.new()
    for bad in ("Rb4-d6", "Rb4xd6", "Rb4-f4", "Rd2-d6", "Rd2-f4"):
        with pytest.raises(IllegalMove, match="R-R4"):
            st0.play(bad)


# --- position code ---------------------------------------------------------------------------------------

def test_opening_position_code_hex():
    cells = []
    for name in HEX_CELLS:
        cells.append(("2" if name in HEX_SOUTH + HEX_NORTH else "0") + HEX_ROOKS.get(name, ""))
    expected = "hex " + ",".join(cells) + " 0 1 S"
    assert GAME.new().encode() == expected
    assert expected.startswith("hex 2,2,2,2,2,0,0,0S,")


def test_opening_position_code_square():
    # Written out by hand from §4's picture: rank 1, rank 2 (Rooks on b2, e2), ... rank 6.
    expected = "square 2,2,2,2,2,2,2,0S,0,0,0S,2,2,0,0,0,0,2,2,0,0,0,0,2,2,0N,0,0,0N,2,2,2,2,2,2,2 0 1 S"
    assert GAME.new(variant="square").encode() == expected == start("square")


def test_new_is_deterministic_and_checks_arguments():
    assert GAME.new(seed=1).encode() == GAME.new(seed=99).encode()
    with pytest.raises(ValueError):
        GAME.new(players=3)
    with pytest.raises(ValueError):
        GAME.new(variant="octagon")


@pytest.mark.parametrize("bad, words", [
    ("hex 2,2 0 1 S", "37 cells"),
    ("hex", "five fields"),
    ("circle " + ",".join(["0"] * 37) + " 0 1 S", "variant"),
    (start().replace(" 0 1 S", " 0 1 X"), "S or N"),
    (start().replace(" 0 1 S", " 0 0 S"), "at least 1"),
    (start().replace(" 0 1 S", " a 1 S"), "whole numbers"),
    (start().replace(" 0 1 S", " 1 1 S"), "37 checkers"),
    (start().replace("hex 2,", "hex 2X,"), "a1"),
    (start().replace("hex 2,", "hex 02,"), "a1"),
    (start(rooks={"b4": "S", "d2": "S", "c3": "S"}), "3 Rooks"),
    (start().replace(" 0 1 S", "  0 1 S"), "five fields"),
])
def test_decode_refuses_malformed_codes(bad, words):
    with pytest.raises(InvalidPosition, match=words):
        GAME.decode(bad)


def test_decode_accepts_unreachable_setups():  # the §8 set-ups
    st0 = GAME.decode(code("hex", {"a1": 7}))
    assert st0.checkers("a1") == 7 and not st0.is_over
    assert GAME.decode(code("hex", {"c1": 18})).legal_moves()


def test_decoded_history_starts_fresh():
    st0 = GAME.new()
    assert GAME.decode(st0.encode()).repetitions() == 1


# --- §8 worked examples ---------------------------------------------------------------------------------

def test_ex1_edge_sowing_no_capture():
    after = GAME.new().play("e2>f3")
    assert after.encode() == start(counts={"e2": 0, "f3": 3, "g4": 3}, side="N")
    assert after.scores == (0, 1)


def test_ex2_line_sowing_and_north_captures_from_inner_cell():
    st1 = GAME.new().play("a1 n")
    assert st1.encode() == start(counts={"a1": 0, "b2": 1, "c3": 1}, side="N")
    st2 = st1.play("b2 n")
    assert st2.encode() == start(counts={"a1": 0, "c3": 1}, s=0, n=2, side="S")
    assert st2.scores == (0, 2)


def test_ex3_long_line_turns_at_the_edge():
    st0 = GAME.decode(code("hex", {"a1": 7}))
    fx = st0.effects("a1 n")
    assert fx["drops"] == "b2 c3 d4 e5 f6 g7 f7".split()
    assert st0.play("a1>b2").encode() == code("hex", dict.fromkeys("b2 c3 d4 e5 f6 g7 f7".split(), 1), side="N")


def test_ex4_chain_capture_along_the_edge():
    st0 = GAME.decode(code("hex", {"e2": 3, "f3": 1, "g4": 1, "g5": 1}))
    after = st0.play("e2")
    assert after.encode() == code("hex", {"f3": 1, "g4": 1, "g5": 1}, s=3, side="N")
    assert st0.turn_record(["e2"]) == "e2>f3 {x3}"


def test_ex4_variation_chain_broken():
    st0 = GAME.decode(code("hex", {"e2": 3, "f3": 1, "g4": 2, "g5": 1}))
    after = st0.play("e2>f3")
    assert after.encode() == code("hex", {"f3": 2, "g4": 3, "g5": 1}, s=1, side="N")


def test_ex5_chain_from_the_edge_back_into_the_inner_area():
    st0 = GAME.decode(code("hex", {"b1": 5, "c2": 1, "d3": 1, "e4": 0, "f5": 1, "g6": 1}))
    after = st0.play("b1 n")
    assert after.encode() == code("hex", {"c2": 2, "d3": 2, "e4": 1, "f5": 1, "g6": 1}, s=2, side="N")


def test_ex6_full_lap_skips_the_departure_cell():
    after = GAME.decode(code("hex", {"c1": 18})).play("c1")
    counts = {c: 1 for c in HEX_TRACK if c != "c1"}
    counts["d1"] = 2
    assert after.encode() == code("hex", counts, side="N")


def test_ex7_line_then_laps():
    st0 = GAME.decode(code("hex", {"b1": 22}))
    drops = ("b2 b3 b4 b5 a4 a3 a2 a1 c1 d1 e2 f3 g4 g5 g6 g7 f7 e7 d7 c6 b5 a4").split()
    assert st0.effects("b1 nw")["drops"] == drops
    after = st0.play("b1>b2")
    assert after.checkers("b1") == 0 and after.checkers("b5") == 2 and after.checkers("a4") == 2
    assert after.rook("b4") == 0 and after.checkers("b4") == 1  # the Rook is ignored


def test_ex8_rook_captures_one_checker():
    st2 = play(GAME.new(), "a2 n", "Rf4xc4")
    rooks = {"b4": "S", "d2": "S", "d6": "N", "c4": "N"}
    assert st2.encode() == start(counts={"a2": 0, "b3": 1}, rooks=rooks, s=0, n=2, side="S")
    st1 = GAME.new().play("a2>b3")
    assert st1.describe("Rf4xc4") == "captures 1 checker"
    assert st1.turn_record(["Rf4xc4"]) == "Rf4xc4 {x1}"


def test_ex9_hybrid_capture():
    st1 = GAME.new().play("Rd2-c1")
    assert st1.rook("c1") == 0 and st1.checkers("c1") == 2 and st1.scores == (0, 1)
    st2 = st1.play("c6")
    assert (st2.checkers("b5"), st2.checkers("a4"), st2.checkers("c6")) == (3, 3, 0)
    st3 = st2.play("c1>d1+R")
    rooks = {"b4": "S", "f3": "S", "d6": "N", "f4": "N"}
    counts = {"c6": 0, "b5": 3, "a4": 3, "c1": 0, "d1": 3, "e2": 3, "f3": 0}
    assert st3.encode() == start(counts=counts, rooks=rooks, s=2, n=1, side="N")
    assert st2.turn_record(["c1>d1+R"]) == "c1>d1+R {x2}"


def test_ex10_square_rook_capture_and_covered_rooks():
    st3 = play(GAME.new(variant="square"), "b1 n", "e6 s", "Re2xe4")
    rooks = {"b2": "S", "e4": "S", "b5": "N", "e5": "N"}
    counts = {"b1": 0, "b2": 1, "b3": 1, "e6": 0, "e5": 1, "e4": 0}
    assert st3.encode() == start("square", counts=counts, rooks=rooks, s=1, n=1, side="N")
    moves = st3.legal_moves()
    assert "Rb5xb3" in moves
    assert not any(m.startswith("Re5") for m in moves)  # covered by a checker: hybrids only
    assert any(m.startswith("e5>") and m.endswith("+R") for m in moves)
    st4 = st3.play("b6")  # any North move; now South's b2 Rook is covered too
    assert not any(m.startswith("Rb2") for m in st4.legal_moves())
    assert "b2>b3+R" in st4.legal_moves()


def test_ex11_square_line_wraps_westwards():
    assert GAME.decode(code("square", {"c1": 7})).effects("c1 n")["drops"] == "c2 c3 c4 c5 c6 b6 a6".split()


def test_ex12_square_full_lap():
    after = GAME.decode(code("square", {"c1": 20})).play("c1")
    counts = {c: 1 for c in SQ_TRACK if c != "c1"}
    counts["d1"] = 2
    assert after.encode() == code("square", counts, side="N")


def test_ex13_no_legal_move_ends_and_awards_the_rest_to_the_last_mover():
    # North to move: checkers only on South's cells, one Rook covered on a South cell, the other boxed in.
    rooks = {"a1": "N", "d4": "N", "b4": "S", "d2": "S"}
    c = code("hex", {"a1": 3, "b1": 2, "c5": 0}, rooks=rooks, s=15, n=17, side="N")
    st0 = GAME.decode(c)
    assert st0.is_over and st0.to_move is None and st0.legal_moves() == []
    assert st0.scores == (20, 17) and st0.winners == (0,)
    assert st0.encode() == c  # the award is in scores, not in the code
    assert reason(st0) == ("North has no legal move, so the 5 checkers left on the board go to South "
                           "(South 20, North 17).")
    assert st0.outcome().roles == {"stuck": 1, "gainer": 0, "south": 0, "north": 1}
    assert outcome_text(GAME, st0.outcome(), ["Ann", "Bob"]) == ("Bob has no legal move, so the 5 checkers left on "
                                                                  "the board go to Ann (Ann 20, Bob 17).")
    # The same end reached by a move: South sows its last inner checker onto its own cell.
    c = code("hex", {"a1": 3, "b1": 2, "b2": 1}, rooks=rooks, s=14, n=17, side="S")
    after = GAME.decode(c).play("b2 s")
    assert after.is_over and after.scores == (20, 17) and after.winners == (0,)
    assert after.encode().endswith(" 14 17 N")


def test_ex14_repetition_is_a_draw_on_the_third_occurrence():
    # Two lone checkers shuttle in the inner area, no captures possible.
    st0 = GAME.decode(code("square", {"c3": 1, "c4": 1}, {}, s=19, n=20))
    cycle = ["c3 e", "c4 e", "d3 w", "d4 w"]
    st4 = play(st0, *cycle)
    assert st4.encode() == st0.encode() and st4.repetitions() == 2 and not st4.is_over
    st7 = play(st4, *cycle[:3])
    assert not st7.is_over
    st8 = st7.play(cycle[3])
    assert st8.is_over and st8.winners == (0, 1) and st8.repetitions() == 3
    assert st8.to_move is None and st8.legal_moves() == []
    assert "third time" in reason(st8) and st8.outcome().termination == "repetition"
    assert not GAME.decode(st8.encode()).is_over  # a code carries no history


def test_same_board_with_the_other_player_to_move_is_not_a_repetition():  # R-E4: player to move counts
    # One checker runs round the triangle c3 -> c4 -> d4 -> c3 (nw, ne, s): the board returns after 3 plies
    # with the other player to move, and after 6 with the same one.
    st0 = GAME.decode(code("hex", {"c3": 1}, {}, s=18, n=18))
    st3 = play(st0, "c3 nw", "c4 ne", "d4 s")
    assert st3.encode().split()[1] == st0.encode().split()[1] and st3.to_move == 1
    assert st3.repetitions() == 1
    st6 = play(st3, "c3 nw", "c4 ne", "d4 s")
    assert st6.encode() == st0.encode() and st6.repetitions() == 2 and not st6.is_over


# --- rules one by one (set-ups give North a checker on g7 when it must keep a move, R-E2) ------------

def test_rs1_no_sowing_from_the_opponents_cell_or_an_empty_cell():
    st0 = GAME.new()
    before = st0.encode()
    with pytest.raises(IllegalMove, match=r"R-S1"):
        st0.play("g4")
    with pytest.raises(IllegalMove, match=r"R-S1"):
        st0.play("d4 n")
    assert st0.encode() == before


def test_rs3_line_from_edge_must_enter_inner_area():
    st0 = GAME.new()
    for bad in ("a1>a2", "a1 ne", "a2 nw"):
        with pytest.raises(IllegalMove, match="R-S3"):
            st0.play(bad)
    with pytest.raises(IllegalMove, match="R-S3"):
        st0.play("a1 s")  # off the board
    with pytest.raises(IllegalMove, match="R-S3"):
        st0.play("b1>d3")  # not the first cell


def test_rs1_rooks_ignored_by_sowing_and_sowing_leaves_own_rook():
    st0 = GAME.decode(code("hex", {"d2": 2}))  # South Rook on d2 with 2 checkers
    after = st0.play("d2 n")
    assert after.rook("d2") == 0 and after.checkers("d2") == 0
    assert after.checkers("e3") == 1 and after.rook("f4") == 1 and after.checkers("f4") == 1


def test_rs4_capture_needs_exactly_one_before_the_last_drop():
    st0 = GAME.decode(code("hex", {"c3": 1, "c4": 2, "c5": 0}))
    assert st0.play("c3 nw").scores == (0, 1)   # c4 held 2
    st1 = GAME.decode(code("hex", {"c3": 1, "c4": 1}))
    after = st1.play("c3>c4")
    assert after.scores == (1, 1) and after.checkers("c4") == 1  # inner cell, held 1
    st2 = GAME.decode(code("hex", {"c1": 1, "d1": 1, "g7": 1}))
    assert st2.play("c1").scores == (0, 1)  # own cell never captures


def test_rs5_own_cell_breaks_the_chain():  # Q8
    assert R.CHAIN_OWN_CELL_BREAKS
    # e4 se: e3 (inner, held 1), e2 (South's, held 1), f3 (North's, held 1).
    st0 = GAME.decode(code("hex", {"e4": 3, "e3": 1, "e2": 1, "f3": 1}))
    after = st0.play("e4 se")
    assert after.scores == (1, 1)
    assert (after.checkers("e3"), after.checkers("e2"), after.checkers("f3")) == (2, 2, 1)


def test_rs5_chain_counts_drops_of_the_same_move():  # multi-lap: "just before that drop"
    # c1 with 19: the 17 other edge cells get 1 each, then d1 and e2 get a 2nd; e2 last, own: no capture.
    st0 = GAME.decode(code("hex", {"c1": 19}))
    after = st0.play("c1")
    assert after.scores == (0, 1) and after.checkers("d1") == 2 and after.checkers("e2") == 2
    # North from c6 with 18 (its last own cell): laps to... the 18th drop lands again on b5 (South's),
    # which held 1 before that drop (from the 1st drop) -> captured; the 17th (d7, own) ends the chain.
    st1 = GAME.decode(code("hex", {"c6": 18}, side="N"))
    after = st1.play("c6")
    assert after.scores == (0, 2) and after.checkers("b5") == 1 and after.checkers("d7") == 1


def test_rook_moves_landing_rules():  # R-R1..R-R4
    rooks = {"d4": "S", "b4": "S", "d6": "N", "f4": "N"}
    # d4: n -> e5 holds 1 (inner: capture 1); ne -> e4 vacant, f4 lone N Rook (illegal);
    # nw -> d5 vacant, d6 N Rook on 2 checkers (capture the Rook); s -> c3 empty, b2 empty, a1 own: no capture;
    # sw -> c4 vacant, b4 own Rook (illegal); se -> d3 empty, d2 empty, d1 own with 2 (no capture).
    c = code("hex", {"a1": 2, "d1": 2, "e5": 1, "d6": 2}, rooks=rooks)
    st0 = GAME.decode(c)
    mine = sorted(m for m in st0.legal_moves() if m.startswith("Rd4"))
    assert mine == ["Rd4-a1", "Rd4-d1", "Rd4xd6", "Rd4xe5"]
    after = st0.play("Rd4xe5")
    assert after.scores == (1, 1) and after.checkers("e5") == 0 and after.rook("e5") == 0
    after = st0.play("Rd4xd6")
    assert after.scores == (0, 1) and after.checkers("d6") == 2 and after.rook("d6") == 0
    assert "captures North's Rook" in st0.describe("Rd4xd6")
    assert st0.turn_record(["Rd4xd6"]) == "Rd4xd6 {xR}"
    after = st0.play("Rd4-a1")
    assert after.checkers("a1") == 2 and after.rook("a1") == 0 and after.rook("d4") is None
    with pytest.raises(IllegalMove, match="R-R3"):
        st0.play("Rd4-c3")
    with pytest.raises(IllegalMove, match="R-R4"):
        st0.play("Rd4-b4")
    with pytest.raises(IllegalMove, match="R-R4"):
        st0.play("Rd4-f4")
    with pytest.raises(IllegalMove, match="R-R2"):
        st0.play("Rd4-d7")  # passes over d6
    with pytest.raises(IllegalMove, match="R-R2"):
        st0.play("Rd4-e6")  # not in line
    with pytest.raises(IllegalMove, match="R-R1"):
        st0.play("Rf4-g4")  # North's Rook
    with pytest.raises(IllegalMove, match="R-R1"):
        GAME.decode(code("hex", {"d4": 1}, rooks)).play("Rd4-d1")  # covered Rook


def test_rook_on_opponents_cell_captures_one():
    st0 = GAME.decode(code("hex", {"g4": 3}, rooks={"f4": "S", "d6": "N"}))
    after = st0.play("Rf4xg4")
    assert after.checkers("g4") == 2 and after.scores == (1, 1)


def test_hybrid_captures_min_of_dropped_and_present():  # R-H4, Q12
    # South Rook on c1 with 2: along the edge d1, e2, Rook to f3.
    st0 = GAME.decode(code("hex", {"c1": 2, "f3": 5}, rooks={"c1": "S"}))
    after = st0.play("c1+R")
    assert after.scores == (2, 1) and after.checkers("f3") == 3 and after.rook("f3") == 0
    st1 = GAME.decode(code("hex", {"c1": 2, "f3": 1, "g7": 1}, rooks={"c1": "S"}))
    assert st1.play("c1>d1+R").checkers("f3") == 0 and st1.play("c1>d1+R").scores == (1, 1)
    assert st1.describe("c1>d1+R") == "hybrid along the edge, Rook to f3, captures 1"


def test_hybrid_target_vacant_or_own_cell_no_capture():
    st0 = GAME.decode(code("hex", {"b1": 1, "c1": 4, "g7": 1}, rooks={"b1": "S"}))
    after = st0.play("b1+R")  # c1 gets 1, Rook onto d1 (own, vacant)
    assert after.rook("d1") == 0 and after.scores == (0, 1) and after.rook("b1") is None
    after = st0.play("b1>c2+R")  # c2 gets 1, Rook onto d3 (vacant inner)
    assert after.rook("d3") == 0 and after.checkers("c2") == 1
    st1 = GAME.decode(code("hex", {"b1": 1, "d1": 4, "g7": 1}, rooks={"b1": "S"}))
    after = st1.play("b1+R")
    assert after.checkers("d1") == 4 and after.rook("d1") == 0 and after.scores == (0, 1)


def test_hybrid_captures_opponents_rook_even_on_own_cell():  # Q10
    assert R.HYBRID_CAPTURES_ROOK_ON_OWN_CELL
    st0 = GAME.decode(code("hex", {"b1": 1, "d1": 3, "g7": 1}, rooks={"b1": "S", "d1": "N"}))
    after = st0.play("b1+R")
    assert after.rook("d1") == 0 and after.checkers("d1") == 3 and after.scores == (0, 1)
    assert st0.turn_record(["b1+R"]) == "b1>c1+R {xR}"


def test_hybrid_onto_friendly_rook_is_illegal():  # R-H6, Q11
    st0 = GAME.decode(code("hex", {"b1": 1}, rooks={"b1": "S", "d1": "S"}))
    assert "b1>c1+R" not in st0.legal_moves() and "b1>c1" in st0.legal_moves()
    with pytest.raises(IllegalMove, match="R-H6"):
        st0.play("b1+R")


def test_hybrid_needs_a_friendly_rook_and_never_chain_captures():  # R-H1, Q9
    with pytest.raises(IllegalMove, match="R-H1"):
        GAME.new().play("c1+R")
    # South Rook on e2 with 2: plain sowing f3 (1), g4 (1) would capture 2; the hybrid drops on f3, g4 and
    # puts the Rook on g5 (North's, 3 checkers): min(2, 3) = 2 from g5 only.
    st0 = GAME.decode(code("hex", {"e2": 2, "f3": 1, "g4": 1, "g5": 3}, rooks={"e2": "S"}))
    assert st0.play("e2").scores == (2, 1)
    after = st0.play("e2+R")
    assert after.scores == (2, 1)
    assert (after.checkers("f3"), after.checkers("g4"), after.checkers("g5")) == (2, 2, 1)
    assert st0.describe("e2>f3") == "along the edge, captures 2"


def test_hybrid_from_an_inner_cell():
    st0 = GAME.decode(code("hex", {"d4": 2, "f6": 2}, rooks={"d4": "S"}))
    after = st0.play("d4 n+R")  # e5, f6 get a checker, Rook to g7 (North's, empty -> vacant)
    assert after.rook("g7") == 0 and after.checkers("f6") == 3 and after.scores == (0, 1)


def test_re1_threshold_with_north_point():  # Q13
    st0 = GAME.decode(code("hex", {"c3": 1, "c4": 1, "d4": 1}, s=18, n=10))
    after = st0.play("c3>c4")
    assert after.is_over and after.scores == (19, 10) and after.winners == (0,)
    assert after.legal_moves() == [] and after.to_move is None
    assert after.encode().endswith(" 19 10 N")
    assert reason(after) == "South reached 19 points, more than half of all points (South 19, North 10)."
    st1 = GAME.decode(code("square", {"c3": 1, "c4": 1, "d4": 1}, s=10, n=20, side="N"))
    after = st1.play("c3>c4")  # 19 captured + 1 point = 21
    assert after.is_over and after.winners == (1,) and after.encode().endswith(" 10 21 S")


def test_over_positions_decode_as_over():
    st0 = GAME.decode(code("hex", {"c3": 1}, s=19, n=10, side="N"))
    assert st0.is_over and st0.winners == (0,) and st0.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        st0.play("c3 n")


# --- lenient input (§7) -------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, canonical", [
    ("e2>f3", "e2>f3"), ("E2>F3", "e2>f3"), (" e2 > f3 ", "e2>f3"), ("e2", "e2>f3"),
    ("a1 n", "a1>b2"), ("A1 N", "a1>b2"), ("a1n", "a1>b2"), ("b1 nw", "b1>b2"), ("e2 sw", "e2>d2"),
    ("Rb4-a3", "Rb4-a3"), ("Rb4xa3", "Rb4-a3"), ("rb4-a3", "Rb4-a3"), ("R b4 - a3", "Rb4-a3"),
    ("b4-a3", "Rb4-a3"),
])
def test_lenient_forms(typed, canonical):
    st0 = GAME.new()
    assert st0.canonical(typed) == canonical
    assert st0.play(typed).encode() == st0.play(canonical).encode()


@pytest.mark.parametrize("typed, canonical", [
    ("c1+R", "c1>d1+R"), ("c1 +r", "c1>d1+R"), ("c1>d1 + R", "c1>d1+R"), ("c1 n+R", "c1>d2+R"),
    ("C1>D2+R", "c1>d2+R"), ("c1 nw +R", "c1>c2+R"),
])
def test_lenient_hybrid_forms(typed, canonical):
    st0 = GAME.new().play("Rd2-c1").play("c6")
    assert st0.canonical(typed) == canonical


def test_rook_capture_accepted_with_hyphen():
    st0 = GAME.new().play("a2 n")
    assert st0.canonical("Rf4-c4") == "Rf4xc4"


def test_square_direction_words():
    st0 = GAME.new(variant="square")
    assert st0.canonical("a2 e") == "a2>b2" and st0.canonical("f3 w") == "f3>e3"
    with pytest.raises(IllegalMove, match="not a direction"):
        st0.play("a2 ne")
    with pytest.raises(IllegalMove, match="not a direction"):
        GAME.new().play("a2 e")


def test_ambiguous_inner_cell_lists_completions():
    st0 = GAME.decode(code("hex", {"d4": 2}))
    with pytest.raises(IllegalMove) as err:
        st0.play("d4")
    for m in ("d4>e5", "d4>c3", "d4>e4", "d4>c4", "d4>d5", "d4>d3"):
        assert m in str(err.value)
    with pytest.raises(IllegalMove) as err:
        GAME.new().play("Rb4")
    for m in ("Rb4-a3", "Rb4-a4", "Rb4-b5", "Rb4-b1"):
        assert m in str(err.value)


def test_unique_rook_short_form():
    st0 = GAME.decode(code("hex", {"a1": 1}, rooks={"d4": "S"}))
    assert st0.canonical("Rd4") == "Rd4-a1"


@pytest.mark.parametrize("typed, words", [
    ("", "not a Roocala move"), ("hello", "not a Roocala move"), ("z9>a1", "not a cell"),
    ("h1", "not a cell"), ("e2>f3>g4", "not a Roocala move"),
])
def test_unreadable_input(typed, words):
    st0 = GAME.new()
    with pytest.raises(IllegalMove, match=words):
        st0.play(typed)
    assert st0.encode() == GAME.new().encode()


def test_describe_styles():
    st0 = GAME.new()
    assert st0.describe("b1>c2") == "line, ends d3"
    assert st0.describe("e2>f3") == "along the edge, ends g4"
    assert st0.describe("Rd2-c1") == "joins your checkers on c1, no capture"
    assert st0.describe("nonsense") == ""


def test_text_board_shows_cells_and_turn():
    text = GAME.new().text_board()
    assert "g7" in text and "a1" in text and "South to move" in text


# --- properties over random games -----------------------------------------------------------------------

def _syntactic_moves(variant: str, rng: random.Random, k: int) -> list[str]:
    cells = CELLS[variant]
    out = []
    for _ in range(k):
        a, b = rng.choice(cells), rng.choice(cells)
        out.append(rng.choice([f"{a}>{b}", f"{a}>{b}+R", f"R{a}-{b}", f"R{a}x{b}"]))
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(["hex", "square"]))
def test_random_games_keep_the_invariants(seed, variant):
    rng = random.Random(seed)
    state = GAME.new(variant=variant, seed=seed)
    total = state.board.checkers
    threshold = state.board.threshold
    plies = 0
    while not state.is_over:
        code0 = state.encode()
        moves = state.legal_moves()
        assert moves == sorted(set(moves)) and moves
        on_board = sum(state.checkers(c) for c in CELLS[variant])
        assert on_board + state.scores[0] + state.scores[1] - 1 == total
        assert state.code_scores == state.scores
        assert max(state.scores) < threshold
        assert 1 <= state.repetitions() <= 2
        back = GAME.decode(code0)
        assert back.encode() == code0 and back.legal_moves() == moves
        for m in _syntactic_moves(variant, rng, 4):
            if m in moves:
                continue
            try:
                canon = state.canonical(m)
            except IllegalMove:
                continue
            # Only a Rook move with the other separator may be accepted.
            assert m.startswith("R") and canon in moves
            assert canon[:3] == m[:3] and canon[4:] == m[4:] and canon[3] != m[3]
        move = rng.choice(moves)
        nxt = state.play(move)
        assert state.encode() == code0
        mover = state.to_move
        gained = nxt.code_scores[mover] - state.scores[mover]
        assert nxt.code_scores[1 - mover] == state.scores[1 - mover]
        assert sum(nxt.checkers(c) for c in CELLS[variant]) == on_board - gained
        state = nxt
        plies += 1
        assert plies < 5000
    assert state.to_move is None and state.legal_moves() == []
    s, n = state.scores
    if state.outcome().termination == "repetition":
        assert state.winners == (0, 1) and state.repetitions() == 3
        assert s + n - 1 + sum(state.checkers(c) for c in CELLS[variant]) == total
    else:
        assert s + n - 1 == total or max(s, n) >= threshold
        assert state.winners == ((0,) if s > n else (1,))
        if max(s, n) < threshold:
            assert "no legal move" in reason


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(["hex", "square"]))
def test_every_listed_move_plays_and_round_trips(seed, variant):
    rng = random.Random(seed)
    state = GAME.new(variant=variant)
    for _ in range(60):
        if state.is_over:
            break
        for m in state.legal_moves():
            nxt = state.play(m)
            assert GAME.decode(nxt.encode()).encode() == nxt.encode()
            assert state.describe(m)
        state = state.play(rng.choice(state.legal_moves()))


def test_turn_suggestions_describe_moves_and_read_lenient_forms():  # issue 4 autocomplete style
    st0 = GAME.new()
    got = dict(GAME.turn_suggestions(st0, "b1"))
    assert got == {"b1>c1": "b1>c1 — along the edge, ends d1", "b1>b2": "b1>b2 — line, ends b3",
                   "b1>c2": "b1>c2 — line, ends d3"}
    assert GAME.turn_suggestions(st0, "b1 n")[0] == ("b1>c2", "b1>c2 — line, ends d3")
    assert GAME.turn_suggestions(st0, "zz") == []


def test_refused_moves_leave_the_state_unchanged():
    st0 = GAME.new()
    before = st0.encode()
    for bad in ("g4", "c1+R", "Rb4-d6", "d4", "a1>a2", "Rf4-c4"):
        with pytest.raises(IllegalMove):
            st0.play(bad)
    assert st0.encode() == before and st0.legal_moves() == GAME.new().legal_moves()
