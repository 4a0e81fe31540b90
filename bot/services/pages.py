"""Match and tournament pages on the web: signed links, and what a link opens.

A link is a token: the match (or tournament) id, the server id and the issue time, signed with HMAC-SHA256 under
the server's secret, in base64url; a tournament's signature also covers TOURNAMENT_KIND, so a match's token never
opens the tournament of the same number (nor the other way round). Whatever is wrong with a token (malformed,
forged, of another server, signed with a rotated secret, too old, pages turned off) the answer is the same
``None``: the web front end says 404 and nothing more. Unless the server opts in to display names, a match is
shown with seat names only, and a tournament's entrants by their seed ("Player 3").
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import struct
from dataclasses import dataclass, replace

from bot.i18n import _
from bot.model import Match, NotFound
from bot.services.context import Context
from bot.services.queries import Queries
from bot.services.tournament_views import TournamentView
from bot.services.tournaments import Tournaments
from bot.store.pages import PageSettings, PageStore

LINK_LIFETIME = 365 * 86400     # seconds a link stays good (rotating the server's secret ends every link sooner)
CLOCK_SKEW = 300                # seconds a link's issue time may lie in the future (another process's clock)
SECRET_BYTES = 32
_PAYLOAD = struct.Struct(">QQQ")    # match id, server id, issue time (Unix seconds)
_MAC_BYTES = hashlib.sha256().digest_size
TOKEN_BYTES = _PAYLOAD.size + _MAC_BYTES
PAGE_PATH = "/m/"                   # a page's address: PUBLIC_URL, this, the token (bot/web/server.py's routes)
TOURNAMENT_PATH = "/t/"             # a tournament's page: PUBLIC_URL, this, its token
MATCH_KIND = b""                    # what a match link's signature covers besides the payload (links given stay good)
TOURNAMENT_KIND = b"tournament\0"   # ... and a tournament link's: the two kinds never open each other


def new_secret() -> str:
    return secrets.token_hex(SECRET_BYTES)


def _mac(secret: str, kind: bytes, payload: bytes) -> bytes:
    return hmac.new(bytes.fromhex(secret), kind + payload, hashlib.sha256).digest()


def sign(item_id: int, guild_id: int, issued: int, secret: str, kind: bytes = MATCH_KIND) -> str:
    """The token of a match's (or, with TOURNAMENT_KIND, a tournament's) page."""
    payload = _PAYLOAD.pack(item_id, guild_id, issued)
    return base64.urlsafe_b64encode(payload + _mac(secret, kind, payload)).rstrip(b"=").decode("ascii")


def unpack(token: str) -> tuple[int, int, int, bytes, bytes] | None:
    """(match id, server id, issue time, payload, mac) of a well-formed token; None for anything else."""
    if not token.isascii() or len(token) > 2 * TOKEN_BYTES:
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None
    if len(raw) != TOKEN_BYTES:
        return None
    payload, mac = raw[:_PAYLOAD.size], raw[_PAYLOAD.size:]
    match_id, guild_id, issued = _PAYLOAD.unpack(payload)
    return match_id, guild_id, issued, payload, mac


@dataclass(frozen=True)
class Page:
    """What a good link opens: the match (names as the server chose) and the server's page settings."""

    match: Match
    settings: PageSettings

    @property
    def listed(self) -> bool:
        return self.settings.mode == "listed"


@dataclass(frozen=True)
class TournamentPage:
    """What a good tournament link opens: the tournament (names as the server chose) and the server's settings."""

    tournament: TournamentView
    settings: PageSettings

    @property
    def listed(self) -> bool:
        return self.settings.mode == "listed"


def seat_named(match: Match) -> Match:
    """The match with every participant named by their seat ('White', 'Player 2'), in the reader's language."""
    seats = match.game.seat_names(match.row.players) if match.row.players else ()
    people = [replace(p, name=_(seats[p.seat]) if p.seat is not None and p.seat < len(seats) else "?")
              for p in match.participants]
    return replace(match, participants=people)


