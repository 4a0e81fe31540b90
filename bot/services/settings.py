"""``/settings``: a player's notifications, time away and digest, and (for admins) the server's game settings.

One command is one change: every value is checked before anything is written (a modified client can send
any value for any option, so nothing is taken on trust: whole numbers where whole numbers are meant, ranges,
the offered choices, IANA time zone names), then everything is written in ONE transaction. A refusal, found
before the transaction or inside it (time away beyond the allowance), leaves everything as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.i18n import N_, T
from bot.model import BadInput, NotAllowed, shown
from bot.services.away import Away, AwayChange, AwayStatus
from bot.services.challenges import TIME_CHOICES_DAYS
from bot.services.context import Context
from bot.services.digests import DigestChoice, Digests, check_hour, check_zone
from bot.services.pages import new_secret
from bot.services.tournament_views import WHO_MAY_CREATE
from bot.store.db import Tx
from bot.store.pages import PAGE_MODES, PageStore
from bot.store.settings import NOTIFY_CHOICES

SWITCH_VALUES = (0, 1)           # the off/on choices of threads and takebacks
DAY_SECONDS = 86400


@dataclass(frozen=True)
class SettingsRequest:
    """What one /settings command asks to change; None leaves a setting as it is. Values are as they arrived."""

    notify: object = None            # one of NOTIFY_CHOICES
    threads: object = None           # admins: 0 or 1
    default_time: object = None      # admins: days per move, one of TIME_CHOICES_DAYS, or 0 (casual)
    allow_channel: object = None     # admins: a channel id
    remove_channel: object = None    # admins: a channel id
    takebacks: object = None         # admins: 0 or 1
    away: object = None              # days away from now, 0 = back now
    away_allowance: object = None    # admins: days a year
    digest_hour: object = None       # 0-23
    timezone: object = None          # an IANA time zone name
    pages: object = None             # admins: match pages off, link or listed (PAGE_MODES)
    page_names: object = None        # admins: 1 = display names on match pages, 0 = seat names
    new_page_links: object = None    # admins: True = a new secret, which revokes every link given so far
    tournaments: object = None       # admins: who may create tournaments, one of WHO_MAY_CREATE

    @property
    def server_change(self) -> bool:
        return any(v is not None for v in (self.threads, self.default_time, self.allow_channel,
                                            self.remove_channel, self.takebacks, self.pages, self.page_names,
                                            self.new_page_links, self.tournaments))

    @property
    def pages_change(self) -> bool:
        return any(v is not None for v in (self.pages, self.page_names, self.new_page_links))

    @property
    def digest_change(self) -> bool:
        return self.notify == "digest" or self.digest_hour is not None or self.timezone is not None


def _switch(value: object, refusal: str) -> None:
    if value is not None and (type(value) is not int or value not in SWITCH_VALUES):
        raise BadInput(T(refusal, value=shown(value)))


def _channel(value: object) -> None:
    if value is not None and (type(value) is not int or value <= 0):
        raise BadInput(T("{value} is not a channel of this server. Nothing was changed.", value=shown(value)))


def checked(request: SettingsRequest, *, admin: bool) -> SettingsRequest:
    """The request with every value checked (and a time zone spelled as IANA does); the first refusal raised."""
    if request.server_change and not admin:
        raise NotAllowed(T("Only members with the Manage Server permission can change the server's settings; "
                           "nothing was changed."))
    if request.away_allowance is not None and not admin:
        raise NotAllowed(T("Only members with the Manage Server permission can change the allowance of time away; "
                           "nothing was changed."))
    if request.notify is not None and (not isinstance(request.notify, str) or request.notify not in NOTIFY_CHOICES):
        raise BadInput(T("{value} is not one of the notification choices; pick one from the list. Nothing was changed.",
                         value=shown(request.notify)))
    _switch(request.threads, N_("One thread per match is on or off, not {value}. Nothing was changed."))
    _switch(request.takebacks, N_("Takebacks in rated matches are on or off, not {value}. Nothing was changed."))
    days = request.default_time
    if days is not None and (type(days) is not int or days not in (*TIME_CHOICES_DAYS, 0)):
        raise BadInput(T("The default time per move is one of {choices} days, or none (casual), not {days}. "
                         "Nothing was changed.", choices=", ".join(map(str, TIME_CHOICES_DAYS)), days=shown(days)))
    _channel(request.allow_channel)
    _channel(request.remove_channel)
    if request.pages is not None and (not isinstance(request.pages, str) or request.pages not in PAGE_MODES):
        raise BadInput(T("Match pages are off, link or listed, not {value}. Nothing was changed.",
                         value=shown(request.pages)))
    _switch(request.page_names, N_("Display names on match pages are on or off, not {value}. Nothing was changed."))
    if request.new_page_links not in (None, True, False):
        raise BadInput(T("New page links is true or false, not {value}. Nothing was changed.",
                         value=shown(request.new_page_links)))
    if request.tournaments is not None and (not isinstance(request.tournaments, str)
                                            or request.tournaments not in WHO_MAY_CREATE):
        raise BadInput(T("Tournaments are created by managers or by everyone, not {value}. Nothing was changed.",
                         value=shown(request.tournaments)))
    if request.away is not None:
        Away.check_days(request.away)
    if request.away_allowance is not None:
        Away.check_allowance(request.away_allowance)
    if request.digest_hour is not None:
        check_hour(request.digest_hour)
    zone = check_zone(request.timezone) if request.timezone is not None else None
    return replace(request, timezone=zone)


class Settings:
    def __init__(self, ctx: Context, away: Away, digests: Digests):
        self.ctx, self.away, self.digests = ctx, away, digests

    async def change(self, guild_id: int, user_id: int, request: SettingsRequest, *, admin: bool
                     ) -> AwayStatus | None:
        """Check everything, then change everything in one transaction; the new time away if it was changed
        (its ``notified`` matches have notices pending in the outbox)."""
        request = checked(request, admin=admin)
        away: AwayChange | None = None
        digest: DigestChoice | None = None
        async with self.ctx.db.transaction() as tx:
            if request.away_allowance is not None:
                await self.ctx.away.write_allowance(tx, guild_id, _int(request.away_allowance))
            if request.notify is not None and request.notify != "digest":
                await self.ctx.settings.write_notify(tx, user_id, str(request.notify))
            if request.digest_change:
                digest = await self.digests.choose_in(
                    tx, user_id, on=True if request.notify == "digest" else None,
                    hour=None if request.digest_hour is None else _int(request.digest_hour),
                    timezone=None if request.timezone is None else str(request.timezone))
            if request.server_change:
                days, threads, takebacks = request.default_time, request.threads, request.takebacks
                await self.ctx.settings.write_guild(
                    tx, guild_id, default_time_per_move=None if days is None else _int(days) * DAY_SECONDS,
                    threads=None if threads is None else bool(threads),
                    takebacks=None if takebacks is None else bool(takebacks),
                    allow_channel=_id(request.allow_channel), remove_channel=_id(request.remove_channel))
            if request.pages_change:
                await self._write_pages(tx, guild_id, request)
            if request.tournaments is not None:
                await self.ctx.tournaments.set_creators(tx, guild_id, str(request.tournaments))
            if request.away is not None:      # last: measured against the allowance this command may have set
                away = await self.away.set_in(tx, guild_id, user_id, _int(request.away))
        if away is not None:
            self.away.announce(away)
        if digest is not None:
            self.digests.announce(digest)
        return away.status if away else None

    async def _write_pages(self, tx: Tx, guild_id: int, request: SettingsRequest) -> None:
        """Turning pages on the first time, or asking for new links, makes a new secret."""
        pages = PageStore(self.ctx.db)
        mode = None if request.pages is None else str(request.pages)
        fresh = bool(request.new_page_links) or (mode not in (None, "off") and await pages.secret_missing(tx, guild_id))
        await pages.write(tx, guild_id, mode=mode,
                          display_names=None if request.page_names is None else bool(request.page_names),
                          secret=new_secret() if fresh else None)


def _int(value: object) -> int:
    assert type(value) is int, "checked() lets only whole numbers through"
    return value


def _id(value: object) -> int | None:
    return None if value is None else _int(value)
