"""Standings: /leaderboard, /profile and /history."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands, ui

from bot import wording
from bot.discord.cards import jump_url
from bot.discord.interaction import COLOUR_ACTIVE, acknowledged, app, channel_language, finish, tell
from bot.i18n import _, speaking
from bot.model import Match
from bot.ratings import PROVISIONAL_GAMES, Rating
from engines import GAMES

PAGE_SIZE = 10
HISTORY_SIZE = 15
MAX_PAGE = 10_000
GAME_CHOICES = [app_commands.Choice(name=g.title, value=g.key) for g in GAMES.values()]


def leaderboard_line(rank: int, r: Rating) -> str:
    mark = " " + _("*(provisional)*") if r.provisional else ""
    return f"**{rank}.** <@{r.user_id}> — **{r.shown}**{mark} · {wording.count(r.games, 'game')} · " \
           f"{r.wins}W {r.losses}L {r.draws}D"


async def leaderboard_page(interaction: discord.Interaction, game: str, page: int) -> tuple[discord.Embed, ui.View]:
    ratings = app(interaction).services.ratings
    rows, total = await ratings.leaderboard(interaction.guild_id or 0, game, offset=page * PAGE_SIZE,
                                            limit=PAGE_SIZE)
    pages = max(1, -(-total // PAGE_SIZE))
    lines = [leaderboard_line(page * PAGE_SIZE + i + 1, r) for i, r in enumerate(rows)]
    embed = discord.Embed(title=_("{game} leaderboard").format(game=GAMES[game].title),
                          description="\n".join(lines) or _("No rated games yet — finish a timed match to appear."),
                          colour=COLOUR_ACTIVE)
    embed.set_footer(text=_("Page {page} of {pages} · provisional: fewer than {games} rated games").format(
        page=page + 1, pages=pages, games=PROVISIONAL_GAMES))
    view = ui.View(timeout=None)
    view.add_item(LeaderboardPage(game, page - 1, _("◀ Previous"), disabled=page <= 0))
    view.add_item(LeaderboardPage(game, page + 1, _("Next ▶"), disabled=page + 1 >= pages))
    return embed, view


class LeaderboardPage(ui.DynamicItem[ui.Button], template=r"lb:(?P<game>[a-z]{1,20}):(?P<page>-?\d{1,6})"):
    """Previous / Next: the page number lives in the custom id, so old leaderboards keep paging."""

    def __init__(self, game: str, page: int, label: str = "Page", *, disabled: bool = False):
        super().__init__(ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                   custom_id=f"lb:{game}:{page}"))
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /):
        return cls(match["game"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.game not in GAMES or not 0 <= self.page <= MAX_PAGE:
            with speaking(interaction.locale):
                await tell(interaction, _("That page does not exist."))
            return
        async with acknowledged(interaction, update=True):
            with speaking(channel_language(interaction)):    # the leaderboard is a post for the channel
                embed, view = await leaderboard_page(interaction, self.game, self.page)
            await finish(interaction, embed=embed, view=view)


@app_commands.command(name="leaderboard", description="This server's standings in a game")
@app_commands.describe(game="Which game")
@app_commands.choices(game=GAME_CHOICES)
@app_commands.guild_only()
async def leaderboard(interaction: discord.Interaction, game: str) -> None:
    if game not in GAMES:
        with speaking(interaction.locale):
            await tell(interaction, _("Choose a game from the list."))
        return
    async with acknowledged(interaction, private=False):
        with speaking(channel_language(interaction)):    # the leaderboard is a post for the channel
            embed, view = await leaderboard_page(interaction, game, 0)
        await finish(interaction, embed=embed, view=view)


@app_commands.command(name="profile", description="Ratings, records and active matches of a player")
@app_commands.describe(user="Whose profile (default: yours)")
@app_commands.guild_only()
async def profile(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    who = user or interaction.user
    services = app(interaction).services
    async with acknowledged(interaction):
        ratings = sorted(await services.ratings.of_user(interaction.guild_id or 0, who.id), key=lambda r: -r.games)
        lines = [_("**{game}**: {rating}{provisional} — {games}, {wins}W {losses}L {draws}D").format(
            game=GAMES[r.game].title, rating=r.shown, provisional=" " + _("(provisional)") if r.provisional else "",
            games=wording.count(r.games, "game"), wins=r.wins, losses=r.losses, draws=r.draws)
            for r in ratings if r.game in GAMES]
        active = await services.queries.matches_of(who.id, guild_id=interaction.guild_id or 0)
        embed = discord.Embed(title=f"{who.display_name}", colour=COLOUR_ACTIVE,
                              description="\n".join(lines) or _("No rated games in this server yet."))
        if active:
            embed.add_field(name=_("Active matches ({n})").format(n=len(active)), inline=False,
                            value="\n".join(_match_line(m, who.id) for m in active[:10])[:1024])
        await finish(interaction, embed=embed)


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
    who = user or interaction.user
    async with acknowledged(interaction):
        done = await app(interaction).services.queries.matches_of(
            who.id, guild_id=interaction.guild_id or 0, game=game if game in GAMES else None,
            statuses=("finished", "aborted"), newest_first=True, limit=HISTORY_SIZE)
        lines = [f"{_match_line(m, who.id)} — {wording.result_text(m).splitlines()[0]}" for m in done]
        embed = discord.Embed(title=_("{player}: finished matches").format(player=who.display_name),
                              colour=COLOUR_ACTIVE,
                              description="\n".join(lines)[:4096] or _("No finished matches yet."))
        await finish(interaction, embed=embed)


DYNAMIC_ITEMS: list[type[ui.DynamicItem]] = [LeaderboardPage]


def register(tree: app_commands.CommandTree) -> None:
    tree.add_command(leaderboard)
    tree.add_command(profile)
    tree.add_command(history)
