"""No English reaches a German reader from the engines: every phrase they compose (moves' descriptions, the
autocomplete's labels, refusals of moves and of position codes, turn records, what a continuing player must do,
text boards) is in the catalog
with a German translation, over random games of every game, player count and variant, and through the command
tree a German player's refusal and autocomplete notes are German."""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Iterator

import pytest

from bot import i18n
from bot.i18n import board_texts, speaking
from bot.model import BadInput, BadMove
from bot.records import parse, write
from bot.services.play import play_turn
from bot.wording import words
from engines import GAMES, Game, State
from engines.base import IllegalMove, InvalidPosition, Phrase
from engines.steps import step_options
from render import texts
from render.common import colour_letter
from tests.bot.discord_harness import FakeDiscord
from tests.bot.support import GUILD, boards, make_bot, pinged, said
from tests.bot.test_record_format import random_record

GAMES_PER_SETUP = 2          # random games per game, player count and variant
PLIES = 40                   # plies of each random game looked at
CODE_CHANGES = 12            # position codes with a changed character (and as many with one dropped) per position
BAD_TOKENS = ["", "zz", "end", "pass", "home", "a1", "E4", "Z9", "A cw", "e2>f3", "Rf4-c4", "w5@c2", "1b1-1c2 2a1",
              "1a1", "4a1", "5a1", "d3-d6", "d3-d6-b6", "1e1", "c1>d1+R", "n", "ne", "x", "Rz9-a1", "a1>", "e5@e5",
              "w9@c2", "b1@c2", "3a1", "2c1", "1a1-2a1 1b1", "1a1-1c3 1b1", "H cw", "I cw", "A up", "a1>zz", "end end"]
# German that is spelt as the English: the names of things and the colours' letters shared by both languages.
SAME_IN_GERMAN = {"Orange", "R", "O", "B", "W"}
WORD = re.compile(r"[A-Za-z]{2,}")


def setups() -> Iterator[tuple[Game, int, str | None]]:
    for game in GAMES.values():
        for players in game.player_counts:
            for variant in game.variants or (None,):
                yield game, players, variant


def templates(phrase: Phrase) -> Iterator[tuple[str, str]]:
    """(context, template) of ``phrase`` and of every phrase nested in it."""
    yield phrase.context, phrase.template
    for value in phrase.args.values():
        if isinstance(value, Phrase):
            yield from templates(value)


def has_words(template: str) -> bool:
    """A template with words outside its placeholders (not only notation: cells, separators, numbers)."""
    return bool(WORD.search(re.sub(r"\{[^{}]*\}", "", template.replace("{{", "").replace("}}", ""))))


def refusals(state: State, tokens: list[str]) -> Iterator[Phrase]:
    """The phrases of the refusals ``state`` gives to ``tokens`` (typed as a turn's moves, as play_turn reads
    them) and to picking a step no move starts with."""
    for token in tokens:
        try:
            state.play(state.canonical(token))
        except IllegalMove as exc:
            yield exc.phrase
    try:
        step_options(state, (), "zz")
    except IllegalMove as exc:
        yield exc.phrase


def bad_codes(code: str, rng: random.Random) -> Iterator[str]:
    """Position codes near ``code``: a field dropped, emptied or replaced, a character changed or dropped."""
    yield from ("", "x", code + " x")
    fields = code.split(" ")
    for i in range(len(fields)):
        for replaced in ([], ["-"], ["9"], ["x"]):
            yield " ".join(fields[:i] + replaced + fields[i + 1:])
    alphabet = sorted(set(code + "0123456789xz-./,:RGWBSNwb") - {" "})
    for _ in range(CODE_CHANGES):
        i = rng.randrange(len(code))
        yield code[:i] + rng.choice(alphabet) + code[i + 1:]
        yield code[:i] + code[i + 1:]


def position_refusals(game: Game, code: str, rng: random.Random) -> Iterator[Phrase]:
    """The phrases of the refusals of position codes near ``code`` (as /analyze and a record's Start read them)."""
    for bad in bad_codes(code, rng):
        try:
            game.decode(bad)
        except InvalidPosition as exc:
            yield exc.phrase
        except ValueError:
            pass                         # a code that happens to be valid, or refused by Python (shown as is)


