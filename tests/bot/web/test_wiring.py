"""The match pages reached from Discord: /settings turns them on (admins only), the board post gets an "Open in
browser" link button and /match record the link, only when the server allows pages and the bot serves them."""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import replace

import discord
import pytest

from bot.services.pages import PAGE_PATH, TOURNAMENT_PATH
from bot.services.settings import SettingsRequest
from bot.store.pages import PageStore
from tests.bot.discord_harness import FakeDiscord
from tests.bot.support import make_bot, said
from tests.bot.tournament_support import create as create_tournament
from tests.bot.web.support import PUBLIC_URL, allow_local, fetch, finished, pages_on, played, serve, started
from tests.conftest import ANN, BOTH_BACKENDS, GUILD

BACKENDS = BOTH_BACKENDS     # the settings on SQLite and on a real PostgreSQL server
ADMIN = discord.Permissions(manage_guild=True)
WEB_PORT = 8080              # configured only: the tests' own web server listens on an ephemeral port
OPEN = "Open in browser"


@pytest.fixture(autouse=True)
def loopback(monkeypatch):
    allow_local(monkeypatch)


@asynccontextmanager
async def configured(db, clock, web_port: int | None):
    """The bot with PUBLIC_URL set, and WEB_PORT as given (pages are served only when both are set)."""
    bot = make_bot(db, clock)
    bot.config = replace(bot.config, public_url=PUBLIC_URL, web_port=web_port)
    async with FakeDiscord(bot, guild_id=GUILD) as f:
        yield f
        await f.settle()


@pytest.fixture
async def web_fake(db, clock):
    """The bot as configured to serve pages (PUBLIC_URL and WEB_PORT set)."""
    async with configured(db, clock, WEB_PORT) as f:
        yield f


def token_of(url: str) -> str:
    assert url.startswith(PUBLIC_URL + PAGE_PATH), url
    return url[len(PUBLIC_URL + PAGE_PATH):]


async def board_post(fake: FakeDiscord, match_id: int):
    """The last board posted for the match after its outbox is delivered (the replay after it has no buttons)."""
    await fake.client.dispatcher.deliver_pending(match_id)
    boards = [s for s in fake.sent if s.kind == "channel_message" and s.files and s.components]
    assert boards, [s.kind for s in fake.sent]
    return boards[-1]


def link_buttons(sent) -> list[dict]:
    return [c for c in sent.components if c.get("style") == discord.ButtonStyle.link.value]


async def test_an_admin_turns_pages_on_and_the_board_link_opens_the_page(web_fake):
    services = web_fake.client.services
    admin = web_fake.user(9, "Root", permissions=ADMIN)
    out = await web_fake.slash(admin, "settings", pages="link", page_names=1)
    assert "Match pages: by link only, with display names" in said(out), said(out)
    match = await finished(services, 4)
    [button] = link_buttons(await board_post(web_fake, match.id))
    assert button["label"] == OPEN
    site = await serve(services)
    try:
        status, _headers, body = await fetch(site.port, f"/m/{token_of(button['url'])}")
        assert status == 200 and f"#{match.id}" in body.decode()
        out = await web_fake.slash(admin, "settings", new_page_links=True)    # revokes every link given so far
        assert "Match pages: by link only" in said(out)
        status, _headers, _body = await fetch(site.port, f"/m/{token_of(button['url'])}")
        assert status == 404
    finally:
        await site.stop()


async def test_a_member_who_is_not_an_admin_is_refused_and_nothing_changes(web_fake):
    services = web_fake.client.services
    member = web_fake.user(11, "Ann")
    before = await services.pages.store.settings(GUILD)
    for options in ({"pages": "link"}, {"page_names": 1}, {"new_page_links": True}):
        out = await web_fake.slash(member, "settings", notify="off", **options)
        assert "Only members with the Manage Server permission can change the server's settings" in said(out)
        assert await services.pages.store.settings(GUILD) == before
        assert await services.settings.notify(11) != "off"       # nothing else of the command either
    match = await finished(services, 4)
    assert link_buttons(await board_post(web_fake, match.id)) == []


async def test_pages_asked_with_a_bad_value_beside_them_change_nothing(web_fake):
    """/settings is one service call in one transaction: a refused value refuses the pages options beside it."""
    services = web_fake.client.services
    admin = web_fake.user(9, "Root", permissions=ADMIN)
    before = await services.pages.store.settings(GUILD)
    out = await web_fake.slash(admin, "settings", pages="link", timezone="Mars/Olympus_Mons")
    assert "Nothing was changed" in said(out) or "nothing was changed" in said(out)
    assert await services.pages.store.settings(GUILD) == before


async def test_no_button_when_the_server_has_pages_off(web_fake):
    match = await finished(web_fake.client.services, 4)
    post = await board_post(web_fake, match.id)
    assert link_buttons(post) == []


async def test_no_button_and_no_link_when_the_bot_serves_no_pages(db, clock):
    async with configured(db, clock, web_port=None) as fake:     # PUBLIC_URL alone: nothing listens
        services = fake.client.services
        await pages_on(services)
        match = await finished(services, 4)
        assert link_buttons(await board_post(fake, match.id)) == []
        out = await fake.slash(fake.user(11, "Ann"), "match record", match=f"#{match.id}")
        assert out[-1].files and "browser" not in said(out).lower()


