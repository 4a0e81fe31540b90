"""The match pages' web server: one page per match behind a signed link (bot/services/pages.py).

Off unless PUBLIC_URL and WEB_PORT are set. Every wrong link gets the same 404 body. Boards are the bot's own
PNGs, drawn in the render pool and kept per (match, ply, language, names); the page's script steps through them.
"""

from __future__ import annotations

import asyncio
import html
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any

from aiohttp import web

from bot import records, wording
from bot.i18n import LANGUAGES, SOURCE_LANGUAGE, _, speaking
from bot.model import Match
from bot.services import Services
from bot.services.pages import Page, Pages
from bot.web.tournaments import TournamentPages
from engines import State
from render.pool import RenderPool

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
NOT_FOUND_BODY = "Not found"          # the one answer to every wrong link: it tells nothing
RATE_LIMIT = 240                      # requests per client address per RATE_WINDOW (a page is ~3 + one per ply)
RATE_WINDOW = 60.0                    # seconds
RATE_CLIENTS = 10_000                 # addresses remembered at most (the oldest windows are forgotten first)
PROXIES = frozenset({"127.0.0.1", "::1"})   # a reverse proxy here: the client is the last X-Forwarded-For entry
BOARD_CACHE = 512                     # board PNGs kept (a 60-turn match in two languages: 122)
FRAMES_CACHE = 32                     # matches whose replayed turns are kept
REPLAY_CACHE = 8                      # replay GIFs kept (a finished match's, per language and names)
ACCEPT_LANGUAGES = 20                 # entries of Accept-Language looked at
POLL_SECONDS = 10                     # how often a running match's page asks for new moves
REPLAY_BUDGET = 8 * 1024 * 1024       # bytes a page's replay GIF may have
SITE = "Discord"                      # the Site tag of a record downloaded from a page
PAGE_HEADERS = {                      # the link is the key to the page: never send it on as a Referer
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
}

Frames = list[tuple[State, State | None, list[str]]]


def reader_language(header: str) -> str:
    """The first language of Accept-Language (by weight; ``q=0`` means not wanted) that has a catalog; English
    otherwise."""
    wanted = []
    for order, part in enumerate(header.split(",")[:ACCEPT_LANGUAGES]):
        tag, _sep, params = part.strip().partition(";")
        found = re.search(r"q=([0-9.]+)", params)
        try:
            weight = float(found.group(1)) if found else 1.0
        except ValueError:
            continue
        if weight > 0:
            wanted.append((-weight, order, tag.strip().lower().split("-")[0]))
    return next((lang for _weight, _order, lang in sorted(wanted) if lang in LANGUAGES), SOURCE_LANGUAGE)


class RateLimit:
    """At most ``limit`` requests per client address in each ``window`` (fixed windows)."""

    def __init__(self, limit: int = RATE_LIMIT, window: float = RATE_WINDOW, clients: int = RATE_CLIENTS):
        self.limit, self.window, self.clients = limit, window, clients
        self._seen: OrderedDict[str, tuple[float, int]] = OrderedDict()

    def allow(self, client: str, now: float) -> bool:
        start, count = self._seen.pop(client, (now, 0))
        if now - start >= self.window:
            start, count = now, 0
        self._seen[client] = (start, count + 1)
        while len(self._seen) > self.clients:
            self._seen.popitem(last=False)
        return count < self.limit


def client_address(request: web.Request) -> str:
    remote = request.remote or ""
    forwarded = request.headers.get("X-Forwarded-For", "")
    if remote in PROXIES and forwarded:
        return forwarded.split(",")[-1].strip()
    return remote


