"""A tournament's page, /t/<token>: the standings (a table and the render pool's image), each round's games linking
to their match pages, a version the page polls while the event runs; private like a match's page (off by default,
nothing of another server, a rotated secret revokes, a match's token never opens a tournament)."""

from __future__ import annotations

import html
import json
import re

import pytest

from bot.services.pages import PAGE_PATH, TOURNAMENT_KIND, TOURNAMENT_PATH, Pages, sign
from bot.services.settings import SettingsRequest
from bot.services.tournament_views import TournamentSettings, TournamentView
from bot.tournaments.model import Format
from bot.web.server import NOT_FOUND_BODY
from tests.bot.tournament_support import CHANNEL, PLAYERS, Recorder, create, entered, play_round
from tests.bot.web.support import PUBLIC_URL, allow_local, fetch, pages_on, serve
from tests.conftest import BOTH_BACKENDS, GUILD

BACKENDS = BOTH_BACKENDS
OTHER_GUILD = GUILD + 1
NAMES = [p.name for p in PLAYERS[:4]]


@pytest.fixture(autouse=True)
def loopback(monkeypatch):
    allow_local(monkeypatch)


@pytest.fixture
async def site(services):
    running = await serve(services)
    yield running
    await running.stop()


def first_loses(seats: tuple[int, ...]) -> int:
    return seats[0]


async def running_event(services, rounds_played: int = 1) -> TournamentView:
    """A round robin of four (it starts when full) with ``rounds_played`` rounds decided."""
    front = Recorder(services)
    view = await create(services, Format.ROUND_ROBIN, max_entrants=4)
    await entered(services, view.id, 4)
    await front.settle()
    for _ in range(rounds_played):
        await play_round(services, view.id, first_loses)
        await front.settle()
    return await services.tournaments.read(view.id)


async def token_of(services, tournament_id: int, guild: int = GUILD) -> str:
    token = await Pages(services.ctx, services.queries).token(tournament_id, guild, TOURNAMENT_KIND)
    assert token is not None
    return token


def text_of(page: str) -> str:
    """What a reader sees of a page: its text, without the tags (the links' tokens are random letters)."""
    return re.sub(r"<[^>]*>", " ", page)


async def assert_hidden(port: int, path: str) -> None:
    status, headers, body = await fetch(port, path)
    assert (status, body.decode()) == (404, NOT_FOUND_BODY)
    assert "set-cookie" not in headers


async def test_the_page_shows_the_standings_and_links_every_game_to_its_match_page(services, site):
    view = await running_event(services)
    await pages_on(services, names=1)
    url = await services.pages.tournament_url(PUBLIC_URL, view.id, GUILD)
    assert url is not None and url.startswith(PUBLIC_URL + TOURNAMENT_PATH)
    path = url[len(PUBLIC_URL):]
    status, headers, body = await fetch(site.port, path)
    page = body.decode()
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert headers["referrer-policy"] == "no-referrer" and headers["x-robots-tag"] == "noindex"
    assert "Autumn cup" in page and "Round 2 of 3 is being played." in page
    rows = re.findall(r"<tr><td>(\d+)</td><td>([^<]+)</td><td>([^<]+)</td>", page)
    assert sorted(name for _rank, name, _points in rows) == sorted(NAMES)
    assert [(int(rank), name, points) for rank, name, points in rows] == [
        (s.rank, s.name, str(s.points) if s.points.denominator == 1 else "½") for s in view.standings]
    [image_path] = re.findall(r'<img id="standings-image" src="([^"]+)"', page)
    assert image_path.startswith(f"{path}/standings.png?v=")                 # a new address for new standings
    assert f'content="{PUBLIC_URL}{html.escape(image_path)}"' in page      # og:image: the standings
    image = await fetch(site.port, html.unescape(image_path))
    assert image[0] == 200 and image[2].startswith(b"\x89PNG")
    games = {t.match_id for r in view.rounds for t in r.tables if t.match_id is not None}
    links = re.findall(rf'<a href="({PAGE_PATH}[^"]+)">', page)
    assert len(links) == len(games) == 4                                     # rounds 1 and 2: two games each
    opened = set()
    for link in links:
        found = await services.pages.open(link[len(PAGE_PATH):])
        assert found is not None
        opened.add(found.match.id)
        assert (await fetch(site.port, link))[0] == 200
    assert opened == games


async def test_the_version_the_page_polls_changes_with_a_result(services, site):
    view = await running_event(services)
    await pages_on(services)
    path = f"{TOURNAMENT_PATH}{await token_of(services, view.id)}"
    before = json.loads((await fetch(site.port, f"{path}/data.json"))[2])
    assert before["running"] and before["round"] == 2
    again = json.loads((await fetch(site.port, f"{path}/data.json"))[2])
    assert again["version"] == before["version"]                             # nothing changed: no reload
    front = Recorder(services)
    await play_round(services, view.id, first_loses)
    await front.settle()
    after = json.loads((await fetch(site.port, f"{path}/data.json"))[2])
    assert after["version"] != before["version"] and after["round"] == 3
    page = (await fetch(site.port, path))[2].decode()
    assert f'data-version="{after["version"]}"' in page and 'data-running="1"' in page


