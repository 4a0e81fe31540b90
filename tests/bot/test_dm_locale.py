"""Direct messages speak the reader's language: a user's Discord locale, remembered from their interactions, is
the language of their DMs (a reminder, 'it is your move', the digest), while posts in a channel keep the
server's; a user whose locale is unknown gets the server's; a later locale replaces the first; a command with
an unchanged locale writes nothing more."""

from __future__ import annotations

from contextlib import asynccontextmanager
from datetime import UTC, datetime

from bot.discord.locales import LocaleMemory
from tests.bot.discord_harness import FakeDiscord
from tests.bot.support import GUILD, autocompleted_turn, boards, cards, make_bot, said
from tests.conftest import BOTH_BACKENDS

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL

BERLIN_9 = datetime(2026, 1, 2, 8, 0, tzinfo=UTC)   # 09:00 in Berlin after the clock's start (Jan 1, 12:00 UTC)


@asynccontextmanager
async def english_server(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="en-US", guild_locale="en-US") as fake:
        yield fake, fake.user(11, "Ann"), fake.user(12, "Bob")
        await fake.settle()


async def as_(fake, locale: str, call):
    """One interaction by a user whose Discord client speaks ``locale``."""
    fake.locale = locale
    return await call


async def to_move(fake, match_id: int = 1) -> int:
    match = await fake.client.services.queries.get(match_id, position=False)
    assert match.to_move_user is not None
    return match.to_move_user.user_id


async def ann_to_move(fake, ann, bob, time=1):
    """Bob (English) challenges Ann (German), she accepts; Bob plays once if he starts. The board posts."""
    card = cards(await as_(fake, "en-US", fake.slash(bob, "tintas challenge", opponent=ann, time=time)))[0]
    posted = boards(await as_(fake, "de", fake.click(ann, card.button("Accept")["custom_id"], message=card)))
    if await to_move(fake) != int(ann["id"]):
        value = await as_(fake, "en-US", autocompleted_turn(fake, bob, "tintas move"))
        posted += boards(await fake.slash(bob, "tintas move", move=value))
    assert await to_move(fake) == int(ann["id"])
    return posted


def dms_to(fake, user) -> list:
    return [s for s in fake.sent if s.kind == "dm" and s.recipient_id == int(user["id"])]


async def deliver_due(fake):
    await fake.client.scheduler.run_due()
    await fake.client.dispatcher.deliver_pending()


# ---- through the command tree ----------------------------------------------------------------------------------
async def test_a_german_user_in_an_english_server_gets_german_dms_while_the_board_stays_english(db, clock):
    async with english_server(db, clock) as (fake, ann, bob):
        assert "eine Direktnachricht" in said(await as_(fake, "de", fake.slash(ann, "settings", notify="dm")))
        posted = await ann_to_move(fake, ann, bob, time=1)
        assert posted and all("Partie" not in b.text() and "am Zug" not in b.text() for b in posted)
        assert "The match begins!" in posted[0].text()
        turn = dms_to(fake, ann)
        assert len(turn) == 1 and "Du bist am Zug." in turn[0].content and "your move" not in turn[0].content
        clock.advance(hours=20)                                   # past 80 % of the day per move
        await deliver_due(fake)
        reminder = dms_to(fake, ann)[1:]
        assert len(reminder) == 1 and reminder[0].content.startswith("⏰ Erinnerung: Tintas #1")
        assert "Reminder" not in reminder[0].content and "https://discord.com/channels/" in reminder[0].content
        channel = [s for s in fake.sent if s.kind == "channel_message"]
        assert not any("Erinnerung" in s.text() or "am Zug" in s.text() for s in channel)


async def test_a_german_user_gets_the_daily_digest_in_german(db, clock):
    async with english_server(db, clock) as (fake, ann, bob):
        await as_(fake, "de", fake.slash(ann, "settings", notify="digest", digest_hour=9, timezone="Europe/Berlin"))
        await ann_to_move(fake, ann, bob)
        clock.now = BERLIN_9
        await deliver_due(fake)
        digest = [s for s in dms_to(fake, ann) if s.content.startswith("📬")]
        assert len(digest) == 1
        assert "📬 Deine tägliche Zusammenfassung: Du bist in 1 Partie am Zug." in digest[0].content
        assert "daily digest" not in digest[0].content


