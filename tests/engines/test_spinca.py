"""Spinca against ../shared/rules/spinca.md: geometry (§2), rules (§3), notation (§5), examples (§7)."""

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import GAMES, IllegalMove, InvalidPosition, outcome_text
from engines import spinca as S

GAME = GAMES["spinca"]

def reason(state) -> str:
    """The outcome's sentence with the rules' seat names, as the terminal mode shows it."""
    return outcome_text(GAME, state.outcome(), GAME.seat_names(state.players))

EMPTY_ROWS = "..../..../..../..../.../.../.../../.."


def pos(players: int, rows: str, seat: int = 1, locked: str = "-"):
    return GAME.decode(f"{players} {rows} {seat} {locked}")


def slides(state) -> set[tuple[str, str]]:
    """The (from, to) slides offered in legal_moves(), read off the move strings."""
    out = set()
    for m in state.legal_moves():
        if "-" in m:
            a, b = m.split(" ")[0].split("-")
            out.add((a, b))
    return out


def expand(table: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {(a, b) for a, bs in table.items() for b in bs}


def board_of(state) -> dict[str, str]:
    return state.cells


# --- metadata ---------------------------------------------------------------------------------------------

def test_metadata():
    assert GAME.key == "spinca" and GAME.title == "Spinca"
    assert GAME.player_counts == (2, 3, 4)
    assert GAME.variants == ()
    assert GAME.teams == {4: ((0, 2), (1, 3))}
    assert GAME.seat_names(2) == ("White", "Black")
    assert GAME.seat_names(3) == ("White", "Black", "Red")
    names4 = GAME.seat_names(4)
    assert len(set(names4)) == 4 and names4[0].startswith("White") and names4[1].startswith("Black")
    assert names4[2].startswith("White") and names4[3].startswith("Black")
    assert GAME.split_turn(" 1b1-1c2 2a1 ") == ["1b1-1c2 2a1"]


def test_new_is_empty_white_first():
    for n in (2, 3, 4):
        s = GAME.new(players=n, seed=7)
        assert s.encode() == f"{n} {EMPTY_ROWS} 1 -"
        assert s.to_move == 0 and not s.is_over and s.winners == ()
        assert s.players == n and s.variant is None
        # §3 rule 4: on turn 1 nothing can slide; all 16 holes are playable
        assert s.legal_moves() == sorted(f"1{f}{r}" for f in "abcd" for r in "1234")
    with pytest.raises(ValueError):
        GAME.new(players=5)


# --- geometry (§2) ----------------------------------------------------------------------------------------

def test_29_cells_and_names():
    assert len(S.NAMES) == 29 and len(set(S.NAMES)) == 29
    assert S.NAMES[:4] == ("1a1", "1b1", "1c1", "1d1") and S.NAMES[16] == "2a1" and S.NAMES[-1] == "3b2"
    assert "3c1" not in S.INDEX and "2d1" not in S.INDEX and "4a1" not in S.INDEX


@pytest.mark.parametrize("cell, supporters", [
    ("2a1", {"1a1", "1b1", "1a2", "1b2"}),
    ("3a1", {"2a1", "2b1", "2a2", "2b2"}),
    ("2c3", {"1c3", "1d3", "1c4", "1d4"}),
    ("3b2", {"2b2", "2c2", "2b3", "2c3"}),
])
def test_supporters(cell, supporters):
    got = {S.NAMES[i] for i in range(29) if S.SUPPORT[S.INDEX[cell]] >> i & 1}
    assert got == supporters


@pytest.mark.parametrize("cell, resting", [
    ("1a1", {"2a1"}), ("1b1", {"2a1", "2b1"}), ("1b2", {"2a1", "2b1", "2a2", "2b2"}),
    ("1d4", {"2c3"}), ("2b2", {"3a1", "3b1", "3a2", "3b2"}), ("2a1", {"3a1"}), ("3a1", set()),
])
def test_cells_resting_on(cell, resting):
    assert {S.NAMES[i] for i in S.RESTING[S.INDEX[cell]]} == resting


@pytest.mark.parametrize("face, cells", [
    ("S", "1a1 1b1 1c1 1d1 2a1 2b1 2c1 3a1 3b1"),
    ("E", "1d1 1d2 1d3 1d4 2c1 2c2 2c3 3b1 3b2"),
    ("N", "1d4 1c4 1b4 1a4 2c3 2b3 2a3 3b2 3a2"),
    ("W", "1a4 1a3 1a2 1a1 2a3 2a2 2a1 3a2 3a1"),
])
def test_face_tables(face, cells):
    assert GAME.new().face_cells(face) == tuple(cells.split())


def test_rising_edges_are_the_cells_on_two_faces():
    faces = [set(GAME.new().face_cells(f)) for f in "SENW"]
    on_two = {c for c in S.NAMES if sum(c in f for f in faces) == 2}
    assert on_two == {"1a1", "2a1", "3a1", "1d1", "2c1", "3b1", "1d4", "2c3", "3b2", "1a4", "2a3", "3a2"}
    assert len(set().union(*faces)) == 24
    assert not any(sum(c in f for f in faces) > 2 for c in S.NAMES)


def test_face_adjacency():
    assert len(S.FACE_ADJACENCY) == 16
    south = GAME.new().face_cells("S")

    def touching(name):
        p = south.index(name)
        return {south[q] for q in range(9) if S.FACE_NEIGHBOURS[p] >> q & 1}

    assert touching("2b1") == {"1b1", "1c1", "2a1", "2c1", "3a1", "3b1"}
    assert touching("1a1") == {"1b1", "2a1"}
    assert touching("3a1") == {"2a1", "2b1", "3b1"}


# --- §7.1 legal slides, tumble-down and locks -------------------------------------------------------------

# 1a1 W, 1b1 B, 1c1 W, 1a2 B, 1b2 W; 2a1 W
P71 = "WBW./BW../..../..../W../.../.../../.."


def test_7_1_legal_slides():
    s = pos(2, P71)
    assert slides(s) == expand({"1a2": {"1a3", "1b3"}, "1b1": {"1c2"},
                                "1b2": {"1a3", "1b3", "1c2", "1c3"}, "1c1": {"1c2", "1d1", "1d2"}})


def test_7_1_slide_tumbles_2a1_into_1b1():
    s = pos(2, P71)
    t = s.play("1b1-1c2 1d4")
    b = board_of(t)
    assert b["1b1"] == "W" and b["1c2"] == "B" and "2a1" not in b
    assert set(t.locked_cells) == {"1c2", "1b1", "1d4"}
    # 2a1 is immediately playable again: it may be the placement of the very same turn
    u = s.play("1b1-1c2 2a1")
    assert board_of(u)["2a1"] == "W" and set(u.locked_cells) == {"1b1", "1c2", "2a1"}
    assert s.tumbles("1b1-1c2 2a1") == [("2a1", "1b1")]


def test_7_1_with_2a1_locked():
    s = pos(2, P71, locked="2a1")
    assert slides(s) == expand({"1c1": {"1c2", "1d1", "1d2"}})
    for src in ("1a2", "1b1", "1b2"):
        with pytest.raises(IllegalMove, match=f"(?i)moving {src} would tumble locked 2a1"):
            s.play(f"{src}-1b3 1d4" if src != "1b1" else "1b1-1c2 1d4")


# --- §7.2 pinned marbles ----------------------------------------------------------------------------------

P72 = "WWW./WWW./..../..../WW./.../.../../.."


def test_7_2_pinned():
    s = pos(2, P72)
    assert slides(s) == expand({"1a2": {"1a3", "1b3"}, "1c1": {"1d1", "1d2"},
                                "1c2": {"1b3", "1c3", "1d1", "1d2", "1d3"}})
    for cell in ("1b1", "1b2"):
        with pytest.raises(IllegalMove, match=f"{cell} carries 2 marbles \\(pinned\\)"):
            s.play(f"{cell}-1a3 1d4" if cell == "1b2" else "1b1-1d1 1d4")


# --- §7.3 double tumble -----------------------------------------------------------------------------------

P73 = "WWW./WWW./WWW./..../WB./WW./.../R./.."


def test_7_3_double_tumble():
    s = pos(3, P73)
    assert s.tumbles("1c1-1d1 1a4") == [("2b1", "1c1"), ("3a1", "2b1")]
    t = s.play("1c1-1d1 1a4")
    b = board_of(t)
    assert b["1d1"] == "W" and b["1c1"] == "B" and b["2b1"] == "R" and "3a1" not in b
    assert set(t.locked_cells) == {"1d1", "1c1", "2b1", "1a4"}
    assert t.encode() == "3 WWBW/WWW./WWW./W.../WR./WW./.../../.. 2 1c1,1d1,1a4,2b1"


# --- §7.4 final scoring, 2 players ------------------------------------------------------------------------

# rows from rank 1 up, as the spec's diagram (which prints rank 4 first)
P74 = "BWWB/WWBB/WBWB/WWBB/BWB/WWB/WBB/WW/WB"


def test_7_4_two_player_scoring():
    s = pos(2, P74)
    assert s.is_over and s.to_move is None and s.legal_moves() == []
    assert s.face_groups("S") == {"W": (5,), "B": (2, 2)}
    assert s.face_groups("E") == {"W": (1,), "B": (8,)}
    table = {"S": (5, 2), "E": (1, 8), "N": (4, 5), "W": (7, 2)}
    for face, (w, b) in table.items():
        assert s.face_scores(face) == {"W": w, "B": b}
    assert s.scores == (17, 17)
    assert s.inner_counts() == {"W": 3, "B": 2}
    assert s.winners == (0,)
    assert reason(s) == "Face points tied at 17; White wins with 3 of the 5 inner-pyramid marbles (Black 2)."
    assert s.outcome().termination == "inner" and s.outcome().roles == {"winner": 0, "loser": 1}


def test_7_4_as_a_team_game():
    s = pos(4, P74)
    assert s.scores == (17, 17, 17, 17)
    assert s.winners == (0, 2)        # both White seats share the win


# --- §7.5 final scoring, 3 players ------------------------------------------------------------------------

P75 = "BRRW/BBWW/RBBW/RRWW/RRW/BBW/RBW/BW/RB"


def test_7_5_three_player_scoring():
    s = pos(3, P75)
    table = {"W": (3, 8, 3, 0), "B": (1, 1, 2, 4), "R": (4, 0, 4, 1)}
    for i, face in enumerate("SENW"):
        assert s.face_scores(face) == {c: table[c][i] for c in "WBR"}
    assert s.face_groups("S")["B"] == (1, 1)
    assert s.face_groups("W")["R"] == (1, 4)
    assert s.face_groups("W")["W"] == ()          # §9 row 1: no marble on the face scores 0
    assert s.scores == (14, 8, 9)
    assert s.inner_counts() == {"W": 1, "B": 4, "R": 0}
    assert s.winners == (0,)


@pytest.mark.parametrize("totals, inner, winner", [
    ((12, 12, 9), (1, 2, 2), 3),     # two-way tie for the highest: Red (the lowest) wins
    ((11, 11, 11), (2, 2, 1), 3),    # three-way tie, inner 2-2-1: Red wins
    ((11, 11, 11), (3, 1, 1), 1),    # three-way tie, unique highest inner count
    ((9, 12, 9), (5, 0, 0), 2),      # unique highest wins, whatever the inner pyramid
    ((17, 17), (3, 2), 1),           # 2 colours: inner pyramid breaks the tie
    ((17, 17), (2, 3), 2),
    ((10, 16), (5, 0), 2),
])
def test_winner_rules(totals, inner, winner):
    codes = range(1, len(totals) + 1)
    got = S.decide_winner(dict(zip(codes, totals, strict=True)), dict(zip(codes, inner, strict=True)))
    assert got == winner


# --- §7.6 opening sequence with locks ---------------------------------------------------------------------

def test_7_6_opening_locks():
    s = GAME.new(2)
    s = s.play("1b2")
    assert s.locked_cells == ("1b2",)
    s = s.play("1c2")
    assert s.locked_cells == ("1c2",)
    s = s.play("1b2-1a1 1b3")
    assert set(s.locked_cells) == {"1a1", "1b3"}
    with pytest.raises(IllegalMove, match="1a1 .*locked"):
        s.play("1a1-1a2 1d4")
    t = s.play("1c2-1c3 1b2")
    assert set(t.locked_cells) == {"1c3", "1b2"}
    assert board_of(t) == {"1a1": "W", "1b3": "W", "1c3": "B", "1b2": "B"}


def test_locks_last_one_turn_with_three_players():
    s = GAME.new(3).play("1a1")       # White's marble: locked for Black only
    with pytest.raises(IllegalMove, match="locked"):
        s.play("1a1-1b1 1d4")
    s = s.play("1d4")                 # Black; now Red may slide White's marble
    assert s.locked_cells == ("1d4",)
    t = s.play("1a1-1b1 1c3")
    assert board_of(t) == {"1b1": "W", "1d4": "B", "1c3": "R"}


# --- the position code ------------------------------------------------------------------------------------

def test_position_code_example():
    s = GAME.decode("2 WBB./BW../..../..../W../.../.../../.. 1 1c1")
    assert s.encode() == "2 WBB./BW../..../..../W../.../.../../.. 1 1c1"
    assert s.play("1b1-1c2 2a1").encode() == "2 WWB./BWB./..../..../W../.../.../../.. 2 1b1,1c2,2a1"


def test_position_code_example_is_reached_by_its_moves():
    s = GAME.new(2)
    for m in "1a1 1b1 1b2 1a2 2a1 1c1".split():
        s = s.play(m)
    assert s.encode() == "2 WBB./BW../..../..../W../.../.../../.. 1 1c1"


@pytest.mark.parametrize("code, words", [
    ("", "four fields"),
    ("2 WBB./BW../..../..../W../.../.../../.. 1", "four fields"),
    ("5 " + EMPTY_ROWS + " 1 -", "2, 3 or 4"),
    ("2 WBB./BW../..../..../W../.../.../.. 1 -", "9 rows"),
    ("2 WBB/BW../..../..../W../.../.../../.. 1 -", "9 rows"),
    ("2 WBX./BW../..../..../W../.../.../../.. 1 -", "'X'"),
    ("2 WBR./BW../..../..../W../.../.../../.. 1 -", "'R'"),
    ("2 W.../BW../..../..../W../.../.../../.. 1 -", "2a1 has no support"),
    ("3 WWW./WWW./WWW./..../WB./WW./.../.R/.. 1 -", "3b1 has no support"),
    ("2 WBB./BW../..../..../W../.../.../../.. 3 -", "seat"),
    ("2 WBB./BW../..../..../W../.../.../../.. 0 -", "seat"),
    ("2 WBB./BW../..../..../W../.../.../../.. 1 1d1", "1d1 is empty"),
    ("2 WBB./BW../..../..../W../.../.../../.. 1 3c1", "not a cell"),
    ("2 WBB./BW../..../..../W../.../.../../.. 1 1a1,1a1", "twice"),
    ("2 WBB./BW../..../..../W../.../.../../.. 1 1a1,1b1,1c1,1a2,1b2", "four"),
])
def test_decode_refuses(code, words):
    with pytest.raises(InvalidPosition, match=re.escape(words)):
        GAME.decode(code)


def test_decode_accepts_unreachable_but_sound_positions():
    s = pos(3, P73)                   # colour counts no game could reach
    assert s.to_move == 0 and s.encode() == f"3 {P73} 1 -"


# --- the turn: notation, lenient forms and rule-naming errors (§5) ----------------------------------------

@pytest.mark.parametrize("typed", [
    "1b1-1c2 2a1", "1b1-c2 2a1", "1B1>1C2, 2A1", "1b1 - 1c2 + 2a1", "1b1→1c2 2a1", "1b1>1c2;2a1",
    "  1b1-1c2   2a1 ", "1b1-1c2 (2a1↓1b1) 2a1",
])
def test_lenient_forms(typed):
    s = GAME.decode("2 WBB./BW../..../..../W../.../.../../.. 1 1c1")
    assert s.play(typed).encode() == s.play("1b1-1c2 2a1").encode()


def test_place_only_is_case_insensitive():
    assert GAME.new().play(" 1C3 ").encode() == GAME.new().play("1c3").encode()


@pytest.mark.parametrize("typed, words", [
    ("1b1-1c2", "must also place a marble"),
    ("1b2-1a3 1d4", "1b2 carries 2 marbles (pinned)"),
    ("2a1-2a2 1d4", "2a1 was moved or placed last turn (locked)"),
    ("1a1-1a2 1d4", "1a1 was moved or placed last turn (locked)"),
    ("1a2-1a3 1d4", "moving 1a2 would tumble locked 2a1"),
    ("1c2-2c2 1d4", "1c2→2c2 changes level"),
    ("1c2-1a4 1d4", "not a slide to an adjacent cell"),
    ("1c2-1c1 1d4", "1c1 is occupied"),
    ("1d1-1d2 1d4", "no marble on 1d1"),
    ("2b2", "2b2 is not supported"),
    ("1a1", "1a1 is occupied"),
    ("3c1", "3c1 is not a cell"),
    ("2d1", "2d1 is not a cell"),
    ("4a1", "peak"),
    ("hello", "not a cell name"),
    ("1c2 1d4", "Type a turn"),
    ("", "Type a turn"),
])
def test_illegal_turns_name_the_rule_and_leave_the_state(typed, words):
    # base 3x2 block a-c x 1-2 full, 2a1 and 2b1 on it; 2a1 locked (with 1a1)
    s = pos(2, "WWW./WWW./..../..../WB./.../.../../..", locked="1a1,2a1")
    before = s.encode()
    with pytest.raises(IllegalMove, match="(?i)" + re.escape(words)):
        s.play(typed)
    assert s.encode() == before


def test_slide_destination_must_be_supported():
    s = pos(2, "WWW./WWW./..../..../W../.../.../../..")
    assert slides(s) >= {("2a1", "2b1")} and ("2a1", "2a2") not in slides(s)
    with pytest.raises(IllegalMove, match="2a2 is not supported"):
        s.play("2a1-2a2 1d4")


def test_placement_after_slide_sees_the_new_board():
    s = pos(2, "WWW./WW../..../..../.../.../.../../..")
    # sliding 1b2 away leaves 2a1 unsupported: placing there is refused, although it was playable before
    assert "2a1" in s.legal_moves()
    with pytest.raises(IllegalMove, match="2a1 is not supported"):
        s.play("1b2-1c2 2a1")
    # and sliding 1d2 to 1c2 completes 2b1's platform: placing there becomes legal
    assert "2b1" not in s.legal_moves()
    t = pos(2, "WWWW/WW.W/..../..../.../.../.../../..")
    assert "1d2-1c2 2b1" in t.legal_moves() and "1d2-1c2 2a1" in t.legal_moves()


def test_only_any_colour_free_marble_slides():
    s = pos(2, "B.../..../..../..../.../.../.../../..")   # White to move may slide Black's marble
    assert {"1a1-1a2 1d4", "1a1-1b1 1d4", "1a1-1b2 1d4"} <= set(s.legal_moves())


def test_top_level_marbles_slide_among_all_four():
    s = pos(2, "WWWW/WWWW/WWWW/WWWW/WWW/WWW/WWW/B./..")
    assert slides(s) == expand({"3a1": {"3b1", "3a2", "3b2"}})


# --- game length, supply, scores during play --------------------------------------------------------------

@pytest.mark.parametrize("players, left, last_seat", [
    (2, (15, 14), 0), (3, (10, 10, 9), 1), (4, (8, 7, 7, 7), 0),
])
def test_supply_and_29_turns(players, left, last_seat):
    s = GAME.new(players)
    assert s.marbles_left == left
    rng = random.Random(players)
    placed = [0] * players
    for turn in range(29):
        assert not s.is_over and s.to_move == turn % players
        if turn == 28:
            assert s.to_move == last_seat
        placed[s.to_move] += 1
        s = s.play(rng.choice(s.legal_moves()))
    assert s.is_over and tuple(placed) == left and s.marbles_left == (0,) * players
    colours = s.cells.values()
    assert len(s.cells) == 29
    if players == 3:
        assert sorted(colours).count("R") == 9
    else:
        assert list(colours).count("W") == 15 and list(colours).count("B") == 14


def test_four_player_seats_share_colours():
    s = GAME.new(4)
    for m, colour in zip(["1a1", "1b1", "1c1", "1d1"], "WBWB", strict=True):
        s = s.play(m)
        assert s.cells[m] == colour


# --- suggestions ------------------------------------------------------------------------------------------

def test_turn_suggestions():
    s = GAME.decode("2 WBB./BW../..../..../W../.../.../../.. 1 1c1")
    every = GAME.turn_suggestions(s, "")
    places = [m for m in s.legal_moves() if " " not in m]
    assert len(every) == 25 and [v for v, _ in every[:len(places)]] == places      # place-only first
    assert all(" " in v for v, _ in every[len(places):])
    got = GAME.turn_suggestions(s, "1b1>c2")
    assert got and all(v.startswith("1b1-1c2 ") for v, _ in got)
    assert ("1b1-1c2 2a1", "1b1-1c2 2a1 — slide B 1b1→1c2, tumbles 2a1, place 2a1") in got
    legal = set(s.legal_moves())
    assert all(v in legal for v, _ in GAME.turn_suggestions(s, "1"))
    assert GAME.turn_suggestions(s, "1b1-1c2 2a") == [
        ("1b1-1c2 2a1", "1b1-1c2 2a1 — slide B 1b1→1c2, tumbles 2a1, place 2a1")]
    assert GAME.turn_suggestions(s, "zz") == []


def test_turn_record_is_the_log_line_of_section_5():
    s = GAME.decode("2 WBB./BW../..../..../W../.../.../../.. 1 1c1")
    assert s.turn_record(["1b1-1c2 2a1"]) == "1b1-1c2 (2a1↓1b1) 2a1"
    assert s.turn_record(["1d4"]) == "1d4"
    assert s.play(s.turn_record(["1b1-1c2 2a1"])) == s.play("1b1-1c2 2a1")


def test_describe():
    s = GAME.decode("2 WBB./BW../..../..../W../.../.../../.. 1 1c1")
    assert s.describe("1d4") == "place 1d4"
    assert s.describe("1b2-1c2 1d4") == "slide W 1b2→1c2, tumbles 2a1, place 1d4"


# --- properties over random games -------------------------------------------------------------------------

def _supported(state) -> bool:
    return all(state.colour_at(S.NAMES[j]) for i in S.UPPER if state.colour_at(i)
               for j in range(29) if S.SUPPORT[i] >> j & 1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from((2, 3, 4)), seed=st.integers(0, 2**32 - 1))
def test_random_games(players, seed):
    rng = random.Random(seed)
    s = GAME.new(players, seed=seed)
    turns = 0
    while not s.is_over:
        code = s.encode()
        moves = s.legal_moves()
        assert moves == sorted(set(moves)) and moves
        back = GAME.decode(code)
        assert back.encode() == code and back.legal_moves() == moves
        for m in rng.sample(moves, min(4, len(moves))):
            s.play(m)
        # an unlisted move is refused: a place-only turn on an unplayable cell, or a made-up slide
        bad = next(n for n in S.NAMES if n not in moves)
        with pytest.raises(IllegalMove):
            s.play(bad)
        nxt = s.play(rng.choice(moves))
        assert s.encode() == code                 # play never mutates
        assert _supported(nxt)                    # every upper marble is supported
        assert len(nxt.locked_cells) <= 4
        s = nxt
        turns += 1
    assert turns == 29 and len(s.cells) == 29
    assert s.to_move is None and s.legal_moves() == []
    winners = s.winners
    assert winners and len({s.seat_colour(w) for w in winners}) == 1      # one winning colour
    expected = GAME.teams.get(players)
    if expected:
        assert winners in expected
    else:
        assert len(winners) == 1
    assert reason(s)
    assert GAME.decode(s.encode()).winners == winners


def test_every_listed_move_plays_and_slides_match_strings():
    rng = random.Random(5)
    for players in (2, 3, 4):
        s = GAME.new(players)
        while not s.is_over:
            moves = s.legal_moves()
            for m in moves:
                t = s.play(m)
                assert len(t.cells) == len(s.cells) + 1
            s = s.play(rng.choice(moves))


@pytest.mark.parametrize("players, turns, seed", [(2, 12, 1), (3, 20, 2), (4, 25, 3)])
def test_play_accepts_exactly_the_listed_moves(players, turns, seed):
    """Every (from, to, place) triple of cells: play() succeeds exactly for the strings legal_moves() lists."""
    rng = random.Random(seed)
    s = GAME.new(players)
    for _ in range(turns):
        s = s.play(rng.choice(s.legal_moves()))
    legal = set(s.legal_moves())
    accepted = set()
    for place in S.NAMES:
        for src in [None, *S.NAMES]:
            for dst in ([None] if src is None else S.NAMES):
                move = place if src is None else f"{src}-{dst} {place}"
                try:
                    s.play(move)
                except IllegalMove:
                    continue
                accepted.add(move)
    assert accepted == legal
