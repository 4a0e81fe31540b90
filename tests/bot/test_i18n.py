"""Translations: the catalog is complete, its placeholders match, the German command tree is valid, and through
the command tree a German user reads German while channel posts follow the server's language."""

from __future__ import annotations

import importlib.util
import random
import re
import string
from pathlib import Path

import discord
import pytest
from babel.messages.pofile import read_po
from discord import app_commands

from bot import i18n
from bot.discord.translator import CatalogTranslator
from bot.i18n import LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE, TN, T, language_of, speaking
from bot.model import NotAllowed
from engines import GAMES, outcome_text
from tests.bot.discord_harness import FakeDiscord
from tests.bot.support import GUILD, boards, make_bot, pinged, said

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("messages_tool", ROOT / "tools" / "messages.py")
assert spec is not None and spec.loader is not None
messages_tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(messages_tool)

NAME = re.compile(r"^[-_\w]{1,32}$")      # Discord's rule for command and option names (lowercase checked apart)


def po(language: str):
    with open(LOCALE_DIR / language / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=language)


@pytest.fixture(scope="module")
def template():
    return messages_tool.template()


# ---- the catalog -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE])
def test_every_text_in_the_code_has_a_translation(template, language):
    """A fresh extraction (code, command tree, game one-liners) against the catalog: run `make messages` and
    translate what this lists."""
    assert messages_tool.missing(template, po(language)) == []


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE])
def test_translations_keep_the_placeholders_of_their_message(language):
    for msg in po(language):
        if not msg.id or not msg.string:
            continue
        ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        wanted = set().union(*(fields(i) for i in ids))
        for s in strings:
            assert fields(s) <= wanted and (fields(s) == wanted or len(ids) > 1), (msg.id, s)


def test_lazy_messages_render_in_the_reader_language_and_english_by_default():
    refusal = NotAllowed(T("It is not your turn — {who} is to move.", who="Bob"))
    assert str(refusal) == "It is not your turn — Bob is to move."
    with speaking("de"):
        assert str(refusal) == "Du bist nicht am Zug — Bob ist dran."
        assert str(TN("{n} game", "{n} games", 3)) == "3 Partien"
    assert str(TN("{n} game", "{n} games", 1)) == "1 game"


@pytest.mark.parametrize(("locale", "language"), [("de", "de"), ("en-US", "en"), ("en-GB", "en"),
                                                  (discord.Locale.german, "de"), ("fr", "en"), (None, "en")])
def test_discord_locales_map_to_catalog_languages_with_english_as_fallback(locale, language):
    assert language_of(locale) == language


# ---- the command tree in German ---------------------------------------------------------------------------------
async def test_every_command_and_option_has_a_valid_german_name_and_description():
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    from bot.discord.commands import register_commands
    register_commands(tree)
    await tree.set_translator(CatalogTranslator())
    payloads = [await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()]  # type: ignore
    games = {"tintas", "rincala", "roocala", "quincala", "spinca"}

    def check(node: dict, siblings: set[str]) -> None:
        name = node.get("name_localizations", {}).get("de", node["name"])
        if node["name"] not in games | {"partner", "bots", "threads", "code"}:   # proper names and shared words
            assert "de" in node.get("name_localizations", {}), node["name"]
        assert NAME.match(name) and name == name.lower(), name
        assert name not in siblings, name
        siblings.add(name)
        description = node.get("description_localizations", {}).get("de")
        assert description and len(description) <= 100, (node["name"], description)
        for choice in node.get("choices", []):
            assert 0 < len(choice.get("name_localizations", {}).get("de", choice["name"])) <= 100
        children: set[str] = set()
        for option in node.get("options", []):
            check(option, children)

    top: set[str] = set()
    menus = [p for p in payloads if p.get("type") in (2, 3)]     # user and message context menus
    for payload in payloads:
        if payload not in menus:
            check(payload, top)
    for menu in menus:      # a name only: 1-32 characters, any case, spaces allowed
        name = menu.get("name_localizations", {}).get("de")
        assert name and len(name) <= 32, menu["name"]
    assert [m["name_localizations"]["de"] for m in menus] == ["Zu einem Spiel herausfordern…"]
    assert any(p["name_localizations"].get("de") == "partien" for p in payloads)


