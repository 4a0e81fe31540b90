"""/help: one screen on what the bot does and how to start, with a button per registered game that shows its
quick start (how to read the board, how to type a turn) and a start position drawn in the render pool."""

from __future__ import annotations

import io
import re
from typing import Any

import discord
from discord import app_commands, ui

from bot import gametexts, wording
from bot.discord.cards import BOARD_FILE
from bot.discord.interaction import MAX_EMBED_TEXT, acknowledged, app, finish
from bot.i18n import T, _, current
from bot.model import NotFound
from engines import GAMES, Game

MAX_BUTTONS = 25      # Discord's limit for one message (5 rows of 5)


def help_embed() -> discord.Embed:
    games = "\n".join(_(wording.HELP_GAME_LINE).format(title=g.title, summary=gametexts.summary(g.key),
                                                       players="/".join(map(str, g.player_counts)))
                      for g in GAMES.values())
    text = f"{_(wording.HELP_INTRO)}\n\n{games}\n\n{_(wording.HELP_HOW_TO_START)}"
    return discord.Embed(title=_(wording.HELP_TITLE), description=text[:MAX_EMBED_TEXT],
                         colour=discord.Colour.blurple())


def help_view() -> ui.View:
    view = ui.View(timeout=None)
    for game in list(GAMES.values())[:MAX_BUTTONS]:
        view.add_item(HelpButton(game.key))
    return view


async def quick_start(interaction: discord.Interaction, game: Game) -> tuple[discord.Embed, discord.File]:
    """A game's quick start and its start position, drawn off the event loop (the render pool)."""
    players = min(game.player_counts)
    state = game.new(players=players, seed=0, variant=game.variants[0] if game.variants else None)
    names = [_(seat) for seat in game.seat_names(players)]      # the seat names, in the reader's language
    png = await app(interaction).renders.board(state, names=names, language=current())
    file = discord.File(io.BytesIO(png), filename=BOARD_FILE,
                        description=_(wording.HELP_GAME_ALT).format(title=game.title))
    embed = discord.Embed(title=_(wording.HELP_GAME_TITLE).format(title=game.title),
                          description=gametexts.quick_start(game.key)[:MAX_EMBED_TEXT], colour=discord.Colour.blurple())
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=_(wording.HELP_GAME_FOOTER).format(key=game.key))
    return embed, file


class HelpButton(ui.DynamicItem[ui.Button], template=r"help:(?P<game>[a-z0-9_-]{1,32})"):
    """One game's quick start, answered privately."""

    def __init__(self, game: str):
        title = GAMES[game].title if game in GAMES else game
        super().__init__(ui.Button(label=title, style=discord.ButtonStyle.secondary, custom_id=f"help:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /):
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with acknowledged(interaction):
            game = GAMES.get(self.game)
            if game is None:
                raise NotFound(T(wording.HELP_UNKNOWN_GAME))
            embed, file = await quick_start(interaction, game)
            await interaction.edit_original_response(embed=embed, attachments=[file])


@app_commands.command(name="help", description=wording.HELP_COMMAND)
async def help_command(interaction: discord.Interaction) -> None:
    async with acknowledged(interaction):
        await finish(interaction, embed=help_embed(), view=help_view())


DYNAMIC_ITEMS: list[type[ui.DynamicItem]] = [HelpButton]


def register(tree: app_commands.CommandTree) -> None:
    tree.add_command(help_command)
