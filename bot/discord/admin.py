"""Settings and the admins' tools: /settings and /match abort, /match rebuild-ratings."""

from __future__ import annotations

import discord
from discord import app_commands

from bot import wording
from bot.discord.cards import timestamp
from bot.discord.interaction import acknowledged, app, finish, info_embed
from bot.i18n import N_, T, _
from bot.model import NotFound, time_label
from bot.services import Services
from bot.services.challenges import TIME_CHOICES_DAYS
from bot.services.digests import time_zones
from bot.services.queries import parse_match_id
from bot.services.settings import NOTIFY_CHOICES, PAGE_MODES, SettingsRequest
from bot.services.tournament_views import WHO_MAY_CREATE

NOTIFY_LABELS = {"mention": N_("a mention in the match's channel"), "dm": N_("a direct message (with a link)"),
                 "off": N_("no notification"), "digest": wording.DIGEST_NOTIFY_LABEL}
PAGE_MODE_LABELS = {"off": N_("off"), "link": N_("by link only"), "listed": N_("listed (search engines may index)")}
CREATORS_LABELS = {"managers": N_("managers"), "everyone": N_("everyone")}
CREATORS_LINE = N_("Tournaments may be created by: {who}")
MAX_REASON = 200
DEFAULT_TIME_CHOICES: list[app_commands.Choice[int]] = [
    *(app_commands.Choice(name=f"{d} days" if d > 1 else "1 day", value=d) for d in TIME_CHOICES_DAYS),
    app_commands.Choice(name="none: casual, unrated", value=0)]


def _is_admin(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions and interaction.permissions.manage_guild)


@app_commands.command(name="settings", description="Your notifications; for admins, this server's game settings")
@app_commands.describe(notify="How you hear it is your move (and reminders)",
                       threads="Admins: one thread per match", default_time="Admins: default time per move",
                       allow_channel="Admins: also play in this channel (none listed = everywhere)",
                       remove_channel="Admins: stop playing in this channel",
                       takebacks="Admins: allow takebacks in rated matches too (casual ones always allow them)",
                       away="Days away from now: your clocks in this server pause (0 = back now)",
                       away_allowance="Admins: days of time away each player may take a year (0 = none)",
                       digest_hour="The hour (0-23, your time zone) of your daily digest",
                       timezone="Your time zone for the digest, like Europe/Berlin (default UTC)",
                       pages="Admins: a web page for each match: off, by link only, or listed for search engines",
                       page_names="Admins: display names on match pages (off: seat names)",
                       new_page_links="Admins: revoke every match page link given so far",
                       tournaments="Admins: who may create tournaments")
@app_commands.choices(notify=[app_commands.Choice(name=NOTIFY_LABELS[c], value=c) for c in NOTIFY_CHOICES])
@app_commands.choices(pages=[app_commands.Choice(name=PAGE_MODE_LABELS[m], value=m) for m in PAGE_MODES])
@app_commands.choices(tournaments=[app_commands.Choice(name=CREATORS_LABELS[w], value=w) for w in WHO_MAY_CREATE])
@app_commands.choices(threads=[app_commands.Choice(name="on", value=1), app_commands.Choice(name="off", value=0)],
                      default_time=DEFAULT_TIME_CHOICES,
                      takebacks=[app_commands.Choice(name="on", value=1), app_commands.Choice(name="off", value=0)],
                      page_names=[app_commands.Choice(name="on", value=1), app_commands.Choice(name="off", value=0)])
@app_commands.guild_only()
async def settings(interaction: discord.Interaction, notify: str | None = None, threads: int | None = None,
                   default_time: int | None = None, allow_channel: discord.TextChannel | None = None,
                   remove_channel: discord.TextChannel | None = None, takebacks: int | None = None,
                   away: int | None = None,
                   away_allowance: int | None = None, digest_hour: int | None = None,
                   timezone: str | None = None, pages: str | None = None, page_names: int | None = None,
                   new_page_links: bool = False, tournaments: str | None = None) -> None:
    services = app(interaction).services
    store = services.settings
    guild = interaction.guild_id or 0
    async with acknowledged(interaction):
        request = SettingsRequest(   # the values as Discord delivered them: the service checks every one
            notify=notify, threads=threads, default_time=default_time,
            allow_channel=allow_channel.id if allow_channel else None,
            remove_channel=remove_channel.id if remove_channel else None, takebacks=takebacks, away=away,
            away_allowance=away_allowance, digest_hour=digest_hour, timezone=timezone, pages=pages,
            page_names=page_names, new_page_links=True if new_page_links else None, tournaments=tournaments)
        status = await services.settings_service.change(guild, interaction.user.id, request,
                                                        admin=_is_admin(interaction))
        told = ""
        if status is not None:
            for match_id in status.notified:     # the notices in the matches' channels, at once
                await app(interaction).dispatcher.deliver_pending(match_id)
            told = _(wording.AWAY_SET).format(until=timestamp(status.until, "D"), matches=status.matches) \
                if status.until else _(wording.AWAY_BACK)
        server = await store.guild(guild)
        mine = await store.notify(interaction.user.id)
        notify_text, away_line, server_line = await away_and_digest_lines(interaction, mine)
        channels = ", ".join(f"<#{c}>" for c in sorted(server.channels)) or _("every channel")
        text = _("**Your notifications:** {notify}\n\n**This server**\nDefault time per move: {time}\n"
                 "One thread per match: {threads}\nGames are played in: {channels}").format(
            notify=f"{notify_text}\n{away_line}", time=time_label(server.default_time_per_move),
            threads=_("on") if server.threads else _("off"), channels=channels)
        text += _(wording.TAKEBACKS_SETTING).format(state=_("on") if server.takebacks else _("off"))
        text += "\n" + await pages_line(services, guild)
        text += "\n" + _(CREATORS_LINE).format(who=_(CREATORS_LABELS[await services.tournaments.who_may_create(guild)]))
        text += "\n" + server_line
        text = f"{told}\n\n{text}" if told else text
        await finish(interaction, embed=info_embed(text))


