"""The AI's search: legal whole turns at every level, determinism, the time budget, cancellation, the pool."""

from __future__ import annotations

import pickle
import random
import threading
import time

import pytest

import ai.search as search_module
from ai import LEVELS, GameOverError, SearchCancelled, choose_turn, iterations_for
from ai.policies import policy_for
from ai.pool import AIPool
from ai.search import Node, Search, best_child, winning_move
from engines import GAMES

CONFIGS = [(key, players, variant)
           for key, game in GAMES.items()
           for players in game.player_counts
           for variant in (game.variants or (None,))]
CONFIG_IDS = [f"{key}-{players}-{variant}" for key, players, variant in CONFIGS]


def random_position(key: str, players: int, variant: str | None, seed: int):
    """A position reached by random play from a seeded start (never a finished one)."""
    rng = random.Random(seed)
    state = GAMES[key].new(players=players, seed=seed, variant=variant)
    for _ in range(rng.randrange(0, 120)):
        nxt = state.play(rng.choice(state.legal_moves()))
        if nxt.is_over:
            break
        state = nxt
    return state


def assert_whole_turn(state, turn: list[str]) -> None:
    """Every move is canonical and legal in turn; afterwards the turn is over (or the game)."""
    assert turn, "a turn has at least one move"
    seat = state.to_move
    for move in turn:
        assert not state.is_over and state.to_move == seat, f"{turn} runs past the end of the turn"
        assert move in state.legal_moves(), f"{move!r} is not a canonical legal move in {state.encode()}"
        state = state.play(move)
    assert state.is_over or state.to_move != seat or state.pending(), f"{turn} leaves the turn unfinished"


@pytest.mark.parametrize(("key", "players", "variant"), CONFIGS, ids=CONFIG_IDS)
def test_every_level_plays_whole_legal_turns(key, players, variant):
    for seed in range(3):
        state = random_position(key, players, variant, seed)
        for level in LEVELS:
            turn = choose_turn(state, level=level, seed=seed, time_budget=0.05)
            assert_whole_turn(state, turn)


@pytest.mark.parametrize(("key", "players", "variant"), CONFIGS, ids=CONFIG_IDS)
def test_level_one_full_effort_over_many_positions(key, players, variant):
    for seed in range(10, 16):
        state = random_position(key, players, variant, seed)
        assert_whole_turn(state, choose_turn(state, level=1, seed=seed, time_budget=10.0))


@pytest.mark.parametrize("key", list(GAMES))
def test_same_seed_same_turn(key):
    game = GAMES[key]
    state = random_position(key, max(game.player_counts), None if not game.variants else game.variants[0], 7)
    first = choose_turn(state, level=2, seed=123, time_budget=30.0, iterations=60)
    assert choose_turn(state, level=2, seed=123, time_budget=30.0, iterations=60) == first
    assert_whole_turn(state, first)


def test_levels_map_to_growing_effort():
    for key in GAMES:
        efforts = [iterations_for(key, level) for level in LEVELS]
        assert efforts == sorted(efforts) and efforts[0] < efforts[-1]
    with pytest.raises(ValueError):
        iterations_for("tintas", 6)


def test_game_over_is_an_error():
    state = GAMES["spinca"].new(players=2)
    while not state.is_over:
        state = state.play(state.legal_moves()[0])
    with pytest.raises(GameOverError):
        choose_turn(state, level=1, seed=0)


@pytest.mark.parametrize("key", list(GAMES))
def test_time_budget_is_respected(key):
    state = random_position(key, 2, None if not GAMES[key].variants else GAMES[key].variants[0], 3)
    start = time.perf_counter()
    turn = choose_turn(state, level=5, seed=1, time_budget=0.2, iterations=10**7)
    assert time.perf_counter() - start < 0.2 + 0.3
    assert_whole_turn(state, turn)


def test_cancel_stops_a_search_promptly():
    state = random_position("spinca", 2, None, 4)
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()
    start = time.perf_counter()
    with pytest.raises(SearchCancelled):
        choose_turn(state, level=5, seed=1, time_budget=30.0, iterations=10**7, cancel=cancel)
    assert time.perf_counter() - start < 0.2 + 0.3


def test_tintas_takes_the_seventh_piece():
    tintas = GAMES["tintas"]
    board = ["."] * 49
    # The pawn on E4; in line: the last red (a win), an orange, a yellow; elsewhere a loose chain bait.
    for label, colour in {"E6": "R", "C4": "O", "G4": "Y", "E2": "G", "A1": "O", "I2": "B"}.items():
        board[tintas_index(label)] = colour
    code = f"{''.join(board)} E4 6033000 0000000 1 -"
    state = tintas.decode(code)
    winning = [m for m in state.legal_moves() if state.play(m).winners == (0,)]
    assert winning == ["E6"], state.legal_moves()
    for level in (3, 4, 5):
        turn = choose_turn(state, level=level, seed=level, time_budget=5.0)
        assert turn == ["E6"]


