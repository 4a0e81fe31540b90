"""The whole game as an animation: one frame per turn, a pause on the end, the same bytes for the same game."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engines import GAMES
from render.replay import FIRST_MS, FRAME_WIDTH, LAST_MS, replay_gif

MAX_BYTES = 8 * 1024 * 1024


def turns_of(game_key: str, turns: int, seed: int = 3):
    """(after, before, moves) per turn of a seeded random game, the start first."""
    game = GAMES[game_key]
    rng = random.Random(seed)
    state = game.new(players=min(game.player_counts), seed=seed)
    frames = [(state, None, [])]
    while not state.is_over and len(frames) <= turns:
        before, seat, moves = state, state.to_move, []
        while not state.is_over and state.to_move == seat:
            move = rng.choice(state.legal_moves())
            moves.append(move)
            state = state.play(move)
        frames.append((state, before, moves))
    return frames


@pytest.mark.parametrize("game_key", list(GAMES))
def test_a_replay_has_a_frame_per_turn_and_pauses_on_the_end(game_key):
    frames = turns_of(game_key, 12)
    gif = replay_gif(game_key, frames, ["Ann", "Bob", "Cy", "Dee"][: frames[0][0].players])
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and image.n_frames == len(frames) and image.info.get("loop") == 0
    assert image.width <= FRAME_WIDTH
    durations = []
    for i in range(image.n_frames):
        image.seek(i)
        durations.append(image.info["duration"])
    assert durations[0] == FIRST_MS and durations[-1] == LAST_MS and max(durations) == LAST_MS


def test_a_sixty_turn_game_stays_under_eight_megabytes_and_is_reproducible():
    frames = turns_of("roocala", 60)
    assert len(frames) == 61
    gif = replay_gif("roocala", frames, ["Ann", "Bob"])
    assert len(gif) <= MAX_BYTES
    assert replay_gif("roocala", frames, ["Ann", "Bob"]) == gif


def test_a_very_long_game_keeps_its_first_and_last_turns(monkeypatch):
    import render.replay
    monkeypatch.setattr(render.replay, "MAX_FRAMES", 10)
    frames = turns_of("roocala", 16)
    kept = replay_gif("roocala", frames[:5] + frames[-5:])
    assert replay_gif("roocala", frames) == kept          # the middle turns are left out
    assert Image.open(io.BytesIO(kept)).n_frames == 10 < len(frames)


def test_a_replay_needs_the_start():
    with pytest.raises(ValueError):
        replay_gif("tintas", [])


def test_a_frame_taller_than_the_first_is_kept_whole():
    """Boards grow at the end (a card with the end sentence): every frame keeps all its lines."""
    frames = turns_of("tintas", 200, seed=5)
    assert frames[-1][0].is_over
    image = Image.open(io.BytesIO(replay_gif("tintas", frames, ["Ann", "Bob"])))
    from render.tintas import draw
    last = draw(frames[-1][0], list(frames[-1][2]), ["Ann", "Bob"], frames[-1][1])
    first = draw(frames[0][0], [], ["Ann", "Bob"], None)
    scale = min(1.0, FRAME_WIDTH / last.width)
    assert last.height > first.height                      # the end board is taller ...
    assert image.height == round(last.height * scale)      # ... and the animation is as tall as it