class Pages:
    def __init__(self, ctx: Context, queries: Queries):
        self.ctx, self.queries = ctx, queries
        self.store = PageStore(ctx.db)

    def _now(self) -> int:
        return int(self.ctx.clock().timestamp())

    async def token(self, item_id: int, guild_id: int, kind: bytes = MATCH_KIND) -> str | None:
        """A link token for a match (or, with TOURNAMENT_KIND, a tournament) of the server; None when the server
        has pages off."""
        settings = await self.store.settings(guild_id)
        if not settings.on or settings.secret is None:
            return None
        return sign(item_id, guild_id, self._now(), settings.secret, kind)

    async def url(self, public_url: str, match_id: int, guild_id: int) -> str | None:
        """The address of a match's page under ``public_url`` (bot/web serves it); None when pages are off."""
        token = await self.token(match_id, guild_id)
        return None if token is None else f"{public_url.rstrip('/')}{PAGE_PATH}{token}"

    async def tournament_url(self, public_url: str, tournament_id: int, guild_id: int) -> str | None:
        """The address of a tournament's page (its standings, its rounds' games) under ``public_url``; None when
        the server has pages off."""
        token = await self.token(tournament_id, guild_id, TOURNAMENT_KIND)
        return None if token is None else f"{public_url.rstrip('/')}{TOURNAMENT_PATH}{token}"

    async def _verified(self, token: str, kind: bytes) -> tuple[int, int, PageSettings] | None:
        """(the id, the server, its page settings) of a good token of this kind; None for every wrong one alike."""
        parts = unpack(token)
        if parts is None:
            return None
        item_id, guild_id, issued, payload, mac = parts
        settings = await self.store.settings(guild_id)
        if not settings.on or settings.secret is None:
            return None
        if not hmac.compare_digest(mac, _mac(settings.secret, kind, payload)):
            return None
        now = self._now()
        if issued > now + CLOCK_SKEW or now - issued > LINK_LIFETIME:
            return None
        return item_id, guild_id, settings

    async def open(self, token: str) -> Page | None:
        """The page a token opens, or None (for every reason alike)."""
        verified = await self._verified(token, MATCH_KIND)
        if verified is None:
            return None
        match_id, guild_id, settings = verified
        try:
            match = await self.queries.in_server(match_id, guild_id)
        except NotFound:
            return None
        if match.row.position is None:      # never started: nothing to show
            return None
        return Page(match, settings)

    async def open_tournament(self, token: str, tournaments: Tournaments) -> TournamentPage | None:
        """The tournament page a token opens, or None (for every reason alike)."""
        verified = await self._verified(token, TOURNAMENT_KIND)
        if verified is None:
            return None
        tournament_id, guild_id, settings = verified
        try:
            tournament = await tournaments.view(tournament_id, guild_id=guild_id)
        except NotFound:        # missing, or another server's (the service's answer for both)
            return None
        return TournamentPage(tournament, settings)

    def names_of(self, page: Page) -> Match:
        """The page's match as its readers may see it (call in the reader's language)."""
        return page.match if page.settings.display_names else seat_named(page.match)

    def sign_for(self, page: TournamentPage, match_id: int) -> str:
        """A link token for a match of the tournament's page: the same server, the same secret."""
        assert page.settings.secret is not None, "a page opens only while its server has a secret"
        return sign(match_id, page.tournament.guild_id, self._now(), page.settings.secret)

    def entrants_of(self, page: TournamentPage) -> TournamentView:
        """The page's tournament as its readers may see it: entrants by their seed ("Player 3") unless the server
        opted in to display names (call in the reader's language)."""
        view = page.tournament
        if page.settings.display_names:
            return view
        named = {e.user_id: _("Player {n}").format(n=e.seed) for e in view.entrants}
        return replace(view, entrants=tuple(replace(e, name=named[e.user_id]) for e in view.entrants),
                       standings=tuple(replace(r, name=named.get(r.user_id, "?")) for r in view.standings))
