"""Each game's rules, quick start and summary, per language (bot/texts/): every game has every text in every
language with the same structure and the same notation, and through the command tree a German reader gets
/rules, /help and the challenge card's summary in German."""

from __future__ import annotations

import re

import pytest

from bot import gametexts, wording
from bot.i18n import LANGUAGES, SOURCE_LANGUAGE
from engines import GAMES
from tests.bot.discord_harness import FakeDiscord
from tests.bot.support import GUILD, make_bot

MAX_RULES = 3800          # the rules fit one embed (4,096) with room for its title
MAX_SUMMARY = 200         # one line on the challenge card and in /help
TRANSLATIONS = [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]
TEXTS = [(key, kind) for key in GAMES for kind in gametexts.KINDS]


def shape(text: str) -> list[str]:
    """The markdown structure of a text: per line, whether it is blank, a bold heading, a list item or prose."""
    def kind(line: str) -> str:
        if not line.strip():
            return "blank"
        if m := re.match(r"(\d+)\. ", line):
            return f"item {m[1]}"
        if line.startswith("- "):
            return "bullet"
        return "bold" if line.startswith("**") else "prose"
    return [kind(line) for line in text.splitlines()]


def notation(text: str) -> list[str]:
    """Every code span (what a player types), in order: notation is never translated."""
    return re.findall(r"`[^`]+`", text)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("key", "kind"), TEXTS)
def test_every_game_has_every_text_in_every_language(key, kind, language):
    text = gametexts.game_text(key, kind, language)
    assert text.strip() == text and text, (key, kind, language)
    limit = {"rules": MAX_RULES, "summary": MAX_SUMMARY}.get(kind)
    assert limit is None or len(text) <= limit, (key, kind, language, len(text))
    if kind == "summary":
        assert "\n" not in text


@pytest.mark.parametrize("language", TRANSLATIONS)
@pytest.mark.parametrize(("key", "kind"), TEXTS)
def test_a_translation_keeps_the_structure_and_the_notation(key, kind, language):
    english, translated = gametexts.game_text(key, kind, "en"), gametexts.game_text(key, kind, language)
    assert translated != english, f"bot/texts/{language}/{key}/{kind}.md is the English text"
    assert shape(translated) == shape(english), (key, kind, language)
    assert notation(translated) == notation(english), (key, kind, language)


@pytest.mark.parametrize(("language", "words"), [("en", ("unpublished", "reconstruction", "2010")),
                                                 ("de", ("unveröffentlicht", "rekonstruktion", "2010"))])
def test_quincala_rules_say_the_board_is_a_reconstruction_in_every_language(language, words):
    text = gametexts.rules("quincala", language).lower()
    assert all(word in text for word in words)


@pytest.mark.parametrize(("language", "word"), [("en", "smallest"), ("de", "kleinsten")])
def test_spinca_rules_score_the_smallest_group(language, word):
    assert word in gametexts.rules("spinca", language)


def test_a_language_without_texts_reads_english_and_the_default_is_the_language_of_the_moment():
    from bot.i18n import speaking
    assert gametexts.rules("tintas", "fr") == gametexts.rules("tintas", "en")
    with speaking("de"):
        assert gametexts.summary("tintas") == gametexts.summary("tintas", "de")
    assert gametexts.summary("tintas") == gametexts.summary("tintas", "en")


def test_an_unknown_kind_of_text_is_refused_by_name():
    with pytest.raises(ValueError, match="'manual'"):
        gametexts.game_text("tintas", "manual", "en")


# ---- a German reader, through the command tree --------------------------------------------------------------
def shown(out) -> str:
    return "\n".join(s.text() for s in out if s.ephemeral)


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("key", list(GAMES))
async def test_a_german_reader_gets_the_rules_in_german(db, clock, key):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="de", guild_locale="en-US") as fake:
        text = one_line(shown(await fake.slash(fake.user(11, "Ann"), f"{key} rules")))
        assert one_line(gametexts.rules(key, "de")) in text                # every word, in German
        assert one_line(gametexts.rules(key, "en"))[:80] not in text
        assert "Regeln" in text                                              # the framing too
        fake.locale = "en-US"
        text = one_line(shown(await fake.slash(fake.user(12, "Bob"), f"{key} rules")))
        assert one_line(gametexts.rules(key, "en")) in text
        await fake.settle()


async def test_a_german_reader_gets_help_summaries_and_quick_starts_in_german(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="de", guild_locale="de") as fake:
        ann = fake.user(11, "Ann")
        screen = [s for s in await fake.slash(ann, "help") if s.ephemeral and s.embeds][-1]
        for key in GAMES:
            assert gametexts.summary(key, "de") in screen.text()
            assert gametexts.summary(key, "en") not in screen.text()
            out = await fake.click(ann, f"help:{key}", message=screen)
            answer = [s for s in out if s.ephemeral and s.embeds][-1]
            description = answer.embeds[0]["description"]
            assert description == gametexts.quick_start(key, "de"), key
        await fake.settle()


async def test_a_german_server_reads_the_challenge_cards_summary_in_german(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="en-US", guild_locale="de") as fake:
        out = await fake.slash(fake.user(11, "Ann"), "roocala challenge", opponent=fake.user(12, "Bob"), time=3)
        card = next(s for s in out if s.kind == "channel_message")
        assert gametexts.summary("roocala", "de") in card.text()
        assert gametexts.summary("roocala", "en") not in card.text()
        await fake.settle()


async def test_a_german_reader_picks_from_the_challenge_menu_with_german_summaries(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="de", guild_locale="en-US") as fake:
        out = await fake.context_menu(fake.user(11, "Ann"), "Challenge to…", fake.user(12, "Bob"))
        menu = next(c for s in out for c in s.components if c.get("custom_id", "").startswith("ct:"))
        descriptions = {o["value"]: o["description"] for o in menu["options"]}
        for key in GAMES:
            assert descriptions[key] == wording.shorten(gametexts.summary(key, "de"), 100), key
        await fake.settle()
