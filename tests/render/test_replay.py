"""The whole game as an animation: one frame per turn (every k-th of a long game, said on the frame), a turn
counter on every frame, a pause on the end, a byte budget any length fits, the same bytes for the same game."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engines import GAMES
from render import texts
from render.replay import (
    DEFAULT_BUDGET,
    FIRST_MS,
    FRAME_WIDTH,
    LAST_MS,
    MAX_FRAMES,
    MIN_FRAME_MS,
    SAMPLED,
    START,
    STRIP,
    TURN_OF,
    compose,
    replay_gif,
    sampled,
)

SIXTY_TURNS_BYTES = 2 * 1024 * 1024      # issue [16]: a 60-turn replay is at most 2 MB


def turns_of(game_key: str, turns: int, seed: int = 3, variant: str | None = None, *, to_the_end: bool = False):
    """(after, before, moves) per turn of a seeded random game, the start first. ``to_the_end``: turns that
    end the game are avoided while others exist, so a long game can be had."""
    game = GAMES[game_key]
    rng = random.Random(seed)
    state = game.new(players=min(game.player_counts), seed=seed, variant=variant)
    frames = [(state, None, [])]
    while not state.is_over and len(frames) <= turns:
        before, seat, moves = state, state.to_move, []
        while not state.is_over and state.to_move == seat:
            legal = state.legal_moves()
            going = [m for m in legal if not state.play(m).is_over] if to_the_end else []
            move = rng.choice(going or legal)
            moves.append(move)
            state = state.play(move)
        frames.append((state, before, moves))
    return frames


def decoded(gif: bytes) -> list[bytes]:
    """Every frame of a GIF as a viewer shows it (earlier frames beneath), as RGB bytes."""
    image = Image.open(io.BytesIO(gif))
    out = []
    for i in range(image.n_frames):
        image.seek(i)
        out.append(image.convert("RGB").tobytes())
    return out


def durations_of(gif: bytes) -> list[int]:
    image = Image.open(io.BytesIO(gif))
    out = []
    for i in range(image.n_frames):
        image.seek(i)
        out.append(image.info["duration"])
    return out


@pytest.mark.parametrize("game_key", list(GAMES))
def test_a_replay_has_a_frame_per_turn_and_pauses_on_the_end(game_key):
    frames = turns_of(game_key, 12)
    gif = replay_gif(game_key, frames, ["Ann", "Bob", "Cy", "Dee"][: frames[0][0].players])
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and image.n_frames == len(frames) and image.info.get("loop") == 0
    assert image.width <= FRAME_WIDTH
    durations = durations_of(gif)
    assert durations[0] == FIRST_MS and durations[-1] == LAST_MS and max(durations) == LAST_MS


@pytest.mark.parametrize("game_key", ["roocala", "quincala"])
def test_a_frame_stores_only_what_changed_yet_shows_the_whole_board(game_key):
    """Each frame after the first keeps unchanged pixels transparent; a viewer still sees every board whole,
    exactly as drawn."""
    frames = turns_of(game_key, 20)
    names = ["Ann", "Bob"]
    gif = replay_gif(game_key, frames, names)
    drawn = compose(game_key, frames, names, "en", sampled(len(frames) - 1, 1), 1, FRAME_WIDTH, {})
    assert decoded(gif) == [frame.convert("RGB").tobytes() for frame in drawn]


def test_every_frame_counts_the_turns_in_the_language_of_the_post():
    frames = turns_of("rincala", 6)
    with texts.recording() as words:
        english = replay_gif("rincala", frames, ["Ann", "Bob"])
    assert ("en", START) in words and ("en", TURN_OF) in words and ("en", SAMPLED) not in words
    strip = [frame[-FRAME_WIDTH * 3 * 20:] for frame in decoded(english)]    # the bottom of each frame
    assert len(set(strip)) == len(frames)                                    # a counter that moves every turn
    texts.install({"de": {START: "Anfang", TURN_OF: "Zug {turn} von {turns}"}})
    try:
        with texts.recording() as words:
            german = replay_gif("rincala", frames, ["Ann", "Bob"], "de")
    finally:
        texts.install(None)
    assert ("de", TURN_OF) in words
    assert [frame[-FRAME_WIDTH * 3 * 20:] for frame in decoded(german)] != strip


def test_a_long_game_shows_every_kth_turn_plays_faster_and_says_so(monkeypatch):
    import render.replay
    monkeypatch.setattr(render.replay, "MAX_FRAMES", 10)
    frames = turns_of("roocala", 25)
    assert len(frames) == 26
    with texts.recording() as words:
        gif = replay_gif("roocala", frames, ["Ann", "Bob"])
    shown = [0, 3, 6, 9, 12, 15, 18, 21, 24, 25]         # every 3rd turn, and always the last
    assert sampled(25, 3) == shown
    drawn = compose("roocala", frames, ["Ann", "Bob"], "en", shown, 3, FRAME_WIDTH, {})
    assert decoded(gif) == [frame.convert("RGB").tobytes() for frame in drawn]
    assert ("en", SAMPLED) in words
    durations = durations_of(gif)
    assert durations[0] == FIRST_MS and durations[-1] == LAST_MS


def test_a_very_long_game_plays_faster_but_not_too_fast():
    frames = turns_of("quincala", 200, seed=2)
    assert len(frames) > MAX_FRAMES
    durations = durations_of(replay_gif("quincala", frames, ["Ann", "Bob"]))
    assert len(durations) <= MAX_FRAMES + 1
    assert all(MIN_FRAME_MS <= d < 900 for d in durations[1:-1])


@pytest.fixture(scope="module")
def quincala_400():
    frames = turns_of("quincala", 400, seed=1, variant="4", to_the_end=True)
    assert len(frames) == 401 and not frames[-1][0].is_over
    return frames


def test_a_400_turn_quincala_replay_fits_the_budget_and_is_reproducible(quincala_400):
    gif = replay_gif("quincala", quincala_400, ["Ann", "Bob"])
    assert len(gif) <= DEFAULT_BUDGET
    assert Image.open(io.BytesIO(gif)).n_frames == MAX_FRAMES + 1          # every 4th turn, and the last
    assert replay_gif("quincala", quincala_400, ["Ann", "Bob"]) == gif


def test_a_smaller_budget_shows_fewer_turns_but_the_start_and_the_end(quincala_400):
    budget = 300_000
    whole = replay_gif("quincala", quincala_400, ["Ann", "Bob"])
    assert len(whole) > budget
    gif = replay_gif("quincala", quincala_400, ["Ann", "Bob"], budget=budget)
    assert len(gif) <= budget
    frames, every = decoded(gif), decoded(whole)
    assert 2 <= len(frames) < MAX_FRAMES + 1
    board = slice(0, -FRAME_WIDTH * 3 * STRIP)           # the boards (the strips say how the turns are sampled)
    assert frames[0][board] == every[0][board] and frames[-1][board] == every[-1][board]


def test_a_budget_too_small_for_the_start_and_the_end_is_refused():
    with pytest.raises(ValueError, match="does not fit"):
        replay_gif("tintas", turns_of("tintas", 4), budget=2_000)


@pytest.mark.parametrize("game_key", ["roocala", "quincala"])
def test_a_sixty_turn_game_stays_under_two_megabytes_and_is_reproducible(game_key):
    frames = turns_of(game_key, 60, to_the_end=True)
    assert len(frames) == 61
    gif = replay_gif(game_key, frames, ["Ann", "Bob"])
    assert len(gif) <= SIXTY_TURNS_BYTES
    assert replay_gif(game_key, frames, ["Ann", "Bob"]) == gif


def test_a_game_without_a_turn_is_its_start():
    frames = turns_of("tintas", 0)
    assert len(frames) == 1 and decoded(replay_gif("tintas", frames))
    assert durations_of(replay_gif("tintas", frames)) == [LAST_MS]


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
    strip = image.height - round(last.height * scale)
    assert last.height > first.height                      # the end board is taller ...
    assert 0 < strip < 40                                  # ... and the animation is as tall as it, with the counter
