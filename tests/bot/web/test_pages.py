"""Match pages over real HTTP: private by default, every wrong link the same 404, names as the server chose, and
the page's HTML, JSON, boards and files."""

from __future__ import annotations

import json

import pytest
from aiohttp.test_utils import make_mocked_request

from bot.config import ConfigError, load_config
from bot.model import BadInput, NotAllowed
from bot.services.pages import LINK_LIFETIME, Pages, new_secret, sign, unpack
from bot.services.settings import SettingsRequest
from bot.web.server import NOT_FOUND_BODY, RateLimit, client_address, reader_language
from tests.bot.web.support import PUBLIC_URL, allow_local, fetch, finished, link, pages_on, serve, started
from tests.conftest import ANN, BOB, BOTH_BACKENDS, GUILD

BACKENDS = BOTH_BACKENDS     # the settings and links on SQLite and on a real PostgreSQL server
OTHER_GUILD = 3000
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def loopback(monkeypatch):
    allow_local(monkeypatch)


@pytest.fixture
async def site(services):
    running = await serve(services)
    yield running
    await running.stop()


async def assert_hidden(port: int, token: str) -> None:
    """Every way in to a page answers the one 404 body."""
    for tail in ("", "/data.json", "/board/0.png", "/record.txt", "/replay.gif"):
        status, _headers, body = await fetch(port, f"/m/{token}{tail}")
        assert (status, body.decode()) == (404, NOT_FOUND_BODY), tail


async def test_pages_are_off_by_default_and_a_server_that_never_turned_them_on_shows_nothing(services, site):
    match = await finished(services, 4)
    assert await Pages(services.ctx, services.queries).token(match.id, GUILD) is None
    guessed = sign(match.id, GUILD, int(services.clock().timestamp()), new_secret())
    await assert_hidden(site.port, guessed)


async def test_a_link_opens_its_page_until_the_server_turns_pages_off(services, site):
    match = await finished(services, 4)
    await pages_on(services)
    token = await link(services, match)
    status, headers, body = await fetch(site.port, f"/m/{token}")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert headers["referrer-policy"] == "no-referrer"          # the link never leaves as a Referer
    assert f"#{match.id}" in body.decode()
    await services.settings_service.change(GUILD, 0, SettingsRequest(pages="off"), admin=True)
    await assert_hidden(site.port, token)


async def test_forged_and_malformed_links_get_the_same_404(services, site):
    match = await finished(services, 4)
    await pages_on(services)
    token = await link(services, match)
    forged_mac = token[:-2] + ("AA" if token[-2:] != "AA" else "BB")
    parts = unpack(token)
    assert parts is not None
    other_match = sign(match.id + 1, GUILD, parts[2], new_secret())
    for bad in (forged_mac, other_match, "abc", "!!!!", "A" * 500, token + "A", token[:-1], "%00"):
        await assert_hidden(site.port, bad)
    status, _headers, body = await fetch(site.port, "/nowhere")
    assert (status, body.decode()) == (404, NOT_FOUND_BODY)


async def test_a_link_signed_for_another_server_opens_nothing_of_this_one(services, site):
    match = await finished(services, 4)                     # in GUILD
    await pages_on(services)
    await pages_on(services, guild=OTHER_GUILD)
    theirs = await Pages(services.ctx, services.queries).token(match.id, OTHER_GUILD)   # their secret, our match
    assert theirs is not None
    await assert_hidden(site.port, theirs)


async def test_rotating_the_secret_revokes_every_link(services, site):
    match = await finished(services, 4)
    await pages_on(services)
    old = await link(services, match)
    await services.settings_service.change(GUILD, 0, SettingsRequest(new_page_links=True), admin=True)
    await assert_hidden(site.port, old)
    assert (await fetch(site.port, f"/m/{await link(services, match)}"))[0] == 200


async def test_an_expired_link_and_one_from_the_future_open_nothing(services, site, clock):
    match = await finished(services, 4)
    await pages_on(services)
    token = await link(services, match)
    clock.advance(seconds=LINK_LIFETIME + 1)
    await assert_hidden(site.port, token)
    future = await link(services, match)
    clock.advance(seconds=-LINK_LIFETIME - 1)
    await assert_hidden(site.port, future)


