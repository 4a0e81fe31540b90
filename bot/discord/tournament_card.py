"""A tournament's card: what it is (game, format, rounds, time, start, entrants), where it stands, and the Join,
Withdraw and Standings buttons. The buttons carry the tournament id in their custom ids (``DynamicItem``), so an
old card keeps working after a restart; nothing lives in memory.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import discord
from discord import ui

from bot import wording
from bot.discord.cards import page_button
from bot.discord.interaction import COLOUR_ACTIVE, COLOUR_DONE, acknowledged, app, finish, person
from bot.discord.tournament_sheet import STANDINGS_FILE, standings_file
from bot.i18n import N_, T, _, ngettext
from bot.model import ServiceError, time_label
from bot.services.tournament_views import TournamentSettings, TournamentView
from bot.standings_sheet import TIEBREAK_NOTE, alt_text, sheet
from bot.tournaments.model import Format, Schedule
from engines import GAMES
from render.pool import RenderPool

MAX_FILES = 10                 # attachments of one message
MAX_LISTED_ENTRANTS = 40       # names on the card; more are counted ("and 12 more")
MAX_FIELD = 1024               # Discord's limit for an embed field's value
COLOUR_CLOSED = discord.Colour.dark_grey()

FORMAT_LABELS = {Format.ROUND_ROBIN: N_("round robin"),
                 Format.DOUBLE_ROUND_ROBIN: N_("double round robin (seats swapped in the second leg)"),
                 Format.SWISS: N_("Swiss"), Format.LEAGUE: N_("league")}
STATUS_LINES = {"open": N_("Open for entries: press Join."),
                "running": N_("Round {round} of {rounds} is being played."),
                "finished": N_("Finished. Winner: {winners}."),
                "cancelled": N_("Cancelled.")}
CANCEL_REASONS = {"too_few": N_("Cancelled: fewer entrants than the minimum when it was to start."),
                  "by_hand": N_("Cancelled by its organiser.")}


def game_label(settings: TournamentSettings) -> str:
    """'Roocala (Hex board (37 cells))', 'Rincala, tables of 3' — the game as the card and the lists name it."""
    game = GAMES[settings.game]
    label = game.title
    if settings.variant and settings.variant in game.variant_labels:
        label += f" ({_(game.variant_labels[settings.variant])})"
    if settings.table_size > 2:
        label += ", " + _("tables of {n}").format(n=settings.table_size)
    return label


def format_label(settings: TournamentSettings) -> str:
    text = _(FORMAT_LABELS[settings.format])
    if settings.schedule is Schedule.ALL_AT_ONCE:
        text += ", " + _("all games at once")
    return text


def rounds_text(view: TournamentView) -> str:
    rounds = view.total_rounds or view.settings.rounds
    if not rounds:
        return _("rounds: one per opponent")
    return ngettext("{n} round", "{n} rounds", rounds).format(n=rounds)


def start_text(settings: TournamentSettings) -> str:
    if settings.start_at is None:
        return _("Starts when full ({max} entrants) or when started by hand.").format(max=settings.max_entrants)
    moment = datetime.fromisoformat(settings.start_at)
    return _("Starts {when} ({countdown}).").format(when=f"<t:{int(moment.timestamp())}:f>",
                                                    countdown=f"<t:{int(moment.timestamp())}:R>")


def status_line(view: TournamentView, reason: str | None = None) -> str:
    if view.status == "cancelled" and reason in CANCEL_REASONS:
        return _(CANCEL_REASONS[reason])
    if view.status == "running" and view.current_round == 0:
        return _("Started: the first round is being paired.")
    winners = ", ".join(f"<@{w}>" for w in view.winners) or "—"
    return _(STATUS_LINES.get(view.status, view.status)).format(round=view.current_round,
                                                                 rounds=view.total_rounds or "?", winners=winners)


def card_embed(view: TournamentView, reason: str | None = None) -> discord.Embed:
    s = view.settings
    rated = _("rated") if s.rated else _("unrated")
    kind = format_label(s)
    if s.format is Format.LEAGUE:
        kind += " · " + _("edition {n}").format(n=view.edition)
        if s.repeat_days:
            kind += " · " + ngettext("the next one {n} day after this one ends",
                                     "the next one {n} days after this one ends", s.repeat_days).format(n=s.repeat_days)
    lines = [f"**{game_label(s)}** · {kind} · {rounds_text(view)}",
             f"⏱ {wording.first_upper(time_label(s.days_per_move * 86400))} · {rated}",
             _("Entrants: {n} (at least {min}, at most {max})").format(n=len(view.active_entrants),
                                                                       min=s.min_entrants, max=s.max_entrants)]
    if view.status == "open":
        lines.append(start_text(s))
    lines += ["", status_line(view, reason)]
    colour = COLOUR_ACTIVE if view.status in ("open", "running") else COLOUR_DONE if view.status == "finished" \
        else COLOUR_CLOSED
    embed = discord.Embed(title=_("🏆 {name} (tournament #{id})").format(name=view.name, id=view.id)[:256],
                          description="\n".join(lines), colour=colour)
    if view.entrants:
        embed.add_field(name=_("Entrants"), value=entrant_list(view), inline=False)
    return embed


def entrant_list(view: TournamentView) -> str:
    names = [f"~~{e.name}~~" if e.withdrawn_round is not None else e.name
             for e in sorted(view.entrants, key=lambda e: e.seed)]
    shown = ", ".join(wording.shorten(n, 40) for n in names[:MAX_LISTED_ENTRANTS])
    if len(names) > MAX_LISTED_ENTRANTS:
        shown += " " + _("and {n} more").format(n=len(names) - MAX_LISTED_ENTRANTS)
    return shown[:MAX_FIELD]


def card_view(view: TournamentView, page_url: str | None = None) -> ui.View:
    """Join while entries are open and a place is free (a running Swiss takes late entrants), Withdraw while it
    is on, Standings once it has started; "Open in browser" to the tournament's page where the server has pages."""
    buttons = ui.View(timeout=None)
    late_entries = view.status == "running" and view.settings.format is Format.SWISS
    room = len(view.active_entrants) < view.settings.max_entrants
    if (view.status == "open" or late_entries) and room:
        buttons.add_item(TournamentButton("join", view.id))
    if view.status in ("open", "running"):
        buttons.add_item(TournamentButton("withdraw", view.id))
    if view.status in ("running", "finished"):
        buttons.add_item(TournamentButton("standings", view.id))
    if page_url is not None:
        buttons.add_item(page_button(page_url))
    return buttons