# No default_permissions on the group: Discord applies them to the whole /match command, and /match record is
# for every member. The admin subcommands check Manage Server themselves (overridable defaults never sufficed).
match_group = app_commands.Group(name="match", description="Match records; admin tools for matches",
                                 guild_only=True)


@match_group.command(name="abort", description="Admins: stop a stuck match (no result, unrated)")
@app_commands.describe(match="The match number (#12)", reason="Why (kept in the match record)")
async def abort(interaction: discord.Interaction, match: str, reason: str | None = None) -> None:
    bot = app(interaction)
    async with acknowledged(interaction):
        match_id = parse_match_id(match)
        if match_id is None:
            raise NotFound(T("Name the match to abort, like #12."))
        done = await bot.services.play.abort(match_id, interaction.user.id, guild_id=interaction.guild_id or 0,
                                             admin=_is_admin(interaction), reason=(reason or "")[:MAX_REASON])
        await finish(interaction, _("{game} #{id} ({players}) was aborted. {result}").format(
            game=done.game.title, id=done.id, players=" vs ".join(done.names), result=wording.result_text(done)))
        await bot.dispatcher.deliver_pending(done.id)


@match_group.command(name="rebuild-ratings", description="Admins: recompute this server's ratings from the match log")
async def rebuild_ratings(interaction: discord.Interaction) -> None:
    async with acknowledged(interaction):
        count = await app(interaction).services.rebuild_ratings(interaction.guild_id or 0,
                                                                admin=_is_admin(interaction))
        await finish(interaction, _("Ratings rebuilt from {n} rated matches.").format(n=count))


async def pages_line(services: Services, guild: int) -> str:
    """'Match pages: by link only, with seat names' for the /settings answer."""
    pages = await services.pages.store.settings(guild)
    return _("Match pages: {mode}, with {names}").format(
        mode=_(PAGE_MODE_LABELS.get(pages.mode, pages.mode)),
        names=_("display names") if pages.display_names else _("seat names"))


def register(tree: app_commands.CommandTree) -> None:
    tree.add_command(settings)
    tree.add_command(match_group)


# ---- time away and the digest on /settings ----
TIMEZONE_CHOICES = 25      # Discord shows at most 25 suggestions


async def away_and_digest_lines(interaction: discord.Interaction, mine: str) -> tuple[str, str, str]:
    """For the /settings answer, each whole in the language of the moment: how the player is notified (their
    digest's hour and zone), their time away, and the server's allowance."""
    services = app(interaction).services
    guild = interaction.guild_id or 0
    notify = _(NOTIFY_LABELS[mine])
    if mine == "digest":
        choice = await services.digests.choice(interaction.user.id)
        if choice.next_at is not None:
            notify = _(wording.DIGEST_SETTING).format(hour=choice.hour, timezone=choice.timezone,
                                                      next=timestamp(choice.next_at, "f"))
    status = await services.away.status(guild, interaction.user.id)
    state = _(wording.AWAY_STATE_AWAY).format(until=timestamp(status.until, "D")) if status.until \
        else _(wording.AWAY_STATE_HERE)
    mine_line = _(wording.AWAY_SETTINGS_LINE).format(state=state, left=status.left_days,
                                                     allowance=status.allowance_days)
    server_line = _(wording.AWAY_SERVER_LINE).format(allowance=status.allowance_days)
    return notify, mine_line, server_line


@settings.autocomplete("timezone")
async def timezone_complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower().replace(" ", "_")
    found = sorted(z for z in time_zones() if typed in z.lower())
    found.sort(key=lambda z: (not z.lower().startswith(typed), z))
    return [app_commands.Choice(name=z, value=z) for z in found[:TIMEZONE_CHOICES]]

