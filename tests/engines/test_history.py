"""``Game.history_in_state``: where a position code is all there is to a state, the bot may start from it.

For the games without the flag, a decoded code plays every later move of a random game exactly as the state
that was played to it. For Rincala and Roocala, whose repetition rules count positions the code does not hold,
an example shows the difference the flag warns of.
"""

from __future__ import annotations

import random

import pytest

from engines import GAMES

CASES = [
    pytest.param(key, variant, players, id=f"{key}-{variant or 'default'}-{players}p")
    for key, game in GAMES.items() if not game.history_in_state
    for variant in game.variants or (None,)
    for players in game.player_counts
]
GAMES_PER_CASE = 3
STARTS_PER_GAME = 20    # positions of a game whose codes are played on (all of them in shorter games)
MAX_PLIES = 5000


def test_the_flag_marks_the_games_with_repetition_rules():
    assert {key: game.history_in_state for key, game in GAMES.items()} == {
        "tintas": False, "rincala": True, "roocala": True, "quincala": False, "spinca": False}


def random_game(game, variant, players, rng) -> tuple[list, list[str]]:
    """The states of one random game, start to end, and the moves between them."""
    state = game.new(players=players, seed=rng.randrange(1 << 30), variant=variant)
    states, moves = [state], []
    while not state.is_over and len(moves) < MAX_PLIES:
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        states.append(state)
        moves.append(move)
    return states, moves


def result(state) -> tuple:
    return state.encode(), state.is_over, state.winners, state.to_move


@pytest.mark.parametrize(("key", "variant", "players"), CASES)
def test_a_decoded_code_plays_on_as_the_state_it_came_from(key, variant, players):
    game = GAMES[key]
    rng = random.Random(f"{key}/{variant}/{players}")
    for _ in range(GAMES_PER_CASE):
        states, moves = random_game(game, variant, players, rng)
        starts = range(len(states))
        if len(starts) > STARTS_PER_GAME:
            starts = sorted(rng.sample(starts, STARTS_PER_GAME))
        for start in starts:
            state = game.decode(states[start].encode())
            assert result(state) == result(states[start]), f"{key} ply {start}: the decoded code differs"
            for ply in range(start, len(moves)):
                state = state.play(moves[ply])
                assert result(state) == result(states[ply + 1]), (
                    f"{key} {variant} {players}p: from the code of ply {start}, ply {ply + 1} differs")


def test_rincala_a_decoded_code_forgets_earlier_occurrences():
    from tests.engines.test_rincala import REPEAT_CYCLE, REPEAT_START

    game = GAMES["rincala"]
    played = game.decode(REPEAT_START)
    for move in REPEAT_CYCLE:
        played = played.play(move)             # the start position's second occurrence
    decoded = game.decode(played.encode())
    for move in REPEAT_CYCLE:
        played, decoded = played.play(move), decoded.play(move)
    assert played.encode() == decoded.encode()
    assert played.is_over and not decoded.is_over   # the third occurrence only for the state that saw two


def test_roocala_a_decoded_code_forgets_earlier_occurrences():
    from tests.engines.test_roocala import code

    game = GAMES["roocala"]
    cycle = ["c3 e", "c4 e", "d3 w", "d4 w"]
    played = game.decode(code("square", {"c3": 1, "c4": 1}, {}, s=19, n=20))
    for move in cycle:
        played = played.play(move)
    decoded = game.decode(played.encode())
    for move in cycle:
        played, decoded = played.play(move), decoded.play(move)
    assert played.encode() == decoded.encode()
    assert played.is_over and not decoded.is_over
