"""Tintas engine: the worked examples and vectors of ../shared/rules/tintas.md, T1–T10, A.5, contract."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import GAMES, IllegalMove, InvalidPosition, outcome_text
from engines import tintas as T

GAME = GAMES["tintas"]

def reason(state) -> str:
    """The outcome's sentence with the rules' seat names, as the terminal mode shows it."""
    return outcome_text(GAME, state.outcome(), GAME.seat_names(state.players))

SETUP = "BOOYYRWRBBGPGRGPBWGOWPGOYYBPYWRPRWOOWOGBPBYWGRYRP - 0000000 0000000 1 -"
AFTER_G4 = "BOOYYRWRBBGPGRGPBWGOWPGOYYBPYWRPRWOOWO.BPBYWGRYRP G4 0001000 0000000 2 -"


def code_for(pieces: dict[str, str], pawn: str, h1="0000000", h2="0000000", side="1", chain="-") -> str:
    board = "".join(pieces.get(label, ".") for label in T.LABELS)
    return f"{board} {pawn} {h1} {h2} {side} {chain}"


A63 = {
    "D7": "P", "C7": "O", "C6": "W", "H4": "G", "A1": "R", "B3": "W", "C3": "G", "H2": "P", "I1": "R",
    "B2": "O", "H1": "O", "E2": "G", "G2": "B", "B1": "Y", "F2": "P", "E1": "B", "G1": "R", "F1": "W",
}
A64 = {"C7": "O", "C6": "B", "H4": "G", "B3": "P", "B2": "R", "D1": "W", "C1": "Y", "I1": "P"}


# --- geometry -------------------------------------------------------------------------------------

def ray_labels(label: str, direction: str) -> list[str]:
    d = T.DIRECTION_NAMES.index(direction)
    return [T.LABELS[n] for n in T.RAYS[T.INDEX[label]][d]]


@pytest.mark.parametrize("label, expected", [
    ("F4", {"N": "F5 F6 F7", "NE": "G4 H3", "SE": "G3 H1", "S": "F3 F2 F1", "SW": "E3 D2 C2 B1",
            "NW": "E4 D4 C5 B5"}),
    ("E4", {"N": "E5 E6 E7", "NE": "F5 G5 H4", "SE": "F4 G3 H1", "S": "E3 E2 E1", "SW": "D3 C3 B2",
            "NW": "D4 C5 B5"}),
    ("A1", {"N": "A2", "NE": "B4 C5 D5 E6 F7 G7", "SE": "B3 C3 D2 E2 F2 G1", "S": "", "SW": "", "NW": ""}),
])
def test_ray_vectors(label, expected):
    for direction, cells in expected.items():
        assert ray_labels(label, direction) == cells.split(), (label, direction)


def test_labels_and_axial_table():
    table = {
        "A": "(-4,2) (-4,1)",
        "B": "(-3,4) (-3,3) (-3,2) (-3,1) (-3,0)",
        "C": "(-2,4) (-2,3) (-2,2) (-2,1) (-2,0) (-2,-1) (-2,-2)",
        "D": "(-1,3) (-1,2) (-1,1) (-1,0) (-1,-1) (-1,-2) (-1,-3)",
        "E": "(0,3) (0,2) (0,1) (0,0) (0,-1) (0,-2) (0,-3)",
        "F": "(1,3) (1,2) (1,1) (1,0) (1,-1) (1,-2) (1,-3)",
        "G": "(2,2) (2,1) (2,0) (2,-1) (2,-2) (2,-3) (2,-4)",
        "H": "(3,0) (3,-1) (3,-2) (3,-3) (3,-4)",
        "I": "(4,-1) (4,-2)",
    }
    expected = {}
    for col, cells in table.items():
        for k, qr in enumerate(cells.split(), start=1):
            expected[f"{col}{k}"] = tuple(int(x) for x in qr.strip("()").split(","))
    assert T.AXIAL == expected
    assert list(T.LABELS) == list(expected) == sorted(expected)
    assert len(T.LABELS) == 49
    bumps = {(-4, 2), (-4, 1), (-3, 4), (-2, 4), (-2, -2), (-1, -3), (1, 3), (2, 2), (2, -4), (3, -4),
             (4, -1), (4, -2)}
    for q, r in T.AXIAL.values():
        assert max(abs(q), abs(r), abs(q + r)) <= 3 or (q, r) in bumps
    counts = sorted(len(n) for n in T.NEIGHBOURS)
    assert counts.count(6) == 25 and counts.count(5) == 6 and counts.count(4) == 6 and counts.count(3) == 12
    assert T.COLOURS == "ROYGBPW" and set(T.COLOUR_NAMES) == set(T.COLOURS)
    assert dict(T.DIRECTIONS)["NE"] == (1, -1)


# --- position code and worked examples ------------------------------------------------------------

def test_setup_code_round_trip_and_first_move():
    s = GAME.decode(SETUP)
    assert s.encode() == SETUP
    assert s.to_move == 0 and not s.is_over and s.pawn is None
    assert s.legal_moves() == list(T.LABELS)  # T3: any cell
    after = s.play("G4")
    assert after.encode() == AFTER_G4
    assert s.encode() == SETUP
    assert GAME.decode(AFTER_G4).encode() == AFTER_G4


def test_a62_next_player_sees_six_pieces():
    s = GAME.decode(AFTER_G4)
    assert s.to_move == 1
    assert sorted(s.legal_moves()) == sorted("G5 H3 H2 G3 F4 F5".split())
    assert s.legal_moves() == sorted(s.legal_moves())
    assert s.cell("G5") == "B" and s.cell("G4") is None and s.pawn == "G4"


def test_a63_chain_recrosses_start_and_ends_automatically():
    s = GAME.decode(code_for(A63, "F5"))
    assert s.legal_moves() == ["C3", "C6", "F2", "H2", "H4"]
    s1 = s.play("H4")
    assert s1.to_move == 0 and s1.chain_colour == "G"
    assert s1.legal_moves() == ["C3", "end"]
    assert s1.describe("C3") == "takes green, may continue"
    s2 = s1.play("C3")  # back across G5, F5 (the start cell), E4, D3
    assert s2.legal_moves() == ["E2", "end"]
    s3 = s2.play("E2")
    assert s3.to_move == 1 and s3.chain_colour is None
    assert s3.holdings(0) == (0, 0, 0, 3, 0, 0, 0)
    assert s3.encode().endswith(" E2 0003000 0000000 2 -")
    # the same turn with the direction shorthand, any case
    d = s.play("NE").play("sw").play("Se")
    assert d.encode() == s3.encode()


def test_a64_jump_any_piece_and_turn_ends():
    s = GAME.decode(code_for(A64, "F4"))
    assert s.must_jump
    assert s.legal_moves() == sorted(A64)
    assert s.describe("B3") == "jump: takes purple, turn ends"
    after = s.play("B3")
    assert after.to_move == 1 and after.chain_colour is None
    # even when a same-colour piece is in line after the jump, the turn ends (T6)
    pieces = dict(A64, C3="P")
    s = GAME.decode(code_for(pieces, "F4"))
    assert s.must_jump and s.play("B3").to_move == 1
    with pytest.raises(IllegalMove, match="T6"):
        s.play("E4")


# --- T1 -------------------------------------------------------------------------------------------

def with_reds_on(cells: list[str]) -> list[int]:
    """The A.6.1 deal with its seven red pieces swapped onto ``cells``."""
    board = list(GAME.decode(SETUP)._board)
    line = [T.INDEX[x] for x in cells]
    for target in line:
        if board[target] != 0:
            src = next(n for n in range(49) if board[n] == 0 and n not in line)
            board[src], board[target] = board[target], board[src]
    assert sorted(n for n in range(49) if board[n] == 0) == sorted(line)
    return board


def test_seven_connected_detects_a_group():
    assert not T.seven_connected(GAME.decode(SETUP)._board)  # largest group: 3 cells
    rosette = ["E4", *(T.LABELS[n] for n in T.NEIGHBOURS[T.INDEX["E4"]])]
    assert T.seven_connected(with_reds_on(rosette))
    assert T.seven_connected(with_reds_on("A1 B3 C3 D2 E2 F2 G1".split()))  # a straight line of seven
    # six in a line and one apart: not one group
    assert not T.seven_connected(with_reds_on("A1 B3 C3 D2 E2 F2 I2".split()))


def test_new_never_deals_a_connected_colour_and_is_seeded():
    starts = set()
    for seed in range(300):
        s = GAME.new(seed=seed)
        assert not T.seven_connected(s._board)
        assert s.encode() == GAME.new(seed=seed).encode()
        starts.add(s.to_move)
        assert sorted(s.encode().split()[0]) == sorted(T.COLOURS * 7)
        assert s.encode().split()[1:] in (["-", "0000000", "0000000", "1", "-"],
                                          ["-", "0000000", "0000000", "2", "-"])
    assert starts == {0, 1}  # T2: the start player is drawn


def test_redeal_happens_for_some_seed():
    # find a seed whose first shuffle is connected; new() must have re-dealt
    pieces = [c for c in range(7) for _ in range(7)]
    for seed in range(3000):
        rng = random.Random(seed)
        p = list(pieces)
        rng.shuffle(p)
        if T.seven_connected(p):
            assert bytes(p) != GAME.new(seed=seed)._board
            assert not T.seven_connected(GAME.new(seed=seed)._board)
            return
    pytest.skip("no connected first deal among the seeds tried")


# --- turns ----------------------------------------------------------------------------------------

def test_first_turn_has_no_chaining():
    s = GAME.decode(SETUP)
    # E5 is yellow and E4 (yellow) is in line with it, yet the turn ends
    after = s.play("e5")
    assert after.to_move == 1 and after.chain_colour is None and "end" not in after.legal_moves()
    assert s.describe("E5") == "takes yellow, turn ends"
    with pytest.raises(IllegalMove, match="T3"):
        s.play("ne")
    with pytest.raises(IllegalMove, match="T5"):
        s.play("end")


def test_wrong_colour_refused_state_unchanged():
    s1 = GAME.decode(code_for(A63, "F5")).play("H4")
    before = s1.encode()
    with pytest.raises(IllegalMove) as err:
        s1.play("H2")
    assert "H2 is purple but this turn collects green (T5)" in str(err.value)
    assert s1.encode() == before
    with pytest.raises(IllegalMove, match="not in line"):
        s1.play("E1")


def test_error_messages():
    s = GAME.decode(code_for(A63, "F5"))
    with pytest.raises(IllegalMove, match=r"E6 is empty"):
        s.play("E6")
    with pytest.raises(IllegalMove, match=r"B1 is not in line with the pawn on F5 \(T4"):
        s.play("B1")
    with pytest.raises(IllegalMove, match="not a cell"):
        s.play("Z9")
    with pytest.raises(IllegalMove, match="No piece lies N of the pawn"):
        s.play("n")
    with pytest.raises(IllegalMove, match="already on F5"):
        s.play("F5")
    assert issubclass(IllegalMove, ValueError) and issubclass(InvalidPosition, ValueError)


def test_behind_message():
    s = GAME.decode(code_for(A63, "F5"))
    with pytest.raises(IllegalMove, match=r"F1 is behind F2 .*\(T4"):
        s.play("F1")


def test_end_only_while_continuing():
    s = GAME.decode(code_for(A63, "F5"))
    assert "end" not in s.legal_moves()
    with pytest.raises(IllegalMove, match="T5"):
        s.play("end")
    s1 = s.play("H4")
    assert s1.describe("end") == "ends the turn"
    after = s1.play("END")
    assert after.to_move == 1 and after.chain_colour is None and after.pawn == "H4"
    assert after.encode().split()[4:] == ["2", "-"]


def test_case_insensitive_and_canonical():
    s = GAME.decode(AFTER_G4)
    assert s.play("g5").encode() == s.play("G5").encode() == s.play(" g5 ").encode() == s.play("N").encode()
    assert GAME.split_turn("h4, c3-e2  END") == ["H4", "C3", "E2", "end"]
    assert GAME.split_turn("ne sw") == ["ne", "sw"]


# --- end of game ----------------------------------------------------------------------------------

def test_seven_of_a_colour_mid_chain_wins_at_once():
    # player 1 holds 5 green; the pawn on F5 sees H4 (G) then C3 (G) then E2 (G)
    s = GAME.decode(code_for(dict(A63, E2="B"), "F5", h1="0005000"))
    a = s.play("H4")
    assert not a.is_over and a.chain_colour == "G"
    b = a.play("C3")  # the 7th green, taken by a continuation: over at once
    assert b.is_over and b.winners == (0,) and b.to_move is None and b.legal_moves() == []
    assert b.encode().split()[4:] == ["2", "-"]
    assert reason(b) == "Player 1 holds all seven green pieces."
    assert b.outcome().termination == "all_seven" and b.outcome().roles == {"winner": 0}
    assert GAME.decode(b.encode()).is_over and GAME.decode(b.encode()).winners == (0,)
    with pytest.raises(IllegalMove, match="game is over"):
        b.play("E2")


def test_majority_rule():
    # player 2 (to move) holds one of every colour and 4 in three colours; taking the 4th purple wins
    pieces = {"H2": "P", "H4": "P", "E4": "R", "A1": "O"}
    s = GAME.decode(code_for(pieces, "G3", h1="0000000", h2="4441131", side="2"))
    b = s.play("H2")  # mid-chain: H4 (purple) is in line, yet the game ends at once
    assert b.is_over and b.winners == (1,) and b.scores == (0, 4)
    assert reason(b) == ("Player 2 holds 4 or more pieces in 4 colours (red, orange, yellow, purple) and at least "
                         "one of every colour, so Player 1 can no longer collect seven of any colour.")
    assert b.outcome().termination == "four_colours" and b.outcome().roles == {"winner": 1, "loser": 0}
    assert b.encode().split()[4:] == ["1", "-"]


def test_no_end_when_nobody_can_get_seven_but_no_four_in_four():
    # both players hold at least one of every colour: nobody can get 7, yet nobody has 4-in-4 -> play on
    pieces = {"H2": "P", "E4": "R"}
    s = GAME.decode(code_for(pieces, "G3", h1="1111111", h2="4441111", side="2"))
    b = s.play("H2")
    assert not b.is_over and b.winners == () and b.to_move == 0
    assert b.scores == (0, 3)


def test_four_in_four_without_every_colour_does_not_win():
    pieces = {"H2": "P", "E4": "R"}
    s = GAME.decode(code_for(pieces, "G3", h2="4440030", side="2"))
    b = s.play("H2")
    assert not b.is_over and b.scores == (0, 4)


def test_empty_board_ends_decoded_partial_game():
    # only a decoded position with fewer than 49 pieces can run out (EMPTY_BOARD_ENDS_GAME)
    assert T.EMPTY_BOARD_ENDS_GAME
    s = GAME.decode(code_for({"E4": "R"}, "E5", h1="0004000", h2="4000000", side="2"))
    b = s.play("E4")
    assert b.is_over and b.winners == (0, 1) and "draw" in reason(b)
    assert b.outcome().termination == "empty_board_draw" and b.outcome().ranks == (1, 1)
    s = GAME.decode(code_for({"E4": "R"}, "E5", h1="0004000", side="2"))
    assert s.play("E4").winners == (0,)  # more colours at 4+
    s = GAME.decode(code_for({"E4": "R"}, "E5", h1="4440000", side="2"))
    b = s.play("E4")
    assert b.winners == (0,) and GAME.decode(b.encode()).winners == (0,)


# --- decode errors --------------------------------------------------------------------------------

@pytest.mark.parametrize("code, words", [
    ("", "6 fields"),
    (SETUP[:-2], "6 fields"),
    (SETUP.replace("BOOY", "BOO", 1), "49 characters"),
    (SETUP.replace("BOOY", "BOOX", 1), "only"),
    ("R" + SETUP[1:], "8 red"),
    (AFTER_G4.replace("G4", "G5", 1), "holds a piece"),
    (AFTER_G4.replace("G4", "Z4", 1), "not a cell"),
    (AFTER_G4.replace(" 2 -", " 3 -"), "1 or 2"),
    (AFTER_G4.replace("0001000 0000000", "000100 0000000"), "7 digits"),
    (AFTER_G4.replace("0001000 0000000", "0001000 0001000"), "8 green"),
    (SETUP.replace(" 1 -", " 1 G"), "chain"),
    ("." + SETUP[1:].replace("0000000 0000000", "0000000 0000100"), "first move"),
    (AFTER_G4[:-1] + "R", "holds no red"),
    (code_for(A63, "F5", h1="0100000", chain="O"), "turn would already have passed"),
    (code_for({"E4": "G"}, "F5", h1="7000000"), "already meets a winning condition"),
    (AFTER_G4[:-1] + "x", "chain colour"),
])
def test_decode_rejects(code, words):
    with pytest.raises(InvalidPosition, match=words):
        GAME.decode(code)


def test_decode_accepts_sound_unreachable_positions():
    for code in (code_for(A63, "F5"), code_for(A64, "F4", side="2")):
        assert GAME.decode(code).encode() == code


# --- autocomplete ---------------------------------------------------------------------------------

def test_turn_suggestions():
    s = GAME.decode(code_for(A63, "F5"))
    got = GAME.turn_suggestions(s, "")
    values = [v for v, _ in got]
    assert values == ["C3", "C3 E2", "C3 H4", "C6", "F2", "H2", "H4", "H4 C3", "H4 C3 E2"]
    labels = dict(got)
    assert labels["H4 C3 E2"] == "H4 C3 E2 — 3× green, turn ends"
    assert labels["H4"] == "H4 — takes green, may continue"
    assert [v for v, _ in GAME.turn_suggestions(s, "H4 ")] == ["H4", "H4 C3", "H4 C3 E2"]
    assert [v for v, _ in GAME.turn_suggestions(s, "h4 c")] == ["H4 C3", "H4 C3 E2"]
    assert [v for v, _ in GAME.turn_suggestions(s, "h")] == ["H2", "H4", "H4 C3", "H4 C3 E2"]
    assert GAME.turn_suggestions(s, "E6 ") == []
    for value, _ in got:
        st_ = s
        for mv in GAME.split_turn(value):
            st_ = st_.play(mv)
        assert st_.to_move == 0 or st_.to_move == 1
    first = GAME.decode(SETUP)
    assert len(GAME.turn_suggestions(first, "")) == 25
    assert len(GAME.turn_suggestions(first, "", limit=5)) == 5
    assert [v for v, _ in GAME.turn_suggestions(first, "e")] == ["E1", "E2", "E3", "E4", "E5", "E6", "E7"]
    jump = GAME.decode(code_for(A64, "F4"))
    assert ("B3", "B3 — jump: takes purple, turn ends") in GAME.turn_suggestions(jump, "b")


def play_turn(state, value):
    player = state.to_move
    for mv in GAME.split_turn(value):
        state = state.play(mv)
    if state.to_move == player and "end" in state.legal_moves():
        state = state.play("end")
    return state


@given(st.integers(0, 2**30), st.text(alphabet="ABCDEFGHI1234567 ", max_size=6))
@settings(max_examples=40, deadline=None)
def test_suggestions_play_as_whole_turns(seed, typed):
    rng = random.Random(seed)
    s = GAME.new(seed=seed)
    for _ in range(rng.randrange(30)):
        if s.is_over:
            break
        s = s.play(rng.choice(s.legal_moves()))
    if s.is_over:
        return
    got = GAME.turn_suggestions(s, typed)
    assert len(got) <= 25
    for value, label in got:
        assert label.startswith(value + " — ")
        after = play_turn(s, value)
        assert after.is_over or after.to_move != s.to_move


# --- properties over random games -----------------------------------------------------------------

def conserved(s):
    board = s.encode().split()[0]
    for c in range(7):
        assert board.count(T.COLOURS[c]) + s.holdings(0)[c] + s.holdings(1)[c] == 7


@given(st.integers(0, 2**31))
@settings(max_examples=60, deadline=None)
def test_random_games(seed):
    rng = random.Random(seed)
    s = GAME.new(seed=seed)
    plies = 0
    while not s.is_over:
        moves = s.legal_moves()
        assert moves and moves == sorted(set(moves))
        code = s.encode()
        back = GAME.decode(code)
        assert back.encode() == code and back.legal_moves() == moves
        conserved(s)
        # an unlisted cell is refused
        unlisted = [x for x in T.LABELS if x not in moves]
        if unlisted:
            with pytest.raises(IllegalMove):
                s.play(rng.choice(unlisted))
        if "end" not in moves:
            with pytest.raises(IllegalMove):
                s.play("end")
        mv = rng.choice(moves)
        nxt = s.play(mv)
        assert s.encode() == code  # play never mutates
        assert s.describe(mv)
        s = nxt
        plies += 1
        assert plies < 200
    assert len(s.winners) == 1 and s.to_move is None and s.legal_moves() == []
    assert reason(s)
    conserved(s)
    assert GAME.decode(s.encode()).winners == s.winners
    w = s.winners[0]
    h = s.holdings(w)
    assert 7 in h or (0 not in h and sum(x >= 4 for x in h) >= 4)


def test_text_board_and_extras():
    s = GAME.decode(AFTER_G4)
    text = s.text_board()
    assert "G4:*" in text and "A1:B" in text and "Player 1: R0 O0 Y0 G1" in text
    assert GAME.seat_names(2) == ("Player 1", "Player 2")
    assert GAME.key == "tintas" and GAME.title == "Tintas"
    assert GAME.player_counts == (2,) and GAME.variants == ()