async def test_match_record_gives_the_page_link_beside_the_file_when_pages_are_allowed(web_fake):
    services = web_fake.client.services
    ann = web_fake.user(11, "Ann")
    match = await finished(services, 4)
    out = await web_fake.slash(ann, "match record", match=f"#{match.id}")
    assert out[-1].files and "browser" not in said(out).lower()
    await pages_on(services)
    out = await web_fake.slash(ann, "match record", match=f"#{match.id}")
    assert out[-1].files
    url = next(w for w in said(out).split() if w.startswith(PUBLIC_URL))
    assert await services.pages.open(token_of(url)) is not None


def private_boards(out) -> list:
    """The boards a spectator's /board showed privately (never posted in the channel)."""
    return [s for s in out if s.files and s.ephemeral and s.kind == "edit_original"]


async def test_a_spectators_private_board_opens_in_the_browser_only_while_the_server_allows_pages(web_fake):
    services = web_fake.client.services
    cy = web_fake.user(13, "Cy")
    match = await played(services, await started(services), 3)
    await pages_on(services)
    [shown] = private_boards(await web_fake.slash(cy, "tintas board", match=f"#{match.id}"))
    [button] = link_buttons(shown)
    assert button["label"] == OPEN
    page = await services.pages.open(token_of(button["url"]))
    assert page is not None and page.match.id == match.id
    await services.settings_service.change(GUILD, 0, SettingsRequest(pages="off"), admin=True)
    [shown] = private_boards(await web_fake.slash(cy, "tintas board", match=f"#{match.id}"))
    assert shown.components == []


async def test_a_players_board_posted_again_opens_in_the_browser_only_while_the_server_allows_pages(web_fake):
    services = web_fake.client.services
    ann = web_fake.user(ANN.user_id, ANN.name)
    match = await played(services, await started(services), 3)

    async def reposted():
        out = await web_fake.slash(ann, "tintas board", match=f"#{match.id}")
        return [s for s in out if s.kind == "channel_message" and s.files][-1]
    assert link_buttons(await reposted()) == []
    await pages_on(services)
    [button] = link_buttons(await reposted())
    assert (await services.pages.open(token_of(button["url"]))).match.id == match.id


async def test_no_private_button_when_the_bot_serves_no_pages(db, clock):
    async with configured(db, clock, web_port=None) as fake:     # PUBLIC_URL alone: nothing listens
        services = fake.client.services
        await pages_on(services)
        match = await played(services, await started(services), 3)
        [shown] = private_boards(await fake.slash(fake.user(13, "Cy"), "tintas board", match=f"#{match.id}"))
        assert shown.components == []


async def test_a_board_post_in_a_server_with_pages_off_reads_no_page_settings(web_fake, monkeypatch):
    """The server's pages setting comes with the match the post reads anyway (MatchRow.server_pages): with pages
    off, no read of the page settings; with them on, the link as before."""
    services = web_fake.client.services
    reads = []
    settings = PageStore.settings

    async def counted(store, guild_id):
        reads.append(guild_id)
        return await settings(store, guild_id)
    monkeypatch.setattr(PageStore, "settings", counted)
    match = await finished(services, 4)
    assert (await services.queries.get(match.id)).row.server_pages == "off"     # no guild_settings row at all
    await services.settings_service.change(GUILD, 0, SettingsRequest(threads=0), admin=True)
    assert (await services.queries.get(match.id)).row.server_pages == "off"     # a row, pages off
    reads.clear()
    assert link_buttons(await board_post(web_fake, match.id)) == [] and reads == []
    other = await finished(services, 4)
    await pages_on(services)
    assert (await services.queries.get(other.id)).row.server_pages == "link"
    [button] = link_buttons(await board_post(web_fake, other.id))
    assert reads and (await services.pages.open(token_of(button["url"]))).match.id == other.id


def tournament_cards(sent) -> list:
    return [s for s in sent if s.kind == "channel_message"
            and any(str(c.get("custom_id", "")).startswith("tn:join:") for c in s.components)]


async def test_a_tournament_card_opens_the_tournament_page_only_while_the_server_allows_pages(web_fake):
    services = web_fake.client.services
    await pages_on(services)
    view = await create_tournament(services)
    await web_fake.client.dispatcher.deliver_pending()
    [card] = tournament_cards(web_fake.sent)
    [button] = link_buttons(card)
    assert button["label"] == OPEN and button["url"].startswith(PUBLIC_URL + TOURNAMENT_PATH)
    page = await services.pages.open_tournament(button["url"][len(PUBLIC_URL + TOURNAMENT_PATH):],
                                                services.tournaments)
    assert page is not None and page.tournament.id == view.id
    await services.settings_service.change(GUILD, 0, SettingsRequest(pages="off"), admin=True)
    await services.tournaments.join(view.id, ANN, guild_id=GUILD)      # the card is brought up to date
    await web_fake.client.dispatcher.deliver_pending()
    card = web_fake.message(card.message_id)
    assert "Ann" in card.text() and link_buttons(card) == []
