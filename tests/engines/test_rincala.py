"""Rincala engine: the worked examples of ../shared/rules/rincala.md (B.6), its decisions, and properties of
random 2- and 3-player games."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import GAMES, IllegalMove, InvalidPosition, outcome_text
from engines.rincala import COLOURS, FULL, PER_COLOUR, VALUES, parse_move

GAME = GAMES["rincala"]

def reason(state) -> str:
    """The outcome's sentence with the rules' seat names, as the terminal mode shows it."""
    return outcome_text(GAME, state.outcome(), GAME.seat_names(state.players))



def pos(code: str):
    return GAME.decode(code)


# --- B.6.1: one board, every move ------------------------------------------------------------------------
B61 = "G/WYW/R/R/-/-/-/- -/- 1 turn"

B61_TABLE = [
    # move,   legal, result code after the move,          description
    ("A cw",  True,  "-/WYWG/R/R/-/-/-/- -/- 1 again",   "move again"),
    ("A ccw", False, None,                               None),
    ("B cw",  True,  "G/-/RW/RY/W/-/-/- -/- 2 turn",     "drops into empty E, turn ends"),
    ("B ccw", True,  "GW/-/R/R/-/-/W/Y -/- 2 turn",      "drops into empty H, G, turn ends"),
    ("C cw",  True,  "G/WYW/-/R/-/-/-/- R/- 2 turn",     "collects R, turn ends"),
    ("C ccw", True,  "G/WYWR/-/R/-/-/-/- -/- 1 again",   "move again"),
    ("D cw",  False, None,                               None),
    ("D ccw", True,  "G/WYW/R/-/-/-/-/- R/- 2 turn",     "collects R, turn ends"),
]


@pytest.mark.parametrize("move, legal, after, note", B61_TABLE)
def test_b61_each_move(move, legal, after, note):
    state = pos(B61)
    assert (move in state.legal_moves()) is legal
    if legal:
        assert state.play(move).encode() == after
        assert state.describe(move) == note
    else:
        with pytest.raises(IllegalMove, match="empty hollows only"):
            state.play(move)
        assert state.describe(move) == ""


def test_b61_legal_moves_are_exactly_the_table():
    assert pos(B61).legal_moves() == sorted(m for m, legal, *_ in B61_TABLE if legal)


def test_b61_move_again_keeps_the_player_and_says_so():
    again = pos(B61).play("A cw")
    assert again.to_move == 0 and again.phase == "again"
    assert again.pending() == "move again"
    assert pos(B61).pending() == ""


# --- B.6.2: one of each colour left ends the game ----------------------------------------------------------
def test_b62_capture_leaving_one_of_each_colour_ends_the_game():
    state = pos("R/-/G/-/Y/W/W/- -/- 1 turn")
    assert state.describe("F cw") == "collects W, game ends"
    end = state.play("F cw")
    assert end.is_over and end.to_move is None and end.legal_moves() == []
    assert end.scores == (1, 0) and end.winners == (0,)
    assert end.encode() == "R/-/G/-/Y/-/W/- W/- 2 turn"
    assert reason(end) == "Only one piece of each colour is left on the board."
    assert end.outcome().termination == "one_of_each" and end.outcome().ranks == (1, 2)


# --- B.6.3: no legal move during a forced continuation ---------------------------------------------------
def test_b63_no_move_left_during_a_continuation_ends_the_game():
    state = pos("G/-/-/WR/-/-/W/Y -/- 1 turn")
    first = state.play("G cw")
    assert first.encode() == "G/-/-/WR/-/-/-/YW -/- 1 again"
    assert first.to_move == 0 and first.pending() == "move again"
    assert state.describe("G cw") == "move again"
    assert first.describe("A ccw") == "game ends"
    end = first.play("A ccw")
    assert end.is_over and end.legal_moves() == []
    assert end.encode() == "-/-/-/WR/-/-/-/YWG -/- 2 turn"   # field 3: the player after the mover
    assert end.winners == (0, 1)                             # 0 : 0, a tie
    assert "No move is possible" in reason(end) and end.outcome().termination == "no_move"
    assert pos(end.encode()).is_over                         # the board alone says it is over


# --- B.6.4: modelled on the official example ---------------------------------------------------------------
B64 = "WRG/RY/-/YG/GWR/YW/RY/GWY -/- 1 turn"


def test_b64_clockwise_drops_into_empty_and_collects_green():
    state = pos(B64)
    sowing = state.sowing("A cw")
    assert [("BCD"[i - 1], c) for i, c in sowing.drops] == [("B", "W"), ("C", "R"), ("D", "G")]
    assert sowing.empty_drops == (2,) and sowing.captures == ((3, "G"),)
    after = state.play("A cw")
    assert after.encode() == "-/RYW/R/YG/GWR/YW/RY/GWY G/- 2 turn"
    assert state.describe("A cw") == "drops into empty C, collects G, turn ends"


def test_b64_counter_clockwise_moves_again():
    after = pos(B64).play("A ccw")
    assert after.encode() == "-/RY/-/YG/GWR/YWG/RYR/GWYW -/- 1 again"
    assert after.to_move == 0


# --- B.6.5: lapping past a stack the same sowing filled ------------------------------------------------------
def test_b65_full_stack_is_tested_at_each_drop():
    state = pos("RGYWRGYW/RGYWRGY/WRGYWRGY/W/-/-/-/- -/- 1 turn")
    sowing = state.sowing("A cw")
    assert [i for i, _ in sowing.drops] == [1, 3, 4, 5, 6, 7, 0, 3]   # B, D…H, A, then D again
    assert sowing.skipped == (2, 1, 2)                                # C, then B (now full), C
    after = state.play("A cw")
    assert after.encode() == "Y/RGYWRGYR/WRGYWRGY/WGW/Y/W/R/G -/- 2 turn"
    assert max(len(s) for s in after.board) == FULL


# --- R3.5: the emptied start hollow is an ordinary empty hollow ---------------------------------------------
def test_drop_into_the_emptied_start_hollow_ends_the_turn():
    state = pos("RGYWRGYW/Y/R/G/Y/W/R/G -/- 1 turn")
    sowing = state.sowing("A cw")
    assert sowing.empty_drops == (0,)
    assert state.describe("A cw") == "drops into empty A, turn ends"
    assert state.play("A cw").to_move == 1


def test_own_start_hollow_does_not_make_a_sowing_legal():
    state = pos("RGYWRGYW/-/-/-/-/-/-/- -/- 1 turn")
    assert state.is_over and state.legal_moves() == []


def test_a_skipped_full_stack_is_not_a_drop_onto_a_stack():
    # D's lone piece jumps the full E and lands in empty F: into empty hollows only.
    state = pos("-/-/-/W/RGYWRGYW/-/-/Y -/- 1 turn")
    assert "D cw" not in state.legal_moves()
    with pytest.raises(IllegalMove):
        state.play("D cw")


# --- R6: the first turn is one move ------------------------------------------------------------------------
def test_first_turn_is_exactly_one_move_whatever_it_does():
    state = GAME.new(players=3, seed=7)
    assert state.phase == "first"
    quiet = [m for m in state.legal_moves()
             if not state.sowing(m).captures and not state.sowing(m).empty_drops]
    assert quiet                        # sowings that would mean "move again" in a later turn
    after = state.play(quiet[0])
    assert after.to_move == (state.to_move + 1) % 3 and after.phase == "turn"
    assert state.describe(quiet[0]) == "turn ends"


# --- house rule: the third repetition ends the game ----------------------------------------------------------
REPEAT_START = "-/R/GRG/-/W/-/-/- -/- 1 turn"
REPEAT_CYCLE = ["C ccw", "A ccw", "B ccw", "H cw", "B cw", "A cw"]   # four turns, back to the start


def test_third_repetition_at_a_turn_start_ends_the_game():
    state = pos(REPEAT_START)
    for move in REPEAT_CYCLE:
        state = state.play(move)
    assert state.encode() == REPEAT_START and not state.is_over          # second occurrence
    for move in REPEAT_CYCLE[:-1]:
        state = state.play(move)
        assert not state.is_over
    assert state.describe(REPEAT_CYCLE[-1]) == "drops into empty B, game ends"
    end = state.play(REPEAT_CYCLE[-1])
    assert end.is_over and end.winners == (0, 1) and end.legal_moves() == []
    assert end.encode() == REPEAT_START                                 # third occurrence
    assert "third time" in reason(end) and end.outcome().termination == "repetition"
    assert not GAME.decode(end.encode()).is_over                        # a code carries no history


def test_positions_within_a_turn_do_not_count_as_repetitions():
    # Start inside a turn of the cycle: after two rounds this "again" position has arisen three times,
    # every turn-start position only twice.
    state = pos("-/RG/-/-/W/-/-/GR -/- 2 again")
    cycle = REPEAT_CYCLE[2:] + REPEAT_CYCLE[:2]
    for move in cycle * 2:
        state = state.play(move)
    assert state.encode() == "-/RG/-/-/W/-/-/GR -/- 2 again"
    assert not state.is_over


# --- moves, notation, descriptions ----------------------------------------------------------------------------
@pytest.mark.parametrize("typed, canonical", [
    ("C cw", "C cw"), ("c ccw", "C ccw"), ("C>", "C cw"), ("c<", "C ccw"), ("Ccw", "C cw"),
    ("cCCw", "C ccw"), ("  h   CW ", "H cw"), ("a clockwise", "A cw"), ("A counter-clockwise", "A ccw"),
])
def test_lenient_move_forms(typed, canonical):
    assert parse_move(typed) == canonical


@pytest.mark.parametrize("typed", ["", "C", "cw", "I cw", "C up", "C cw cw", "CC cw"])
def test_unreadable_moves_are_refused_with_a_hint(typed):
    with pytest.raises(IllegalMove, match="C cw"):
        parse_move(typed)


def test_lenient_forms_play_like_the_canonical_move():
    state = pos(B61)
    assert state.play("c>").encode() == state.play("C cw").encode()
    assert state.play("B<").encode() == state.play("B ccw").encode()


def test_empty_hollow_and_finished_game_are_refused():
    with pytest.raises(IllegalMove, match="Hollow E is empty"):
        pos(B61).play("E cw")
    end = pos("R/-/G/-/Y/W/W/- -/- 1 turn").play("F cw")
    with pytest.raises(IllegalMove, match="over"):
        end.play("A cw")


def test_split_turn_on_commas():
    assert GAME.split_turn("A cw, C ccw") == ["A cw", "C ccw"]
    assert GAME.split_turn(" a> ,, c< ,") == ["a>", "c<"]
    assert GAME.split_turn("  ") == []


def test_suggestions_describe_each_move_and_continue_a_turn():
    state = pos(B61)
    offered = dict(GAME.turn_suggestions(state, "c"))
    assert offered == {"C ccw": "C ccw — move again", "C cw": "C cw — collects R, turn ends"}
    assert [v for v, _ in GAME.turn_suggestions(state, "c>")] == ["C cw"]
    follow = GAME.turn_suggestions(state, "A cw, b")
    assert [v for v, _ in follow] == ["A cw, B cw"]             # B ccw would now reach empty hollows only
    assert GAME.turn_suggestions(state, "C cw, ") == []        # that turn is already over


def test_canonical_forms_and_turn_records():
    state = pos(B64)
    assert state.canonical("a<") == "A ccw" and state.canonical("Bcw") == "B cw"
    with pytest.raises(IllegalMove, match="Hollow C is empty"):
        state.canonical("C cw")
    assert state.turn_record(["A ccw"]) == "A ccw — must move again"
    assert state.turn_record(["A ccw", "D cw"]) == "A ccw, D cw — collected green (3 points)"
    assert pos(B61).turn_record(["B cw"]) == "B cw"                       # ended by an empty hollow
    two = pos("-/YW/RY/GW/R/-/-/- -/- 2 turn")
    assert two.turn_record(["B cw"]) == "B cw — collected yellow, white (3 points)"


def test_several_captures_in_one_sowing():
    # B's Y lands on C's Y and its W on D's W.
    state = pos("-/YW/RY/GW/R/-/-/- -/- 2 turn")
    after = state.play("B cw")
    assert after.captured == ("", "YW")
    assert after.scores == (0, VALUES["Y"] + VALUES["W"])
    assert state.describe("B cw") == "collects Y, W, turn ends"


def test_shared_win_among_three_players():
    end = pos("R/-/G/-/Y/W/W/- W/W/- 3 turn").play("F cw")
    assert end.is_over and end.scores == (1, 1, 1) and end.winners == (0, 1, 2)


# --- position codes --------------------------------------------------------------------------------------
def test_spec_example_code_round_trips():
    code = "GRW/WYG/RYW/RGW/GWR/GRG/YWY/YRY -/- 1 first"
    state = pos(code)
    assert state.encode() == code and state.to_move == 0 and state.players == 2


def test_captures_are_written_in_colour_order():
    assert pos("R/-/G/-/Y/-/W/- WYGR/- 1 turn").encode() == "R/-/G/-/Y/-/W/- RGYW/- 1 turn"


@pytest.mark.parametrize("code, why", [
    ("GRW/WYG/RYW/RGW/GWR/GRG/YWY -/- 1 first", "eight stacks"),
    ("GRW/WYG/RYW/RGW/GWR/GRG/YWY/YRX -/- 1 first", "Hollow H"),
    ("GRW/WYG/RYW/RGW/GWR/GRG/YWY//YRY -/- 1 first", "eight stacks"),
    ("GRW/WYG/RYW/RGW/GWR/GRG/YWY/ -/- 1 first", "Hollow H"),
    ("RGYWRGYWR/-/-/-/-/-/-/- -/- 1 turn", "at most 8"),
    ("RRRRRRR/-/-/-/-/-/-/- -/- 1 turn", "only 6 red"),
    ("R/-/-/-/-/-/-/- RRRRRR/- 1 turn", "only 6 red"),
    ("R/-/G/-/Y/-/W/- - 1 turn", "2 or 3 players"),
    ("R/-/G/-/Y/-/W/- -/-/-/- 1 turn", "2 or 3 players"),
    ("R/-/G/-/Y/-/W/- -/x 1 turn", "Player 2"),
    ("R/-/G/-/Y/-/W/- -/- 3 turn", "from 1 to 2"),
    ("R/-/G/-/Y/-/W/- -/- 0 turn", "from 1 to 2"),
    ("R/-/G/-/Y/-/W/- -/- 1 later", "phase"),
    ("R/-/G/-/Y/-/W/- -/- 1", "four fields"),
])
def test_malformed_codes_are_refused(code, why):
    with pytest.raises(InvalidPosition, match=why):
        GAME.decode(code)


# --- set-up ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(20))
def test_opening_deal(seed):
    state = GAME.new(players=2, seed=seed)
    assert all(len(s) == 3 and s[0] != s[1] != s[2] for s in state.board)
    assert Counter("".join(state.board)) == {c: PER_COLOUR for c in COLOURS}
    assert state.phase == "first" and state.captured == ("", "")
    assert state.encode() == GAME.new(players=2, seed=seed).encode()


def test_start_player_is_drawn():
    assert {GAME.new(players=3, seed=s).to_move for s in range(40)} == {0, 1, 2}


def test_player_counts():
    assert GAME.player_counts == (2, 3)
    with pytest.raises(ValueError):
        GAME.new(players=4)


# --- properties of random games ----------------------------------------------------------------------------
def assert_sound(state):
    on_board = Counter("".join(state.board))
    captured = Counter("".join(state.captured))
    assert on_board + captured == Counter({c: PER_COLOUR for c in COLOURS})   # 24 pieces, 6 of each
    assert all(len(s) <= FULL for s in state.board)
    assert all(on_board[c] >= 1 for c in COLOURS)                              # R7 derived fact
    assert state.scores == tuple(sum(VALUES[c] for c in caps) for caps in state.captured)


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([2, 3]), seed=st.integers(0, 2**30), rnd=st.randoms(use_true_random=False))
def test_random_games_conserve_pieces_and_end(players, seed, rnd):
    state = GAME.new(players=players, seed=seed)
    plies = moves_this_turn = 0
    while not state.is_over:
        assert_sound(state)
        before, code = state, state.encode()
        state = state.play(rnd.choice(state.legal_moves()))
        assert before.encode() == code                                  # play() returns a new state
        plies += 1
        assert plies < 2000
        moves_this_turn += 1
        if state.to_move == before.to_move and not state.is_over:
            assert state.phase == "again" and before.phase != "first"   # R6
            assert moves_this_turn < 7                                  # R6 derived: at most 7 moves
        else:
            moves_this_turn = 0
        # captures only ever grow, and only the mover's
        for seat in range(players):
            if seat != before.to_move:
                assert state.captured[seat] == before.captured[seat]
    assert_sound(state)
    best = max(state.scores)
    assert state.winners == tuple(i for i, s in enumerate(state.scores) if s == best)
    assert reason(state)
    if state.outcome().termination == "one_of_each":
        assert sorted("".join(state.board)) == sorted(COLOURS)
    assert sum(state.scores) <= 50


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 3]), seed=st.integers(0, 2**30), rnd=st.randoms(use_true_random=False))
def test_descriptions_match_what_the_move_does(players, seed, rnd):
    state = GAME.new(players=players, seed=seed)
    while not state.is_over:
        move = rnd.choice(state.legal_moves())
        note, after = state.describe(move), state.play(move)
        if after.is_over:
            assert note.endswith("game ends")
        elif after.to_move == state.to_move:
            assert note == "move again" and after.pending() == "move again"
        else:
            assert note.endswith("turn ends") and after.pending() == ""
        assert ("collects" in note) == (after.scores != state.scores)
        state = after
