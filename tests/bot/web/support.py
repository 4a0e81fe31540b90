"""A match page's world for the tests: matches played through the services, pages turned on, the web server on
an ephemeral loopback port, and plain HTTP to it."""

from __future__ import annotations

import asyncio
import random
import socket
from dataclasses import dataclass

import pytest

from bot.i18n import board_texts
from bot.model import Match
from bot.services import Services
from bot.services.pages import Pages
from bot.services.settings import SettingsRequest
from bot.web.server import RateLimit, WebServer
from render.pool import RenderPool
from tests.bot.health_support import _REAL_CONNECT, allow_loopback
from tests.conftest import ANN, BOB, CHANNEL, GUILD

PUBLIC_URL = "https://games.example.org"


def allow_local(monkeypatch: pytest.MonkeyPatch) -> None:
    """Connections to this machine only: loopback (the web server, chromedriver) and the test PostgreSQL
    server's Unix socket."""
    allow_loopback(monkeypatch)
    loopback_connect = socket.socket.connect

    def connect(sock: socket.socket, address, *args, **kwargs):
        if sock.family == getattr(socket, "AF_UNIX", None):
            return _REAL_CONNECT(sock, address, *args, **kwargs)
        return loopback_connect(sock, address, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)


async def started(services: Services, guild: int = GUILD) -> Match:
    match = await services.challenges.challenge("tintas", guild_id=guild, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=3)
    return await services.challenges.accept(match.id, BOB, guild_id=guild)


async def played(services: Services, match: Match, turns: int, seed: int = 5, guild: int = GUILD) -> Match:
    """``turns`` turns of random suggested moves (fewer if the match ends)."""
    rng = random.Random(seed)
    for _ in range(turns):
        match = await services.queries.get(match.id)
        if match.status != "active":
            break
        value, _text = rng.choice(match.game.turn_suggestions(match.position, "", 25))
        match = (await services.play.submit_turn(match, match.to_move_user.user_id, value, guild_id=guild)).match
    return match


async def finished(services: Services, turns: int, guild: int = GUILD) -> Match:
    """A match of ``turns`` turns that Bob then resigns (if it has not ended by itself)."""
    match = await played(services, await started(services, guild), turns, guild=guild)
    if match.status == "active":
        match = await services.play.resign(match.id, BOB.user_id, guild_id=guild)
    return match


async def pages_on(services: Services, guild: int = GUILD, mode: str = "link", names: int | None = None) -> None:
    await services.settings_service.change(guild, 0, SettingsRequest(pages=mode, page_names=names), admin=True)


async def link(services: Services, match: Match) -> str:
    token = await Pages(services.ctx, services.queries).token(match.id, match.row.guild_id)
    assert token is not None
    return token


@dataclass
class Site:
    server: WebServer
    port: int
    renders: RenderPool

    async def stop(self) -> None:
        await self.server.stop()
        self.renders.close()


async def serve(services: Services, processes: int = 0, rate_limit: RateLimit | None = None) -> Site:
    renders = await asyncio.to_thread(RenderPool, processes, board_texts())
    server = WebServer(lambda: services, lambda: renders, public_url=PUBLIC_URL, port=0, host="127.0.0.1",
                       rate_limit=rate_limit)
    return Site(server, await server.start(), renders)


async def fetch(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """(status, headers with lower-case names, body) of a plain HTTP/1.0 GET to 127.0.0.1."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    writer.write(f"GET {path} HTTP/1.0\r\nHost: localhost\r\n{extra}\r\n".encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    await writer.wait_closed()
    head, _sep, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    found = dict((k.strip().lower(), v.strip()) for k, _s, v in (line.partition(":") for line in lines[1:]))
    return int(lines[0].split()[1]), found, body