def tintas_index(label: str) -> int:
    from engines.tintas import INDEX
    return INDEX[label]


@pytest.mark.parametrize(("key", "players", "variant"), CONFIGS, ids=CONFIG_IDS)
def test_states_pickle_with_their_history(key, players, variant):
    """The pool sends states to its workers by pickling them: the copy must continue exactly like the original."""
    state = random_position(key, players, variant, 11)
    copy = pickle.loads(pickle.dumps(state))
    rng_a, rng_b = random.Random(5), random.Random(5)
    a, b = state, copy
    while not a.is_over:
        assert a.encode() == b.encode() and a.legal_moves() == b.legal_moves() and a.to_move == b.to_move
        a = a.play(rng_a.choice(a.legal_moves()))
        b = b.play(rng_b.choice(b.legal_moves()))
    assert b.is_over and a.winners == b.winners and a.encode() == b.encode()


@pytest.fixture(scope="module")
def pool():
    p = AIPool(max_workers=2)
    yield p
    p.close()


async def test_pool_returns_the_in_process_turn(pool):
    for key in ("tintas", "spinca", "rincala"):
        state = random_position(key, 2, None, 21)
        expected = choose_turn(state, level=2, seed=9, time_budget=30.0, iterations=80)
        got = await pool.search_turn(state, level=2, seed=9, time_budget=30.0, iterations=80)
        assert got.moves == expected and not got.out_of_time


async def test_pool_cancel_by_match(pool):
    import asyncio

    state = GAMES["spinca"].new(players=2, seed=22)   # the opening: no move is decided for a long time
    task = asyncio.create_task(pool.search_turn(state, level=5, seed=1, time_budget=30.0, iterations=10**7,
                                                match_id="m1"))
    await asyncio.sleep(0.3)
    start = time.perf_counter()
    assert pool.cancel("m1") == 1
    with pytest.raises(SearchCancelled):
        await task
    assert time.perf_counter() - start < 1.0


async def test_the_safety_net_ends_a_search_in_the_pool_and_says_so(pool):
    state = random_position("quincala", 2, "5", 23)
    choice = await pool.search_turn(state, level=5, seed=1, time_budget=0.3, iterations=10**7)
    assert choice.out_of_time and 0 < choice.iterations < 10**7
    assert_whole_turn(state, choice.moves)


def test_rincala_evaluation_counts_the_threat_of_the_seat_to_move():
    from ai.policies.rincala import rincala_evaluate

    rincala = GAMES["rincala"]
    # Equal (empty) captures; player 1 to move can collect a red with 'A cw'.
    threat = rincala_evaluate(rincala.decode("R/WR/YW/GY/-/-/-/- -/- 1 turn"))
    assert threat[0] > 0.5 > threat[1]
    assert abs(sum(threat) - 1.0) < 1e-9
    # Player 2 to move in the same position: the threat is theirs.
    mirrored = rincala_evaluate(rincala.decode("R/WR/YW/GY/-/-/-/- -/- 2 turn"))
    assert mirrored[1] > 0.5 > mirrored[0]
    # Captured points still dominate: a red ahead outweighs half of the opponent's best next capture.
    ahead = rincala_evaluate(rincala.decode("R/WR/YW/GY/-/-/-/- R/- 2 turn"))
    assert ahead[0] > 0.5


def test_a_winning_move_is_played_without_searching():
    tintas = GAMES["tintas"]
    board = ["."] * 49
    for label, colour in {"E6": "R", "C4": "O", "G4": "Y"}.items():
        board[tintas_index(label)] = colour
    state = tintas.decode(f"{''.join(board)} E4 6033000 0000000 1 -")
    search = Search(policy_for("tintas"), random.Random(1), time.perf_counter() + 30.0, None)
    root = Node(state, None)
    search.run(root, 10**7)
    assert search.iterations_done == 0
    assert best_child(root)[0] == "E6"


def test_stopping_once_decided_never_changes_the_move(monkeypatch):
    """The early stop only skips iterations that could not overtake the most visited move."""
    stopped_early = 0
    for key in ("tintas", "rincala"):
        variant = GAMES[key].variants[0] if GAMES[key].variants else None
        for seed in range(16):
            state = random_position(key, 2, variant, 60 + seed)
            probe = Node(state, None)
            Search(policy_for(key), random.Random(0), time.perf_counter() + 60.0, None).expand(probe)
            if len(probe.children) < 2 or winning_move(probe) is not None:
                continue
            results = []
            for check in (search_module.decided, lambda root, remaining: False):
                monkeypatch.setattr(search_module, "decided", check)
                search = Search(policy_for(key), random.Random(seed), time.perf_counter() + 60.0, None)
                root = Node(state, None)
                search.run(root, 600)
                results.append((best_child(root)[0], search.iterations_done))
            (early, done_early), (full, done_full) = results
            assert early == full, (key, seed)
            assert done_full == 600
            stopped_early += done_early < done_full
    assert stopped_early > 0