async def test_entrants_are_named_by_seed_unless_the_server_shows_display_names(services, site):
    view = await running_event(services)
    await pages_on(services)
    path = f"{TOURNAMENT_PATH}{await token_of(services, view.id)}"
    page = text_of((await fetch(site.port, path))[2].decode())
    assert not any(re.search(rf"\b{name}\b", page) for name in NAMES)
    assert all(f"Player {e.seed}" in page for e in view.entrants)
    german = (await fetch(site.port, path, {"Accept-Language": "de"}))[2].decode()
    assert "Spieler 1" in german and "Tabelle" in german


async def test_pages_are_off_by_default_and_turning_them_off_hides_every_tournament_link(services, site):
    view = await running_event(services, rounds_played=0)
    assert await services.pages.tournament_url(PUBLIC_URL, view.id, GUILD) is None     # never turned on
    await pages_on(services)
    path = f"{TOURNAMENT_PATH}{await token_of(services, view.id)}"
    assert (await fetch(site.port, path))[0] == 200
    await services.settings_service.change(GUILD, 0, SettingsRequest(pages="off"), admin=True)
    for tail in ("", "/data.json", "/standings.png"):
        await assert_hidden(site.port, path + tail)


async def test_rotating_the_secret_revokes_every_tournament_link(services, site):
    view = await running_event(services, rounds_played=0)
    await pages_on(services)
    old = f"{TOURNAMENT_PATH}{await token_of(services, view.id)}"
    await services.settings_service.change(GUILD, 0, SettingsRequest(new_page_links=True), admin=True)
    await assert_hidden(site.port, old)
    assert (await fetch(site.port, f"{TOURNAMENT_PATH}{await token_of(services, view.id)}"))[0] == 200


async def test_a_link_signed_by_this_server_opens_no_tournament_of_another(services, site):
    await running_event(services, rounds_played=0)
    other = await services.tournaments.create(
        TournamentSettings(game="tintas", format=Format.ROUND_ROBIN), guild_id=OTHER_GUILD, channel_id=CHANNEL,
        creator=PLAYERS[0], manager=True, name="Elsewhere")
    await pages_on(services)
    await pages_on(services, guild=OTHER_GUILD)
    assert (await fetch(site.port, f"{TOURNAMENT_PATH}{await token_of(services, other.id, OTHER_GUILD)}"))[0] == 200
    secret = (await services.pages.store.settings(GUILD)).secret
    now = int(services.ctx.clock().timestamp())
    await assert_hidden(site.port, f"{TOURNAMENT_PATH}{sign(other.id, GUILD, now, secret, TOURNAMENT_KIND)}")


async def test_a_matchs_token_never_opens_a_tournament_nor_the_other_way_round(services, site):
    view = await running_event(services, rounds_played=0)
    await pages_on(services)
    match_id = next(t.match_id for t in view.rounds[0].tables if t.match_id is not None)
    secret = (await services.pages.store.settings(GUILD)).secret
    now = int(services.ctx.clock().timestamp())
    assert (await fetch(site.port, f"{PAGE_PATH}{sign(match_id, GUILD, now, secret)}"))[0] == 200
    await assert_hidden(site.port, f"{TOURNAMENT_PATH}{sign(view.id, GUILD, now, secret)}")         # a match's kind
    await assert_hidden(site.port, f"{PAGE_PATH}{sign(match_id, GUILD, now, secret, TOURNAMENT_KIND)}")


async def test_a_listed_servers_tournament_page_may_be_indexed(services, site):
    view = await running_event(services, rounds_played=0)
    await pages_on(services, mode="listed")
    status, headers, body = await fetch(site.port, f"{TOURNAMENT_PATH}{await token_of(services, view.id)}")
    assert status == 200 and "x-robots-tag" not in headers and "noindex" not in body.decode()


async def test_an_open_tournaments_page_says_so_and_draws_its_standings_image(services, site):
    view = await create(services, Format.ROUND_ROBIN, max_entrants=4)
    await entered(services, view.id, 2)
    await pages_on(services)
    path = f"{TOURNAMENT_PATH}{await token_of(services, view.id)}"
    status, _headers, body = await fetch(site.port, path)
    assert status == 200 and "Open for entries." in body.decode() and 'data-running="0"' in body.decode()
    assert "Round 1" not in body.decode()
    image = await fetch(site.port, f"{path}/standings.png")
    assert image[0] == 200 and image[2].startswith(b"\x89PNG")


async def test_a_swiss_rounds_bye_is_listed_beside_its_games(services, site):
    front = Recorder(services)
    view = await create(services, Format.SWISS, rounds=3, max_entrants=5)
    await entered(services, view.id, 5)
    await front.settle()
    await pages_on(services, names=1)
    page = (await fetch(site.port, f"{TOURNAMENT_PATH}{await token_of(services, view.id)}"))[2].decode()
    [round_one] = re.findall(r"<h2>Round 1</h2><ol>(.*?)</ol>", page)
    items = re.findall(r"<li>(.*?)</li>", round_one)
    assert len(items) == 3 and sum("a bye" in i for i in items) == 1
    assert sum(i.startswith(f'<a href="{PAGE_PATH}') for i in items) == 2
