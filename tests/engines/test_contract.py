"""Every registered game keeps the engine contract (engines.base; the contract's public names only).

For every game, variant and player count this plays a few seeded random games and checks, at every position:
legal_moves() is a sorted list of unique strings; listed moves play (a sample of them) and play() leaves the
old state unchanged; encode() -> decode() -> encode() is stable and a decoded position that is not over has
the same legal moves; to_move is None exactly when the game is over; a finished game has winners among the
seats and no legal moves; strings that are not legal moves raise IllegalMove; new() with the same seed gives
the same position; a game ends within MAX_PLIES plies. Every failure names game, variant, players, ply and code.
The extended contract (docs/engine-steps.md): the step hooks cut every legal move into steps that join to it,
no move's steps begin another's, and every path of the step query reaches exactly the legal moves through
steps of at most MAX_OPTIONS unique options.

The project's CI also runs an independent checker from outside the repository; these tests need nothing
beyond the repository.
"""

from __future__ import annotations

import random
import zlib
from numbers import Real

import pytest

from engines import GAMES, IllegalMove, InvalidPosition
from engines.steps import MAX_OPTIONS, step_options

GAMES_PER_CASE = 5      # seeded random games per (game, variant, player count)
SAMPLE_MOVES = 8        # listed moves played (and checked) per position, besides the one that continues
MAX_PLIES = 5000
JUNK_MOVES = ("zz9", "", "  ", "!!", "end-of-the-world")

CASES = [
    pytest.param(key, variant, players, id=f"{key}-{variant or 'default'}-{players}p")
    for key, game in GAMES.items()
    for variant in game.variants or (None,)
    for players in game.player_counts
]


def case_rng(*parts) -> random.Random:
    """A random source fixed by the case, so a failure replays exactly."""
    return random.Random(zlib.crc32("/".join(map(str, parts)).encode()))


# --- metadata ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(GAMES))
def test_metadata(key):
    game = GAMES[key]
    assert game.key == key, f"{key}: GAMES key {key!r} differs from game.key {game.key!r}"
    assert key.isascii() and key.isalpha() and key.islower(), f"{key}: key must be lower-case letters only"
    assert isinstance(game.title, str) and game.title.strip(), f"{key}: empty title"
    counts = tuple(game.player_counts)
    assert counts, f"{key}: player_counts is empty"
    assert all(isinstance(n, int) and n >= 1 for n in counts), f"{key}: bad player_counts {counts}"
    assert len(set(counts)) == len(counts), f"{key}: duplicate player_counts {counts}"
    variants = tuple(game.variants or ())
    assert all(isinstance(v, str) and v for v in variants), f"{key}: bad variants {variants}"
    assert len(set(variants)) == len(variants), f"{key}: duplicate variants {variants}"


def test_error_types_are_value_errors():
    assert issubclass(IllegalMove, ValueError)
    assert issubclass(InvalidPosition, ValueError)


@pytest.mark.parametrize("key", list(GAMES))
@pytest.mark.parametrize("code", ["zz9", "", "not a position code at all"])
def test_decode_rejects_garbage(key, code):
    with pytest.raises(InvalidPosition):
        GAMES[key].decode(code)


# --- set-up -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "variant", "players"), CASES)
def test_new_is_deterministic(key, variant, players):
    game = GAMES[key]
    for seed in (0, 1, 42, 2**29 + 7):
        where = f"{key} variant={variant} players={players} seed={seed}"
        a = game.new(players=players, seed=seed, variant=variant)
        b = game.new(players=players, seed=seed, variant=variant)
        assert a.encode() == b.encode(), f"{where}: new() with the same seed gives different positions"
        assert a.legal_moves() == b.legal_moves(), f"{where}: new() with the same seed gives other moves"
        assert a.to_move == b.to_move, f"{where}: new() with the same seed gives another player to move"
        if game.variants and variant == game.variants[0]:
            default = game.new(players=players, seed=seed, variant=None)
            assert default.encode() == a.encode(), f"{where}: variant=None is not the first (default) variant"


