"""Boards: the board after a change (start, turn, takeback, result) as a new message pinging whoever must act,
with direct messages for those who chose them; and the board shown or posted again on request.

Every mention that must notify is in a newly created message (an edit's mentions notify nobody). Posts carry
the row's nonce, so a post repeated after a crash is answered by Discord with the first message instead of a
second one. A finished match's replay follows the result as a row of its own (``ReplayPost``), so the result
never waits for it nor fails with it.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot import wording
from bot.discord.cards import BOARD_FILE, board_embed, board_view, jump_url, mention, page_view, timestamp
from bot.discord.posts.common import Part, concerned, nonce, send_fitting
from bot.i18n import N_, T, _, current, speaking
from bot.model import Match, NotFound
from bot.services.announce import BoardPost, Delivered, Notice, Outgoing, Remember, ReplayPost
from engines import State

if TYPE_CHECKING:
    from bot.discord.client import GameBot

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080    # a week, the longest Discord allows
THREAD_EXISTS_CODE = 160004   # Discord: a thread was already created for this message (an earlier attempt's)

TOURNAMENT_LABEL = N_("🏆 {name} · round {round}")
BOARD_TOO_LARGE = N_("The board image is too large to attach here; /{game} board shows it.")

Position = tuple[State | None, State | None, list[str]]    # the state, the one before its last turn, that turn


class Boards(Part):
    def __init__(self, bot: GameBot):
        super().__init__(bot)
        self._tournament_names: dict[int, str] = {}     # a tournament's name never changes

    async def label(self, match: Match) -> str | None:
        """'🏆 Autumn · round 2' above a tournament game's board; None for any other match."""
        tournament_id, round_no = match.row.tournament_id, match.row.tournament_round
        if tournament_id is None:
            return None
        if tournament_id not in self._tournament_names:
            self._tournament_names[tournament_id] = (await self.services.tournaments.read(tournament_id)).name
        return _(TOURNAMENT_LABEL).format(name=self._tournament_names[tournament_id], round=round_no or "?")

    def named_label(self, match: Match) -> str:
        """The label again in the language of the moment (a DM's reader), once ``label`` has read the name; ''
        for a match of no tournament."""
        name = self._tournament_names.get(match.row.tournament_id or 0)
        return _(TOURNAMENT_LABEL).format(name=name, round=match.row.tournament_round or "?") + "\n" if name else ""

    async def board(self, outgoing: Outgoing[BoardPost]) -> Delivered:
        post = outgoing.notice
        match = await self.services.queries.get(outgoing.match_id)
        ply = post.ply
        current_ply = ply == match.ply
        turns = None if current_ply else post.turns
        state, previous, last_turn = (match.state, match.previous, match.last_turn) if current_ply \
            else await self.position_at(match, ply, ply if post.from_ply is None else post.from_ply)
        text = self.board_text(match, post, current_ply)
        if current_ply:
            text += await self.away_note(match)
        channel_id = match.row.channel_id
        if post.event == "start":
            channel_id = await self.thread_for(match)
        prefs = await self.prefs(concerned(match) if current_ply else [])
        pinged = [u for u, how in prefs.items() if how == "mention"]
        files = [await self.render(match, state, previous, last_turn, turns=turns)]
        channel = self.bot.get_partial_messageable(channel_id, guild_id=match.row.guild_id)
        embed = board_embed(match, text, ply=ply, turns=turns, label=await self.label(match))
        message = await send_fitting(
            channel, _(BOARD_TOO_LARGE).format(game=match.row.game),
            content=" ".join(f"<@{u}>" for u in pinged) or None, embed=embed,
            files=files, view=board_view(match, await self.bot.page_url(match)), nonce=nonce(outgoing),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in pinged]))
        link = jump_url(match.row.guild_id, channel_id, message.id)
        note = wording.result_text(match) if match.is_over else _("It is your move.")

        def dm_text() -> str:     # composed again in each reader's language
            told = wording.result_text(match) if match.is_over else _("It is your move.")
            return f"{self.named_label(match)}{wording.board_caption(match)}\n{told}\n{link}"
        follow_ups: list[Notice] = [await self.dm_notice(u, dm_text, note) for u, how in prefs.items() if how == "dm"]
        if match.is_over and current_ply and match.row.position is not None:   # then the whole game, on its own
            follow_ups.append(ReplayPost(ply))
        moved = channel_id if channel_id != match.row.channel_id else None
        return Delivered("sent", message.id, follow_ups, Remember(board_message_id=message.id, channel_id=moved))

    @staticmethod
    def board_text(match: Match, post: BoardPost, current_ply: bool) -> str:
        """What the board says happened, and who is to move when it is the latest."""
        if post.event == "start":
            return wording.start_text(match, mention)
        if post.event == "turn":
            text = wording.played_text(match, post.seat or 0, wording.phrase_words(post.record_phrase, post.record),
                                       mention)
            if current_ply:
                text += "\n" + wording.to_move_text(match, mention,
                                                     pending=wording.phrase_words(post.pending_phrase, post.pending))
            return text
        if post.event == "takeback":
            asker = match.participant(post.by or 0)
            text = wording.takeback_board_text(asker.name if asker else "?", post.undone or 0)
            if current_ply:
                text += "\n" + wording.to_move_text(match, mention)
            return text
        return wording.result_text(match, mention)

    async def position_at(self, match: Match, ply: int, from_ply: int) -> Position:
        """The position at an earlier ply (a board delivered late): the one position history's
        (``Queries.position_at``; a move taken back later still counts for a board of before the takeback)."""
        found = await self.services.queries.position_at(match, ply, turn_start=from_ply)
        return found.state, found.previous, list(found.last_turn)

    async def render(self, match: Match, state: State | None, previous: State | None,
                     last_turn: list[str], *, turns: int | None = None) -> discord.File:
        """The board as an attachment, drawn in the render pool, with a description for screen readers."""
        if state is None:
            raise NotFound(T("Match #{id} has no position to draw.", id=match.id))
        png = await self.bot.renders.board(state, last_turn=last_turn, names=match.names, previous=previous,
                                           language=current())
        return discord.File(io.BytesIO(png), filename=BOARD_FILE, description=wording.board_alt_text(
            match, state, last_turn, turns=turns))

    async def thread_for(self, match: Match) -> int:
        """Where a starting match is played: a thread of its own from the card when the server asked for it
        (the dispatcher remembers it with the board's mark)."""
        row = match.row
        own_post = row.card_message_id or row.tournament_id     # a thread needs a card, or a tournament's game
        if not own_post or not (await self.services.settings.guild(row.guild_id)).threads:
            return row.channel_id
        name = f"{match.game.title}: {' vs '.join(match.names)}"[:100]
        if not row.card_message_id:      # a tournament's game has no card: a thread of its own in the channel
            return await self.own_thread(match, name)
        try:
            thread = await self.channel(match).get_partial_message(row.card_message_id).create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as exc:
            if exc.code == THREAD_EXISTS_CODE:   # an attempt whose post failed made it: it bears the card's id
                return row.card_message_id
            log.info("could not open a thread for match %s: %s", match.id, exc.status)   # no permission: stay here
            return row.channel_id
        return thread.id

    async def own_thread(self, match: Match, name: str) -> int:
        """A public thread for a match without a card (a tournament's game); its channel when none can be made."""
        try:
            thread = await self.bot.http.start_thread_without_message(
                match.row.channel_id, name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=discord.ChannelType.public_thread.value)
        except discord.HTTPException as exc:
            log.info("could not open a thread for match %s: %s", match.id, exc.status)
            return match.row.channel_id
        return int(thread["id"])

    async def away_note(self, match: Match) -> str:
        """'⏸️ @Bob is away until <date>' under a board whose player to move is away ('' otherwise)."""
        who = match.to_move_user
        if who is None or who.is_ai:
            return ""
        until = (await self.services.away.until(match.row.guild_id, [who.user_id])).get(who.user_id)
        if until is None:
            return ""
        return "\n" + _(wording.AWAY_BOARD_NOTE).format(player=mention(who), until=timestamp(until, "D"))

    # ---- posts that change nothing ----------------------------------------------------------------------------
    async def show_board(self, interaction: discord.Interaction, match: Match) -> None:
        """A match's current board shown privately to someone who does not play in it (nobody is pinged), with
        "Open in browser" where the match has a page."""
        file = await self.render(match, match.state, match.previous, match.last_turn)
        who = match.to_move_user
        text = wording.result_text(match) if match.is_over else _("**{player}** is to move.").format(
            player=who.name if who else "?")
        await interaction.edit_original_response(embed=board_embed(match, text, label=await self.label(match)),
                                                 attachments=[file], view=page_view(await self.bot.page_url(match)))

    async def repost_board(self, interaction: discord.Interaction, match: Match) -> None:
        """Post the current board again as a new message (pinging whoever is to move) and link it privately."""
        prefs = await self.prefs(concerned(match))
        pinged = [u for u, how in prefs.items() if how == "mention"]
        with speaking(interaction.guild_locale or "en"):     # a post for the channel: the server's language
            file = await self.render(match, match.state, match.previous, match.last_turn)
            channel: Any = interaction.channel or self.bot.get_partial_messageable(match.row.channel_id)
            message = await channel.send(
                content=" ".join(f"<@{u}>" for u in pinged) or None,
                embed=board_embed(match, wording.to_move_text(match, mention) + await self.away_note(match),
                                  label=await self.label(match)),
                file=file, view=board_view(match, await self.bot.page_url(match)),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in pinged]))
        await self.bot.dispatcher.remember(match.id, Remember(board_message_id=message.id))
        link = jump_url(match.row.guild_id, message.channel.id, message.id)
        await interaction.edit_original_response(content=_("The board is posted: {link}").format(link=link))
