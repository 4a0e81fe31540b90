"""Settings and the admins' tools: /settings and /match abort, /match rebuild-ratings."""

from __future__ import annotations

import discord
from discord import app_commands

from bot import wording
from bot.discord.interaction import acknowledged, app, finish, info_embed
from bot.i18n import N_, T, _
from bot.model import NotAllowed, NotFound, time_label
from bot.services.challenges import TIME_CHOICES_DAYS
from bot.services.queries import parse_match_id
from bot.store.settings import NOTIFY_CHOICES

NOTIFY_LABELS = {"mention": N_("a mention in the match's channel"), "dm": N_("a direct message (with a link)"),
                 "off": N_("no notification")}
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
                       remove_channel="Admins: stop playing in this channel")
@app_commands.choices(notify=[app_commands.Choice(name=NOTIFY_LABELS[c], value=c) for c in NOTIFY_CHOICES])
@app_commands.choices(threads=[app_commands.Choice(name="on", value=1), app_commands.Choice(name="off", value=0)],
                      default_time=DEFAULT_TIME_CHOICES)
@app_commands.guild_only()
async def settings(interaction: discord.Interaction, notify: str | None = None, threads: int | None = None,
                   default_time: int | None = None, allow_channel: discord.TextChannel | None = None,
                   remove_channel: discord.TextChannel | None = None) -> None:
    store = app(interaction).services.settings
    guild = interaction.guild_id or 0
    async with acknowledged(interaction):
        admin_change = any(v is not None for v in (threads, default_time, allow_channel, remove_channel))
        if admin_change and not _is_admin(interaction):
            raise NotAllowed(T("Only members with the Manage Server permission can change the server's settings; "
                               "nothing was changed."))
        if notify is not None:
            await store.set_notify(interaction.user.id, notify)
        server = await store.guild(guild)
        if admin_change:
            server = await store.update_guild(
                guild, threads=None if threads is None else bool(threads),
                default_time_per_move=None if default_time is None else default_time * 86400,
                allow_channel=allow_channel.id if allow_channel else None,
                remove_channel=remove_channel.id if remove_channel else None)
        mine = await store.notify(interaction.user.id)
        channels = ", ".join(f"<#{c}>" for c in sorted(server.channels)) or _("every channel")
        text = _("**Your notifications:** {notify}\n\n**This server**\nDefault time per move: {time}\n"
                 "One thread per match: {threads}\nGames are played in: {channels}").format(
            notify=_(NOTIFY_LABELS[mine]), time=time_label(server.default_time_per_move),
            threads=_("on") if server.threads else _("off"), channels=channels)
        await finish(interaction, embed=info_embed(text))


match_group = app_commands.Group(name="match", description="Admin tools for matches", guild_only=True,
                                 default_permissions=discord.Permissions(manage_guild=True))


@match_group.command(name="abort", description="Admins: stop a stuck match (no result, unrated)")
@app_commands.describe(match="The match number (#12)", reason="Why (kept in the match record)")
async def abort(interaction: discord.Interaction, match: str, reason: str | None = None) -> None:
    bot = app(interaction)
    async with acknowledged(interaction):
        if not _is_admin(interaction):   # Discord's default permissions can be overridden; this cannot
            raise NotAllowed(T("Only members with the Manage Server permission can abort matches."))
        match_id = parse_match_id(match)
        if match_id is None:
            raise NotFound(T("Name the match to abort, like #12."))
        done = await bot.services.play.abort(match_id, interaction.user.id, guild_id=interaction.guild_id or 0,
                                             reason=(reason or "")[:MAX_REASON])
        await finish(interaction, _("{game} #{id} ({players}) was aborted. {result}").format(
            game=done.game.title, id=done.id, players=" vs ".join(done.names), result=wording.result_text(done)))
        await bot.dispatcher.deliver_pending(done.id)


@match_group.command(name="rebuild-ratings", description="Admins: recompute this server's ratings from the match log")
async def rebuild_ratings(interaction: discord.Interaction) -> None:
    async with acknowledged(interaction):
        if not _is_admin(interaction):
            raise NotAllowed(T("Only members with the Manage Server permission can rebuild ratings."))
        count = await app(interaction).services.ratings.rebuild(interaction.guild_id)
        await finish(interaction, _("Ratings rebuilt from {n} rated matches.").format(n=count))


def register(tree: app_commands.CommandTree) -> None:
    tree.add_command(settings)
    tree.add_command(match_group)