async def test_every_choice_of_challenge_and_vs_bot_reaches_discord_in_german():
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    from bot.discord.commands import register_commands
    register_commands(tree)
    await tree.set_translator(CatalogTranslator())
    payloads = {c.name: await c.get_translated_payload(tree, tree.translator)  # type: ignore[arg-type]
                for c in tree.get_commands()}
    german = i18n.catalog("de")

    def options(group: str, command: str) -> dict[str, list[dict]]:
        sub = next(o for o in payloads[group]["options"] if o["name"] == command)
        return {o["name"]: o["choices"] for o in sub["options"] if o.get("choices")}

    seen = 0
    for game in GAMES.values():
        for command in ("challenge", "vs-bot"):
            for option, choices in options(game.key, command).items():
                for choice in choices:
                    expected = german.gettext(choice["name"])
                    assert expected != choice["name"], (game.key, option, choice["name"])   # the catalog has it
                    assert choice.get("name_localizations", {}).get("de") == expected, (game.key, option, choice)
                    seen += 1
    assert seen > 50
    time = options("tintas", "challenge")["time"]
    assert [c["name_localizations"]["de"] for c in time][:2] == ["1 Tag pro Zug", "2 Tage pro Zug"]
    level = options("tintas", "vs-bot")["level"]
    assert level[0]["name_localizations"]["de"] == "Stufe 1 (sanft)"


# ---- through the command tree -----------------------------------------------------------------------------------
async def test_a_german_user_gets_german_replies_while_the_english_server_post_stays_english(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="de", guild_locale="en-US") as fake:
        ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
        refused = said(await fake.slash(ann, "tintas challenge", opponent=ann))
        assert "Du kannst dich nicht selbst herausfordern" in refused
        out = await fake.slash(ann, "tintas challenge", opponent=bob, time=3)
        assert "Herausforderung gesendet." in said(out)
        card = next(s for s in out if s.kind == "channel_message")
        assert "you are challenged to Tintas" in card.text() and "Accept" in [c.get("label") for c in card.components]
        fake.locale = "en-US"                          # Bob reads English
        out = await fake.click(bob, card.button("Accept")["custom_id"], message=card)
        board = boards(out)[-1]
        assert "The match begins!" in board.text() and "Partie" not in board.text()
        fake.locale = "de"
        assert "Du hast keine laufende Tintas-Partie" in said(await fake.slash(fake.user(13, "Cy"), "tintas resign"))
        fake.locale = "en-US"
        assert "You have no active Tintas match" in said(await fake.slash(13, "tintas resign"))
        await fake.settle()


async def test_a_german_server_gets_german_cards_and_boards(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="en-US", guild_locale="de") as fake:
        ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
        out = await fake.slash(ann, "tintas challenge", opponent=bob, time=3)
        assert "Challenge sent." in said(out)              # the English user's own reply stays English
        card = next(s for s in out if s.kind == "channel_message")
        assert "Herausforderung zu Tintas!" in card.text()
        assert [c.get("label") for c in card.components][:2] == ["Annehmen", "Ablehnen"]
        out = await fake.click(bob, card.button("Annehmen")["custom_id"], message=card)
        board = boards(out)[-1]
        assert "Die Partie beginnt!" in board.text() and "du bist am Zug" in board.text()
        assert "Zug 1" in board.text()                    # the caption: 'Tintas #1 · Ann vs Bob · Zug 1'
        assert "Neu posten" in [c.get("label") for c in board.components]
        await fake.settle()