async def test_a_user_whose_locale_is_unknown_gets_the_server_language(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, locale="en-US", guild_locale="de") as fake:
        ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
        await fake.slash(ann, "settings", notify="dm")
        card = cards(await fake.slash(bob, "tintas challenge", opponent=ann, time=1))
        assert not card                                           # the German server's card says 'Annehmen'
        card = [s for s in fake.sent if s.kind == "channel_message" and s.components][-1]
        await fake.click(ann, card.button("Annehmen")["custom_id"], message=card)
        if await to_move(fake) != 11:
            value = await autocompleted_turn(fake, bob, "tintas move")
            await fake.slash(bob, "tintas move", move=value)
        assert "It is your move." in dms_to(fake, ann)[-1].content       # her English locale, remembered
        # a user known from before the bot remembered locales: nothing stored, so the server's language
        async with db.transaction() as tx:
            await tx.execute("UPDATE user_settings SET locale = NULL WHERE user_id = ?", (11,))
        clock.advance(hours=20)
        await deliver_due(fake)
        assert dms_to(fake, ann)[-1].content.startswith("⏰ Erinnerung: Tintas #1")
        await fake.settle()


async def test_a_later_locale_replaces_the_first_and_the_next_dm_follows_it(db, clock):
    async with english_server(db, clock) as (fake, ann, bob):
        await as_(fake, "de", fake.slash(ann, "settings", notify="dm"))
        assert await fake.client.services.settings.locale(11) == "de"
        await ann_to_move(fake, ann, bob)
        assert "Du bist am Zug." in dms_to(fake, ann)[-1].content
        await as_(fake, "en-GB", fake.slash(ann, "matches"))      # her Discord switched to British English
        assert await fake.client.services.settings.locale(11) == "en-GB"
        clock.advance(hours=20)
        await deliver_due(fake)
        assert dms_to(fake, ann)[-1].content.startswith("⏰ Reminder: Tintas #1")


async def test_a_command_with_an_unchanged_locale_writes_nothing_more(db, clock, monkeypatch):
    async with english_server(db, clock) as (fake, ann, _bob):
        real = db.transaction
        opened: list[int] = []

        def counting():
            opened.append(1)
            return real()
        monkeypatch.setattr(db, "transaction", counting)
        await as_(fake, "de", fake.slash(ann, "matches"))         # /matches only reads: the one write is the locale
        assert len(opened) == 1 and await fake.client.services.settings.locale(11) == "de"
        await as_(fake, "de", fake.slash(ann, "matches"))
        await as_(fake, "de", fake.slash(ann, "matches"))
        assert len(opened) == 1                                   # the same locale again: no write
        await as_(fake, "en-US", fake.slash(ann, "matches"))
        assert len(opened) == 2 and await fake.client.services.settings.locale(11) == "en-US"


# ---- the store and the memory ----------------------------------------------------------------------------------
async def test_the_store_remembers_a_locale_beside_the_notify_choice(services):
    settings = services.settings
    assert await settings.locale(11) is None
    await settings.remember_locale(11, "de")
    assert await settings.locale(11) == "de" and await settings.notify(11) == "mention"
    await settings.set_notify(11, "dm")
    assert await settings.locale(11) == "de" and await settings.notify(11) == "dm"   # the choice keeps it
    await settings.remember_locale(11, "en-US")
    assert await settings.locale(11) == "en-US" and await settings.notify(11) == "dm"   # the locale keeps it
    await settings.remember_locale(11, "en-US")
    assert await settings.locale(11) == "en-US"
    await settings.set_notify(12, "off")
    assert await settings.locale(12) is None and await settings.locale(13) is None


async def test_the_memory_is_bounded_and_forgets_the_least_recent_user(services):
    memory = LocaleMemory(size=3)
    for user in (1, 2, 3):
        assert await memory.remember(services.settings, user, "de") is True
    assert await memory.remember(services.settings, 1, "de") is False      # known: user 1 is now the most recent
    assert await memory.remember(services.settings, 4, "de") is True       # user 2, least recent, is dropped
    assert len(memory) == 3
    assert await memory.remember(services.settings, 1, "de") is False
    assert await memory.remember(services.settings, 2, "de") is True       # forgotten: written again (harmless)
    assert await memory.remember(services.settings, 1, "") is False        # no locale: nothing to store
    assert [await services.settings.locale(u) for u in (1, 2, 3, 4)] == ["de"] * 4


async def test_the_locale_is_stored_only_after_the_interaction_is_acknowledged(db, clock, monkeypatch):
    async with english_server(db, clock) as (fake, ann, _bob):
        settings = fake.client.services.settings
        real = settings.remember_locale
        acknowledged_before: list[int] = []

        async def spy(user_id: int, locale: str) -> None:
            acknowledged_before.append(sum(1 for r in fake.requests if r.path.endswith("/callback")))
            await real(user_id, locale)
        monkeypatch.setattr(settings, "remember_locale", spy)
        out = await as_(fake, "de", fake.slash(ann, "matches"))
        assert out[0].kind == "deferred" and acknowledged_before == [1]