class LRU(OrderedDict):
    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def keep(self, key: Any, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


@dataclass(frozen=True)
class Shown:
    """A page as one reader sees it: the match named as its server chose, and its turns."""

    page: Page
    match: Match
    frames: Frames
    language: str


def plain(text: str) -> str:
    return text.replace("**", "")


class WebServer:
    """Serves match pages on ``port`` (0: an ephemeral one, for tests) until ``stop``."""

    def __init__(self, services: Callable[[], Services], renders: Callable[[], RenderPool], *, public_url: str,
                 port: int, host: str = "0.0.0.0", rate_limit: RateLimit | None = None):
        self.services, self.renders = services, renders
        self.public_url = public_url.rstrip("/")
        self.host, self.port = host, port
        self.limits = rate_limit or RateLimit()
        self.boards: LRU = LRU(BOARD_CACHE)
        self.frames: LRU = LRU(FRAMES_CACHE)
        self.replays: LRU = LRU(REPLAY_CACHE)
        self._runner: web.AppRunner | None = None
        self._template = Template((STATIC / "page.html").read_text(encoding="utf-8"))

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        app.router.add_get("/m/{token}", self.page)
        app.router.add_get("/m/{token}/data.json", self.data)
        app.router.add_get("/m/{token}/board/{ply:[0-9]{1,6}}.png", self.board)
        app.router.add_get("/m/{token}/replay.gif", self.replay)
        app.router.add_get("/m/{token}/record.txt", self.record)
        TournamentPages(self).add_routes(app)
        app.router.add_static("/static/", STATIC, append_version=False)
        return app

    async def start(self) -> int:
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        self.port = self._runner.addresses[0][1]
        log.info("match pages on port %d for %s", self.port, self.public_url)
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if not self.limits.allow(client_address(request), time.monotonic()):
            return web.Response(status=429, text="Too many requests", headers={"Retry-After": str(int(RATE_WINDOW))})
        try:
            return await handler(request)
        except web.HTTPNotFound:
            return not_found()

    # ---- what every page needs ----
    poll_seconds = POLL_SECONDS

    def pages(self) -> tuple[Services, Pages]:
        """The services and their page links; 503 while the bot is still starting."""
        try:
            services = self.services()
        except RuntimeError:      # the bot is still starting
            raise web.HTTPServiceUnavailable(text="Starting") from None
        return services, Pages(services.ctx, services.queries)

    @staticmethod
    def language(request: web.Request) -> str:
        return reader_language(request.headers.get("Accept-Language", ""))

    @staticmethod
    def headers(listed: bool) -> dict[str, str]:
        """A page's headers: never a Referer, nothing framed or run from elsewhere; noindex unless listed."""
        return PAGE_HEADERS if listed else {**PAGE_HEADERS, "X-Robots-Tag": "noindex"}

    @staticmethod
    def lru(size: int) -> LRU:
        return LRU(size)

    # ---- reading a page ----
    async def _shown(self, request: web.Request) -> Shown:
        """The page a request's token opens, in the reader's language; 404 for every wrong token alike."""
        services, pages = self.pages()
        page = await pages.open(request.match_info["token"])
        if page is None:
            raise web.HTTPNotFound()
        language = self.language(request)
        with speaking(language):
            match = pages.names_of(page)
        key = (match.id, match.row.position, match.row.whole_turns)
        frames = self.frames.get(key)
        if frames is None:
            _match, frames = await services.queries.turns(match.id, guild_id=match.row.guild_id)
            self.frames.keep(key, frames)
        return Shown(page, match, frames, language)

    def _url(self, request: web.Request, tail: str = "") -> str:
        return f"{self.public_url}/m/{request.match_info['token']}{tail}"

    def _summary(self, shown: Shown) -> dict[str, Any]:
        match, frames = shown.match, shown.frames
        with speaking(shown.language):
            turns = [{"ply": 0, "text": _("Starting position")}]
            for i, (_after, before, moves) in enumerate(frames[1:], 1):
                seat = before.to_move if before is not None and before.to_move is not None else 0
                turns.append({"ply": i, "text": plain(wording.played_text(match, seat, records.notation(moves)))})
            result = plain(wording.result_text(match) if match.is_over else wording.to_move_text(match))
            return {"id": match.id, "title": wording.board_caption(match), "result": result, "turns": turns,
                    "running": not match.is_over, "poll": POLL_SECONDS, "language": shown.language,
                    "labels": {"first": _("First"), "previous": _("Previous"), "next": _("Next"), "last": _("Last"),
                               "replay": _("Replay (GIF)"), "record": _("Record file"),
                               "turn": _("Turn {n} of {total}")}}

    async def page(self, request: web.Request) -> web.Response:
        shown = await self._shown(request)
        summary = self._summary(shown)
        last = len(shown.frames) - 1
        robots = "" if shown.page.listed else '<meta name="robots" content="noindex">'
        board = f"/board/{last}.png"
        body = self._template.substitute(
            lang=shown.language, robots=robots, title=html.escape(summary["title"]),
            description=html.escape(summary["result"]), image=html.escape(self._url(request, board)),
            url=html.escape(self._url(request)), board=html.escape(f"/m/{request.match_info['token']}{board}"),
            result=html.escape(summary["result"]), last=last)
        return web.Response(text=body, content_type="text/html", headers=self.headers(shown.page.listed))

    async def data(self, request: web.Request) -> web.Response:
        return web.json_response(self._summary(await self._shown(request)))

    async def board(self, request: web.Request) -> web.Response:
        shown = await self._shown(request)
        ply = int(request.match_info["ply"])
        if ply >= len(shown.frames):
            raise web.HTTPNotFound()
        state, before, moves = shown.frames[ply]
        names = tuple(shown.match.names)
        key = (shown.match.id, ply, shown.language, state.encode(), names)
        png = self.boards.get(key)
        if png is None:
            png = await self.renders().board(state, last_turn=moves, names=names, previous=before,
                                             language=shown.language)
            self.boards.keep(key, png)
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "private, max-age=300"})

    async def replay(self, request: web.Request) -> web.Response:
        shown = await self._shown(request)
        key = (shown.match.id, shown.language, shown.match.row.position, tuple(shown.match.names))
        gif = self.replays.get(key)
        if gif is None:
            gif = await self.renders().replay(shown.match.row.game, shown.frames, shown.match.names,
                                              language=shown.language, budget=REPLAY_BUDGET)
            if shown.match.is_over:          # a running match's grows with each turn
                self.replays.keep(key, gif)
        return web.Response(body=gif, content_type="image/gif")

    async def record(self, request: web.Request) -> web.Response:
        shown = await self._shown(request)
        text = await asyncio.to_thread(lambda: records.write(records.from_match(shown.match, shown.frames, site=SITE)))
        name = wording.RECORD_FILE.format(match_id=shown.match.id)
        return web.Response(text=text, content_type="text/plain", charset="utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})


def not_found() -> web.Response:
    return web.Response(status=404, text=NOT_FOUND_BODY, content_type="text/plain")
