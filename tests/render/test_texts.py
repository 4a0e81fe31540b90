"""The words in the board images follow the post's language (render.texts): every word a German board draws is
looked up in the German table, English stays the default, and caches with words are kept apart per language."""

from __future__ import annotations

import random
import re

import pytest

from engines import GAMES
from render import board_png, texts
from render.replay import replay_gif

TRANSLATED = ("tintas", "rincala", "roocala", "quincala", "spinca")


def boards(key: str, count: int = 12, seed: int = 5) -> list[tuple]:
    """Positions of seeded random games, each with its last turn and the position before it, some finished."""
    game, rng, out = GAMES[key], random.Random(seed), []
    while len(out) < count:
        players = rng.choice(game.player_counts)
        state = game.new(players=players, seed=rng.randrange(1 << 20),
                         variant=rng.choice(game.variants) if game.variants else None)
        before, turn, seat = state, [], None
        for _ in range(rng.choice((1, 5, 30, 400))):
            if state.is_over:
                break
            if state.to_move != seat:
                before, turn, seat = state, [], state.to_move
            move = rng.choice(state.legal_moves())
            state = state.play(move)
            turn.append(move)
        out.append((state, turn, [f"Player {i + 1}" for i in range(players)], before))
    return out


@pytest.fixture
def german():
    """A German table that marks every word ('«…»'), so a word drawn untranslated would not be looked up."""
    texts.install({"de": {m: f"«{m}»" for m in texts.messages()}})
    yield
    texts.install(None)


@pytest.mark.parametrize("key", TRANSLATED)
def test_a_german_board_looks_up_every_word_it_draws_in_german_and_differs_from_the_english_one(key, german):
    differ = 0
    for state, turn, names, before in boards(key):
        with texts.recording() as english_words:
            english = board_png(state, last_turn=turn, names=names, previous=before)
        with texts.recording() as german_words:
            german_png = board_png(state, last_turn=turn, names=names, previous=before, language="de")
        assert english_words and {lang for lang, _ in english_words} == {"en"}
        assert {lang for lang, _ in german_words} == {"de"}
        assert {m for _, m in german_words} <= set(texts.messages())       # every drawn word is declared
        differ += english != german_png
        assert board_png(state, last_turn=turn, names=names, previous=before) == english   # caches kept apart
    assert differ == len(boards(key))


def test_english_is_the_default_and_a_language_without_a_table_draws_english(german):
    state, turn, names, before = boards("tintas")[3]
    english = board_png(state, last_turn=turn, names=names, previous=before)
    assert board_png(state, last_turn=turn, names=names, previous=before, language="en") == english
    assert board_png(state, last_turn=turn, names=names, previous=before, language="fr") == english


def test_the_replay_draws_its_frames_in_the_language_asked_for(german):
    game = GAMES["rincala"]
    state, frames = game.new(players=2, seed=1), []
    frames.append((state, None, []))
    for _ in range(4):
        before, move = state, state.legal_moves()[0]
        state = state.play(move)
        frames.append((state, before, [move]))
    with texts.recording() as words:
        german_gif = replay_gif("rincala", frames, ["Ann", "Bob"], "de")
    assert words and {lang for lang, _ in words} == {"de"}
    assert german_gif != replay_gif("rincala", frames, ["Ann", "Bob"])


def test_split_cuts_the_translated_template_at_the_name():
    texts.install({"de": {"Game over: {name} wins": "Partie vorbei: {name} gewinnt"}})
    try:
        with texts.speaking("de"):
            assert texts.split("Game over: {name} wins") == ("Partie vorbei: ", " gewinnt")
        assert texts.split("Game over: {name} wins") == ("Game over: ", " wins")
    finally:
        texts.install(None)


def finished(key: str, count: int = 6, seed: int = 9) -> list[tuple]:
    """Finished positions of seeded random games (every player count in turn), with the last turn."""
    game, rng, out = GAMES[key], random.Random(seed), []
    while len(out) < count:
        players = game.player_counts[len(out) % len(game.player_counts)]
        state = game.new(players=players, seed=rng.randrange(1 << 20),
                         variant=rng.choice(game.variants) if game.variants else None)
        before, turn, seat = state, [], None
        while not state.is_over:
            if state.to_move != seat:
                before, turn, seat = state, [], state.to_move
            move = rng.choice(state.legal_moves())
            state = state.play(move)
            turn.append(move)
        out.append((state, turn, before))
    return out


def end_lines(key: str, state, names) -> list[str]:
    """The end-of-game sentence as the game's board draws it (its lines), with the board's own name fallback."""
    from render import quincala, rincala, roocala, spinca, tintas
    if key == "tintas":
        return tintas.end_sentence(state, tintas._names(names))
    if key == "rincala":
        return rincala.end_lines(state, names or [texts.tr(s) for s in state.game.seat_names(state.players)])
    if key == "roocala":
        return roocala.status_lines(state, names or [texts.tr(s) for s in state.game.seat_names(2)])
    if key == "quincala":
        return quincala.end_sentence(state, names)
    return spinca.layout(state, None, names).end_lines


def unmarked(text: str) -> str:
    """What is left of ``text`` once every «marked» (translated) text, innermost first, is taken out."""
    while (shorter := re.sub("«[^«»]*»", "", text)) != text:
        text = shorter
    return text


@pytest.mark.parametrize("key", TRANSLATED)
def test_a_finished_german_board_draws_the_seat_names_and_the_end_sentence_in_german(key, german):
    game = GAMES[key]
    for state, turn, before in finished(key):
        outcome = state.outcome()
        seats = set(game.seat_names(state.players))
        for names in (None, [f"Nm{i}" for i in range(state.players)]):
            with texts.recording() as words:
                board_png(state, last_turn=turn, names=names, previous=before, language="de")
            drawn = {m for _, m in words}
            assert drawn <= set(texts.messages())                          # every drawn word is declared
            assert game.terminations[outcome.termination] in drawn         # the end sentence, translated
            if names is None:
                assert seats <= drawn                                      # the seat names, translated
            with texts.speaking("de"):
                sentence = " ".join(end_lines(key, state, names))
            english = " ".join(end_lines(key, state, names))
            assert sentence.startswith("«") and not unmarked(sentence).strip()   # nothing drawn untranslated
            assert english != sentence and "«" not in english


def test_every_game_s_seat_names_end_sentences_and_fact_words_are_board_texts():
    for game in GAMES.values():
        wanted = {s for n in game.player_counts for s in game.seat_names(n)} | set(game.terminations.values())
        assert wanted | set(game.fact_words) <= set(texts.messages())
