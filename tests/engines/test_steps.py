"""A turn as steps (engines.steps): for seeded random positions of every game, variant and player count, every
legal move is reached through the steps, every path of steps ends in exactly one legal move, no step shows
more than MAX_OPTIONS options, and options are unique — also for the later moves of a multi-move turn."""

from __future__ import annotations

import random
import zlib

import pytest

from engines import GAMES, IllegalMove, State
from engines.steps import MAX_OPTIONS, StepOption, step_options, step_path, typed_options

POSITIONS_PER_GAME = 50     # random positions per game, shared among its variants and player counts
PLIES_PER_GAME = 150        # random games are played this far at most, positions sampled along them

CASES = [
    pytest.param(key, variant, players, id=f"{key}-{variant or 'default'}-{players}p")
    for key, game in GAMES.items()
    for variant in game.variants or (None,)
    for players in game.player_counts
]


def positions(key: str, variant: str | None, players: int) -> list[tuple[State, tuple[str, ...]]]:
    """Seeded random positions, each with the moves already chosen in its turn (often none, sometimes some)."""
    rng = random.Random(zlib.crc32(f"steps/{key}/{variant}/{players}".encode()))
    game = GAMES[key]
    out: list[tuple[State, tuple[str, ...]]] = []
    seed = 0
    cases = len(game.variants or (None,)) * len(game.player_counts)
    while len(out) < -(-POSITIONS_PER_GAME // cases):
        seed += 1
        state = game.new(players=players, seed=seed, variant=variant)
        start, turn = state, ()
        for _ in range(rng.randrange(PLIES_PER_GAME) if seed > 1 else 0):    # the first: the opening
            if state.is_over:
                break
            move = rng.choice(state.legal_moves())
            after = state.play(move)
            if after.to_move == state.to_move and not after.is_over:
                turn += (move,)
            else:
                start, turn = after, ()
            state = after
        if not state.is_over:
            out.append((start, turn))
    return out


def leaves(state: State, turn: tuple[str, ...], chosen: str = "") -> list[StepOption]:
    """Every path of steps from ``chosen``: the complete options at its ends, checking each step on the way."""
    options = step_options(state, turn, chosen)
    assert options, f"a step after {chosen!r} offers nothing"
    assert len(options) <= MAX_OPTIONS, f"{len(options)} options after {chosen!r}"
    texts = [o.text for o in options]
    assert len(set(texts)) == len(texts), f"options repeat after {chosen!r}: {texts}"
    labels = [o.label for o in options]
    assert len(set(labels)) == len(labels), f"labels repeat after {chosen!r}: {labels}"
    out = []
    for option in options:
        assert option.text.startswith(chosen) and len(option.text) > len(chosen)
        if option.complete:
            assert not option.group and option.count == 1
            out.append(option)
        else:
            below = leaves(state, turn, option.text)
            assert len(below) == option.count, f"{option.text!r} promises {option.count}, leads to {len(below)}"
            out.extend(below)
    return out


@pytest.mark.parametrize(("key", "variant", "players"), CASES)
def test_every_legal_move_is_reached_by_exactly_one_path_of_small_steps(key, variant, players):
    for start, turn in positions(key, variant, players):
        current = start
        for move in turn:
            current = current.play(move)
        ends = leaves(start, turn)
        reached = [o.text for o in ends]
        assert sorted(reached) == current.legal_moves(), f"{key} {current.encode()}: steps reach other moves"
        for option in ends:
            after = current.play(option.text)
            assert option.ends_turn == (after.is_over or after.to_move != current.to_move)


@pytest.mark.parametrize("key", list(GAMES))
def test_steps_join_to_the_move_and_no_move_is_a_step_prefix_of_another(key):
    game = GAMES[key]
    for start, turn in positions(key, None if not game.variants else game.variants[0], game.player_counts[0]):
        current = start
        for move in turn:
            current = current.play(move)
        cut = {m: game.move_steps(m) for m in current.legal_moves()}
        for move, steps in cut.items():
            assert "".join(steps) == move and all(steps), f"{key}: {move!r} cut into {steps}"
            for i in range(len(steps)):
                cells = game.step_cells(move, i)
                assert all(isinstance(c, str) and c in move for c in cells)
        prefixes = {steps[:n] for steps in cut.values() for n in range(1, len(steps))}
        assert not prefixes & set(cut.values()), f"{key}: a move's steps begin another move"


def test_step_path_picks_the_options_that_build_the_move():
    state = GAMES["roocala"].new(seed=1)
    path = step_path(state, "e2>f3")
    assert [o.text for o in path] == ["e2", "e2>f3"]
    assert [o.label for o in path] == ["e2", "f3"]
    assert path[-1].complete and path[-1].ends_turn and path[-1].cells == ("f3",)


def test_a_crowded_step_is_narrowed_first_and_nothing_is_cut():
    state = GAMES["tintas"].new(seed=1)          # the opening: the pawn goes on any of 49 cells
    options = step_options(state)
    assert len(state.legal_moves()) > MAX_OPTIONS
    assert all(o.group for o in options) and sum(o.count for o in options) == len(state.legal_moves())
    column = next(o for o in options if o.label == "C")
    inside = step_options(state, (), column.text)
    assert [o.text for o in inside] == [m for m in state.legal_moves() if m.startswith("C")]
    assert set(column.cells) == {o.text for o in inside}


def test_the_turn_so_far_is_played_and_an_over_turn_offers_nothing():
    game = GAMES["rincala"]
    state = game.new(seed=3)
    move = state.legal_moves()[0]
    after = state.play(move)
    options = step_options(state, (move,))
    if after.to_move == state.to_move:
        assert {o.text for o in leaves(state, (move,))} == set(after.legal_moves())
    else:
        assert options == []
    with pytest.raises(IllegalMove):
        step_options(state, ("zz9",))
    with pytest.raises(IllegalMove):
        step_options(state, (), "Q")


def test_typed_options_follow_the_whole_moves_typed_and_stay_out_of_short_lists():
    state = GAMES["tintas"].new(seed=1)
    found = typed_options(state, "  ")
    assert found is not None and found.head == "" and sum(o.count for o in found.options) == 49
    assert typed_options(state, "c") is None             # seven moves: the plain list shows them all
    game = GAMES["quincala"]
    rng = random.Random(5)
    while True:                                          # a placement after which the same player places again
        placements = [m for m in state.legal_moves() if "@" in m] if state.game is game else []
        if placements and len(state.play(placements[0]).legal_moves()) > MAX_OPTIONS \
                and state.play(placements[0]).to_move == state.to_move:
            break
        state = game.new(seed=5) if state.game is not game else state.play(rng.choice(state.legal_moves()))
    found = typed_options(state, placements[0].upper() + " ")
    assert found is not None and found.head == placements[0].upper() + " "
    assert found.state.encode() == state.play(placements[0]).encode()
    assert sum(o.count for o in found.options) == len(found.state.legal_moves())
    assert typed_options(state, "zz9 ") is None          # not a move: no steps


def test_moves_after_the_end_of_the_turn_are_not_part_of_it():
    state = GAMES["roocala"].new(seed=1)
    move = "e2>f3"
    after = state.play(move)
    assert after.to_move != state.to_move and len(after.legal_moves()) > MAX_OPTIONS
    assert typed_options(state, move + " ") is None      # not the opponent's moves as a continuation
    with pytest.raises(IllegalMove):
        step_options(state, (move, after.legal_moves()[0]))
