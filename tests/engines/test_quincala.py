"""Quincala under reconstruction R1 (../shared/rules/quincala.md): the §8 examples, the position code, rule by
rule, and random-game properties over the three variants."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import GAMES, IllegalMove, InvalidPosition, outcome_text, turn_cap_outcome
from engines import quincala as q

GAME = GAMES["quincala"]

def reason(state) -> str:
    """The outcome's sentence with the rules' seat names, as the terminal mode shows it."""
    return outcome_text(GAME, state.outcome(), GAME.seat_names(state.players))

FILES = "abcdefghij"
DOTS = [f"{f}{r}" for r in range(1, 11) for f in FILES]   # field-2 order: rank 1 first, a..j


def code(board: dict[str, str], *, k: int = 5, hand_w="-", ledge_w="-", hand_b="-", ledge_b="-",
         mover="w", phase="place", immune="-", gained="-/0", spare=True) -> str:
    """A position code written from the spec's field list. ``spare`` puts the pieces a test does not mention
    as single-colour towers on a1-d1 (White) and j10-g10 (Black), so the piece totals are right."""
    cells = {d: p.split() for d, p in board.items()}
    stash = [hand_w, ledge_w, hand_b, ledge_b]
    if spare:
        counts = {f"{c}{s}": 4 for c in "wb" for s in range(1, k + 1)}
        for pieces in cells.values():
            for p in pieces:
                counts[p] -= 1
        for t in stash:
            for p in re.findall(r"[wb]\d", t):
                counts[p] -= 1
        for c, spots in (("w", ["a1", "b1", "c1", "d1"]), ("b", ["j10", "i10", "h10", "g10"])):
            for spot in spots:
                tower = []
                for s in range(1, k + 1):
                    if counts[f"{c}{s}"] > 0:
                        counts[f"{c}{s}"] -= 1
                        tower.append(f"{c}{s}")
                if tower:
                    assert spot not in cells
                    cells[spot] = tower
        assert not any(counts.values())
    dots = ["".join(sorted(cells[d], key=lambda p: int(p[1]))) if d in cells else "." for d in DOTS]
    return " ".join([str(k), ",".join(dots), *stash, mover, phase, immune, gained])


def fields(c: str) -> list[str]:
    return c.split(" ")


def dot_field(c: str, dot: str) -> str:
    return fields(c)[1].split(",")[DOTS.index(dot)]


def play_all(state, moves):
    for m in moves:
        state = state.play(m)
    return state


# --------------------------------------------------------------------------------------------------------
# Metadata
# --------------------------------------------------------------------------------------------------------


def test_metadata():
    assert GAME.key == "quincala" and GAME.title == "Quincala"
    assert GAME.player_counts == (2,)
    assert GAME.variants == ("5", "4", "3")
    assert GAME.seat_names(2) == ("White", "Black")
    assert GAME.variant_option == "sizes"
    assert GAME.variant_labels == {"5": "5 sizes (standard)", "4": "4 sizes", "3": "3 sizes"}


def test_switches_at_r1_defaults():
    assert q.RELEASE_SCOPE == "board"
    assert q.TRAVEL_ORDER == ("opp_home", "own_quincala")
    assert q.OVERFLOW == "hand_ledge"
    assert q.WHITE_DOT_LANDING == "allowed"
    assert q.CONTINUE_FROM_WHITE_DOT is True
    assert q.IMMUNE_BLOCKS_RELEASE is True


def test_board_tables_are_data():
    # §4.3 white-dot roles, §4.4 placing areas, §4.5 paths — in each variant's table
    for b in (q.BOARD_5, q.BOARD_4, q.BOARD_3):
        assert b.white_dots == {"e5": ("home", "w"), "f5": ("quincala", "w"), "e6": ("quincala", "b"),
                                "f6": ("home", "b")}
        w = {d for _, ds in b.placing_areas["w"] for d in ds}
        bl = {d for _, ds in b.placing_areas["b"] for d in ds}
        assert w == {f"{f}{r}" for f in FILES for r in range(1, 5)} and len(w) == 40
        assert bl == {f"{f}{r}" for f in FILES for r in range(7, 11)} and len(bl) == 40
        assert b.paths == {"w": ("f6", "f5"), "b": ("e5", "e6")}
    assert q.BOARDS == {"5": q.BOARD_5, "4": q.BOARD_4, "3": q.BOARD_3}


def test_geometry_names_each_seats_home_and_quincala_dot():
    # §4.3: White (seat 0) home e5, quincala f5; Black (seat 1) home f6, quincala e6
    geo = q.Geometry(q.BOARD_5)
    assert [geo.names[d] for d in geo.home] == ["e5", "f6"]
    assert [geo.names[d] for d in geo.quincala] == ["f5", "e6"]


# --------------------------------------------------------------------------------------------------------
# §4.6 starting positions
# --------------------------------------------------------------------------------------------------------


def test_start_5_sizes_formula():
    s = GAME.new()
    c = s.encode()
    for x in range(10):
        assert dot_field(c, f"{FILES[x]}1") == f"w{x % 5 + 1}"
        assert dot_field(c, f"{FILES[x]}2") == f"w{(x + 2) % 5 + 1}"
        # Black is White rotated 180 degrees with the same sizes
        assert dot_field(c, f"{FILES[9 - x]}10") == f"b{x % 5 + 1}"
        assert dot_field(c, f"{FILES[9 - x]}9") == f"b{(x + 2) % 5 + 1}"
    assert fields(c)[0] == "5" and fields(c)[2:] == ["-", "-", "-", "-", "w", "place", "-", "-/0"]
    assert sum(1 for t in fields(c)[1].split(",") if t != ".") == 40


@pytest.mark.parametrize("variant, rows", [
    ("4", {"1": ". w1 w2 w3 w4 w1 w2 w3 w4 .", "2": ". w3 w4 w1 w2 w3 w4 w1 w2 ."}),
    ("3", {"1": ". . w1 w2 w3 w1 w2 w3 . .", "3": ". . w2 w3 w1 w2 w3 w1 . ."}),
])
def test_start_small_variants(variant, rows):
    c = GAME.new(variant=variant).encode()
    assert fields(c)[0] == variant
    for rank, row in rows.items():
        for x, p in enumerate(row.split()):
            assert dot_field(c, f"{FILES[x]}{rank}") == p
            black = "." if p == "." else "b" + p[1]
            assert dot_field(c, f"{FILES[9 - x]}{11 - int(rank)}") == black


@pytest.mark.parametrize("variant", ["5", "4", "3"])
def test_start_no_same_piece_neighbours_and_nothing_knockable(variant):
    s = GAME.new(variant=variant)
    towers = s.towers()
    for d, pieces in towers.items():
        x, y = FILES.index(d[0]), int(d[1:])
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                n = f"{FILES[x + dx]}{y + dy}" if 0 <= x + dx < 10 and 1 <= y + dy <= 10 else None
                if (dx or dy) and n in towers:
                    assert towers[n] != pieces
    for m in s.legal_moves():   # §9: nothing can be knocked on move 1
        assert "knocks" not in s.describe(m)


def test_new_is_deterministic_and_rejects_bad_arguments():
    assert GAME.new(seed=1).encode() == GAME.new(seed=2).encode() == GAME.new(variant="5").encode()
    with pytest.raises(ValueError):
        GAME.new(players=3)
    with pytest.raises(ValueError):
        GAME.new(variant="6")


# --------------------------------------------------------------------------------------------------------
# §8 worked examples
# --------------------------------------------------------------------------------------------------------


def test_example_1_opening_move():
    s = GAME.new()
    assert s.pending() == ""
    assert "e2-e3" in s.legal_moves() and "e2-e4" not in s.legal_moves()   # one piece: one step
    t = s.play("e2-e3")
    c = t.encode()
    assert dot_field(c, "e2") == "." and dot_field(c, "e3") == "w2"
    assert t.to_move == 1                 # one piece on e3: the move ends; nothing mixed, nothing released
    assert fields(c)[6:] == ["b", "place", "-", "-/0"]


EX2 = {"d3": "w1 w3 w4", "d6": "b3", "b7": "b1"}


def test_example_2_three_legs_two_knocks():
    s = GAME.decode(code(EX2))
    assert {"d3-d4", "d3-d5", "d3-d6"} <= set(s.legal_moves()) and "d3-d7" not in s.legal_moves()
    s1 = s.play("d3-d6")
    c = s1.encode()
    assert dot_field(c, "d6") == "w1w3w4" and dot_field(c, "e5") == "b3"
    assert fields(c)[7] == "leg@d6" and fields(c)[9] == "d6:3/0"      # w3 knocked b3: immune
    legs = [m for m in s1.legal_moves() if m != "end"]
    assert all(m.startswith("d6-") for m in legs) and "end" in s1.legal_moves()
    assert "d6-b6" in legs and "d6-f4" not in legs                      # e5 now holds b3
    with pytest.raises(IllegalMove, match=r"blocked .* e5.*R-M2"):
        s1.play("d6-f4")
    with pytest.raises(IllegalMove, match=r"R-M2"):
        s1.play("d6-a6")                                                 # 3 steps, 2 pieces moving
    s2 = s1.play("d6-b6")
    c = s2.encode()
    assert dot_field(c, "d6") == "w4" and dot_field(c, "b6") == "w1w3"
    assert fields(c)[7] == "leg@b6" and fields(c)[9] == "b6:3/0"        # the mark rides with w3
    s3 = s2.play("b6-b7")
    c = s3.encode()
    assert dot_field(c, "b6") == "w3" and dot_field(c, "b7") == "w1" and dot_field(c, "e5") == "b1b3"
    assert s3.to_move == 1
    assert fields(c)[6:] == ["b", "place", "b6:3,b7:1", "-/0"]
    assert s3.encode() == code({"d6": "w4", "b6": "w3", "b7": "w1", "e5": "b1 b3"}, mover="b",
                               immune="b6:3,b7:1")


EX3 = {"e5": "b1 b2 b3 b5", "f6": "w1 w2 w3 w4", "c5": "b4", "c4": "w5", "a5": "w2 w4", "c6": "b5"}


def test_example_3_releasing_and_the_tie_break():
    s = GAME.decode(code(EX3))
    assert s.scores == (4, 4)
    t, events = s.play_traced("c4-c5")
    assert t.is_over and t.winners == (1,) and t.to_move is None
    assert [(e.kind, e.piece, e.frm, e.to) for e in events if e.kind == "release"] == [("release", "b4", "c5", "e5")]
    c = t.encode()
    assert dot_field(c, "e5") == "b1b2b3b4b5" and dot_field(c, "c5") == "w5" and dot_field(c, "f6") == "w1w2w3w4"
    assert fields(c)[6:] == ["b", "place", "-", "-/0"]
    assert t.legal_moves() == []
    assert reason(t) == "Black wins with a complete tower on White's home dot e5."
    assert t.outcome().roles == {"winner": 1, "owner": 0} and t.outcome().facts == {"dot": "e5", "dot_role": "home"}
    back = GAME.decode(c)
    assert back.is_over and back.winners == (1,) and back.encode() == c


def test_example_4_placing():
    s = GAME.decode(code({"e5": "b1 b3"}, hand_w="w5", ledge_w="b2"))
    empties = [d for d in DOTS if int(d[1:]) <= 4 and d not in ("a1", "b1", "c1", "d1")]
    want = {f"{p}@{d}" for p in ("w5", "b2") for d in empties} | {"home"}
    assert set(s.legal_moves()) == want
    assert s.pending() == "place w5, b2 (pieces in hand and on the ledge must be placed first)"
    with pytest.raises(IllegalMove, match="R-T2"):
        s.play("a1-a2")
    s = play_all(s, ["w5@c2", "b2@j4", "home"])
    c = s.encode()
    assert fields(c)[2:8] == ["-", "b1b3", "-", "-", "w", "placed"] and dot_field(c, "e5") == "."
    assert "home" not in s.legal_moves()
    s = play_all(s, ["b1@a4", "b3@i1"])
    c = s.encode()
    assert dot_field(c, "a4") == "b1" and dot_field(c, "i1") == "b3" and dot_field(c, "c2") == "w5"
    assert dot_field(c, "j4") == "b2"
    assert "c2-c3" in s.legal_moves()        # R-T6: a piece placed this turn may move
    assert s.play("c2-c3").to_move == 1


# --------------------------------------------------------------------------------------------------------
# Position code, field by field
# --------------------------------------------------------------------------------------------------------


def test_position_code_field_by_field():
    # mid-move: the non-mover's trays may hold pieces (clarification 6), the mover's are empty
    c = code({"d3": "w1 w3 b4", "e5": "b1", "d6": "w3 w4"}, hand_b="b2b2b5", ledge_b="w3", mover="w",
             phase="leg@d6", gained="d6:3/1")
    s = GAME.decode(c)
    assert s.encode() == c
    assert s.tower("d3") == ["w1", "w3", "b4"] and s.tower("e5") == ["b1"] and s.tower("e4") == []
    assert s.hand(0) == [] and s.ledge(0) == [] and s.hand(1) == ["b2", "b2", "b5"] and s.ledge(1) == ["w3"]
    assert s.to_move == 0 and s.phase_name == "leg@d6" and s.leg_dot == "d6"
    assert s.immune_pieces() == [] and s.gained_pieces() == [("d6", 3)] and s.passes == 1
    assert s.variant == "5" and s.players == 2
    d3 = fields(c)[1].split(",")[DOTS.index("d3")]
    assert d3 == "w1w3b4"


def test_position_code_spec_forms():
    c = code({"c4": "w1", "f5": "w2 w3"}, mover="b", immune="c4:1,f5:3", gained="-/0")
    # field 9 must be the non-mover's pieces (White's, since Black is to move)
    s = GAME.decode(c)
    assert s.immune_pieces() == [("c4", 1), ("f5", 3)] and s.to_move == 1
    assert fields(s.encode())[8] == "c4:1,f5:3"
    passed = code({}, mover="b", gained="-/1")
    assert fields(GAME.decode(passed).encode())[9] == "-/1"


BAD_CODES = [
    ("", "10 fields"),
    ("6" + code({})[1:], "3, 4 or 5"),
    (code({}).replace(",", ";", 1), "100 dots"),
    (code({"c4": "w1 w1"}, spare=False), "two pieces of size 1"),
    (code({"c4": "w3 w1"}, spare=False), None),
    (code({"c4": "w6"}, spare=False), "size 6"),
    (code({}).replace(",.,", ",w1,", 1), "pieces w1"),          # five w1 in all
    (code({}, spare=False), "pieces"),
    (code({}, hand_w="b2"), "White's hand"),
    (code({}, mover="x"), "Field 7"),
    (code({}, phase="moving"), "Field 8"),
    (code({"c4": "w1"}, phase="leg@c4"), "at least two"),
    (code({"c4": "w1"}, mover="b", immune="c4:2"), "no piece of size 2"),
    (code({"c4": "w1"}, mover="w", immune="c4:1"), "Black's"),
    (code({"c4": "w1"}, mover="w", gained="c4:1/0"), "once a leg"),
    (code({"c4": "w1"}, mover="b", immune="c4:1", gained="-/1"), "After a pass"),
    (code({}, hand_b="b1"), "only the player to move"),
    (code({}, gained="-/3"), "pass counter"),
    (code({"e5": "b1 b2 b3 b4 b5", "f5": "w1 w2 w3 w4 w5"}), "Two white dots"),
    (code({"e5": "b1 b2 b3 b4 b5"}, phase="placed"), None),
    (code({"e5": "b1"}, phase="placed"), "home dot"),
    (code({"c4": "w1 w3"}, phase="leg@c4", hand_w="w2"), None),
]


@pytest.mark.parametrize("bad, words", BAD_CODES)
def test_decode_rejects(bad, words):
    with pytest.raises(InvalidPosition) as err:
        GAME.decode(bad)
    if words:
        assert words in str(err.value)
    assert str(err.value).endswith(".")


def test_decode_accepts_unreachable_but_sound_positions():
    c = code({"e5": "b1 b2 b3 b5", "a5": "w5 b1"}, mover="b")
    assert GAME.decode(c).encode() == c
    over = code({}, mover="b", gained="-/2")
    st = GAME.decode(over)
    assert st.is_over and st.winners == (0, 1) and st.legal_moves() == []


# --------------------------------------------------------------------------------------------------------
# Moving (R-M1 … R-M9)
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("board, move, rule", [
    ({"c4": "w1 b2"}, "c4-c5", "R-M1"),          # mixed tower
    ({"c4": "b2"}, "c4-c5", "R-M1"),             # opponent's tower
    ({}, "c4-c5", "R-M1"),                       # empty
    ({"e5": "w2"}, "e5-d5", "R-M1"),             # white dot
    ({"c4": "w1 w2"}, "c4-d6", "R-M2"),          # not a line
    ({"c4": "w1 w2"}, "c4-c7", "R-M2"),          # too long
    ({"c4": "w1 w2", "c5": "b4"}, "c4-c6", "R-M2"),   # jumps
    ({"d4": "w2", "e5": "b2"}, "d4-e5", "R-M5"),      # white dot already has that size
])
def test_illegal_legs_name_the_rule_and_leave_the_state(board, move, rule):
    s = GAME.decode(code(board))
    before = s.encode()
    assert move not in s.legal_moves()
    with pytest.raises(IllegalMove, match=rule):
        s.play(move)
    assert s.encode() == before


def test_empty_white_dot_can_be_passed_over_and_landed_on():
    s = GAME.decode(code({"d4": "w1 w2 w3"}))
    assert {"d4-e5", "d4-f6"} <= set(s.legal_moves())   # over an empty e5 to f6
    t = s.play("d4-e5")
    assert t.tower("e5") == ["w1", "w2", "w3"] and t.phase_name == "leg@e5"   # R-M8: may continue
    u = t.play("e5-f5")
    assert u.tower("f5") == ["w1", "w2"] and u.tower("e5") == ["w3"]


def test_completing_own_quincala_dot_wins_and_completing_the_opponents_loses():
    s = GAME.decode(code({"f5": "w1 w2 w3 w4", "g4": "w5", "e4": "b5", "e5": "b1 b2 b3 b4"}))
    t = s.play("g4-f5")
    assert t.is_over and t.winners == (0,) and t.scores[0] == 5
    # White lands w5 on e5, his own home: the complete tower wins for Black (R-W1)
    s = GAME.decode(code({"e5": "b1 b2 b3 b4", "d4": "w5"}))
    t = s.play("d4-e5")
    assert t.is_over and t.winners == (1,)


def test_self_knock_travels_but_grants_no_immunity():
    s = GAME.decode(code({"c3": "w2", "c4": "w2"}))
    t = s.play("c3-c4")
    assert t.tower("c4") == ["w2"] and t.tower("f6") == ["w2"]   # White's piece goes to Black's home first
    assert t.immune_pieces() == [] and t.to_move == 1


def test_knocked_piece_tries_second_dot_then_the_non_movers_trays():
    s = GAME.decode(code({"c4": "b3", "c3": "w3", "e5": "b3", "e6": "b3"}))
    t = s.play("c3-c4")                                  # b3 knocked: e5 and e6 full of size 3
    assert t.hand(1) == ["b3"] and t.ledge(1) == []
    s = GAME.decode(code({"c4": "w3", "c3": "w3", "f6": "b3", "f5": "w3"}))
    t = s.play("c3-c4")                                  # w3 self-knocked: f6, f5 full -> Black's ledge
    assert t.ledge(1) == ["w3"] and t.hand(1) == []
    s = GAME.decode(code({"c4": "b3", "c3": "w3", "e5": "b3"}))
    assert s.play("c3-c4").tower("e6") == ["b3"]         # second stop: its owner's quincala dot


def test_continuing_leaves_the_largest_own_piece_and_all_enemy_pieces():
    s = GAME.decode(code({"c3": "w1 w2", "c4": "b4 w5"}))
    t = s.play("c3-c4")
    assert t.tower("c4") == ["w1", "w2", "b4", "w5"] and t.phase_name == "leg@c4"
    legs = [m for m in t.legal_moves() if m != "end"]
    assert "c4-c6" in legs and "c4-c7" not in legs       # w1 w2 lifted: 2 pieces, up to 2 steps
    u = t.play("c4-c6")
    assert u.tower("c4") == ["b4", "w5"] and u.tower("c6") == ["w1", "w2"]


def test_leg_from_elsewhere_mid_move_and_end_outside_a_move_are_refused():
    s = GAME.decode(code(EX2)).play("d3-d6")
    with pytest.raises(IllegalMove, match="R-M6"):
        s.play("d1-d2")
    with pytest.raises(IllegalMove, match="R-M7"):
        GAME.new().play("end")
    with pytest.raises(IllegalMove, match="R-M9"):
        GAME.new().play("pass")


def test_end_stops_the_move_then_releasing_runs():
    # the move ends on c4; a mixed tower elsewhere (i3) is checked too (release_scope "board")
    s = GAME.decode(code({"c3": "w1 w2", "i3": "b4 w5", "j3": "w4"}))
    t = s.play("c3-c4")
    assert t.phase_name == "leg@c4" and "end" in t.legal_moves()
    u = t.play("end")
    assert u.to_move == 1 and u.tower("e5") == ["b4"] and u.tower("i3") == ["w5"]


# --------------------------------------------------------------------------------------------------------
# Immunity (R-K2, R-M4, R-R3, clarification 2)
# --------------------------------------------------------------------------------------------------------


def test_immune_piece_cannot_be_knocked_in_the_opponents_next_turn_only():
    s2 = GAME.decode(code({"b7": "w1", "b8": "b1", "b6": "w3", "b5": "b3"}, mover="b", immune="b6:3,b7:1"))
    assert "b8-b7" not in s2.legal_moves() and "b5-b6" not in s2.legal_moves()
    with pytest.raises(IllegalMove, match="immune .*R-M4"):
        s2.play("b8-b7")
    # the same position without marks: both knocks are legal
    s3 = GAME.decode(code({"b7": "w1", "b8": "b1", "b6": "w3", "b5": "b3"}, mover="b"))
    assert {"b8-b7", "b5-b6"} <= set(s3.legal_moves())


def test_immunity_lasts_exactly_the_opponents_next_turn():
    s = GAME.decode(code({"c3": "w3", "c4": "b3", "h8": "b2"}))
    t = s.play("c3-c4")
    assert t.immune_pieces() == [("c4", 3)]
    u = t.play("h8-h7")                     # Black's turn; the mark expires with it
    assert u.to_move == 0 and u.immune_pieces() == []


def test_the_knocking_piece_can_be_knocked_later_in_its_own_turn_and_keeps_its_mark_on_a_white_dot():
    # leg 1: w3 knocks b3 on d5 (mark); leg 2: w1 to d6 (w3 w5 waiting); leg 3: w1 w3 back onto d5 knocks
    # the marked w3 (a self-knock: no new mark), which travels to f6 and keeps its mark (clarification 2)
    s = GAME.decode(code({"d3": "w1 w3", "d5": "b3", "d6": "w3 w5"}))
    s = s.play("d3-d5")
    assert s.gained_pieces() == [("d5", 3)]
    s = play_all(s, ["d5-d6", "d6-d5"])
    assert s.tower("f6") == ["w3"] and s.tower("d5") == ["w1", "w3"] and s.gained_pieces() == [("f6", 3)]
    t = s.play("end")
    assert t.immune_pieces() == [("f6", 3)]


def test_a_marked_piece_sent_off_the_board_loses_its_mark():
    s = GAME.decode(code({"d3": "w1 w3", "d5": "b3", "d6": "w3 w5", "f6": "b3", "f5": "w3"}))
    s = play_all(s, ["d3-d5", "d5-d6", "d6-d5", "end"])
    assert s.ledge(1) == ["w3"] and s.immune_pieces() == []


def test_immune_piece_is_not_released_but_its_neighbours_in_the_tower_are():
    # White to move; Black's b3 on i3 is immune; i3 holds w2 b3 (mixed). A White w3 on i4 could knock b3 and a
    # Black b2 on h3 could knock w2. After an unrelated White move: w2 is released, b3 is not (R-R3, clar. 3).
    board = {"i3": "w2 b3", "i4": "w3", "h3": "b2", **QUIET}
    s = GAME.decode(code(board, immune="i3:3"))
    t = s.play(QUIET_MOVE)
    assert t.tower("i3") == ["b3"] and t.tower("f6") == ["w2"]
    s = GAME.decode(code(board))
    t, events = s.play_traced(QUIET_MOVE)
    assert [(e.piece, e.to) for e in events if e.kind == "release"] == [("b3", "e5"), ("w2", "f6")]
    assert t.tower("i3") == []


def test_flushing_the_home_dot_clears_immunity():
    s = GAME.decode(code({"e5": "b1", "h8": "b2"}, mover="w", immune="e5:1"))
    # e5 holds an immune b1 of Black's; White flushes it
    t = s.play("home")
    assert t.immune_pieces() == [] and t.ledge(0) == ["b1"]


# --------------------------------------------------------------------------------------------------------
# Releasing (R-R1 … R-R5) and clarification 1
# --------------------------------------------------------------------------------------------------------


# Test positions with mixed towers keep them on g3, h2-h4, i2-i4, j2-j4: no spare tower reaches there.
QUIET = {"e9": "w4"}
QUIET_MOVE = "e9-e8"


def test_release_order_non_mover_first_then_larger_first():
    # h2 (Black, 4 pieces, next to i3) could knock any piece of i3; a source of the piece's own colour counts
    s = GAME.decode(code({"i3": "w1 b2 w3 b4", "h2": "b1 b2 b3 b4", **QUIET}))
    t, events = s.play_traced(QUIET_MOVE)
    assert [(e.piece, e.to) for e in events if e.kind == "release"] == [
        ("b4", "e5"), ("b2", "e5"), ("w3", "f6"), ("w1", "f6")]
    assert t.tower("i3") == []


def test_release_needs_a_single_colour_source_within_its_height_and_a_clear_line():
    near = {"i3": "w1 b2", "g3": "b1 b3"}           # 2 steps, 2 pieces: w1 is released
    assert GAME.decode(code({**near, **QUIET})).play(QUIET_MOVE).tower("i3") == ["b2"]
    far = {"i3": "w1 b2", "f3": "b1 b3"}            # 3 steps, 2 pieces: too far
    assert GAME.decode(code({**far, **QUIET})).play(QUIET_MOVE).tower("i3") == ["w1", "b2"]
    blocked = {"i3": "w1 b2", "g3": "b1 b3", "h3": "w5"}   # in reach but h3 is between
    assert GAME.decode(code({**blocked, **QUIET})).play(QUIET_MOVE).tower("i3") == ["w1", "b2"]
    mixed_source = {"i3": "w1 b2", "h3": "b1 w5"}       # a mixed tower cannot make a first leg
    t = GAME.decode(code({**mixed_source, **QUIET})).play(QUIET_MOVE)
    assert t.tower("i3") == ["w1", "b2"] and t.tower("h3") == ["b1", "w5"]


def test_clarification_1_win_while_knocked_pieces_wait():
    # White's w1 w2 land on d5 and knock b2 then b1 (larger first). b2 completes Black's tower on e5: Black
    # wins at once; b1 goes straight to Black's hand without visiting e6; the lifted pieces join d5.
    s = GAME.decode(code({"d3": "w1 w2", "d5": "b1 b2", "e5": "b1 b3 b4 b5"}))
    t = s.play("d3-d5")
    assert t.is_over and t.winners == (1,)
    assert t.tower("e5") == ["b1", "b2", "b3", "b4", "b5"] and t.tower("e6") == []
    assert t.hand(1) == ["b1"] and t.tower("d5") == ["w1", "w2"]
    assert fields(t.encode())[6:] == ["b", "place", "d5:1,d5:2", "-/0"]


# --------------------------------------------------------------------------------------------------------
# Placing (R-T2 … R-T4) and passing (R-M9, R-W2)
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("move, rule", [
    ("w5@e6", "R-T4"), ("w5@c5", "R-T4"), ("w5@a1", "R-T4"), ("w4@c2", "R-T2"), ("b5@c2", "R-T2"),
])
def test_placement_errors(move, rule):
    s = GAME.decode(code({}, hand_w="w5"))
    with pytest.raises(IllegalMove, match=rule):
        s.play(move)


def test_home_rules():
    s = GAME.decode(code({"e5": "b1 w2"}))
    t = s.play("home")
    assert t.hand(0) == ["w2"] and t.ledge(0) == ["b1"] and t.phase_name == "placed"
    assert t.pending().startswith("place w2, b1")
    with pytest.raises(IllegalMove, match="R-T3"):
        t.play("home")
    with pytest.raises(IllegalMove, match="R-T3"):
        GAME.new().play("home")


def pass_position(home: bool = False) -> str:
    """Every piece of both colours in a mixed tower (w_s with b_{s+1}): nobody has a first leg. With ``home``
    the last pair's b1 stands on White's home dot e5 and its w5 joins the first pair (w1 b2 w5)."""
    dots = [d for d in DOTS if d not in ("e5", "f5", "e6", "f6")][::2]
    board = {d: f"w{s} b{s % 5 + 1}" for d, s in zip(dots, [s for s in range(1, 6) for _ in range(4)],
                                                      strict=False)}
    if home:
        last = list(board)[-1]
        assert board.pop(last) == "w5 b1"
        board["e5"] = "b1"
        board[dots[0]] += " w5"
    return code(board, spare=False)


def test_two_passes_in_a_row_draw():
    s = GAME.decode(pass_position())
    assert s.legal_moves() == ["pass"]
    with pytest.raises(IllegalMove, match="R-M1"):
        s.play("a1-a2")                                  # a mixed tower cannot move
    t = s.play("pass")
    assert t.to_move == 1 and fields(t.encode())[9] == "-/1" and t.legal_moves() == ["pass"]
    u = t.play("pass")
    assert u.is_over and u.winners == (0, 1) and fields(u.encode())[9] == "-/2"
    assert reason(u) == "Both players passed in succession, so the game is a draw."


def test_home_and_pass_can_both_be_legal():
    s = GAME.decode(pass_position(home=True))          # clarification 4
    assert s.legal_moves() == ["home", "pass"]
    assert s.play("pass").to_move == 1
    t = s.play("home")
    assert t.legal_moves() == sorted(f"b1@{d}" for d in DOTS if int(d[1:]) <= 4 and not t.tower(d))


# --------------------------------------------------------------------------------------------------------
# Input forms, split_turn, suggestions, pending, describe
# --------------------------------------------------------------------------------------------------------


def test_lenient_forms():
    s = GAME.new()
    assert s.play(" E2 - E3 ").encode() == s.play("e2-e3").encode() == s.play("e2–e3").encode()
    assert s.canonical("E2 - E3") == "e2-e3"
    p = GAME.decode(code({}, hand_w="w5"))
    assert p.play("W5 @ C2").encode() == p.play("w5@c2").encode()
    assert p.canonical("W5 @ C2") == "w5@c2"
    e = GAME.decode(code(EX2)).play("d3-d6")
    assert e.play(" END ").encode() == e.play("end").encode()
    with pytest.raises(IllegalMove, match="one leg at a time"):
        GAME.new().play("e2-e3-e4")
    with pytest.raises(IllegalMove, match="not a Quincala move"):
        GAME.new().play("castle")
    with pytest.raises(IllegalMove, match="not a dot"):
        GAME.new().play("e2-k3")


def test_split_turn():
    assert GAME.split_turn("w5@c2 b2@j4 ; d3-d6-b6-b7") == ["w5@c2", "b2@j4", "d3-d6", "d6-b6", "b6-b7"]
    assert GAME.split_turn("w5@c2 home b1@a4 b3@i1 ; c4-c5") == ["w5@c2", "home", "b1@a4", "b3@i1", "c4-c5"]
    assert GAME.split_turn("  E2 - E3 ") == ["e2-e3"]
    assert GAME.split_turn("pass") == ["pass"]
    assert GAME.split_turn("W5 @ C2; d3-d6 end") == ["w5@c2", "d3-d6", "end"]
    assert GAME.split_turn("") == []


def test_turn_suggestions():
    s = GAME.decode(code(EX2))
    out = GAME.turn_suggestions(s, "")
    assert 0 < len(out) <= 25 and all(v in s.legal_moves() for v, _ in out)
    out = GAME.turn_suggestions(s, "d3-")
    assert {"d3-d4", "d3-d5", "d3-d6"} <= {v for v, _ in out}
    assert {v for v, _ in out} == {m for m in s.legal_moves() if m.startswith("d3-")}
    out = GAME.turn_suggestions(s, "d3-d6-")
    assert ("d3-d6-b6" in {v for v, _ in out}) and all(v.startswith("d3-d6-") for v, _ in out)
    label = dict(out)["d3-d6-b6"]
    assert label.startswith("d3-d6-b6 — ")
    out = GAME.turn_suggestions(s, "d3-d6 ")
    assert "d3-d6 d6-b6" in {v for v, _ in out} and "d3-d6 end" in {v for v, _ in out}
    p = GAME.decode(code({"e5": "b1 b3"}, hand_w="w5", ledge_w="b2"))
    out = GAME.turn_suggestions(p, "w5@c2 b2@j")
    assert {v for v, _ in out} == {f"w5@c2 b2@j{r}" for r in range(1, 5)}
    assert GAME.turn_suggestions(s, "zz-") == [] and GAME.turn_suggestions(s, "e2-e3 ") == []


def test_pending_and_describe():
    p = GAME.decode(code({"e5": "b1 b3"}, hand_w="w5", ledge_w="b2"))
    assert p.pending() == "place w5, b2 (pieces in hand and on the ledge must be placed first)"
    assert "w5" in p.describe("w5@c2") and "c2" in p.describe("w5@c2")
    s = GAME.decode(code(EX2))
    assert "knocks b3" in s.describe("d3-d6") and "e5" in s.describe("d3-d6")
    assert s.describe("d3-d9") == ""


def test_turn_record_uses_the_section_7_notation():
    p = GAME.decode(code({"e5": "b1 b3"}, hand_w="w5", ledge_w="b2"))
    assert p.turn_record(["w5@c2", "b2@j4", "d1-d2", "d2-d3", "end"]) == "w5@c2 b2@j4 ; d1-d2-d3"
    assert q.turn_notation(["w5@c2", "b2@j4", "d1-d2", "d2-d3", "end"]) == "w5@c2 b2@j4 ; d1-d2-d3"


def test_the_index_accessors_the_ai_reads():
    s = GAME.decode(code({"f5": "w1 w2", "g4": "w3 w4", "h3": "w5", "e6": "b1"}))
    assert [s.dot_name(s.quincala_dot(seat)) for seat in (0, 1)] == ["f5", "e6"]
    assert [s.dot_name(s.home_dot(seat)) for seat in (0, 1)] == ["e5", "f6"]
    f5, e6 = s.quincala_dot(0), s.quincala_dot(1)
    assert s.sizes_on(f5) == 0b11 and s.sizes_on(e6) == 0b1 and s.sizes_on(s.home_dot(0)) == 0
    assert s.reaching_tower(f5, 0) == 0b1100      # w3 w4 on g4, one step away; h3 lies behind it
    assert s.reaching_tower(f5, 1) == 0           # no black tower in line


def test_only_ascii_digits_name_sizes_and_dots():
    p = GAME.decode(code({"e5": "b1 b3"}, hand_w="w5", ledge_w="b2"))
    assert p.canonical("W5 @ C2") == "w5@c2"
    for text in ("w\u0665@c2", "w5@c\u0662", "w\u2075@c2"):   # Arabic-Indic 5 and 2, superscript 5
        with pytest.raises(IllegalMove):
            p.play(text)
        with pytest.raises(IllegalMove):
            p.canonical(text)


def test_the_400_turn_draw_is_the_bots_not_the_engines():
    # clarification 7: the match service applies the cap from the move log; the engine itself has no cap
    assert GAME.turn_cap == 400 and not hasattr(q, "TURN_CAP")
    rng = random.Random(15)              # a random game of 497 turns
    s, turns = GAME.new(), 0
    while not s.is_over:
        seat = s.to_move
        s = s.play(rng.choice(s.legal_moves()))
        turns += s.to_move != seat
    assert turns > GAME.turn_cap and s.outcome().termination in ("complete_tower", "passes")
    cap = turn_cap_outcome(GAME.new())   # what the bot records at the cap
    assert cap.termination == "turn_cap" and cap.winners == (0, 1)
    assert reason_of(cap) == "No one completed a tower in 400 turns, so the game is a draw."


def reason_of(outcome) -> str:
    return outcome_text(GAME, outcome, GAME.seat_names(2))


# --------------------------------------------------------------------------------------------------------
# Random games: contract properties and the §4.10 invariants
# --------------------------------------------------------------------------------------------------------


def check_invariants(s) -> None:
    c = s.encode()
    f = fields(c)
    k = int(f[0])
    counts: dict[str, int] = {}
    for t in f[1].split(","):
        if t == ".":
            continue
        ps = re.findall(r"[wb]\d", t)
        assert "".join(ps) == t
        sizes = [int(p[1]) for p in ps]
        assert sizes == sorted(set(sizes)), t                     # one piece per size on a dot
        for p in ps:
            counts[p] = counts.get(p, 0) + 1
    for i, t in enumerate(f[2:6]):
        if t != "-":
            colour = "wb"[i // 2] if i % 2 == 0 else "wb"[1 - i // 2]
            for p in re.findall(r"[wb]\d", t):
                assert p[0] == colour
                counts[p] = counts.get(p, 0) + 1
    assert counts == {f"{c}{s}": 4 for c in "wb" for s in range(1, k + 1)}     # every piece in one place
    if f[7] in ("place", "placed"):
        other = 2 if f[6] == "w" else 0
        assert f[2 + other] == "-" and f[3 + other] == "-"        # clarification 6


def random_game(variant: str, seed: int, max_plies: int):
    rng = random.Random(seed)
    s = GAME.new(variant=variant, seed=seed)
    for _ in range(max_plies):
        if s.is_over:
            break
        moves = s.legal_moves()
        assert moves and moves == sorted(set(moves))
        code_before = s.encode()
        mv = rng.choice(moves)
        nxt = s.play(mv)
        assert s.encode() == code_before                       # play never mutates
        yield s, mv, nxt
        s = nxt


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(["5", "4", "3"]), seed=st.integers(0, 10**6))
def test_random_games_keep_the_contract_and_invariants(variant, seed):
    rng = random.Random(seed ^ 0x5EED)
    for s, _mv, nxt in random_game(variant, seed, 500):
        check_invariants(s)
        check_invariants(nxt)
        c = s.encode()
        back = GAME.decode(c)
        assert back.encode() == c and back.legal_moves() == s.legal_moves()
        moves = s.legal_moves()
        bogus = rng.choice(["a1-j10", "w9@a1", "end", "pass", "home", "e5-e6", "c3-c4"])
        if bogus not in moves:
            with pytest.raises(IllegalMove):
                s.play(bogus)
        if nxt.is_over:
            assert nxt.winners and nxt.to_move is None and nxt.legal_moves() == [] and reason(nxt)


@pytest.mark.parametrize("variant", ["5", "4", "3"])
def test_random_games_end_with_a_legal_result(variant):
    for seed in range(3):
        last = None
        for _s, _mv, nxt in random_game(variant, seed, 20000):
            last = nxt
        assert last is not None and last.is_over
        assert last.winners in ((0,), (1,), (0, 1))
        if last.winners != (0, 1):
            dot = last.complete_dot()
            assert dot in last.winning_dots(last.winners[0])
