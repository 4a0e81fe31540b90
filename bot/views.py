"""Buttons that survive restarts: their custom ids carry the match id (and ply), nothing lives in memory."""

from __future__ import annotations

import re

import discord
from discord import ui

from bot import messages
from bot.replies import mention, post_board, tell
from bot.service import Match, Person, ServiceError


def person(user: discord.abc.User) -> Person:
    return Person(user.id, user.display_name, user.bot)


def challenge_embed(match: Match) -> discord.Embed:
    embed = discord.Embed(title=f"{match.game.title} challenge #{match.id}",
                          description=messages.challenge_summary(match, mention),
                          colour=discord.Colour.blurple())
    if match.status != "challenge":
        embed.description += "\n\n" + (messages.closed_challenge_text(match) if match.status in
                                       ("declined", "cancelled") else "Accepted — the match is on!")
        embed.colour = discord.Colour.dark_grey()
    return embed


def challenge_view(match: Match) -> ui.View | None:
    if match.status != "challenge":
        return None
    view = ui.View(timeout=None)
    for action in ("accept", "decline", "cancel"):
        view.add_item(ChallengeButton(action, match.id))
    return view


_STYLES = {"accept": discord.ButtonStyle.success, "decline": discord.ButtonStyle.danger,
           "cancel": discord.ButtonStyle.secondary}


class ChallengeButton(ui.DynamicItem[ui.Button], template=r"ch:(?P<action>accept|decline|cancel):(?P<id>\d+)"):
    """Accept / Decline (the challenged) and Cancel (the challenger) on a challenge card."""

    def __init__(self, action: str, match_id: int):
        super().__init__(ui.Button(label=action.capitalize(), style=_STYLES[action],
                                   custom_id=f"ch:{action}:{match_id}"))
        self.action, self.match_id = action, match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str]):
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = interaction.client.service
        guild = interaction.guild_id or 0
        try:
            if self.action == "accept":
                match = await service.accept(self.match_id, person(interaction.user), guild_id=guild)
            elif self.action == "decline":
                match = await service.decline(self.match_id, interaction.user.id, guild_id=guild)
            else:
                match = await service.cancel(self.match_id, interaction.user.id, guild_id=guild)
        except ServiceError as exc:
            await tell(interaction, str(exc))
            return
        await interaction.response.edit_message(embed=challenge_embed(match), view=challenge_view(match))
        if match.status == "active":
            text = f"{messages.seat_line(match, mention)}\n{messages.to_move_text(match, mention)}"
            await post_board(interaction, match, f"The match begins!\n{text}")


class ResignButton(ui.DynamicItem[ui.Button], template=r"rs:(?P<id>\d+):(?P<ply>\d+)"):
    """The confirmation of /<game> resign; refused if the position moved on since it was offered."""

    def __init__(self, match_id: int, ply: int):
        super().__init__(ui.Button(label="Yes, resign", style=discord.ButtonStyle.danger,
                                   custom_id=f"rs:{match_id}:{ply}"))
        self.match_id, self.ply = match_id, ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str]):
        return cls(int(match["id"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            match = await interaction.client.service.resign(
                self.match_id, interaction.user.id, guild_id=interaction.guild_id or 0, expected_ply=self.ply)
        except ServiceError as exc:
            await tell(interaction, str(exc))
            return
        await interaction.response.edit_message(content="You resigned.", embed=None, view=None)
        await post_board(interaction, match, messages.result_text(match, mention))


def resign_view(match: Match) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ResignButton(match.id, match.ply))
    return view


DYNAMIC_ITEMS = (ChallengeButton, ResignButton)