async def test_a_german_casual_card_keeps_its_nouns_capitalised(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="de", guild_locale="de") as fake:
        out = await fake.slash(fake.user(11, "Ann"), "tintas challenge", opponent=fake.user(12, "Bob"), time=0)
        card = next(s for s in out if s.kind == "channel_message")
        assert "⏱ Ungewertet (ohne Zeitlimit)." in card.text()     # only the first letter raised
        await fake.settle()


async def test_a_bot_seat_is_named_in_the_servers_language(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="de", guild_locale="de") as fake:
        board = boards(await fake.slash(fake.user(11, "Ann"), "tintas vs-bot", level=1))[0]
        assert "Bot (Stufe 1)" in board.text() and "level" not in board.text()
        await fake.settle()
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD + 1, locale="en-US") as fake:
        board = boards(await fake.slash(fake.user(12, "Bob"), "tintas vs-bot", level=2))[0]
        assert "Bot (level 2)" in board.text() and "Stufe" not in board.text()
        await fake.settle()


async def test_german_command_names_reach_discord_when_the_tree_is_synced(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD) as fake:
        await fake.client.tree.sync()
        synced = {c["name"]: c for c in fake.synced_commands[None]}
        tintas = synced["tintas"]
        move = next(o for o in tintas["options"] if o["name"] == "move")
        assert move["name_localizations"]["de"] == "zug"
        assert move["description_localizations"]["de"].startswith("Spiel deinen Tintas-Zug")
        assert synced["leaderboard"]["name_localizations"]["de"] == "rangliste"


# ---- the features after the first catalog: takebacks, open seats, time away, records -----------------------------
async def test_a_german_user_is_refused_a_takeback_in_german_and_an_english_one_in_english(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="de", guild_locale="en-US") as fake:
        ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
        card = next(s for s in await fake.slash(ann, "tintas challenge", opponent=bob, time=3)
                    if s.kind == "channel_message")
        await fake.click(bob, card.button("Accept")["custom_id"], message=card)       # rated: 3 days per move
        refused = said(await fake.slash(ann, "tintas takeback"))
        assert "Zurücknahmen sind in gewerteten Partien auf diesem Server aus" in refused
        assert "/einstellungen zurücknahmen:an" in refused
        fake.locale = "en-US"
        assert "Takebacks are off in rated matches on this server" in said(await fake.slash(ann, "tintas takeback"))
        await fake.settle()


async def test_a_german_server_gets_a_german_open_seat_card_while_the_english_challenger_reads_english(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="en-US", guild_locale="de") as fake:
        ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
        out = await fake.slash(ann, "rincala challenge", players=3)
        assert "Open challenge posted" in said(out)
        card = next(s for s in out if s.kind == "channel_message")
        assert "Rincala mit Ann: 2 freie Plätze — drück **Beitreten**" in card.content
        assert "fordert alle auf dem Server zu **Rincala** heraus" in card.text()
        assert "Freie Plätze: 2 von 3" in card.text() and "open seat" not in card.text()
        assert [c.get("label") for c in card.components] == ["Beitreten", "Zurückziehen"]
        out = await fake.click(bob, card.button("Beitreten")["custom_id"], message=card)
        assert "Beigetreten: <@12>" in out[-1].text() and "Freie Plätze: 1 von 3" in out[-1].text()
        assert "Freie Plätze auf diesem Server" not in said(await fake.slash(bob, "matches"))   # Bob has a seat
        fake.locale = "de"
        listed = said(await fake.slash(fake.user(13, "Cy"), "matches"))
        assert "**Freie Plätze auf diesem Server**" in listed and "1 freier Platz" in listed
        await fake.settle()


