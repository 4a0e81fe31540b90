"""Buttons that survive restarts: their custom ids carry the match id (and ply), nothing lives in memory."""

from __future__ import annotations

import logging
import re
from datetime import datetime

import discord
from discord import ui

from bot import messages, notify
from bot.replies import mention, tell, timestamp
from bot.service import Match, Person, ServiceError

log = logging.getLogger(__name__)


def person(user: discord.abc.User) -> Person:
    return Person(user.id, user.display_name, user.bot)


def challenge_embed(match: Match) -> discord.Embed:
    lines = [messages.challenge_summary(match, mention), f"⏱ {match.time_label.capitalize()}."]
    if match.status == "challenge" and match.row.expires_at:
        lines.append(f"Expires {timestamp(datetime.fromisoformat(match.row.expires_at))} if not answered.")
    embed = discord.Embed(title=f"{match.game.title} challenge #{match.id}", description="\n".join(lines),
                          colour=discord.Colour.blurple())
    if match.status != "challenge":
        closed = messages.closed_challenge_text(match) if match.status in ("declined", "cancelled", "expired") \
            else "Accepted — the match is on!"
        embed.description += "\n\n" + closed
        embed.colour = discord.Colour.dark_grey()
    return embed


def challenge_view(match: Match) -> ui.View | None:
    if match.status != "challenge":
        return None
    view = ui.View(timeout=None)
    for action in ("accept", "decline", "cancel"):
        view.add_item(ChallengeButton(action, match.id))
    return view


def board_view(match: Match) -> ui.View:
    """Every board: Bump while the match is on; Rematch once it is over."""
    view = ui.View(timeout=None)
    if match.status == "active":
        view.add_item(BumpButton(match.id))
    elif match.status in ("finished", "aborted"):
        view.add_item(RematchButton(match.id))
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
            await start_match(interaction, match)


async def start_match(interaction: discord.Interaction, match: Match) -> None:
    """Post the first board: in a thread of its own when the server asked for threads."""
    service = interaction.client.service
    text = f"The match begins!\n{messages.seat_line(match, mention)}\n{messages.to_move_text(match, mention)}"
    send = notify.followup(interaction)
    if (await service.settings.guild(match.row.guild_id)).threads and interaction.message is not None:
        name = f"{match.game.title}: {' vs '.join(match.names)}"[:100]
        try:
            thread = await interaction.message.create_thread(name=name, auto_archive_duration=10080)
        except discord.HTTPException as exc:   # no permission to create threads: play in the channel
            log.info("could not open a thread for match %s: %s", match.id, exc)
        else:
            await service.move_to_channel(match.id, thread.id)
            match = await service.get(match.id)
            send = thread.send
    await notify.post_board(interaction.client, match, text, send)


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
        await notify.post_board(interaction.client, match, messages.result_text(match, mention),
                                notify.channel_of(interaction.client, match).send)


class BumpButton(ui.DynamicItem[ui.Button], template=r"bp:(?P<id>\d+)"):
    """Re-post the board at the bottom of the channel (it may have scrolled away in a busy channel)."""

    def __init__(self, match_id: int):
        super().__init__(ui.Button(label="Bump", emoji="⤵️", style=discord.ButtonStyle.secondary,
                                   custom_id=f"bp:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str]):
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            match = await interaction.client.service.get(self.match_id)
            if match.row.guild_id != interaction.guild_id:
                raise ServiceError("That match belongs to another server.")
            if match.status != "active":
                raise ServiceError("That match is over; nothing to bump.")
        except ServiceError as exc:
            await tell(interaction, str(exc))
            return
        await interaction.response.defer(thinking=True)
        await notify.post_board(interaction.client, match, messages.to_move_text(match, mention),
                                notify.followup(interaction))


class RematchButton(ui.DynamicItem[ui.Button], template=r"rm:(?P<id>\d+)"):
    """Same players, seats rotated: posts a new challenge everyone else must accept."""

    def __init__(self, match_id: int):
        super().__init__(ui.Button(label="Rematch", emoji="🔁", style=discord.ButtonStyle.primary,
                                   custom_id=f"rm:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str]):
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        service = interaction.client.service
        try:
            match = await service.rematch(self.match_id, person(interaction.user), guild_id=interaction.guild_id)
        except ServiceError as exc:
            await tell(interaction, str(exc))
            return
        await send_challenge_card(interaction, match)


async def send_challenge_card(interaction: discord.Interaction, match: Match) -> None:
    invited = [p for p in match.participants if p.invited_order > 0]
    await interaction.response.send_message(
        content=" ".join(mention(p) for p in invited) + f" — you are challenged to {match.game.title}!",
        embed=challenge_embed(match), view=challenge_view(match),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(p.user_id) for p in invited]))
    card = await interaction.original_response()
    await interaction.client.service.set_card_message(match.id, card.id)


def resign_view(match: Match) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ResignButton(match.id, match.ply))
    return view


DYNAMIC_ITEMS: list[type[ui.DynamicItem]] = [ChallengeButton, ResignButton, BumpButton, RematchButton]
