"""The bot serves its match pages while it runs when PUBLIC_URL and WEB_PORT are set, and only then."""

from __future__ import annotations

import dataclasses
import socket

import pytest

from bot.__main__ import serve, web_server
from bot.config import load_config
from bot.discord.client import make_bot
from tests.bot.web.support import PUBLIC_URL, allow_local, fetch, finished, link, pages_on


@pytest.fixture(autouse=True)
def loopback(monkeypatch):
    allow_local(monkeypatch)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def config_for(tmp_path, **web: str):
    return dataclasses.replace(load_config(environ={"DATABASE_PATH": str(tmp_path / "b.sqlite3"), **web}),
                               health_port=0)


def test_no_pages_server_unless_both_settings_are_there(tmp_path):
    for web in ({}, {"PUBLIC_URL": PUBLIC_URL}, {"WEB_PORT": "8081"}):
        config = config_for(tmp_path, **web)
        assert web_server(make_bot(config, sync_commands=False, ai_processes=0, render_processes=0), config) is None


async def test_the_running_bot_serves_its_pages_and_stops_serving_when_it_stops(tmp_path):
    port = free_port()
    config = config_for(tmp_path, PUBLIC_URL=PUBLIC_URL, WEB_PORT=str(port))
    bot = make_bot(config, sync_commands=False, ai_processes=0, render_processes=0)
    seen = []

    async def connect():          # set up as at login; while "connected", a reader opens a page
        await bot.setup_hook()
        match = await finished(bot.services, 3)
        await pages_on(bot.services)
        status, _headers, body = await fetch(port, f"/m/{await link(bot.services, match)}")
        seen.append((status, f"#{match.id}" in body.decode()))
    assert await serve(bot, config, connect) == 0
    assert seen == [(200, True)]
    with pytest.raises(OSError):
        await fetch(port, "/m/x")       # stopped with the bot