async def test_a_german_server_gets_a_german_takeback_request_and_board(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="en-US", guild_locale="de") as fake:
        ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
        card = next(s for s in await fake.slash(ann, "tintas challenge", opponent=bob, time=0)
                    if s.kind == "channel_message")
        board = boards(await fake.click(bob, card.button("Annehmen")["custom_id"], message=card))[-1]
        first = pinged(board, [ann, bob])
        other = bob if first is ann else ann
        value = next(v for v, _ in GAMES["tintas"].turn_suggestions(
            (await fake.client.services.queries.get(1)).position, "", 5))
        assert "Move played" in said(await fake.slash(first, "tintas move", move=value))
        out = await fake.slash(first, "tintas takeback")
        assert "Takeback requested" in said(out)                  # the English asker's own reply
        request = next(s for s in out if s.kind == "channel_message")
        assert "möchte den letzten eigenen Zug in Tintas #1" in request.content
        assert [c.get("label") for c in request.components] == ["Zurücknahme annehmen", "Zurücknahme ablehnen"]
        out = await fake.click(other, request.button("Zurücknahme annehmen")["custom_id"], message=request)
        assert "Die Zurücknahme wurde angenommen" in fake.message(request.message_id).text()
        again = boards(out)[-1]
        assert "wurde zurückgenommen (1 Einzelzug rückgängig gemacht" in again.text()
        await fake.settle()


async def test_a_german_user_reads_settings_with_time_away_in_german(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="de", guild_locale="en-US") as fake:
        out = said(await fake.slash(fake.user(11, "Ann"), "settings", away=3))
        assert out.startswith("Du bist bis <t:")
        lines = out.splitlines()
        mine = next(i for i, line in enumerate(lines) if line.startswith("**Deine Benachrichtigungen:**"))
        assert lines[mine + 1].startswith("**Abwesenheit:** abwesend bis <t:")     # right under the notifications
        assert lines[-1].startswith("Erlaubte Abwesenheit:") and "Time away" not in out
        refused = said(await fake.slash(fake.user(11, "Ann"), "settings", digest_hour=25))
        assert "volle Stunde von 0 bis 23, nicht 25" in refused


async def test_a_german_user_exports_an_english_record_with_a_german_message(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="de", guild_locale="de") as fake:
        ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
        card = next(s for s in await fake.slash(ann, "tintas challenge", opponent=bob, time=0)
                    if s.kind == "channel_message")
        await fake.click(bob, card.button("Annehmen")["custom_id"], message=card)
        await fake.click(ann, next(c for c in (await fake.slash(ann, "tintas resign"))[-1].components
                                   if c.get("label") == "Ja, aufgeben")["custom_id"])
        out = await fake.slash(ann, "match record", match="#1")
        reply = next(s for s in out if s.files)
        assert "📜 Die Mitschrift von Tintas #1" in reply.text()
        record = dict(reply.files)["match-1.txt"].decode()
        assert '[Termination "Ann resigned."]' in record                 # a file format: English, like PGN
        assert "Nenn die Partie, die exportiert werden soll" in said(await fake.slash(ann, "match record", match=" "))
        assert "ist keine Partienummer" in said(await fake.slash(ann, "match record", match="zwölf"))
        await fake.settle()


async def test_a_german_server_gets_its_board_image_drawn_in_german_and_an_english_one_in_english(db, clock):
    from render import texts
    from render.texts import messages
    for guild_locale, language in (("de", "de"), ("en-US", "en")):
        async with FakeDiscord(make_bot(db, clock), guild_id=GUILD + (language == "en"), locale="en-US",
                               guild_locale=guild_locale) as fake:
            ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
            with texts.recording() as words:
                out = await fake.slash(ann, "tintas challenge", opponent=bob, time=3)
                card = next(s for s in out if s.kind == "channel_message")
                accept = "Annehmen" if language == "de" else "Accept"
                boards(await fake.click(bob, card.button(accept)["custom_id"], message=card))
                await fake.settle()
            assert (language, "{count}/4 colours with 4+") in words and (language, "TO MOVE") in words
            assert {lang for lang, _ in words} == {language}
            if language == "de":     # every word the German board drew has a German translation
                german = texts._tables["de"]
                assert all(german.get(m) and german[m] != m for _, m in words), words
    assert set(messages()) <= set(texts._tables["de"])