async def test_pages_show_seat_names_unless_the_server_opts_in_to_display_names(services, site):
    match = await finished(services, 4)
    await pages_on(services)
    token = await link(services, match)
    for tail in ("", "/data.json", "/record.txt"):
        body = (await fetch(site.port, f"/m/{token}{tail}"))[2].decode()
        assert "Ann" not in body and "Bob" not in body, tail
        assert "Player 1" in body and "Player 2" in body, tail
    await pages_on(services, names=1)
    for tail in ("", "/data.json", "/record.txt"):
        body = (await fetch(site.port, f"/m/{token}{tail}"))[2].decode()
        assert "Ann" in body and "Bob" in body, tail


async def test_noindex_unless_the_server_lists_its_pages(services, site):
    match = await finished(services, 4)
    await pages_on(services)
    token = await link(services, match)
    _status, headers, body = await fetch(site.port, f"/m/{token}")
    assert '<meta name="robots" content="noindex">' in body.decode() and headers["x-robots-tag"] == "noindex"
    await pages_on(services, mode="listed")
    _status, headers, body = await fetch(site.port, f"/m/{token}")
    assert "noindex" not in body.decode() and "x-robots-tag" not in headers


async def test_the_page_unfurls_with_the_final_board_under_the_public_url(services, site):
    match = await finished(services, 6)
    await pages_on(services)
    token = await link(services, match)
    data = json.loads((await fetch(site.port, f"/m/{token}/data.json"))[2])
    last = len(data["turns"]) - 1
    page = (await fetch(site.port, f"/m/{token}"))[2].decode()
    assert f'<meta property="og:image" content="{PUBLIC_URL}/m/{token}/board/{last}.png">' in page
    assert f'<meta property="og:title" content="{data["title"]}">' in page
    assert f'<meta property="og:description" content="{data["result"]}">' in page


async def test_the_data_lists_every_turn_and_every_ply_has_its_board(services, site):
    match = await finished(services, 6)
    await pages_on(services)
    token = await link(services, match)
    match_now, frames = await services.queries.turns(match.id, guild_id=GUILD)
    data = json.loads((await fetch(site.port, f"/m/{token}/data.json"))[2])
    assert [t["ply"] for t in data["turns"]] == list(range(len(frames)))
    assert data["running"] is False and "wins" in data["result"]
    assert data["turns"][1]["text"].startswith("Player ") and " played " in data["turns"][1]["text"]
    boards = set()
    for ply in range(len(frames)):
        status, headers, body = await fetch(site.port, f"/m/{token}/board/{ply}.png")
        assert status == 200 and headers["content-type"] == "image/png" and body.startswith(PNG)
        boards.add(body)
    assert len(boards) == len(frames)            # each ply its own board
    status, _headers, body = await fetch(site.port, f"/m/{token}/board/{len(frames)}.png")
    assert (status, body.decode()) == (404, NOT_FOUND_BODY)
    status, headers, body = await fetch(site.port, f"/m/{token}/replay.gif")
    assert status == 200 and body.startswith(b"GIF8")
    status, headers, body = await fetch(site.port, f"/m/{token}/record.txt")
    assert status == 200 and f'[Match "#{match_now.id}"]' in body.decode()


async def test_the_page_speaks_the_readers_language(services, site):
    match = await finished(services, 4)
    await pages_on(services)
    token = await link(services, match)
    german = json.loads((await fetch(site.port, f"/m/{token}/data.json",
                                     {"Accept-Language": "fr-FR, de-DE;q=0.8, en;q=0.5"}))[2])
    assert german["language"] == "de" and german["turns"][1]["text"].endswith("gespielt")
    assert german["labels"]["next"] == "Weiter" and german["turns"][0]["text"] == "Ausgangsstellung"
    english = json.loads((await fetch(site.port, f"/m/{token}/data.json"))[2])
    assert english["language"] == "en" and " played " in english["turns"][1]["text"]


