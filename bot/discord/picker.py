"""Play a turn by tapping: the Play button on a board and the private picker it opens.

The picker lists the current step's options (``engines.steps``, game-agnostic: no game has picker code) in a
select menu, each keyed by a number that the preview image writes on the cells the option involves
(``render.marks``), with Back and Cancel; when the turn is complete it shows the board after it and Confirm,
which submits it through the same path as ``/<game> move`` (``Play.submit_turn``, guarded by the ply the player
saw).

The partial turn is kept in the database by ``bot.services.drafts`` (per match, ply and player; it expires
``PICKER_TIMEOUT`` after its last pick), not in custom ids (they carry only the match id, the ply, the step
and a short action): it survives a restart, and the next tap may land in another process.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from bot import wording
from bot.discord.interaction import acknowledged, app, info_embed
from bot.i18n import N_, T, _, pgettext
from bot.i18n import current as current_language
from bot.model import Match, NotAllowed
from bot.services.drafts import Draft, Drafts
from engines import State
from engines.steps import StepOption, turn_state

log = logging.getLogger(__name__)

PREVIEW_FILE = "preview.png"
MAX_LABEL = 100                # Discord's limit for a select option's label and description

PLAY_LABEL = N_("Play")
BACK_LABEL = N_("Back")
CONFIRM_LABEL = N_("Confirm")
REOPEN_LABEL = N_("Open on the new position")
NOT_YOUR_TURN = N_("Not your turn — {player} is to move.")
MATCH_OVER = N_("This match is over.")


def drafts_of(interaction: discord.Interaction) -> Drafts:
    return app(interaction).services.drafts


def option_key(index: int) -> str:
    """The key of a step's option: in its menu label and on the cells the preview marks (1, 2, …)."""
    return str(index + 1)


def option_label(option: StepOption, index: int) -> str:
    """What a select option reads: its key, the move so far, and for a group how many moves it holds."""
    text = wording.step_group(option.text, option.count) if option.group or not option.complete else option.text
    return f"{option_key(index)} · {text}"[:MAX_LABEL]


def marks_of(options: Sequence[StepOption]) -> dict[str, list[str]]:
    """The keys to write on each cell the options involve (several options may share a cell)."""
    marks: dict[str, list[str]] = {}
    for index, option in enumerate(options):
        for cell in option.cells:
            marks.setdefault(cell, []).append(option_key(index))
    return marks


def option_description(option: StepOption) -> str | None:
    if not option.complete:
        return None
    return _("Ends your turn") if option.ends_turn else _("Then you move again")


def _check_mover(match: Match, user_id: int) -> None:
    """Only the player to move may build a turn; anyone else is told whose turn it is."""
    if match.is_over or match.status != "active":
        raise NotAllowed(T(MATCH_OVER))
    who = match.to_move_user
    if who is None or who.user_id != user_id:
        raise NotAllowed(T(NOT_YOUR_TURN, player=who.name if who else "?"))