# ---- seat names and end sentences ---------------------------------------------------------------------------------
async def test_a_german_server_reads_german_seat_names_and_end_sentences_while_the_record_stays_english(db, clock):
    """Spinca names its seats: the board post, the result and the caption say Weiß/Schwarz on a German server and
    White/Black on an English one; the exported record is a file format and stays English on both."""
    for guild_locale, language in (("de", "de"), ("en-US", "en")):
        async with FakeDiscord(make_bot(db, clock), guild_id=GUILD + (language == "en"), locale=guild_locale,
                               guild_locale=guild_locale) as fake:
            ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
            card = next(s for s in await fake.slash(ann, "spinca challenge", opponent=bob, time=0)
                        if s.kind == "channel_message")
            begun = boards(await fake.click(bob, card.button("Annehmen" if language == "de" else "Accept")["custom_id"],
                                            message=card))[-1].text()
            resign = (await fake.slash(ann, "spinca resign"))[-1].components
            out = await fake.click(ann, next(c for c in resign if c.get("label") in ("Ja, aufgeben", "Yes, resign"))
                                   ["custom_id"])
            await fake.settle()
            ended = " ".join(s.text() for s in out + fake.sent if s.kind == "channel_message")
            seat = ("White", "Black")[0 if "White: <@11>" in begun or "Weiß: <@11>" in begun else 1]
            if language == "de":
                assert "Weiß: <@1" in begun and " · Schwarz: <@1" in begun, begun
                assert "White" not in begun and "Black" not in begun
                assert f"{dict(White='Weiß', Black='Schwarz')[seat]} (<@11>) hat aufgegeben." in ended, ended
                assert "White" not in ended and "Black" not in ended
            else:
                assert "White: <@1" in begun and " · Black: <@1" in begun and "Weiß" not in begun, begun
                assert f"{seat} (<@11>) resigned." in ended and "Weiß" not in ended, ended
            number = 1 if language == "de" else 2         # one database for both servers
            reply = next(s for s in await fake.slash(ann, "match record", match=f"#{number}") if s.files)
            record = next(data for name, data in reply.files if name.endswith(".txt")).decode()
            assert '[Seat1 "White"]' in record and '[Seat2 "Black"]' in record
            assert f'[Termination "{seat} (Ann) resigned."]' in record and "Weiß" not in record


def play_out(key: str, players: int, seed: int):
    """A random game of ``key`` played to its end by the engine alone."""
    game = GAMES[key]
    rng, state = random.Random(seed), game.new(players, seed=seed)
    while not state.is_over:
        value, _ = rng.choice(game.turn_suggestions(state, "", 25))
        for move in game.split_turn(value):
            state = state.play(move)
    return state


@pytest.mark.parametrize(("key", "players"), [(k, n) for k, g in GAMES.items() for n in g.player_counts])
def test_every_game_ends_with_a_german_sentence_and_german_seat_names(key, players):
    """The engines' own end sentences and the words of their facts ('red', 'checkers', 'home') in German; the
    English sentence is what it always was."""
    game = GAMES[key]
    for seed in range(6):
        state = play_out(key, players, seed)
        outcome = state.outcome()
        assert outcome is not None
        seats = game.seat_names(players)
        english = outcome_text(game, outcome, seats)
        assert outcome_text(game, outcome, seats, lambda m: m) == english
        with speaking("de"):
            german = outcome_text(game, outcome, [i18n._(s) for s in seats], i18n._)
        assert german != english and german == german.strip()
        words = set(re.findall(r"[A-Za-z]+", english)) - set(re.findall(r"[A-Za-z]+", german))
        english_only = {"White", "Black", "Red", "South", "North", "Player", "holds", "wins", "win", "draw", "red",
                        "orange", "yellow", "green", "blue", "purple", "white", "checker", "checkers", "home"}
        assert not english_only & set(re.findall(r"[A-Za-z]+", german)), german
        assert words, (english, german)