_LABELS = {"join": N_("Join"), "withdraw": N_("Withdraw"), "standings": N_("Standings")}
_STYLES = {"join": discord.ButtonStyle.success, "withdraw": discord.ButtonStyle.danger,
           "standings": discord.ButtonStyle.secondary}
_EMOJI = {"join": "🏆", "withdraw": None, "standings": "📊"}


class TournamentButton(ui.DynamicItem[ui.Button], template=r"tn:(?P<action>join|withdraw|standings):(?P<id>\d{1,18})"):
    """Join, Withdraw or Standings on a tournament's card."""

    def __init__(self, action: str, tournament_id: int):
        super().__init__(ui.Button(label=_(_LABELS[action]), style=_STYLES[action], emoji=_EMOJI[action],
                                   custom_id=f"tn:{action}:{tournament_id}"))
        self.action, self.tournament_id = action, tournament_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /):
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = app(interaction)
        tournaments = bot.services.tournaments
        guild = interaction.guild_id or 0
        async with acknowledged(interaction):
            if self.action == "standings":
                await standings_reply(interaction, await tournaments.view(self.tournament_id, guild_id=guild))
                return
            if self.action == "join":
                if not interaction.permissions.view_channel:
                    raise ServiceError(T("You cannot see this channel, so you could not follow the tournament here."))
                view = await tournaments.join(self.tournament_id, person(interaction.user), guild_id=guild)
                told = _("You are in {name}.").format(name=view.name)
            else:
                view = await tournaments.withdraw(self.tournament_id, interaction.user.id, guild_id=guild)
                told = _("You withdrew from {name}.").format(name=view.name)
            await finish(interaction, told)
            await deliver(interaction, view.id)


async def deliver(interaction: discord.Interaction, tournament_id: int) -> None:
    """Post at once what a tournament command announced (its card, a round's pairings with its boards, standings);
    the background dispatcher would within moments."""
    await app(interaction).dispatcher.deliver_pending(tournament_id=tournament_id)


async def standings_reply(interaction: discord.Interaction, view: TournamentView) -> None:
    """The standings image privately, in the asker's language (drawn in the render pool)."""
    await interaction.edit_original_response(content=standings_caption(view),
                                             attachments=await standings_files(app(interaction).renders, view))


async def standings_files(renders: RenderPool, view: TournamentView) -> list[discord.File]:
    """The standings as images drawn in the render pool: one, or a league's one per division (the top one first,
    at most MAX_FILES: Discord's attachments per message), each with its description for screen readers."""
    divisions = sorted({s.division for s in view.standings}, key=lambda d: d or 0) or [None]
    files = []
    for division in divisions[:MAX_FILES]:
        rows = [s for s in view.standings if s.division == division]
        title = standings_title(view)
        if len(divisions) > 1:
            title += " · " + _("division {n}").format(n=division)
        png = await renders.standings(sheet(title, rows, view.crosstable if len(divisions) == 1 else None))
        files.append(standings_file(png, alt_text(title, rows),
                                    STANDINGS_FILE if len(divisions) == 1 else f"standings-{division}.png"))
    return files


def standings_title(view: TournamentView) -> str:
    if view.status == "finished":
        return _("{name} — final standings").format(name=view.name)
    if view.current_round == 0:
        return _("{name} — entrants").format(name=view.name)
    return _("{name} — standings, round {round} of {rounds}").format(name=view.name, round=view.current_round,
                                                                     rounds=view.total_rounds)


def standings_caption(view: TournamentView) -> str:
    return f"📊 **{view.name}** · {game_label(view.settings)} · {format_label(view.settings)}\n{_(TIEBREAK_NOTE)}"


DYNAMIC_ITEMS: list[type[ui.DynamicItem]] = [TournamentButton]