class PlayButton(ui.DynamicItem[ui.Button], template=r"pl:(?P<id>\d{1,18})"):
    """On every board of a running match: opens the private picker on the current position."""

    def __init__(self, match_id: int):
        super().__init__(ui.Button(label=_(PLAY_LABEL), emoji="🎯", style=discord.ButtonStyle.primary,
                                   custom_id=f"pl:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /):
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with acknowledged(interaction):
            await open_picker(interaction, self.match_id)


async def open_picker(interaction: discord.Interaction, match_id: int) -> None:
    """A fresh picker on the match's current position, in the interaction's reply."""
    match = await app(interaction).services.queries.in_server(match_id, interaction.guild_id or 0)
    _check_mover(match, interaction.user.id)
    await show(interaction, match, await drafts_of(interaction).start(match, interaction.user.id))


class PickerItem(ui.DynamicItem[ui.Button], template=r"pk:(?P<id>\d{1,18}):(?P<ply>\d{1,9}):(?P<action>[bxco])"):
    """The picker's buttons: Back (b), Cancel (x), Confirm (c), Open on the new position (o)."""

    def __init__(self, match_id: int, ply: int, action: str, *, label: str = "", disabled: bool = False):
        styles = {"c": discord.ButtonStyle.success, "x": discord.ButtonStyle.danger}
        super().__init__(ui.Button(label=label or action, style=styles.get(action, discord.ButtonStyle.secondary),
                                   disabled=disabled, custom_id=f"pk:{match_id}:{ply}:{action}"))
        self.match_id, self.ply, self.action = match_id, ply, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /):
        return cls(int(match["id"]), int(match["ply"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async with acknowledged(interaction, update=True):
            if self.action == "x":
                await drafts_of(interaction).drop(self.match_id, self.ply, interaction.user.id)
                await say(interaction, _("Turn cancelled; nothing was played."), ui.View())
                return
            if self.action == "o":
                await open_picker(interaction, self.match_id)
                return
            match, draft = await current(interaction, self.match_id, self.ply)
            if draft is None:
                return
            if self.action == "b":
                await show(interaction, match, await drafts_of(interaction).back(draft))
            elif self.action == "c":
                await confirm(interaction, match, draft)


class PickerSelect(ui.DynamicItem[ui.Select], template=r"ps:(?P<id>\d{1,18}):(?P<ply>\d{1,9}):(?P<step>\d{1,3})"):
    """The step's options; its value is the option's index, its custom id names the step so an old menu's pick
    (the draft moved on in another picker) is not taken for the current step."""

    def __init__(self, match_id: int, ply: int, step: int, options: list[discord.SelectOption] | None = None):
        super().__init__(ui.Select(custom_id=f"ps:{match_id}:{ply}:{step}", placeholder=_("Choose the next step"),
                                   options=options or [discord.SelectOption(label="-")]))
        self.match_id, self.ply, self.step = match_id, ply, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /):
        return cls(int(match["id"]), int(match["ply"]), int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with acknowledged(interaction, update=True):
            match, draft = await current(interaction, self.match_id, self.ply)
            if draft is None:
                return
            picked = (self.item.values or ["-1"])[0]
            index = int(picked) if picked.isdigit() else -1
            await show(interaction, match, await drafts_of(interaction).pick(match, draft, self.step, index))


async def current(interaction: discord.Interaction, match_id: int, ply: int) -> tuple[Match, Draft | None]:
    """The match and the player's draft at ``ply``; when the match moved on or the draft expired, the picker
    says so (offering a fresh one) and the draft is None."""
    match = await app(interaction).services.queries.in_server(match_id, interaction.guild_id or 0)
    _check_mover_or_stale(match, interaction.user.id, ply)
    if match.ply != ply:
        await drafts_of(interaction).drop(match_id, ply, interaction.user.id)
        await say(interaction, _("The match moved on since this picker was opened."), _reopen_view(match))
        return match, None
    draft = await drafts_of(interaction).get(match, interaction.user.id)
    if draft is None:
        await say(interaction, _("This picker expired; open it again to choose your turn."), _reopen_view(match))
    return match, draft


def _check_mover_or_stale(match: Match, user_id: int, ply: int) -> None:
    """At the picker's own ply only the mover acts; once the match moved on, the stale note is for the picker's
    owner (the ephemeral message is theirs) whoever is to move now."""
    if match.ply == ply:
        _check_mover(match, user_id)
    elif match.participant(user_id) is None:
        raise NotAllowed(T(MATCH_OVER) if match.is_over else T("You do not play in this match."))


def _reopen_view(match: Match) -> ui.View:
    view = ui.View(timeout=None)
    if match.status == "active" and not match.is_over:
        view.add_item(PickerItem(match.id, match.ply, "o", label=_(REOPEN_LABEL)))
    return view


async def show(interaction: discord.Interaction, match: Match, draft: Draft) -> None:
    """The picker for ``draft``: the next step's menu and the board with its options' keys on their cells, or
    the board after the finished turn with Confirm."""
    options = draft.options(match.position)
    turn, chosen = draft.built()
    lines = [f"**{wording.board_caption(match)}**"]
    view = ui.View(timeout=None)
    if options:
        so_far = " ".join([*turn, chosen]).strip()
        if so_far:
            lines.append(_("Your turn so far: **{moves}**").format(moves=so_far))
        lines.append(_("Choose the next step of your turn; the numbers are marked on the board."))
        view.add_item(PickerSelect(match.id, match.ply, len(draft.picks), [
            discord.SelectOption(label=option_label(o, i), value=str(i), description=option_description(o))
            for i, o in enumerate(options)]))
    else:
        lines.append(_("Your turn: **{moves}**").format(moves=turn_text(match.position, turn)))
        lines.append(_("Confirm to play it."))
        view.add_item(PickerItem(match.id, match.ply, "c", label=_(CONFIRM_LABEL)))
    view.add_item(PickerItem(match.id, match.ply, "b", label=_(BACK_LABEL), disabled=not draft.picks))
    view.add_item(PickerItem(match.id, match.ply, "x", label=pgettext("picker", "Cancel")))
    await say(interaction, "\n".join(lines), view, [await preview(interaction, match, turn, marks_of(options))])


async def say(interaction: discord.Interaction, text: str, view: ui.View, files: Sequence[discord.File] = ()) -> None:
    """Show ``text`` (and an image) with ``view`` in the picker's message, replacing what it showed."""
    embed = info_embed(text)
    if files:
        embed.set_image(url=f"attachment://{files[0].filename}")
    try:
        await interaction.edit_original_response(content=None, embed=embed, view=view, attachments=list(files))
    except discord.HTTPException as exc:
        log.warning("could not show the picker of interaction %s: %s", interaction.id, exc.status)


async def preview(interaction: discord.Interaction, match: Match, turn: list[str],
                  marks: dict[str, list[str]]) -> discord.File:
    """The board after the moves chosen so far (as the board post will show it), with ``marks`` (keys on
    cells), drawn in the render pool as a board post is."""
    after = turn_state(match.position, turn)
    last, before = (turn, match.position) if turn else (match.last_turn, match.previous)
    png = await app(interaction).renders.board(after, last_turn=last, names=match.names, previous=before,
                                               language=current_language(), marks=marks)
    return discord.File(io.BytesIO(png), filename=PREVIEW_FILE,
                        description=wording.board_alt_text(match, after, last))


def turn_text(state: State, turn: list[str]) -> str:
    """The turn as the board post shows it (its turn record), e.g. ``D4 (O)``."""
    return wording.words(state.turn_record_phrase(turn)) or " ".join(turn)


async def confirm(interaction: discord.Interaction, match: Match, draft: Draft) -> None:
    """Submit the built turn (one service call: checked, played and the draft dropped in one transaction)."""
    bot = app(interaction)
    await bot.services.drafts.confirm(match, draft, guild_id=interaction.guild_id or 0,
                                      told=[bot.poster.reply_row(interaction, "board", _("✅ Move played."))])
    await interaction.edit_original_response(embed=None, view=None)    # the reply row writes the answer
    await bot.dispatcher.deliver_pending(match.id)


DYNAMIC_ITEMS: list[type[ui.DynamicItem]] = [PlayButton, PickerItem, PickerSelect]
