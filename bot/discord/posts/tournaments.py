"""Tournament posts, in the tournament's channel and its server's language: the card (posted, then edited as
entrants come and go and the event starts, ends or is cancelled), one pairings post per round (each game with
its players pinged and a link to its board or thread), the standings image after each result, and the final
announcement pinging the winners with the final standings.

A round's matches are ordinary matches whose start boards are rows of their own; the pairings post delivers
them first (``deliver_pending`` per match, waiting up to BOARDS_WAIT for those another delivery holds), so it
can link each board; one still missing then is named by its match number. A round too big for one message
continues in more (``pages``). The card is edited as the round starts, so it says which round is on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord import ui

from bot.discord.cards import jump_url
from bot.discord.posts.common import Part, nonce, send_fitting
from bot.discord.tournament_card import card_embed, card_view, game_label, standings_files
from bot.i18n import N_, _
from bot.model import NotFound
from bot.services.announce import (
    BoardPost,
    Delivered,
    Outgoing,
    Remember,
    TournamentCard,
    TournamentEnd,
    TournamentRound,
    TournamentStandings,
)
from bot.services.tournament_views import TableView, TournamentView
from bot.standings_sheet import TIEBREAK_NOTE
from bot.tournaments.model import TableKind
from bot.tournaments.scoring import BYE_POINTS, REQUESTED_BYE_POINTS, figure

if TYPE_CHECKING:
    from bot.discord.client import GameBot

BOARDS_WAIT = 10.0           # seconds a pairings post waits for its games' boards before naming them by number
BOARDS_POLL = 0.05
MAX_CONTENT = 2000           # Discord's limit for a message's text
PAGE_TEXT = 4000             # characters of a pairings message's list (an embed holds 4,096)
PAGE_PINGS = 80              # players a pairings message pings: 80 mentions of 22 characters stay under 2,000
STANDINGS_TOO_LARGE = N_("The standings image is too large to attach here; /tournament standings shows it.")
BYE_LINES = {TableKind.BYE: N_("{player}: a bye ({points} point)"),
             TableKind.HALF_BYE: N_("{player}: a requested bye ({points} point)"),
             TableKind.ABSENT: N_("{player} sits out this round")}    # a round robin's odd one out, or withdrawn
ADJUDICATION_WORDS = N_("less thinking time used ranks higher; equal time is a draw")   # scoring.ADJUDICATION_RULE


def pings(user_ids: Sequence[int]) -> tuple[str, discord.AllowedMentions]:
    """The mentions of one message, and the permission to notify exactly those people."""
    people = list(dict.fromkeys(user_ids))
    return " ".join(f"<@{u}>" for u in people), discord.AllowedMentions(
        users=[discord.Object(u) for u in people], everyone=False, roles=False)


def pages(tables: Sequence[tuple[str, Sequence[int]]]) -> list[tuple[list[str], list[int]]]:
    """A round's lines (each with the players it pings) in as few messages as Discord's limits allow: a message's
    embed holds at most PAGE_TEXT characters and its text pings at most PAGE_PINGS players. A big round (a Swiss
    of 256: 128 tables) takes several messages; a table is never split."""
    out: list[tuple[list[str], list[int]]] = [([], [])]
    for line, players in tables:
        lines, pinged = out[-1]
        if lines and (sum(len(x) + 1 for x in lines) + len(line) > PAGE_TEXT
                      or len(set(pinged) | set(players)) > PAGE_PINGS):
            out.append(([], []))
            lines, pinged = out[-1]
        lines.append(line)
        pinged += players
    return out


class TournamentPosts(Part):
    def __init__(self, bot: GameBot):
        super().__init__(bot)
        self._read: tuple[int, TournamentView] | None = None    # the row being delivered, and its tournament

    async def tournament(self, outgoing: Outgoing) -> TournamentView:
        """The tournament a row announces, read once per delivery (the poster reads it first for its language;
        a big event's standings take a moment to compute)."""
        if outgoing.tournament_id is None:
            raise NotFound(N_("This announcement names no tournament."))
        if self._read is not None and self._read[0] == outgoing.row_id:
            return self._read[1]
        view = await self.services.tournaments.read(outgoing.tournament_id)
        self._read = (outgoing.row_id, view)
        return view

    def where(self, view: TournamentView):
        return self.bot.get_partial_messageable(view.channel_id, guild_id=view.guild_id)

    async def card_view(self, view: TournamentView) -> ui.View:
        """The card's buttons, with the tournament page's link where the server has pages and the bot serves them."""
        return card_view(view, await self.bot.tournament_page_url(view.id, view.guild_id))

    # ---- the card ----------------------------------------------------------------------------------------------
    async def card(self, outgoing: Outgoing[TournamentCard]) -> Delivered:
        view = await self.tournament(outgoing)
        notice = outgoing.notice
        if notice.event == "open":
            message = await self.where(view).send(embed=card_embed(view), view=await self.card_view(view),
                                                  nonce=nonce(outgoing),
                                                  allowed_mentions=discord.AllowedMentions.none())
            return Delivered("sent", message.id, remember=Remember(tournament_card_message_id=message.id))
        if not view.card_message_id:
            return Delivered("skipped: no card")
        await self.where(view).get_partial_message(view.card_message_id).edit(
            embed=card_embed(view, notice.reason), view=await self.card_view(view))
        return Delivered("sent", view.card_message_id)

    # ---- a round's pairings --------------------------------------------------------------------------------------
    async def round(self, outgoing: Outgoing[TournamentRound]) -> Delivered:
        notice = outgoing.notice
        await self.boards_posted(notice.matches)
        view = await self.tournament(outgoing)
        started = set(notice.matches)       # an all-at-once round robin starts every round in one announcement
        shown = [r for r in view.rounds if r.number == notice.round or any(t.match_id in started for t in r.tables)]
        if not shown:
            return Delivered("skipped: the round is gone")
        tables: list[tuple[str, list[int]]] = []
        for found in shown:
            if len(shown) > 1:
                tables.append((_("**Round {round}**").format(round=found.number), []))
            tables += [(await self.table_line(view, t), [] if t.kind is TableKind.ABSENT else list(t.seats))
                       for t in found.tables]
        deadline = notice.deadline or shown[0].deadline
        if deadline:
            moment = int(datetime.fromisoformat(deadline).timestamp())
            tables += [("", []), (_("The round ends <t:{when}:f> (<t:{when}:R>); games still on then are decided: "
                                    "{rule}.").format(when=moment, rule=_(ADJUDICATION_WORDS)), [])]
        heading = _("🏆 {name} — round {round} of {rounds} ({game})").format(
            name=view.name, round=notice.round, rounds=view.total_rounds or "?", game=game_label(view.settings))
        if len(shown) > 1:
            heading = _("🏆 {name} — rounds {first} to {last} of {rounds}, all at once ({game})").format(
                name=view.name, first=shown[0].number, last=shown[-1].number, rounds=view.total_rounds or "?",
                game=game_label(view.settings))
        parts = pages(tables)
        first = None
        for number, (lines, players) in enumerate(parts):
            title = heading if number == 0 else f"{heading} ({number + 1}/{len(parts)})"
            mentions, allowed = pings(players)
            embed = discord.Embed(title=title[:256], description="\n".join(lines), colour=discord.Colour.blurple())
            message = await self.where(view).send(content=mentions or None, embed=embed, allowed_mentions=allowed,
                                                  nonce=nonce(outgoing) + (f"-{number}" if number else ""))
            first = first or message
        if view.card_message_id:        # the card says which round is on
            await self.where(view).get_partial_message(view.card_message_id).edit(embed=card_embed(view),
                                                                                  view=await self.card_view(view))
        assert first is not None
        return Delivered("sent", first.id)

    async def boards_posted(self, match_ids: Sequence[int]) -> None:
        """Deliver the round's first boards (or wait while this or another process posts them, at most
        BOARDS_WAIT seconds), so that the pairings can link each one."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + BOARDS_WAIT
        while True:
            for match_id in match_ids:
                await self.bot.dispatcher.deliver_pending(match_id)
            waiting = [m for m in match_ids
                       if any(r.kind == BoardPost.kind for r in await self.services.outbox.pending(m))]
            if not waiting or loop.time() >= give_up:
                return
            await asyncio.sleep(BOARDS_POLL)

    async def table_line(self, view: TournamentView, table: TableView) -> str:
        players = [f"<@{u}>" for u in table.seats]
        if table.kind is not TableKind.GAME:
            points = BYE_POINTS if table.kind is TableKind.BYE else REQUESTED_BYE_POINTS
            return _(BYE_LINES.get(table.kind, BYE_LINES[TableKind.ABSENT])).format(player=players[0],
                                                                                  points=figure(points))
        sides = " vs ".join(players) if not table.teams else " vs ".join(
            " & ".join(players[s] for s in team) for team in table.teams)
        line = _("Table {n}: {players}").format(n=table.number, players=sides)
        if table.match_id is None:
            return line
        return f"{line} — {await self.board_link(view, table.match_id)}"

    async def board_link(self, view: TournamentView, match_id: int) -> str:
        """A link to a game's board (in its thread when it has one), or its number while the board is not posted."""
        try:
            match = await self.services.queries.get(match_id, position=False)
        except NotFound:
            return f"#{match_id}"
        row = match.row
        if row.board_message_id:
            return _("[board #{id}]({link})").format(id=match_id,
                                                     link=jump_url(row.guild_id, row.channel_id, row.board_message_id))
        if row.channel_id != view.channel_id:
            return f"<#{row.channel_id}> (#{match_id})"
        return _("#{id} (its board follows)").format(id=match_id)

    # ---- standings and the end -----------------------------------------------------------------------------------
    async def standings(self, outgoing: Outgoing[TournamentStandings]) -> Delivered:
        view = await self.tournament(outgoing)
        if view.status in ("cancelled", "finished"):     # a finished event's final announcement has the standings
            return Delivered(f"skipped: {view.status}")
        notice = outgoing.notice
        text = _("📊 **{name}** — standings updated in round {round} (a withdrawal or a decision at the deadline)."
                 ).format(name=view.name, round=notice.round)
        if notice.match_id is not None:
            text = _("📊 **{name}** — standings after game #{id} (round {round}).").format(
                name=view.name, id=notice.match_id, round=notice.round)
        message = await self.post_standings(outgoing, view, text, [])
        return Delivered("sent", message.id)

    async def end(self, outgoing: Outgoing[TournamentEnd]) -> Delivered:
        view = await self.tournament(outgoing)
        winners = list(outgoing.notice.winners)
        names = ", ".join(f"<@{w}>" for w in winners)
        text = _("🏆 **{name}** is over! Congratulations, {winners}!").format(name=view.name, winners=names) \
            if len(winners) == 1 else \
            _("🏆 **{name}** is over! Congratulations to the shared winners: {winners}!").format(name=view.name,
                                                                                              winners=names)
        message = await self.post_standings(outgoing, view, text, winners)
        return Delivered("sent", message.id)

    async def post_standings(self, outgoing: Outgoing, view: TournamentView, text: str,
                             pinged: list[int]) -> discord.Message:
        files = await standings_files(self.bot.renders, view)
        content = f"{text}\n-# {_(TIEBREAK_NOTE)}"
        return await send_fitting(self.where(view), _(STANDINGS_TOO_LARGE), content=content[:MAX_CONTENT],
                                  files=files, nonce=nonce(outgoing),
                                  allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in pinged]))
