"""Match pages on the web: signed links, and what a link opens.

A link is a token: the match id, the server id and the issue time, signed with HMAC-SHA256 under the server's
secret, in base64url. Whatever is wrong with a token (malformed, forged, of another server, signed with a rotated
secret, too old, pages turned off) the answer is the same ``None``: the web front end says 404 and nothing more.
Unless the server opts in to display names, the match is shown with seat names only.
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
from bot.store.pages import PageSettings, PageStore

LINK_LIFETIME = 365 * 86400     # seconds a link stays good (rotating the server's secret ends every link sooner)
CLOCK_SKEW = 300                # seconds a link's issue time may lie in the future (another process's clock)
SECRET_BYTES = 32
_PAYLOAD = struct.Struct(">QQQ")    # match id, server id, issue time (Unix seconds)
_MAC_BYTES = hashlib.sha256().digest_size
TOKEN_BYTES = _PAYLOAD.size + _MAC_BYTES
PAGE_PATH = "/m/"                   # a page's address: PUBLIC_URL, this, the token (bot/web/server.py's routes)


def new_secret() -> str:
    return secrets.token_hex(SECRET_BYTES)


def sign(match_id: int, guild_id: int, issued: int, secret: str) -> str:
    payload = _PAYLOAD.pack(match_id, guild_id, issued)
    mac = hmac.new(bytes.fromhex(secret), payload, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(payload + mac).rstrip(b"=").decode("ascii")


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

    async def token(self, match_id: int, guild_id: int) -> str | None:
        """A link token for a match of the server; None when the server has pages off."""
        settings = await self.store.settings(guild_id)
        if not settings.on or settings.secret is None:
            return None
        return sign(match_id, guild_id, self._now(), settings.secret)

    async def url(self, public_url: str, match_id: int, guild_id: int) -> str | None:
        """The address of a match's page under ``public_url`` (bot/web serves it); None when pages are off."""
        token = await self.token(match_id, guild_id)
        return None if token is None else f"{public_url.rstrip('/')}{PAGE_PATH}{token}"

    async def open(self, token: str) -> Page | None:
        """The page a token opens, or None (for every reason alike)."""
        parts = unpack(token)
        if parts is None:
            return None
        match_id, guild_id, issued, payload, mac = parts
        settings = await self.store.settings(guild_id)
        if not settings.on or settings.secret is None:
            return None
        expected = hmac.new(bytes.fromhex(settings.secret), payload, hashlib.sha256).digest()
        if not hmac.compare_digest(mac, expected):
            return None
        now = self._now()
        if issued > now + CLOCK_SKEW or now - issued > LINK_LIFETIME:
            return None
        try:
            match = await self.queries.in_server(match_id, guild_id)
        except NotFound:
            return None
        if match.row.position is None:      # never started: nothing to show
            return None
        return Page(match, settings)

    def names_of(self, page: Page) -> Match:
        """The page's match as its readers may see it (call in the reader's language)."""
        return page.match if page.settings.display_names else seat_named(page.match)
