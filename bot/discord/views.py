"""Buttons that survive restarts: their custom ids carry the match id (and ply), nothing lives in memory.

Each callback acknowledges first, then asks the services; what a change must announce is delivered by the
dispatcher from the outbox (at once, by ``deliver_pending``).
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import ui

from bot import gametexts, wording
from bot.discord.interaction import acknowledged, app, channel_language, finish, person
from bot.i18n import N_, T, _, speaking
from bot.model import ServiceError
from engines import GAMES

_LABELS = {"accept": N_("Accept"), "decline": N_("Decline"), "cancel": N_("Cancel")}
_DRAW_LABELS = {"accept": N_("Accept draw"), "decline": N_("Decline draw")}
_STYLES = {"accept": discord.ButtonStyle.success, "decline": discord.ButtonStyle.danger,
           "cancel": discord.ButtonStyle.secondary}


class MatchButton(ui.DynamicItem[ui.Button], template=r"(?!)"):
    """A button about one match, its custom id '<prefix>:<match id>' (subclasses set the template to match)."""

    prefix = ""
    label = ""
    emoji: str | None = None
    style = discord.ButtonStyle.secondary

    def __init__(self, match_id: int):
        super().__init__(ui.Button(label=_(self.label), emoji=self.emoji, style=self.style,
                                   custom_id=f"{self.prefix}:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /):
        return cls(int(match["id"]))


class ChallengeButton(ui.DynamicItem[ui.Button], template=r"ch:(?P<action>accept|decline|cancel):(?P<id>\d{1,18})"):
    """Accept / Decline (the challenged) and Cancel (the challenger) on a challenge card."""

    def __init__(self, action: str, match_id: int):
        super().__init__(ui.Button(label=_(_LABELS[action]), style=_STYLES[action],
                                   custom_id=f"ch:{action}:{match_id}"))
        self.action, self.match_id = action, match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /):
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = app(interaction)
        challenges = bot.services.challenges
        guild = interaction.guild_id or 0
        async with acknowledged(interaction, update=True):
            if self.action == "accept":
                await challenges.accept(self.match_id, person(interaction.user), guild_id=guild)
            elif self.action == "decline":
                await challenges.decline(self.match_id, interaction.user.id, guild_id=guild)
            else:
                await challenges.cancel(self.match_id, interaction.user.id, guild_id=guild)
            await bot.dispatcher.deliver_pending(self.match_id)


class AnswerButton(ui.DynamicItem[ui.Button], template=r"(?!)"):
    """Accept or decline a proposal made at one ply, its custom id '<prefix>:<answer>:<match id>:<ply>'
    (subclasses set the template, the prefix and the labels)."""

    prefix = ""
    labels: dict[str, str] = {}

    def __init__(self, answer: str, match_id: int, ply: int):
        style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.danger
        super().__init__(ui.Button(label=_(self.labels[answer]), style=style,
                                   custom_id=f"{self.prefix}:{answer}:{match_id}:{ply}"))
        self.answer, self.match_id, self.ply = answer, match_id, ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /):
        return cls(match["answer"], int(match["id"]), int(match["ply"]))


class DrawButton(AnswerButton, template=r"dr:(?P<answer>accept|decline):(?P<id>\d{1,18}):(?P<ply>\d{1,9})"):
    """Accept or decline a draw offer; refused once the position has moved on (the offer lapsed)."""

    prefix, labels = "dr", _DRAW_LABELS

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = app(interaction)
        async with acknowledged(interaction, update=True):
            match = await bot.services.draws.answer(self.match_id, interaction.user.id,
                                                    guild_id=interaction.guild_id or 0, ply=self.ply,
                                                    accept=self.answer == "accept")
            with speaking(channel_language(interaction)):    # the offer is a post for the whole channel
                if match.status == "active" and match.row.draw_offer_ply == self.ply:
                    names = ", ".join(p.name for p in match.seated if p.user_id in match.row.draw_accepted)
                    await finish(interaction, _("🤝 Draw offered in {caption}. Agreed so far: {names}.").format(
                        caption=wording.board_caption(match), names=names), view=draw_view(match.id, self.ply))
                else:
                    await finish(interaction, _("🤝 The draw offer was accepted: the match is drawn.") if match.is_over
                                 else _("🤝 The draw offer was declined."), view=ui.View())
            await bot.dispatcher.deliver_pending(self.match_id)


def draw_view(match_id: int, ply: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(DrawButton("accept", match_id, ply))
    view.add_item(DrawButton("decline", match_id, ply))
    return view


class TakebackButton(AnswerButton,
                     template=r"tk:(?P<answer>accept|decline):(?P<id>\d{1,18}):(?P<ply>\d{1,9})"):
    """Accept or decline a takeback request; refused once the position has moved on (the request lapsed)."""

    prefix = "tk"
    labels = {"accept": wording.TAKEBACK_ACCEPT_LABEL, "decline": wording.TAKEBACK_DECLINE_LABEL}

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = app(interaction)
        async with acknowledged(interaction, update=True):
            match = await bot.services.takebacks.answer(self.match_id, interaction.user.id,
                                                        guild_id=interaction.guild_id or 0, ply=self.ply,
                                                        accept=self.answer == "accept")
            with speaking(channel_language(interaction)):    # the request is a post for the whole channel
                if match.ply == self.ply and match.row.takeback_ply == self.ply:
                    names = ", ".join(p.name for p in match.seated if p.user_id in match.row.takeback_accepted)
                    await finish(interaction, _(wording.TAKEBACK_AGREED_SO_FAR).format(
                        caption=wording.board_caption(match), names=names), view=takeback_view(match.id, self.ply))
                else:
                    await finish(interaction, _(wording.TAKEBACK_ANSWERED_YES) if match.ply != self.ply
                                 else _(wording.TAKEBACK_ANSWERED_NO), view=ui.View())
            await bot.dispatcher.deliver_pending(self.match_id)


def takeback_view(match_id: int, ply: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(TakebackButton("accept", match_id, ply))
    view.add_item(TakebackButton("decline", match_id, ply))
    return view


class ResignButton(ui.DynamicItem[ui.Button], template=r"rs:(?P<id>\d{1,18}):(?P<ply>\d{1,9})"):
    """The confirmation of /<game> resign; refused if the position moved on since it was offered."""

    def __init__(self, match_id: int, ply: int):
        super().__init__(ui.Button(label=_("Yes, resign"), style=discord.ButtonStyle.danger,
                                   custom_id=f"rs:{match_id}:{ply}"))
        self.match_id, self.ply = match_id, ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /):
        return cls(int(match["id"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = app(interaction)
        async with acknowledged(interaction, update=True):
            await bot.services.play.resign(self.match_id, interaction.user.id, guild_id=interaction.guild_id or 0,
                                           expected_ply=self.ply)
            await finish(interaction, _("You resigned."), view=ui.View())
            await bot.dispatcher.deliver_pending(self.match_id)


class BumpButton(MatchButton, template=r"bp:(?P<id>\d{1,18})"):
    """Re-post the board at the bottom of the channel (it may have scrolled away in a busy channel): its players
    and the server's managers, once per cooldown (``Bumps``)."""

    prefix, label, emoji = "bp", N_("Bump"), "⤵️"

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = app(interaction)
        async with acknowledged(interaction):
            match = await bot.services.bumps.bump(self.match_id, interaction.user.id,
                                                  guild_id=interaction.guild_id or 0,
                                                  manager=interaction.permissions.manage_guild)
            await bot.poster.repost_board(interaction, match)