# --- random play ------------------------------------------------------------------------------------------


def check_position(game, st, players, where):
    """The checks that hold at one position; returns (code, legal moves)."""
    moves = st.legal_moves()
    assert isinstance(moves, list), f"{where}: legal_moves() returned {type(moves).__name__}, not a list"
    assert all(isinstance(m, str) for m in moves), f"{where}: legal_moves() holds non-strings"
    assert moves == sorted(set(moves)), f"{where}: legal_moves() is not sorted and unique: {moves}"

    code = st.encode()
    assert isinstance(code, str) and code and "\n" not in code, f"{where}: encode() is not a one-line string"
    back = game.decode(code)
    assert back.encode() == code, f"{where}: decode(encode()) gives {back.encode()!r}"

    assert isinstance(st.is_over, bool), f"{where}: is_over is {st.is_over!r}, not a bool"
    assert (st.to_move is None) == st.is_over, f"{where}: to_move={st.to_move!r} but is_over={st.is_over}"
    winners = tuple(st.winners)
    scores = tuple(st.scores)
    assert len(scores) == players, f"{where}: scores {scores} do not have one entry per seat"
    assert all(isinstance(s, Real) for s in scores), f"{where}: scores {scores} are not numbers"

    if st.is_over:
        assert moves == [], f"{where}: the game is over but legal moves remain: {moves[:10]}"
        assert winners, f"{where}: the game is over with no winners"
        assert len(set(winners)) == len(winners), f"{where}: repeated seats in winners {winners}"
        assert all(isinstance(w, int) and 0 <= w < players for w in winners), f"{where}: bad winners {winners}"
        # A position code carries no history: a game over by repetition (Rincala, Roocala) decodes as a
        # position that is not over, so only a decoded position that is over must agree on the result.
        if back.is_over:
            assert tuple(back.winners) == winners, f"{where}: decoded winners {back.winners} != {winners}"
    else:
        assert isinstance(st.to_move, int) and 0 <= st.to_move < players, f"{where}: bad to_move {st.to_move!r}"
        assert not winners, f"{where}: winners {winners} before the game is over"
        assert moves, f"{where}: the game is not over but there are no legal moves"
        assert not back.is_over, f"{where}: the decoded position is over but the original is not"
        assert back.to_move == st.to_move, f"{where}: decoded to_move {back.to_move} != {st.to_move}"
        assert back.legal_moves() == moves, f"{where}: the decoded position has other legal moves"
        assert tuple(back.scores) == scores, f"{where}: decoded scores {tuple(back.scores)} != {scores}"
    return code, moves


def expect_illegal(st, move, where):
    """play(move) must raise IllegalMove (another error, or none, fails with the position named)."""
    try:
        st.play(move)
    except IllegalMove:
        return
    except Exception as e:  # a crash is a failure too
        pytest.fail(f"{where}: play({move!r}) raised {type(e).__name__}: {e}, not IllegalMove")
    pytest.fail(f"{where}: play({move!r}) of a move not in legal_moves() did not raise IllegalMove")


def check_rejects(st, moves, code, where):
    """Strings that are not legal moves raise IllegalMove and leave the state alone."""
    junk = [j for j in JUNK_MOVES if j not in moves]
    if "end" not in moves:
        junk.append("end")
    for bad in junk:
        expect_illegal(st, bad, where)
        assert st.encode() == code, f"{where}: a rejected play({bad!r}) changed the state"


