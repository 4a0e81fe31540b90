"""Hard display names (tests/render/hard_names.txt) drawn in every game: no missing glyph anywhere, styled
letters drawn as the letters they style, and a name with nothing visible drawn as its seat's name.

Missing glyphs are found where Pillow turns text into pixels: every ``FreeTypeFont.getmask2`` call of a
board is recorded (font file and text), and every character of it that is not default-ignorable must be in
that font's cmap, read with fontTools from the font file itself (not from render/fonts/coverage.json, which
the renderer trusts).
"""

from __future__ import annotations

import random
import re
import unicodedata
from functools import cache
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import ImageFont

from engines import GAMES
from render import board_png, common
from render.texts import tr

HARD_NAMES_FILE = Path(__file__).with_name("hard_names.txt")


def hard_names() -> list[str]:
    """The names of hard_names.txt (``\\uXXXX`` written out for invisible characters)."""
    out = []
    for line in HARD_NAMES_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("# "):
            continue
        out.append(re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), line))
    return out


HARD = hard_names()
SCRIPTS = ["অমিত রায়", "முருகன்", "ધવલ પટેલ", "කමල් පෙරේරා", "မောင်မောင်", "សុខ ចាន់", "አበበ በቀለ"]


@cache
def cmap(path: str) -> frozenset[int]:
    return frozenset(c for c, glyph in TTFont(path, lazy=True).getBestCmap().items() if glyph != ".notdef")


@cache
def finished(key: str) -> tuple:
    """A finished seeded random 2-player game, with its last turn and the state before it."""
    game, rng = GAMES[key], random.Random(5)
    state = game.new(players=2, seed=rng.randrange(1 << 20),
                     variant=rng.choice(game.variants) if game.variants else None)
    before, turn = state, []
    while not state.is_over:
        before, turn = state, [rng.choice(state.legal_moves())]
        state = state.play(turn[0])
    return state, turn, before


def missing_glyphs(key: str, names: list[str], monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, str]]:
    """Draw a start board and the finished board of ``key`` with ``names``; every (font, text, character)
    Pillow was asked to draw without a glyph for it."""
    calls: list[tuple[str, str]] = []
    real = ImageFont.FreeTypeFont.getmask2

    def recording(self: ImageFont.FreeTypeFont, text: str, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        calls.append((str(self.path), text))
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", recording)
    state, turn, before = finished(key)
    board_png(GAMES[key].new(players=2), names=names)
    board_png(state, last_turn=turn, names=names, previous=before)
    monkeypatch.undo()
    return [(Path(path).name, text, ch) for path, text in calls for ch in text
            if not common._ignorable(ord(ch)) and unicodedata.category(ch) != "Cc" and ord(ch) not in cmap(path)]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_hard_name_draws_without_a_missing_glyph(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    names = [*HARD, *SCRIPTS]
    for first, second in zip(names[::2], [*names[1::2], "Bob"], strict=False):
        assert missing_glyphs(key, [first, second], monkeypatch) == [], (first, second)


def test_the_probe_finds_a_missing_glyph(monkeypatch: pytest.MonkeyPatch) -> None:
    """A private-use character no font has is reported (so an empty report means something)."""
    missing = missing_glyphs("tintas", ["Ann\U000f0000", "Bob"], monkeypatch)
    assert {ch for _, _, ch in missing} == {"\U000f0000"}


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize(("styled", "plain"), [("𝓐𝓵𝓲𝓬𝓮", "Alice"), ("𝔄𝔩𝔦𝔠𝔢", "Alice"), ("𝐀𝐥𝐢𝐜𝐞", "Alice"),
                                               ("Ⓐⓛⓘⓒⓔ", "Alice"), ("🅐🅛🅘🅒🅔", "ALICE"), ("🅰🅻🅸🅲🅴", "ALICE")])
def test_styled_letters_are_drawn_as_the_letters(key: str, styled: str, plain: str) -> None:
    state, turn, before = finished(key)
    assert board_png(state, last_turn=turn, names=[styled, "Bob"], previous=before) == \
        board_png(state, last_turn=turn, names=[plain, "Bob"], previous=before)


def test_squared_letters_become_capitals_but_an_emoji_letter_stays() -> None:
    assert common.plain_name("🅰🅻🅸🅲🅴") == "ALICE"
    assert common.plain_name("🅰️ b") == "🅰️ b"              # VS-16: the blood-type emoji, which Noto Emoji has


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("blank", ["\u3164", "\u200b", "\u3164\u200b\u200d", " \u2800 ", ""])
def test_a_name_with_nothing_visible_is_drawn_as_its_seat(key: str, blank: str) -> None:
    state, turn, before = finished(key)
    seat = tr(GAMES[key].seat_names(2)[0])
    assert board_png(state, last_turn=turn, names=[blank, "Bob"], previous=before) == \
        board_png(state, last_turn=turn, names=[seat, "Bob"], previous=before)
    assert board_png(state, last_turn=turn, names=[blank, "Bob"], previous=before) != \
        board_png(state, last_turn=turn, names=["Ann", "Bob"], previous=before)


@pytest.mark.parametrize("name", SCRIPTS + ["Z\u0359a\u0363l\u036fg\u0368o"])
def test_the_listed_scripts_and_marks_have_a_font(name: str) -> None:
    for bold in (False, True):
        for file, chars in common._name_runs(name, bold):
            assert all(ord(c) in cmap(str(common.FONT_DIR / file)) for c in chars
                       if not common._ignorable(ord(c))), (file, chars)