class RematchButton(MatchButton, template=r"rm:(?P<id>\d{1,18})"):
    """Same players, seats rotated: posts a new challenge everyone else must accept (once per match)."""

    prefix, label, emoji, style = "rm", N_("Rematch"), "🔁", discord.ButtonStyle.primary

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = app(interaction)
        async with acknowledged(interaction):
            match = await bot.services.challenges.rematch(self.match_id, person(interaction.user),
                                                         guild_id=interaction.guild_id or 0,
                                                         reply=bot.poster.reply_row(interaction, "card"))
            await bot.dispatcher.deliver_pending(match.id)


class TextBoardButton(MatchButton, template=r"tb:(?P<id>\d{1,18})"):
    """The position as text, privately: for screen readers, and for anyone who prefers it."""

    prefix, label, emoji = "tb", N_("Text board"), "📝"

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = app(interaction)
        async with acknowledged(interaction):
            match = await bot.services.queries.in_server(self.match_id, interaction.guild_id or 0)
            await finish(interaction, wording.text_board(match))


class JoinButton(MatchButton, template=r"jn:(?P<id>\d{1,18})"):
    """Take an open seat of an open challenge: anyone in the server who can see the channel, once."""

    prefix, label, emoji, style = "jn", N_("Join"), "🪑", discord.ButtonStyle.success

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = app(interaction)
        async with acknowledged(interaction, update=True):
            if not interaction.permissions.view_channel:
                raise ServiceError(T("You cannot see this channel, so you could not follow the match here."))
            await bot.services.challenges.join(self.match_id, person(interaction.user),
                                               guild_id=interaction.guild_id or 0)
            await bot.dispatcher.deliver_pending(self.match_id)