def phrases_of_game(game: Game, players: int, variant: str | None, seed: int) -> Iterator[Phrase]:
    """Every phrase one random game shows: per position the text board, the descriptions and autocomplete labels
    of its moves, what a continuing player must do, the refusals of bad and out-of-place moves, and the turn
    records of the turns played."""
    rng = random.Random(seed)
    state = game.new(players=players, seed=seed, variant=variant)
    seen: list[str] = []                 # moves legal somewhere earlier: most are refused somewhere later
    turn: list[str] = []
    turn_start = state
    for _ in range(PLIES):
        yield state.text_board_phrase()
        if state.is_over:
            return
        legal = state.legal_moves()
        yield state.pending_phrase()
        for move in legal[:60]:
            yield state.describe_phrase(move)
        yield from (label for _, label in game.suggestion_phrases(state, "", 25))
        mangled = [m[:-1] for m in legal[:4]] + [m + "9" for m in legal[:4]] + [m.upper() for m in legal[:4]]
        yield from refusals(state, BAD_TOKENS + mangled + rng.sample(seen, min(len(seen), 25)))
        yield from position_refusals(game, state.encode(), rng)
        seen.extend(legal)
        move = rng.choice(legal)
        mover = state.to_move
        state = state.play(move)
        turn.append(move)
        if state.is_over or state.to_move != mover:
            yield turn_start.turn_record_phrase(turn)
            turn, turn_start = [], state


@pytest.mark.parametrize(("game", "players", "variant"), list(setups()),
                         ids=[f"{g.key}-{n}-{v}" for g, n, v in setups()])
def test_every_phrase_an_engine_shows_has_a_german_translation(game, players, variant):
    german = i18n.catalog("de")
    untranslated: set[tuple[str, str]] = set()
    seen: set[tuple[str, str]] = set()
    for seed in range(GAMES_PER_SETUP):
        for phrase in phrases_of_game(game, players, variant, seed):
            with speaking("de"):
                words(phrase)                               # composes: the German keeps the placeholders
            for context, template in templates(phrase):
                if not has_words(template):
                    continue
                seen.add((context, template))
                translated = german.pgettext(context, template) if context else german.gettext(template)
                if translated == template and template not in SAME_IN_GERMAN:
                    untranslated.add((context, template))
    assert seen, "the games showed no words at all"
    assert not untranslated, sorted(untranslated)


def test_refusals_reach_a_german_player_in_german_without_rule_codes():
    state = GAMES["tintas"].new(seed=1)
    pawn = state.legal_moves()[0]
    state = state.play(pawn)
    with pytest.raises(BadMove) as refused:
        play_turn(state, state.to_move or 0, pawn)
    with speaking("de"):
        german = str(refused.value)
    assert german == f"Die Figur steht schon auf {pawn}: Sie muss zu einem Stein ziehen."     # no '(T4)'
    assert str(refused.value) == f"The pawn is already on {pawn}: it must slide to a piece."   # English by default


def test_a_refusal_after_moves_of_the_same_turn_is_german_too():
    rng, state = random.Random(5), GAMES["rincala"].new(seed=3)
    while not any(state.play(m).pending() for m in state.legal_moves()):    # a position with a move that goes on
        state = state.play(rng.choice(state.legal_moves()))
    again = next(m for m in state.legal_moves() if state.play(m).pending())
    with pytest.raises(BadMove) as refused:
        play_turn(state, state.to_move or 0, f"{again}, Z up")
    with speaking("de"):
        assert str(refused.value) == f"Nach {again}: „Z up“ ist kein Zug: Schreib eine Mulde und eine Richtung, " \
                                     "etwa „C cw“ oder „C ccw“."


