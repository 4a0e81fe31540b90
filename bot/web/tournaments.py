"""A tournament's page: /t/<token>, signed like a match's link (bot/services/pages.py), under the same server
setting and secret, and the same 404 for everything not allowed.

The standings as an HTML table and as the bot's own image (drawn in the render pool, kept per version of the
standings, language and names), each round's games linking to their match pages, and, while the tournament runs,
a few lines of script that ask for ``data.json`` every POLL_SECONDS and reload the page when anything changed.
"""

from __future__ import annotations

import hashlib
import html
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING

from aiohttp import web

from bot.i18n import N_, _, speaking
from bot.services.pages import PAGE_PATH, TOURNAMENT_PATH, Pages, TournamentPage
from bot.services.tournament_views import RoundView, TableView, TournamentView
from bot.standings_sheet import TIEBREAK_NOTE, sheet
from bot.tournaments.model import TableKind
from bot.tournaments.scoring import figure
from engines import GAMES

if TYPE_CHECKING:
    from bot.web.server import WebServer

STATIC = Path(__file__).with_name("static")
STANDINGS_CACHE = 64          # standings images kept (per tournament, version, language and names)
STATUS_TEXTS = {"open": N_("Open for entries."), "finished": N_("Finished."), "cancelled": N_("Cancelled.")}
LISTED_KINDS = (TableKind.GAME, TableKind.BYE, TableKind.HALF_BYE)   # a round's list: games and byes (no one absent)


def version(view: TournamentView) -> str:
    """Changes whenever anything the page shows does (a result, a round, an entrant, the status)."""
    shown = (view.status, view.current_round, view.total_rounds, view.entrants, view.rounds, view.standings)
    return hashlib.sha256(repr(shown).encode()).hexdigest()[:16]


def title_of(view: TournamentView) -> str:
    game = GAMES.get(view.settings.game)
    return f"{view.name} · {game.title if game else view.settings.game}"


def status_text(view: TournamentView) -> str:
    if view.status == "running":
        return _("Round {round} of {rounds} is being played.").format(round=view.current_round,
                                                                        rounds=view.total_rounds)
    text = _(STATUS_TEXTS[view.status]) if view.status in STATUS_TEXTS else view.status
    if view.status == "finished" and view.winners:
        text += " " + _("Won by {names}.").format(names=", ".join(view.name_of(u) for u in view.winners))
    return text


def table_line(view: TournamentView, table: TableView) -> str:
    """One game or bye of a round, in words (names as the page shows them)."""
    names = [view.name_of(u) for u in table.seats]
    if table.kind is not TableKind.GAME:
        return _("{names}: a bye").format(names=", ".join(names))
    players = " – ".join(names)
    if table.points is None:
        return _("{players}: playing").format(players=players)
    score = " – ".join(figure(p) or "0" for p in table.points)
    return f"{players}: {score}"


class TournamentPages:
    """The routes of /t/<token> on the web server (its rate limit, 404s, headers and render pool)."""

    def __init__(self, server: WebServer):
        self.server = server
        self.images = server.lru(STANDINGS_CACHE)
        self._template = Template((STATIC / "tournament.html").read_text(encoding="utf-8"))

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get(TOURNAMENT_PATH + "{token}", self.page)
        app.router.add_get(TOURNAMENT_PATH + "{token}/data.json", self.data)
        app.router.add_get(TOURNAMENT_PATH + "{token}/standings.png", self.standings)

    async def _opened(self, request: web.Request) -> tuple[TournamentPage, TournamentView, str]:
        """The page a request's token opens, its tournament named as the server chose, and the reader's language;
        404 for every wrong token alike."""
        services, pages = self.server.pages()
        page = await pages.open_tournament(request.match_info["token"], services.tournaments)
        if page is None:
            raise web.HTTPNotFound()
        language = self.server.language(request)
        with speaking(language):
            return page, pages.entrants_of(page), language

    async def page(self, request: web.Request) -> web.Response:
        page, view, language = await self._opened(request)
        _services, pages = self.server.pages()
        token = request.match_info["token"]
        with speaking(language):
            title, status = title_of(view), status_text(view)
            rounds = "".join(self._round(pages, page, view, rnd) for rnd in view.rounds)
            table = sheet(title, view.standings, None)       # the image's words, as cells
            note, standings_heading = _(TIEBREAK_NOTE), _("Standings")
        # the image's address changes with the standings: a reload never shows a cached older one
        image = f"{TOURNAMENT_PATH}{token}/standings.png?v={version(view)}"
        rows = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in (r.rank, r.name, r.points, *r.tiebreaks))
                       + "</tr>" for r in table.rows)
        body = self._template.substitute(
            lang=language, robots="" if page.listed else '<meta name="robots" content="noindex">',
            title=html.escape(title), description=html.escape(status), status=html.escape(status),
            image=html.escape(self.server.public_url + image),
            url=html.escape(f"{self.server.public_url}{TOURNAMENT_PATH}{token}"),
            standings_image=html.escape(image), standings_heading=html.escape(standings_heading),
            head="".join(f"<th>{html.escape(h)}</th>" for h in table.headers), rows=rows, note=html.escape(note),
            rounds=rounds, running="1" if view.status == "running" else "0", version=version(view),
            poll=self.server.poll_seconds)
        return web.Response(text=body, content_type="text/html", headers=self.server.headers(page.listed))

    @staticmethod
    def _round(pages: Pages, page: TournamentPage, view: TournamentView, rnd: RoundView) -> str:
        """A round as HTML: each game a link to its match page (signed with the server's secret)."""
        items = []
        for table in (t for t in rnd.tables if t.kind in LISTED_KINDS):
            line = html.escape(table_line(view, table))
            if table.match_id is not None:
                link = f"{PAGE_PATH}{pages.sign_for(page, table.match_id)}"
                line = f'<a href="{html.escape(link)}">{line}</a>'
            items.append(f"<li>{line}</li>")
        heading = html.escape(_("Round {n}").format(n=rnd.number))
        return f"<section><h2>{heading}</h2><ol>{''.join(items)}</ol></section>"

    async def data(self, request: web.Request) -> web.Response:
        _page, view, _language = await self._opened(request)
        return web.json_response({"id": view.id, "status": view.status, "round": view.current_round,
                                  "version": version(view), "running": view.status == "running"})

    async def standings(self, request: web.Request) -> web.Response:
        _page, view, language = await self._opened(request)
        names = tuple(e.name for e in view.entrants)
        key = (view.id, version(view), language, names)
        png = self.images.get(key)
        if png is None:
            with speaking(language):
                drawn = sheet(title_of(view), view.standings, view.crosstable)
            png = await self.server.renders().standings(drawn)
            self.images.keep(key, png)
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "private, max-age=30"})
