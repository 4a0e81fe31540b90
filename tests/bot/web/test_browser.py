"""A finished match's page in a real browser: Debian's headless Chromium driven by selenium through the system's
chromedriver (nothing downloaded). Every ply by keyboard and by buttons, the board and the move text at each, a deep
link, the Open Graph tags, at a phone's size and a desktop's; the desktop screenshot is docs/page.png. And a
running tournament's page: its standings, reloading itself when a result lands, a game's link to its match page."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from bot import records
from bot.tournaments.model import Format
from tests.bot.tournament_support import Recorder, create, entered, play_round
from tests.bot.web.support import PUBLIC_URL, allow_local, fetch, finished, link, pages_on, serve
from tests.conftest import GUILD

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync")
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
WAIT = 30.0        # seconds a step may take on a busy machine before the test gives up (no timing is asserted)
TURNS = 10
SCREENSHOT = Path(__file__).resolve().parents[3] / "docs" / "page.png"


@pytest.fixture(autouse=True)
def loopback(monkeypatch):
    allow_local(monkeypatch)


def browser(profile: str) -> WebDriver:
    for needed in (CHROMIUM, CHROMEDRIVER):
        if not needed.exists():
            pytest.fail(f"{needed} is missing: install Debian's chromium and chromium-driver "
                        "(apt-get install -y --no-install-recommends chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


def at_ply(driver: WebDriver, path: str, ply: int, texts: list[str], moves: list[str]) -> None:
    """The page shows ``ply``: its board (loaded), its move text, its line marked in the move list."""
    def shown(d: WebDriver) -> bool:
        return bool(d.execute_script(
            "var b = document.getElementById('board');"
            "return b.complete && b.naturalWidth > 0 && b.getAttribute('data-ply') === arguments[0] "
            "&& new URL(b.src).pathname === arguments[1];", str(ply), f"{path}/board/{ply}.png"))
    WebDriverWait(driver, WAIT).until(shown)
    turn = driver.find_element(By.ID, "turn").text
    assert turn == texts[ply]
    assert ply == 0 or moves[ply] in turn
    marked = driver.find_elements(By.CSS_SELECTOR, "#moves li.at")
    assert [m.text for m in marked] == [texts[ply]]


def walk(url: str, path: str, texts: list[str], moves: list[str], og: dict[str, str], size: tuple[int, int],
         screenshot: Path | None) -> None:
    last = len(texts) - 1
    with tempfile.TemporaryDirectory() as profile:
        driver = browser(profile)
        try:
            driver.set_window_size(*size)
            driver.get(url)
            assert driver.execute_script("return window.innerWidth") <= size[0]
            WebDriverWait(driver, WAIT).until(
                lambda d: len(d.find_elements(By.CSS_SELECTOR, "#moves li")) == len(texts))
            at_ply(driver, path, last, texts, moves)            # a finished match opens at its end
            for name, content in og.items():
                tag = driver.find_element(By.CSS_SELECTOR, f'meta[property="{name}"]')
                assert tag.get_attribute("content") == content
            body = driver.find_element(By.TAG_NAME, "body")
            body.send_keys(Keys.HOME)
            at_ply(driver, path, 0, texts, moves)
            for ply in range(1, last + 1):
                body.send_keys(Keys.ARROW_RIGHT)
                at_ply(driver, path, ply, texts, moves)
            body.send_keys(Keys.ARROW_RIGHT)                  # past the end: stays
            at_ply(driver, path, last, texts, moves)
            for ply in range(last - 1, -1, -1):
                body.send_keys(Keys.ARROW_LEFT)
                at_ply(driver, path, ply, texts, moves)
            body.send_keys(Keys.END)
            at_ply(driver, path, last, texts, moves)
            driver.find_element(By.ID, "first").click()
            at_ply(driver, path, 0, texts, moves)
            for ply in range(1, last + 1):
                driver.find_element(By.ID, "next").click()
                at_ply(driver, path, ply, texts, moves)
            for ply in range(last - 1, -1, -1):
                driver.find_element(By.ID, "previous").click()
                at_ply(driver, path, ply, texts, moves)
            driver.find_element(By.ID, "last").click()
            at_ply(driver, path, last, texts, moves)
            driver.find_elements(By.CSS_SELECTOR, "#moves li")[2].click()
            at_ply(driver, path, 2, texts, moves)
            assert driver.execute_script("return location.hash") == "#ply=2"
            driver.get(f"{url}?ply=3")                          # deep links, both spellings
            at_ply(driver, path, 3, texts, moves)
            driver.get(f"{url}#ply=4")
            driver.refresh()
            at_ply(driver, path, 4, texts, moves)
            if screenshot is not None:
                driver.get(f"{url}#ply={last}")
                driver.refresh()
                at_ply(driver, path, last, texts, moves)
                screenshot.parent.mkdir(exist_ok=True)
                assert driver.save_screenshot(str(screenshot))
        finally:
            driver.quit()


async def test_a_finished_match_steps_through_every_ply_in_chromium(services):
    match = await finished(services, TURNS)
    await pages_on(services)
    token = await link(services, match)
    site = await serve(services, processes=1)        # boards drawn in a real render worker
    try:
        path = f"/m/{token}"
        data = json.loads((await fetch(site.port, f"{path}/data.json"))[2])
        texts = [t["text"] for t in data["turns"]]
        _match, frames = await services.queries.turns(match.id, guild_id=GUILD)
        moves = [records.notation(f[2]) for f in frames]
        assert len(texts) == len(frames) > 4
        og = {"og:title": data["title"], "og:description": data["result"],
              "og:image": f"{PUBLIC_URL}{path}/board/{len(frames) - 1}.png", "og:url": f"{PUBLIC_URL}{path}"}
        url = f"http://127.0.0.1:{site.port}{path}"
        for name, size in SIZES.items():
            await asyncio.to_thread(walk, url, path, texts, moves, og, size,
                                    SCREENSHOT if name == "desktop" else None)
    finally:
        await site.stop()


async def test_a_running_tournaments_page_follows_its_results_and_opens_its_games_in_chromium(services):
    """The standings image and table, then a result lands: the page's poll sees it and reloads by itself; a game's
    link opens its match page with its board."""
    front = Recorder(services)
    view = await create(services, Format.ROUND_ROBIN, max_entrants=4)
    await entered(services, view.id, 4)
    await front.settle()
    await pages_on(services, names=1)
    url = await services.pages.tournament_url(PUBLIC_URL, view.id, GUILD)
    assert url is not None
    path = url[len(PUBLIC_URL):]
    site = await serve(services, processes=1)
    site.server.poll_seconds = 1                     # the page asks every second (ten in the bot)
    profile = tempfile.TemporaryDirectory()
    driver = await asyncio.to_thread(browser, profile.name)
    try:
        def opened() -> str:
            driver.set_window_size(*SIZES["phone"])
            driver.get(f"http://127.0.0.1:{site.port}{path}")
            WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(
                "var i = document.getElementById('standings-image'); return i.complete && i.naturalWidth > 0;"))
            assert len(driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr")) == 4
            tag = driver.find_element(By.CSS_SELECTOR, 'meta[property="og:image"]')
            assert tag.get_attribute("content").startswith(f"{PUBLIC_URL}{path}/standings.png?v=")
            assert "Round 1 of 3" in driver.find_element(By.ID, "status").text
            return str(driver.find_element(By.TAG_NAME, "body").get_attribute("data-version"))
        before = await asyncio.to_thread(opened)
        await play_round(services, view.id, lambda seats: seats[0])
        await front.settle()

        def followed() -> None:
            WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(
                "return document.body && document.body.getAttribute('data-version') !== arguments[0] "
                "&& document.readyState === 'complete';", before))
            assert "Round 2 of 3" in driver.find_element(By.ID, "status").text
            WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(     # the new standings' image
                "var i = document.getElementById('standings-image'); return i.complete && i.naturalWidth > 0 "
                "&& i.src.indexOf('v=' + document.body.getAttribute('data-version')) > 0;"))
            games = driver.find_elements(By.CSS_SELECTOR, "#rounds a")
            assert len(games) == 4
            games[0].click()
            WebDriverWait(driver, WAIT).until(lambda d: d.execute_script(
                "var b = document.getElementById('board'); return !!b && b.complete && b.naturalWidth > 0;"))
            assert driver.execute_script("return location.pathname").startswith("/m/")
        await asyncio.to_thread(followed)
    finally:
        await asyncio.to_thread(driver.quit)
        profile.cleanup()
        await site.stop()
