"""Standings and settings: /leaderboard, /profile, /history, /settings and the admins' /match commands."""

from __future__ import annotations

import re

import discord
from discord import app_commands, ui

from bot import messages
from bot.ratings import Rating
from bot.replies import COLOUR_ACTIVE, jump_url, tell
from bot.service import TIME_CHOICES_DAYS, Match, ServiceError, time_label
from bot.store.settings import NOTIFY_CHOICES
from engines import GAMES

PAGE_SIZE = 10
HISTORY_SIZE = 15
GAME_CHOICES = [app_commands.Choice(name=g.title, value=g.key) for g in GAMES.values()]
NOTIFY_LABELS = {"mention": "a mention in the match's channel", "dm": "a direct message (with a link)",
                 "off": "no notification"}


def _is_admin(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions and interaction.permissions.manage_guild)


# --- /leaderboard --------------------------------------------------------------------------------------------
def leaderboard_line(rank: int, r: Rating) -> str:
    mark = " *(provisional)*" if r.provisional else ""
    return f"**{rank}.** <@{r.user_id}> — **{r.label}**{mark} · {r.games} games · {r.wins}W {r.losses}L {r.draws}D"


async def leaderboard_page(interaction: discord.Interaction, game: str, page: int) -> tuple[discord.Embed, ui.View]:
    ratings = interaction.client.service.ratings
    rows, total = await ratings.leaderboard(interaction.guild_id, game, offset=page * PAGE_SIZE, limit=PAGE_SIZE)
    pages = max(1, -(-total // PAGE_SIZE))
    lines = [leaderboard_line(page * PAGE_SIZE + i + 1, r) for i, r in enumerate(rows)]
    embed = discord.Embed(title=f"{GAMES[game].title} leaderboard",
                          description="\n".join(lines) or "No rated games yet — finish a timed match to appear.",
                          colour=COLOUR_ACTIVE)
    embed.set_footer(text=f"Page {page + 1} of {pages} · ? = provisional (fewer than 5 rated games)")
    view = ui.View(timeout=None)
    view.add_item(LeaderboardPage(game, page - 1, "◀ Previous", disabled=page <= 0))
    view.add_item(LeaderboardPage(game, page + 1, "Next ▶", disabled=page + 1 >= pages))
    return embed, view


class LeaderboardPage(ui.DynamicItem[ui.Button], template=r"lb:(?P<game>[a-z]+):(?P<page>-?\d+)"):
    """Previous / Next: the page number lives in the custom id, so old leaderboards keep paging."""

    def __init__(self, game: str, page: int, label: str = "Page", *, disabled: bool = False):
        super().__init__(ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                   custom_id=f"lb:{game}:{page}"))
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str]):
        return cls(match["game"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.game not in GAMES or self.page < 0:
            await tell(interaction, "That page does not exist.")
            return
        embed, view = await leaderboard_page(interaction, self.game, self.page)
        await interaction.response.edit_message(embed=embed, view=view)


@app_commands.command(name="leaderboard", description="This server's standings in a game")
@app_commands.describe(game="Which game")
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def leaderboard(interaction: discord.Interaction, game: str) -> None:
    embed, view = await leaderboard_page(interaction, game, 0)
    await interaction.response.send_message(embed=embed, view=view)


# --- /profile and /history ---------------------------------------------------------------------------------------
@app_commands.command(name="profile", description="Ratings, records and active matches of a player")
@app_commands.describe(user="Whose profile (default: yours)")
@app_commands.guild_only()
async def profile(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    user = user or interaction.user
    service = interaction.client.service
    ratings = sorted(await service.ratings.of_user(interaction.guild_id, user.id), key=lambda r: -r.games)
    lines = [f"**{GAMES[r.game].title}**: {r.label}{' (provisional)' if r.provisional else ''} — "
             f"{r.games} games, {r.wins}W {r.losses}L {r.draws}D" for r in ratings if r.game in GAMES]
    active = await service.matches_of(user.id, guild_id=interaction.guild_id, replay=False)
    embed = discord.Embed(title=f"{user.display_name}", colour=COLOUR_ACTIVE,
                          description="\n".join(lines) or "No rated games in this server yet.")
    if active:
        embed.add_field(name=f"Active matches ({len(active)})", inline=False,
                        value="\n".join(_match_line(m, user.id) for m in active[:10]))
    await interaction.response.send_message(embed=embed, ephemeral=True)


def _match_line(m: Match, user_id: int) -> str:
    others = ", ".join(p.name for p in m.seated if p.user_id != user_id)
    link = m.row.board_message_id and jump_url(m.row.guild_id, m.row.channel_id, m.row.board_message_id)
    title = f"[{m.game.title} #{m.id}]({link})" if link else f"{m.game.title} #{m.id}"
    return f"{title} vs {others}"


@app_commands.command(name="history", description="Finished matches with their results and final boards")
@app_commands.describe(user="Whose history (default: yours)", game="Only this game")
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def history(interaction: discord.Interaction, user: discord.User | None = None,
                  game: str | None = None) -> None:
    user = user or interaction.user
    done = await interaction.client.service.matches_of(
        user.id, guild_id=interaction.guild_id, game=game, statuses=("finished", "aborted"), newest_first=True,
        limit=HISTORY_SIZE, replay=False)
    lines = []
    for m in done:
        result = messages.result_text(m).splitlines()[0]
        lines.append(f"{_match_line(m, user.id)} — {result}")
    embed = discord.Embed(title=f"{user.display_name}: finished matches", colour=COLOUR_ACTIVE,
                          description="\n".join(lines)[:4096] or "No finished matches yet.")
    await interaction.response.send_message(embed=embed, ephemeral=True)


# --- /settings ------------------------------------------------------------------------------------------------
@app_commands.command(name="settings", description="Your notifications; for admins, this server's game settings")
@app_commands.describe(notify="How you hear it is your move (and reminders)",
                       threads="Admins: one thread per match", default_time="Admins: default time per move",
                       allow_channel="Admins: also play in this channel (none listed = everywhere)",
                       remove_channel="Admins: stop playing in this channel")
@app_commands.choices(
    notify=[app_commands.Choice(name=NOTIFY_LABELS[c], value=c) for c in NOTIFY_CHOICES],
    threads=[app_commands.Choice(name="on", value=1), app_commands.Choice(name="off", value=0)],
    default_time=[app_commands.Choice(name=f"{d} days" if d > 1 else "1 day", value=d) for d in TIME_CHOICES_DAYS]
    + [app_commands.Choice(name="none: casual, unrated", value=0)])
@app_commands.guild_only()
async def settings(interaction: discord.Interaction, notify: str | None = None, threads: int | None = None,
                   default_time: int | None = None, allow_channel: discord.TextChannel | None = None,
                   remove_channel: discord.TextChannel | None = None) -> None:
    store = interaction.client.service.settings
    admin_change = any(v is not None for v in (threads, default_time, allow_channel, remove_channel))
    if admin_change and not _is_admin(interaction):
        await tell(interaction, "Only members with the Manage Server permission can change the server's settings; "
                   "nothing was changed.")
        return
    if notify is not None:
        await store.set_notify(interaction.user.id, notify)
    server = await store.guild(interaction.guild_id)
    if admin_change:
        server = await store.update_guild(
            interaction.guild_id, threads=None if threads is None else bool(threads),
            default_time_per_move=None if default_time is None else default_time * 86400,
            allow_channel=allow_channel.id if allow_channel else None,
            remove_channel=remove_channel.id if remove_channel else None)
    mine = await store.notify(interaction.user.id)
    channels = ", ".join(f"<#{c}>" for c in sorted(server.channels)) or "every channel"
    text = (f"**Your notifications:** {NOTIFY_LABELS[mine]}\n\n**This server**\n"
            f"Default time per move: {time_label(server.default_time_per_move)}\n"
            f"One thread per match: {'on' if server.threads else 'off'}\nGames are played in: {channels}")
    await tell(interaction, text, error=False)


# --- /match (admins) ----------------------------------------------------------------------------------------------
match_group = app_commands.Group(name="match", description="Admin tools for matches", guild_only=True,
                                 default_permissions=discord.Permissions(manage_guild=True))


@match_group.command(name="abort", description="Admins: stop a stuck match (no result, unrated)")
@app_commands.describe(match="The match number (#12)", reason="Why (kept in the match record)")
async def abort(interaction: discord.Interaction, match: str, reason: str | None = None) -> None:
    if not _is_admin(interaction):   # Discord's default permissions can be overridden; this cannot
        await tell(interaction, "Only members with the Manage Server permission can abort matches.")
        return
    service = interaction.client.service
    try:
        match_id = int(match.strip().lstrip("#"))
        done = await service.abort(match_id, interaction.user.id, guild_id=interaction.guild_id,
                                   reason=(reason or "")[:200])
    except ValueError:
        await tell(interaction, f"{match!r} is not a match number.")
        return
    except ServiceError as exc:
        await tell(interaction, str(exc))
        return
    players = " ".join(f"<@{p.user_id}>" for p in done.seated)
    await interaction.response.send_message(
        f"{done.game.title} #{done.id} ({' vs '.join(done.names)}) was aborted by {interaction.user.mention}. "
        f"{messages.result_text(done)} {players}",
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(p.user_id) for p in done.seated]))


@match_group.command(name="rebuild-ratings", description="Admins: recompute this server's ratings from the match log")
async def rebuild_ratings(interaction: discord.Interaction) -> None:
    if not _is_admin(interaction):
        await tell(interaction, "Only members with the Manage Server permission can rebuild ratings.")
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    count = await interaction.client.service.ratings.rebuild(interaction.guild_id)
    await interaction.followup.send(f"Ratings rebuilt from {count} rated matches.", ephemeral=True)


DYNAMIC_ITEMS = [LeaderboardPage]


def register(tree: app_commands.CommandTree) -> None:
    for command in (leaderboard, profile, history, settings, match_group):
        tree.add_command(command)
