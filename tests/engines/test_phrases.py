"""The engines' words as data: each English text of the contract (``describe``, ``pending``, ``turn_record``,
``text_board``, the autocomplete's labels, a refusal's message) is its phrase composed, and a phrase survives
being kept as JSON (an announcement holds a turn record until it is posted)."""

from __future__ import annotations

import json
import random

import pytest

from engines import GAMES
from engines.base import IllegalMove, Phrase, joined, phrase

SETUPS = [(g, n, v) for g in GAMES.values() for n in g.player_counts for v in g.variants or (None,)]
PLIES = 30


@pytest.mark.parametrize(("game", "players", "variant"), SETUPS, ids=[f"{g.key}-{n}-{v}" for g, n, v in SETUPS])
def test_each_english_text_is_its_phrase_composed(game, players, variant):
    rng = random.Random(3)
    state = game.new(players=players, seed=3, variant=variant)
    for _ in range(PLIES):
        assert state.text_board() == str(state.text_board_phrase())
        if state.is_over:
            break
        assert state.pending() == str(state.pending_phrase())
        legal = state.legal_moves()
        for move in legal[:30]:
            assert state.describe(move) == str(state.describe_phrase(move))
            record = state.turn_record_phrase([move])
            assert state.turn_record([move]) == str(record)
            assert Phrase.from_data(json.loads(json.dumps(record.to_data()))) == record
        assert game.turn_suggestions(state, "", 25) == [(v, str(p)) for v, p in game.suggestion_phrases(state, "", 25)]
        for token in ("zz", "Q9", legal[0] + "9"):
            try:
                state.play(state.canonical(token))
            except IllegalMove as exc:
                assert str(exc) == str(exc.phrase) and exc.phrase.template
        state = state.play(rng.choice(legal))


def test_a_phrase_composes_nested_phrases_and_translates_each_template():
    said = phrase("{cell} is {colour} (T5).", cell="E4", colour=Phrase("red"))
    assert str(said) == "E4 is red (T5)."
    upper = {"{cell} is {colour} (T5).": "{cell} ist {colour} (T5).", "red": "rot"}
    assert said.compose(lambda context, template: upper.get(template, template)) == "E4 ist rot (T5)."
    assert str(joined(["a", said], "\n")) == "a\nE4 is red (T5)."


def test_a_letter_is_translated_in_its_own_context():
    letter = Phrase("G", context="Tintas colour letter")
    german = {("Tintas colour letter", "G"): "Ü"}
    assert letter.compose(lambda context, template: german.get((context, template), template)) == "Ü"
    assert str(letter) == "G"


def test_a_plain_english_refusal_keeps_its_braces():
    assert str(IllegalMove("use {x3} here")) == "use {x3} here"