def play_one_game(game, variant, players, seed, rng):
    st = game.new(players=players, seed=seed, variant=variant)
    assert st.encode() == game.new(players=players, seed=seed, variant=variant).encode(), (
        f"{game.key} variant={variant} players={players} seed={seed}: new() is not deterministic")
    last_move = None
    for ply in range(MAX_PLIES + 1):
        where = f"{game.key} variant={variant} players={players} seed={seed} ply {ply} code {st.encode()!r}"
        doing = "checking the position"
        try:
            code, moves = check_position(game, st, players, where)
            check_rejects(st, moves, code, where)
            if st.is_over:
                if last_move is not None:
                    expect_illegal(st, last_move, where)  # nothing plays once the game is over
                return ply
            for mv in rng.sample(moves, min(SAMPLE_MOVES, len(moves))):
                doing = f"play({mv!r})"
                nxt = st.play(mv)
                assert isinstance(nxt.encode(), str), f"{where}: play({mv!r}) did not return a state"
                assert nxt is not st, f"{where}: play({mv!r}) returned the same object"
                assert st.encode() == code, f"{where}: play({mv!r}) changed the old state"
            last_move = rng.choice(moves)
            doing = f"play({last_move!r})"
            nxt = st.play(last_move)
            assert st.encode() == code, f"{where}: play({last_move!r}) changed the old state"
            assert st.legal_moves() == moves, f"{where}: play({last_move!r}) changed the old state's legal moves"
        except (AssertionError, pytest.fail.Exception):
            raise
        except Exception as e:  # a crash is a failure too; say where it happened
            pytest.fail(f"{where}: {doing} raised {type(e).__name__}: {e}")
        st = nxt
    pytest.fail(f"{game.key} variant={variant} players={players} seed={seed}: not over after {MAX_PLIES} plies "
                f"(code {st.encode()!r})")


@pytest.mark.parametrize(("key", "variant", "players"), CASES)
def test_random_games_keep_the_contract(key, variant, players):
    game = GAMES[key]
    rng = case_rng(key, variant, players)
    for _ in range(GAMES_PER_CASE):
        play_one_game(game, variant, players, rng.randrange(1 << 30), rng)


# --- steps (docs/engine-steps.md) --------------------------------------------------------------------------

STEP_GAMES = 2          # seeded random games per case whose every position is entered through the steps
STEP_PLIES = 120        # plies of each at most


def step_leaves(state, turn, chosen, where):
    """The complete options at the ends of every path of steps from ``chosen``, each step checked."""
    options = step_options(state, turn, chosen)
    texts = [o.text for o in options]
    assert options, f"{where}: no option after {chosen!r}"
    assert len(options) <= MAX_OPTIONS, f"{where}: {len(options)} options after {chosen!r}"
    assert len(set(texts)) == len(texts), f"{where}: options repeat after {chosen!r}"
    out = []
    for option in options:
        assert option.text.startswith(chosen) and option.text != chosen, f"{where}: {option} does not extend"
        out += [option.text] if option.complete else step_leaves(state, turn, option.text, where)
    return out


@pytest.mark.parametrize(("key", "variant", "players"), CASES)
def test_steps_hooks_and_query(key, variant, players):
    game = GAMES[key]
    rng = case_rng("steps", key, variant, players)
    for g in range(STEP_GAMES):
        state = game.new(players=players, seed=rng.randrange(2**31), variant=variant)
        start, turn = state, ()
        for ply in range(STEP_PLIES):
            if state.is_over:
                assert step_options(start, turn) == []
                break
            where = f"{key} variant={variant} players={players} game={g} ply={ply} code={state.encode()}"
            moves = state.legal_moves()
            cut = {m: game.move_steps(m) for m in moves}
            for move, steps in cut.items():
                assert isinstance(steps, tuple) and all(isinstance(s, str) and s for s in steps), where
                assert "".join(steps) == move, f"{where}: steps {steps} do not join to {move!r}"
                for i in range(len(steps)):
                    assert all(isinstance(c, str) and c in move for c in game.step_cells(move, i)), where
            prefixes = {steps[:n] for steps in cut.values() for n in range(1, len(steps))}
            assert not prefixes & set(cut.values()), f"{where}: a move's steps begin another move"
            assert sorted(step_leaves(start, turn, "", where)) == moves, f"{where}: steps reach other moves"
            move = rng.choice(moves)
            after = state.play(move)
            start, turn = (start, (*turn, move)) if after.to_move == state.to_move and not after.is_over \
                else (after, ())
            state = after