def test_reader_language_follows_the_weights():
    assert reader_language("en;q=0.4, de;q=0.9") == "de"
    assert reader_language("de;q=0, en") == "en"
    assert reader_language("") == "en"
    assert reader_language("x;q=abc, de") == "de"


async def test_a_running_match_shows_its_current_position(services, site):
    match = await started(services)
    await pages_on(services)
    token = await link(services, match)
    data = json.loads((await fetch(site.port, f"/m/{token}/data.json"))[2])
    assert data["running"] is True and len(data["turns"]) == 1
    match = await services.queries.get(match.id)
    await services.play.submit_turn(match, match.to_move_user.user_id, match.position.legal_moves()[0],
                                    guild_id=GUILD)
    data = json.loads((await fetch(site.port, f"/m/{token}/data.json"))[2])
    assert len(data["turns"]) == 2


async def test_each_client_address_is_limited(services):
    limited = await serve(services, rate_limit=RateLimit(limit=3, window=60.0))
    try:
        statuses = [(await fetch(limited.port, "/m/x"))[0] for _ in range(4)]
        assert statuses == [404, 404, 404, 429]
        forwarded = [(await fetch(limited.port, "/m/x", {"X-Forwarded-For": "203.0.113.9"}))[0] for _ in range(2)]
        assert forwarded == [404, 404]       # behind the proxy on loopback, another reader has its own limit
    finally:
        await limited.stop()


def test_rate_limit_opens_a_new_window():
    limit = RateLimit(limit=2, window=10.0)
    assert [limit.allow("a", 0.0), limit.allow("a", 1.0), limit.allow("a", 2.0)] == [True, True, False]
    assert limit.allow("b", 2.0) and limit.allow("a", 10.5)


async def test_only_admins_change_pages_and_bad_values_change_nothing(services):
    with pytest.raises(NotAllowed):
        await services.settings_service.change(GUILD, 0, SettingsRequest(pages="link"), admin=False)
    for bad in ({"pages": "public"}, {"pages": 1}, {"page_names": 2}, {"page_names": "yes"},
                {"new_page_links": "yes"}):
        with pytest.raises(BadInput):
            await services.settings_service.change(GUILD, 0, SettingsRequest(**bad), admin=True)
    settings = await Pages(services.ctx, services.queries).store.settings(GUILD)
    assert (settings.mode, settings.display_names, settings.secret) == ("off", False, None)


def test_pages_need_both_public_url_and_web_port():
    assert not load_config(environ={}).web_enabled
    assert not load_config(environ={"PUBLIC_URL": "https://x.org"}).web_enabled
    config = load_config(environ={"PUBLIC_URL": "https://x.org/games/", "WEB_PORT": "8081"})
    assert config.web_enabled and config.public_url == "https://x.org/games" and config.web_port == 8081
    for bad in ({"PUBLIC_URL": "x.org"}, {"PUBLIC_URL": "https://x.org", "WEB_PORT": "0"},
                {"PUBLIC_URL": "https://x.org", "WEB_PORT": "http"}):
        with pytest.raises(ConfigError):
            load_config(environ=bad)


async def test_a_challenge_never_started_has_no_page(services, site):
    await pages_on(services)
    challenge = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=2000, challenger=ANN,
                                                    opponents=[BOB], days_per_move=3)
    await assert_hidden(site.port, await link(services, challenge))


class Peer:
    """A connection's transport as aiohttp asks it for the peer's address."""

    def __init__(self, address: str):
        self.address = address

    def get_extra_info(self, name: str, default=None):
        return (self.address, 40000) if name == "peername" else default


def test_a_reader_cannot_escape_the_rate_limit_by_naming_another_address():
    named = {"X-Forwarded-For": "203.0.113.9"}
    direct = make_mocked_request("GET", "/m/x", headers=named, transport=Peer("198.51.100.7"))
    assert client_address(direct) == "198.51.100.7"            # not our proxy: its header means nothing
    proxied = make_mocked_request("GET", "/m/x", headers={"X-Forwarded-For": "198.51.100.1, 203.0.113.9"},
                                  transport=Peer("127.0.0.1"))
    assert client_address(proxied) == "203.0.113.9"            # the proxy's own entry: the last one
