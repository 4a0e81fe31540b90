"""What the bot's messages look like: board and challenge embeds, and the button rows under them."""

from __future__ import annotations

from datetime import datetime

import discord
from discord import ui

from bot import wording
from bot.discord.interaction import COLOUR_ACTIVE, COLOUR_DONE
from bot.discord.picker import PlayButton
from bot.discord.views import BumpButton, ChallengeButton, JoinButton, RematchButton, ResignButton, TextBoardButton
from bot.i18n import _
from bot.model import Match, ParticipantRow, shown_name

BOARD_FILE = "board.png"
REPLAY_FILE = "replay.gif"


def mention(p: ParticipantRow) -> str:
    """A ping for a person; the bot's own seats are named in bold instead."""
    return f"**{shown_name(p)}**" if p.is_ai else f"<@{p.user_id}>"


def jump_url(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def timestamp(moment: datetime, style: str = "R") -> str:
    """Discord shows <t:…> in each reader's time zone, and 'R' counts down live."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def deadline_line(match: Match) -> str:
    """'⏰ Bob must move by <date> (in 2 days)' for a timed match, 'casual' otherwise."""
    if match.status != "active":
        return ""
    who = match.to_move_user
    if match.deadline is None or who is None:
        return _("Casual: no time limit, unrated.")
    return _("⏰ {player} must move by {when} ({countdown}).").format(
        player=who.name, when=timestamp(match.deadline, "f"), countdown=timestamp(match.deadline))


def board_embed(match: Match, text: str, *, ply: int | None = None, turns: int | None = None,
                label: str | None = None) -> discord.Embed:
    """A board's embed; ``label``: the tournament and round a tournament's game is played in, above the title."""
    embed = discord.Embed(title=wording.board_caption(match, turns)[:256], description=text[:4096],
                          colour=COLOUR_DONE if match.is_over else COLOUR_ACTIVE)
    if label:
        embed.set_author(name=label[:256])
    clock = deadline_line(match) if ply is None or ply == match.ply else ""
    if clock:
        embed.add_field(name=_("Time"), value=clock, inline=False)
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def challenge_embed(match: Match) -> discord.Embed:
    open_table = wording.is_open_challenge(match)
    summary = (wording.open_challenge_summary if open_table else wording.challenge_summary)(match, mention)
    lines = [summary, f"⏱ {wording.first_upper(match.time_label)}."]
    if match.status == "challenge" and match.row.expires_at:
        lines.append(_("Expires {when} if not answered.").format(
            when=timestamp(datetime.fromisoformat(match.row.expires_at))))
    embed = discord.Embed(title=_("{game} challenge #{id}").format(game=match.game.title, id=match.id),
                          description="\n".join(lines),
                          colour=COLOUR_ACTIVE)
    if match.status != "challenge":
        closed = wording.closed_challenge_text(match) if match.status in ("declined", "cancelled", "expired") \
            else _(wording.OPEN_FULL) if open_table else _("Accepted — the match is on!")
        embed.description = f"{embed.description}\n\n{closed}"
        embed.colour = discord.Colour.dark_grey()
    return embed


def challenge_view(match: Match) -> ui.View | None:
    if match.status != "challenge":
        return None
    view = ui.View(timeout=None)
    if match.row.open_seats:
        view.add_item(JoinButton(match.id))
    answering = not wording.is_open_challenge(match) or any(not p.accepted for p in match.participants)
    for action in ("accept", "decline", "cancel") if answering else ("cancel",):   # an open table: Join only
        view.add_item(ChallengeButton(action, match.id))
    return view


def board_view(match: Match, page_url: str | None = None) -> ui.View:
    """Every board: Play and Bump while the match is on; Rematch once it is over; "Open in browser" (a link
    button) when the match has a page (``page_url``)."""
    view = ui.View(timeout=None)
    if match.status == "active":
        view.add_item(PlayButton(match.id))
        view.add_item(BumpButton(match.id))
    elif match.is_over:
        view.add_item(RematchButton(match.id))
    view.add_item(TextBoardButton(match.id))
    if page_url is not None:
        view.add_item(page_button(page_url))
    return view


def page_button(page_url: str) -> ui.Button:
    """"Open in browser": a link button to the match's page."""
    return ui.Button(label=_("Open in browser"), style=discord.ButtonStyle.link, url=page_url)


def page_view(page_url: str | None) -> ui.View | None:
    """The private board's one button: "Open in browser" when the match has a page; None (no buttons) without."""
    if page_url is None:
        return None
    view = ui.View(timeout=None)
    view.add_item(page_button(page_url))
    return view


def resign_view(match: Match) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ResignButton(match.id, match.ply))
    return view
