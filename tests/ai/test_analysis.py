"""The analysis search (ai.search.best_turns): distinct legal whole turns, best first, a win shown as one."""

from __future__ import annotations

import random

import pytest

from ai.pool import AIPool
from ai.search import GameOverError, best_turns
from bot.services.play import play_turn
from engines import GAMES

SETUPS = [(key, min(game.player_counts)) for key, game in GAMES.items()]


@pytest.mark.parametrize(("key", "players"), SETUPS)
def test_best_turns_are_distinct_legal_whole_turns(key, players):
    state = GAMES[key].new(players=players, seed=2)
    turns = best_turns(state, top=3, seed=1, iterations=60, time_budget=30.0)
    assert 1 <= len(turns) <= 3
    seen = set()
    for t in turns:
        moves, states = play_turn(state, state.to_move, list(t.moves))   # raises if not legal
        assert tuple(moves) == t.moves
        after = states[-1]
        assert after.is_over or after.to_move != state.to_move
        assert 0.0 <= t.value <= 1.0
        seen.add(after.encode())
    assert len(seen) == len(turns)


@pytest.mark.parametrize(("code", "turns"), [
    # Tintas, pawn on F6 mid-chain: two first moves (end, or take on), five whole turns
    ("WRBYPORGWOBBYWRPOGPYOG....PW......YOWOPGBYGBBYRGG F6 0100121 3010001 1 P", 3),
    # two whole turns in all (end the chain, or take D6): both, and no more
    ("WRBYPORGWOBB.WRPOG.YOG.....W......YOWOPGBYGBBYRGG C6 0100141 3020001 2 Y", 2),
])
def test_as_many_turns_are_listed_as_exist_up_to_top(code, turns):
    """Fewer first moves than ``top`` do not cut the list short: later choices of the best turns fill it."""
    state = GAMES["tintas"].decode(code)
    assert len(state.legal_moves()) == 2
    found = best_turns(state, top=3, seed=1, iterations=60, time_budget=30.0)
    assert len(found) == turns
    ends = {play_turn(state, state.to_move, list(t.moves))[1][-1].encode() for t in found}
    assert len(ends) == turns                                  # distinct legal whole turns


def test_a_winning_turn_comes_first_and_says_so():
    rng = random.Random(5)
    game = GAMES["tintas"]
    for seed in range(40):        # a position one move from the end, from a random game
        state = game.new(seed=seed)
        while not state.is_over:
            wins = [m for m in state.legal_moves() if state.play(m).is_over
                    and state.to_move in state.play(m).winners]
            if wins and not state.pending():
                turns = best_turns(state, top=3, seed=1, iterations=40, time_budget=30.0)
                assert turns[0].final and turns[0].value == 1.0
                return
            state = state.play(rng.choice(state.legal_moves()))
    pytest.skip("no position with a winning move came up")


def test_a_finished_game_has_no_turns():
    rng = random.Random(1)
    state = GAMES["tintas"].new(seed=1)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    with pytest.raises(GameOverError):
        best_turns(state)


async def test_the_pool_returns_the_in_process_analysis():
    pool = AIPool(max_workers=1)
    try:
        state = GAMES["rincala"].new(seed=3)
        got = await pool.analyse(state, top=3, seed=4, time_budget=30.0, iterations=50)
        assert got.turns == best_turns(state, top=3, seed=4, time_budget=30.0, iterations=50)
        assert not got.out_of_time
    finally:
        pool.close()