def test_german_text_boards_use_german_colour_letters_with_a_legend():
    state = GAMES["tintas"].new(seed=2)
    with speaking("de"):
        board = words(state.text_board_phrase(), {"Player 1": "Ann", "Player 2": "Bob"})
    assert "Ge = Gelb" in board and "Gn = Grün" in board and "L = Lila" in board
    mover = "Ann" if state.to_move == 0 else "Bob"
    assert "Ann: R0 O0 Ge0 Gn0 B0 L0 W0" in board and f"{mover} am Zug: Setz die Figur auf ein beliebiges Feld" in board
    letters = {c for line in board.splitlines() for c in re.findall(r"[A-I]\d:(\w+)", line)}
    assert letters <= {"R", "O", "Ge", "Gn", "B", "L", "W"} and "Gn" in letters and not letters & {"P", "Y", "G"}


ENGINE_LETTER = {"tintas": lambda e, c: e._LETTERS[e.COLOURS.index(c)],     # how each engine keeps its letters
                 "rincala": lambda e, c: e._LETTERS[c],
                 "spinca": lambda e, c: e._LETTERS[" WBR".index(c)]}


@pytest.mark.parametrize("game, colours", [("tintas", "ROYGBPW"), ("rincala", "RGYW"), ("spinca", "WBR")])
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_colour_has_one_letter_in_text_boards_and_on_images(game, colours, language):
    """The text board's letters (the engines' phrases, composed by the bot) are the images' (render.common's)."""
    engine, renderer = importlib.import_module(f"engines.{game}"), importlib.import_module(f"render.{game}")
    texts.install(board_texts())
    try:
        for colour in colours:
            in_text = Phrase(ENGINE_LETTER[game](engine, colour), context=engine.LETTER)
            with speaking(language), texts.speaking(language):
                assert words(in_text) == colour_letter(renderer.LETTERS[colour]), (game, colour)
    finally:
        texts.install(None)


async def test_a_german_player_reads_the_autocomplete_and_a_refused_move_in_german(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="de", guild_locale="de") as fake:
        ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
        card = next(s for s in await fake.slash(ann, "tintas challenge", opponent=bob, time=0)
                    if s.kind == "channel_message")
        board = boards(await fake.click(bob, card.button("Annehmen")["custom_id"], message=card))[-1]
        first = pinged(board, [ann, bob])
        choices = await fake.autocomplete(first, "tintas move", "move", move="E")
        notes = [c["name"].partition(" — ")[2] for c in choices]
        assert notes and all(n.startswith("nimmt ") for n in notes), notes
        assert not any("takes" in n or "turn" in n for n in notes)
        refused = said(await fake.slash(first, "tintas move", move="Q7"))
        assert "ist weder ein Feld noch ein Zug" in refused and "is not a cell" not in refused
        played = await fake.slash(first, "tintas move", move=choices[0]["value"])
        post = boards(played)[-1].text()
        assert "gesammelt" not in post and "sammelte" in post and "collected" not in post
        bad_code = said(await fake.slash(first, "tintas analyze", code="R" * 48 + " - 0000000 0000000 1 -"))
        assert bad_code.endswith("Das Brettfeld muss 49 Zeichen haben, es hat 48."), bad_code
        await fake.settle()


def test_a_record_with_an_illegal_turn_is_refused_with_the_engines_reason_in_german():
    text = write(random_record("tintas", 2, None, 9, max_turns=8))
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("1. "))
    lines[i] = lines[i].replace(": ", ": Z9, ", 1)
    with pytest.raises(BadInput) as refused:
        parse("\n".join(lines))
    with speaking("de"):
        assert str(refused.value) == f"Zeile {i + 1} der Mitschrift (Zug 1) kann nicht gespielt werden: 'Z9' ist " \
                                     "weder ein Feld noch ein Zug: Tippe ein Feld A1…I2 wie E4, eine Richtung " \
                                     "(n ne se s sw nw) oder end."


def test_players_are_named_once_in_a_text_board_even_one_called_like_a_seat():
    state = GAMES["rincala"].new(seed=1)
    board = words(state.text_board_phrase(), {"Player 1": "Player 2", "Player 2": "Bob"}).splitlines()
    assert [line.split(":")[0] for line in board if "points" in line] == ["Player 2", "Bob"]