MAX_SELECT_OPTIONS = 25      # Discord's limit for one select menu
CHALLENGE_TO_LEVEL = 3       # "Challenge to…" on the bot itself: a game against it at this level (as /<game> challenge)


class ChallengeToSelect(ui.DynamicItem[ui.Select], template=r"ct:(?P<target>\d{1,18})"):
    """The game menu of "Challenge to…": picking a game challenges the member (their id is in the custom id)."""

    def __init__(self, target_id: int):
        options = [discord.SelectOption(label=g.title, value=g.key,
                                        description=wording.shorten(gametexts.summary(g.key), 100))
                   for g in GAMES.values()][:MAX_SELECT_OPTIONS]
        super().__init__(ui.Select(custom_id=f"ct:{target_id}", placeholder=_(wording.CHALLENGE_TO_PLACEHOLDER),
                                   options=options))
        self.target_id = target_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /):
        return cls(int(match["target"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = app(interaction)
        async with acknowledged(interaction, update=True):
            game_key = (self.item.values or [""])[0]
            if interaction.guild is None:
                raise ServiceError(T("Challenges are made in a server."))
            try:
                target = await interaction.guild.fetch_member(self.target_id)
            except discord.NotFound:
                raise ServiceError(T("That member is no longer in this server.")) from None
            channel = interaction.channel
            if isinstance(channel, discord.abc.GuildChannel | discord.Thread) \
                    and not channel.permissions_for(target).view_channel:
                raise ServiceError(T(wording.CHALLENGE_TO_CANNOT_SEE, name=target.display_name))
            me = interaction.client.user
            common: dict[str, Any] = {"guild_id": interaction.guild_id or 0, "channel_id": interaction.channel_id or 0,
                                      "parent_channel_id": getattr(channel, "parent_id", None)}
            if me is not None and target.id == me.id:   # the bot itself: a game against it, as /<game> challenge
                match = await bot.services.challenges.challenge_bot(
                    game_key, player=person(interaction.user), level=CHALLENGE_TO_LEVEL,
                    reply=bot.poster.reply_row(interaction, "board", _("The match begins!")), **common)
            else:
                match = await bot.services.challenges.challenge(
                    game_key, challenger=person(interaction.user), opponents=[person(target)],
                    reply=bot.poster.reply_row(interaction, "card", _("Challenge sent.")), **common)
            await bot.dispatcher.deliver_pending(match.id)
            await interaction.edit_original_response(view=None)    # one pick, one challenge


DYNAMIC_ITEMS: list[type[ui.DynamicItem]] = [ChallengeButton, ResignButton, BumpButton, RematchButton,
                                             TextBoardButton, DrawButton]
DYNAMIC_ITEMS.append(TakebackButton)
DYNAMIC_ITEMS += [JoinButton, ChallengeToSelect]
