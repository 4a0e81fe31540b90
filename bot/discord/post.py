"""Delivering announcements on Discord: boards, cards, reminders, direct messages and interaction replies.

``Poster.deliver`` is the dispatcher's delivery function: it reads what the outbox row names, renders off
the event loop, and posts. Every mention that must notify is in a newly created message (an edit's mentions
notify nobody); the interaction that caused a change gets a private acknowledgement with a link. Posts carry
the row's nonce, so a post repeated after a crash is answered by Discord with the first message instead of
a second one.

No attachment can cost the post that carries it: a finished match's replay is its own message after the
result (a ``replay`` row, a follow-up of the result), drawn to fit the server's attachment limit, and a post
whose attachment Discord refuses for its size is posted again without it, saying so (``send_fitting``).
"""

from __future__ import annotations

import io
import logging
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot import wording
from bot.discord.cards import (
    BOARD_FILE,
    REPLAY_FILE,
    board_embed,
    board_view,
    challenge_embed,
    challenge_view,
    jump_url,
    mention,
    timestamp,
)
from bot.discord.views import draw_view, takeback_view
from bot.dispatcher import Delivered, PermanentFailure
from bot.i18n import N_, T, _, current, language_of, speaking
from bot.model import Match, NotFound
from bot.services import announce
from bot.services.context import REPLY_TOKEN_LIFETIME, iso
from bot.store.rows import Announcement, OutboxRow, ParticipantRow
from engines import GAMES, State

if TYPE_CHECKING:
    from bot.discord.client import GameBot

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080    # a week, the longest Discord allows
DIGEST_MESSAGE = 2000        # characters of a digest DM (Discord's limit); further lines are left out
DEFAULT_ATTACHMENT_LIMIT = 10 * 1024 * 1024   # bytes per attachment a server without boosts accepts (Discord)
REPLAY_CACHE_BYTES = 64 * 1024 * 1024         # finished matches' replays kept in memory per process (LRU)
TOO_LARGE_CODE = 40005       # Discord's JSON error code for "Request entity too large" (HTTP 413)

REPLAY_TOO_LONG = N_("The replay is too long to attach here; /replay #{id} gives a shortened one.")
REPLAY_REFUSED = N_("The replay is too large for this server's attachment limit.")
BOARD_TOO_LARGE = N_("The board image is too large to attach here; /{game} board shows it.")
BOARD_PENDING = N_("The board is not posted yet; it follows in the channel.")
BOARD_NOT_POSTED = N_("The board could not be posted; /{game} board posts it again.")


def nonce(row: OutboxRow) -> str:
    return f"ob{row.id}"


def too_large(exc: discord.HTTPException) -> bool:
    """Whether Discord refused a request for the size of its attachments."""
    return exc.status == 413 or exc.code == TOO_LARGE_CODE


async def send_fitting(channel: Any, note: str, *, content: str | None, files: list[discord.File],
                       embed: discord.Embed | None = None, **kwargs: Any) -> discord.Message:
    """``channel.send`` with attachments; when Discord refuses them for their size, the same post without them
    and with ``note`` (what is missing, and where to get it): an attachment never costs the post itself."""
    try:
        return await channel.send(content=content, embed=embed or discord.utils.MISSING, files=files, **kwargs)
    except discord.HTTPException as exc:
        if not too_large(exc):
            raise
        log.warning("attachments %s refused for their size: posting without them", [f.filename for f in files])
    if embed is not None:
        embed.set_image(url=None)
    return await channel.send(content=f"{content}\n{note}" if content else note,
                              embed=embed or discord.utils.MISSING, **kwargs)


class ReplayCache:
    """Replays of finished matches, drawn once: (match, language, byte budget) -> (GIF, turns), the least
    recently used dropped beyond ``limit`` bytes. A finished match never changes, so an entry never goes stale."""

    def __init__(self, limit: int = REPLAY_CACHE_BYTES):
        self.limit = limit
        self._items: OrderedDict[tuple[int, str, int], tuple[bytes, int]] = OrderedDict()
        self._size = 0

    def get(self, key: tuple[int, str, int]) -> tuple[bytes, int] | None:
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: tuple[int, str, int], gif: bytes, turns: int) -> None:
        if key in self._items or len(gif) > self.limit:
            return
        self._items[key] = (gif, turns)
        self._size += len(gif)
        while self._size > self.limit:
            _key, (old, _turns) = self._items.popitem(last=False)
            self._size -= len(old)


def permanent(exc: discord.HTTPException) -> bool:
    """Whether a failed request can never succeed (no access, gone, refused) rather than may pass."""
    return isinstance(exc, discord.Forbidden | discord.NotFound) or 400 <= exc.status < 500 and exc.status != 429


class Poster:
    def __init__(self, bot: GameBot):
        self.bot = bot
        self.replays = ReplayCache()

    @property
    def services(self):
        return self.bot.services

    # ---- the dispatcher's delivery --------------------------------------------------------------------------
    async def deliver(self, row: OutboxRow) -> Delivered:
        handlers = {"board": self._board, "card": self._card, "reminder": self._reminder, "reply": self._reply,
                    "dm": self._dm, "bot_turn": self._bot_turn, "draw": self._draw,
                    "takeback": self._takeback, "away": self._away, "digest": self._digest, "hint": self._hint,
                    "replay": self._replay_post}
        try:
            with speaking(row.payload.get("language") or await self.server_language(row.match_id)):
                return await handlers[row.kind](row)
        except discord.HTTPException as exc:
            if permanent(exc):
                raise PermanentFailure(f"{exc.status} {exc.text[:100]}") from exc
            raise
        except NotFound as exc:
            raise PermanentFailure(str(exc)) from exc

    async def server_language(self, match_id: int) -> str:
        """The language of a match's server (its community locale, from the client's cache; English without)."""
        match = await self.services.queries.get(match_id, position=False)
        guild = self.bot.get_guild(match.row.guild_id)
        return language_of(guild.preferred_locale if guild is not None else None)

    def reply_row(self, interaction: discord.Interaction, link: str, text: str = "") -> Announcement:
        """An outbox row that completes this interaction's 'thinking…' reply with ``text`` and a link to the
        board or card (``link``) once it is posted."""
        # the token lives 15 minutes from the interaction, which arrived just now (by the services' clock)
        expires = iso(self.services.clock() + REPLY_TOKEN_LIFETIME - timedelta(seconds=30))
        ann = announce.reply(interaction.token, interaction.application_id, text, expires_at=expires)
        return Announcement(ann.kind, {**ann.payload, "link": link, "language": language_of(interaction.locale)},
                            expires_at=ann.expires_at)

    async def _board(self, row: OutboxRow) -> Delivered:
        p = row.payload
        match = await self.services.queries.get(row.match_id)
        ply = int(p["ply"])
        current = ply == match.ply
        turns = None if current else p.get("turns")
        state, previous, last_turn = (match.state, match.previous, match.last_turn) if current \
            else await self._position_at(match, ply, int(p.get("from_ply", ply)))
        event = p["event"]
        if event == "start":
            text = wording.start_text(match, mention)
        elif event == "turn":
            text = wording.played_text(match, int(p["seat"]), str(p["record"]), mention)
            if current:
                text += "\n" + wording.to_move_text(match, mention, pending=str(p.get("pending", "")))
        elif event == "takeback":
            asker = match.participant(int(p["by"]))
            text = wording.takeback_board_text(asker.name if asker else "?", int(p["undone"]))
            if current:
                text += "\n" + wording.to_move_text(match, mention)
        else:
            text = wording.result_text(match, mention)
        if current:
            text += await self._away_note(match)
        channel_id = match.row.channel_id
        if event == "start":
            channel_id = await self._thread_for(match)
        prefs = await self._prefs(self._concerned(match) if current else [])
        pinged = [u for u, how in prefs.items() if how == "mention"]
        files = [await self._render(match, state, previous, last_turn, turns=turns)]
        channel = self.bot.get_partial_messageable(channel_id, guild_id=match.row.guild_id)
        message = await send_fitting(
            channel, _(BOARD_TOO_LARGE).format(game=match.row.game),
            content=" ".join(f"<@{u}>" for u in pinged) or None, embed=board_embed(match, text, ply=ply, turns=turns),
            files=files, view=board_view(match), nonce=nonce(row),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in pinged]))
        async with self.services.db.transaction() as tx:
            await self.services.matches.set_message(tx, match.id, "board_message_id", message.id)
        link = jump_url(match.row.guild_id, channel_id, message.id)
        note = wording.result_text(match) if match.is_over else _("It is your move.")

        def dm_text() -> str:     # composed again in each reader's language
            told = wording.result_text(match) if match.is_over else _("It is your move.")
            return f"{wording.board_caption(match)}\n{told}\n{link}"
        dms = [await self._dm_row(u, dm_text, note) for u, how in prefs.items() if how == "dm"]
        if match.is_over and current and match.row.position is not None:   # then the whole game, on its own
            dms.append(Announcement("replay", {"ply": ply}))
        return Delivered("sent", message.id, dms)

    async def _position_at(self, match: Match, ply: int, from_ply: int) -> tuple[State, State | None, list[str]]:
        """The position at an earlier ply (a board delivered late), from the codes of the moves in force then
        (a move taken back later still counts for a board of before the takeback)."""
        game, row = GAMES[match.row.game], match.row
        moves = await self.services.matches.moves(match.id, at_ply=ply)
        fresh = game.new(players=row.players, seed=row.seed, variant=row.variant)
        before = [mv.position for mv in moves if mv.ply <= from_ply]
        state = game.decode(moves[-1].position) if moves else fresh
        last_turn = [mv.move for mv in moves if from_ply < mv.ply <= ply]
        previous = (game.decode(before[-1]) if before else fresh) if last_turn else None
        return state, previous, last_turn

    async def _render(self, match: Match, state: State | None, previous: State | None,
                      last_turn: list[str], *, turns: int | None = None) -> discord.File:
        """The board as an attachment, drawn in the render pool, with a description for screen readers."""
        if state is None:
            raise NotFound(T("Match #{id} has no position to draw.", id=match.id))
        png = await self.bot.renders.board(state, last_turn=last_turn, names=match.names, previous=previous,
                                           language=current())
        return discord.File(io.BytesIO(png), filename=BOARD_FILE, description=wording.board_alt_text(
            match, state, last_turn, turns=turns))

    def attachment_limit(self, guild_id: int) -> int:
        """The bytes an attachment may have in a server (its boosts raise it; Discord's least without one)."""
        guild = self.bot.get_guild(guild_id)
        return guild.filesize_limit if guild is not None else DEFAULT_ATTACHMENT_LIMIT

    async def replay(self, match_id: int, guild_id: int, budget: int, *, for_user: int | None = None
                     ) -> tuple[Match, discord.File, int]:
        """A match of the server as an animated GIF (Discord plays it inline) of at most ``budget`` bytes, in the
        language of the moment; a finished match's is drawn once and kept (``ReplayCache``). A replay drawn
        ``for_user`` counts against that person's limit (``ReplayRenders``); a kept one is free."""
        match = await self.services.queries.in_server(match_id, guild_id, position=False)
        key = (match.id, current(), budget)
        kept = self.replays.get(key)          # only finished matches are kept
        if kept is None:
            if for_user is not None:
                self.services.replay_renders.take(for_user)      # before any work
            match, frames = await self.services.queries.turns(match_id, guild_id=guild_id)
            gif = await self.bot.renders.replay(match.row.game, frames, match.names, language=current(), budget=budget)
            kept = (gif, len(frames) - 1)
            if match.is_over:
                self.replays.put(key, *kept)
        gif, turns = kept
        return match, discord.File(io.BytesIO(gif), filename=REPLAY_FILE, description=_(
            "Replay of {caption}, {turns}").format(caption=wording.board_caption(match),
                                                    turns=wording.count(turns, "turn"))), turns

    async def _replay_post(self, row: OutboxRow) -> Delivered:
        """A finished match's whole game, in a message of its own after the result (which never waits for it)."""
        match = await self.services.queries.get(row.match_id, position=False)
        match, file, _turns = await self.replay(match.id, match.row.guild_id, self.attachment_limit(match.row.guild_id))
        channel = self.bot.get_partial_messageable(match.row.channel_id, guild_id=match.row.guild_id)
        message = await send_fitting(channel, _(REPLAY_TOO_LONG).format(id=match.id),
                                     content=f"🎞️ {wording.board_caption(match)}",
                                     files=[file], nonce=nonce(row), allowed_mentions=discord.AllowedMentions.none())
        return Delivered("sent", message.id)

    async def replay_reply(self, interaction: discord.Interaction, match_id: int) -> None:
        """/replay: the animation privately, within the attachment limit this interaction states."""
        guild_id = interaction.guild_id or 0
        budget = interaction.filesize_limit or self.attachment_limit(guild_id)
        found, file, turns = await self.replay(match_id, guild_id, budget, for_user=interaction.user.id)
        text = _("{caption} — {turns}.").format(caption=wording.board_caption(found),
                                                turns=wording.count(turns, "turn"))
        await send_fitting(interaction.followup, _(REPLAY_REFUSED), content=text, files=[file], ephemeral=True)

    async def _thread_for(self, match: Match) -> int:
        """Where a starting match is played: a thread of its own from the card when the server asked for it."""
        row = match.row
        if not row.card_message_id or not (await self.services.settings.guild(row.guild_id)).threads:
            return row.channel_id
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        name = f"{match.game.title}: {' vs '.join(match.names)}"[:100]
        try:
            thread = await channel.get_partial_message(row.card_message_id).create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as exc:   # no permission, or the thread exists (a retry): stay here
            log.info("could not open a thread for match %s: %s", match.id, exc.status)
            return row.channel_id
        async with self.services.db.transaction() as tx:
            await self.services.matches.set_channel(tx, match.id, thread.id)
        return thread.id

    @staticmethod
    def _concerned(match: Match) -> list[ParticipantRow]:
        """Whom a board concerns: the player to move, or everyone once the match is over."""
        if match.is_over:
            return match.seated
        who = match.to_move_user
        return [who] if who else []

    async def _prefs(self, people: list[ParticipantRow]) -> dict[int, str]:
        return {p.user_id: await self.services.settings.notify(p.user_id) for p in people if not p.is_ai}

    async def _card(self, row: OutboxRow) -> Delivered:
        match = await self.services.queries.get(row.match_id, position=False)
        channel = self.bot.get_partial_messageable(match.row.channel_id, guild_id=match.row.guild_id)
        if row.payload.get("event") == "open":
            invited = [p for p in match.participants if p.invited_order > 0 and not p.is_ai]
            content = _("{players} — you are challenged to {game}!").format(
                players=" ".join(mention(p) for p in invited), game=match.game.title)
            if match.row.open_seats:
                content = _(wording.OPEN_CARD).format(
                    invited="".join(f"{mention(p)} " for p in invited), challenger=match.challenger.name,
                    seats=wording.open_seats_count(match.row.open_seats), game=match.game.title)
            message = await channel.send(
                content=content,
                embed=challenge_embed(match), view=challenge_view(match) or discord.utils.MISSING, nonce=nonce(row),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(p.user_id) for p in invited]))
            async with self.services.db.transaction() as tx:
                await self.services.matches.set_message(tx, match.id, "card_message_id", message.id)
            return Delivered("sent", message.id)
        if not match.row.card_message_id:
            return Delivered("skipped: no card")
        await channel.get_partial_message(match.row.card_message_id).edit(
            embed=challenge_embed(match), view=challenge_view(match))
        return Delivered("sent", match.row.card_message_id)

    async def _reminder(self, row: OutboxRow) -> Delivered:
        match = await self.services.queries.get(row.match_id, position=False)
        who = match.to_move_user
        if match.status != "active" or who is None or match.ply != int(row.payload["ply"]):
            return Delivered("skipped: the match moved on")
        pref = (await self._prefs([who])).get(who.user_id, "off")
        if pref == "off":
            return Delivered("skipped: notifications off")
        link = jump_url(match.row.guild_id, match.row.channel_id, match.row.board_message_id or 0)
        text = wording.reminder_text(match)
        if pref in ("dm", "digest"):
            return Delivered("sent", follow_ups=[await self._dm_row(
                who.user_id, lambda: f"{wording.reminder_text(match)}\n{link}", text)])
        channel = self.bot.get_partial_messageable(match.row.channel_id, guild_id=match.row.guild_id)
        message = await channel.send(f"{mention(who)} {text}\n{link}", nonce=nonce(row),
                                     allowed_mentions=discord.AllowedMentions(users=[discord.Object(who.user_id)]))
        return Delivered("sent", message.id)

    async def _dm(self, row: OutboxRow) -> Delivered:
        """A direct message; a closed DM falls back to a mention in the match's channel."""
        user_id = int(row.payload["user_id"])
        try:
            dm = await self.bot.create_dm(discord.Object(user_id))
            message = await dm.send(str(row.payload["text"]), nonce=nonce(row))
            return Delivered("sent", message.id)
        except discord.Forbidden:
            match = await self.services.queries.get(row.match_id, position=False)
            log.info("DM to a player of match %s refused; mentioning in the channel", match.id)
            channel = self.bot.get_partial_messageable(match.row.channel_id, guild_id=match.row.guild_id)
            message = await channel.send(f"<@{user_id}> {row.payload['fallback']}", nonce=nonce(row),
                                         allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]))
            return Delivered("sent: in the channel", message.id)

    async def reader_language(self, user_id: int) -> str:
        """The language of a direct message to ``user_id``: their Discord locale as last seen in an interaction
        (a DM is private, like an interaction's reply), else the language of the moment (the server's)."""
        stored = await self.services.settings.locale(user_id)
        return language_of(stored) if stored else current()

    async def _dm_row(self, user_id: int, compose: Callable[[], str], fallback: str) -> Announcement:
        """A ``dm`` row whose text is composed in the reader's language; its ``fallback`` (a mention in the
        match's channel when DMs are closed) was composed for the channel, in the server's."""
        with speaking(await self.reader_language(user_id)):
            text = compose()
        return Announcement("dm", {"user_id": user_id, "text": text, "fallback": fallback})

    async def _reply(self, row: OutboxRow) -> Delivered:
        """Complete a deferred interaction: its text, and a link to the board or card it caused."""
        p = row.payload
        match = await self.services.queries.get(row.match_id, position=False)
        text = str(p.get("text") or "")
        if p.get("link") == "card":
            target = match.row.card_message_id
        else:
            target, missing = await self._board_for_reply(row, match)
            text = f"{text}\n{missing}" if text and missing else text or missing
        if target:
            what = _("The challenge is posted: {link}") if p.get("link") == "card" else _("The board is posted: {link}")
            where = match.row.channel_id
            text = f"{text}\n" if text else ""
            text += what.format(link=jump_url(match.row.guild_id, where, target))
        webhook = discord.Webhook.partial(int(p["application_id"]), str(p["token"]), client=self.bot)
        # '@original' names an interaction's own reply (Discord's webhook API); discord.py types ids as int
        await webhook.edit_message("@original", content=text or _("Done."))  # type: ignore[call-overload]
        return Delivered("sent")

    async def _board_for_reply(self, row: OutboxRow, match: Match) -> tuple[int | None, str]:
        """The board a reply links: the one posted for the change it confirms (its board row, written with it),
        never a board the game has left behind. (None, why) while that board is not posted or was given up."""
        before = await self.services.outbox.board_before(row.match_id, row.id)
        if before is None:           # no board came with this change: the latest
            return match.row.board_message_id, ""
        delivered, message_id = before
        if message_id:
            return message_id, ""
        return None, _(BOARD_NOT_POSTED).format(game=match.row.game) if delivered else _(BOARD_PENDING)

    async def _draw(self, row: OutboxRow) -> Delivered:
        """A draw offer (a new message pinging the other players, with the answer buttons) or its refusal."""
        match = await self.services.queries.get(row.match_id, position=False)
        ply, by = int(row.payload["ply"]), int(row.payload["by"])
        channel = self.bot.get_partial_messageable(match.row.channel_id, guild_id=match.row.guild_id)
        if row.payload.get("event") == "offer":
            if match.row.draw_offer_ply != ply or match.ply != ply:
                return Delivered("skipped: the offer lapsed")
            others = [p for p in match.seated if p.user_id != by and not p.is_ai]
            message = await channel.send(
                _("{players} 🤝 {offerer} offers a draw in {caption}. Every other player must accept; a move lets the "
                  "offer lapse.").format(players=" ".join(mention(p) for p in others), offerer=f"<@{by}>",
                                         caption=wording.board_caption(match)),
                view=draw_view(match.id, ply), nonce=nonce(row),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(p.user_id) for p in others]))
            return Delivered("sent", message.id)
        offerer = row.payload.get("offerer")
        ping = f"<@{offerer}> " if offerer else ""
        message = await channel.send(ping + _("🤝 {player} declined the draw offer in {caption}; play goes on.").format(
                                     player=f"<@{by}>", caption=wording.board_caption(match)),
                                     nonce=nonce(row), allowed_mentions=discord.AllowedMentions(
                                         users=[discord.Object(int(offerer))] if offerer else []))
        return Delivered("sent", message.id)

    async def _takeback(self, row: OutboxRow) -> Delivered:
        """A takeback request (a new message pinging the other players, with the answer buttons) or its refusal."""
        match = await self.services.queries.get(row.match_id, position=False)
        ply, by = int(row.payload["ply"]), int(row.payload["by"])
        channel = self.bot.get_partial_messageable(match.row.channel_id, guild_id=match.row.guild_id)
        caption = wording.board_caption(match)
        if row.payload.get("event") == "request":
            if match.row.takeback_ply != ply or match.ply != ply:
                return Delivered("skipped: the request lapsed")
            others = [p for p in match.seated if p.user_id != by and not p.is_ai]
            message = await channel.send(
                _(wording.TAKEBACK_REQUEST).format(pings=" ".join(mention(p) for p in others), by=f"<@{by}>",
                                                caption=caption),
                view=takeback_view(match.id, ply), nonce=nonce(row),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(p.user_id) for p in others]))
            return Delivered("sent", message.id)
        requester = row.payload.get("requester")
        message = await channel.send(
            _(wording.TAKEBACK_DECLINED).format(ping=f"<@{requester}> " if requester else "", by=f"<@{by}>",
                                             caption=caption),
            nonce=nonce(row), allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(int(requester))] if requester else []))
        return Delivered("sent", message.id)

    async def _hint(self, row: OutboxRow) -> Delivered:
        """Tell the match's channel that a player used a hint (no one is pinged: the next board pings)."""
        match = await self.services.queries.get(row.match_id, position=False)
        by = int(row.payload["by"])
        channel = self.bot.get_partial_messageable(match.row.channel_id, guild_id=match.row.guild_id)
        message = await channel.send(_(wording.HINT_TOLD).format(who=f"<@{by}>", caption=wording.board_caption(match)),
                                     nonce=nonce(row), allowed_mentions=discord.AllowedMentions.none())
        return Delivered("sent", message.id)

    async def _bot_turn(self, row: OutboxRow) -> Delivered:
        result = await self.bot.ai.play(row.match_id, ply=int(row.payload["ply"]), completes=row.id)
        return Delivered("played" if result else "skipped: the match moved on")

    # ---- posts that change nothing ----------------------------------------------------------------------------
    async def show_board(self, interaction: discord.Interaction, match: Match) -> None:
        """A match's current board shown privately to someone who does not play in it (nobody is pinged)."""
        file = await self._render(match, match.state, match.previous, match.last_turn)
        who = match.to_move_user
        text = wording.result_text(match) if match.is_over else _("**{player}** is to move.").format(
            player=who.name if who else "?")
        await interaction.edit_original_response(embed=board_embed(match, text), attachments=[file])

    async def repost_board(self, interaction: discord.Interaction, match: Match) -> None:
        """Post the current board again as a new message (pinging whoever is to move) and link it privately."""
        prefs = await self._prefs(self._concerned(match))
        pinged = [u for u, how in prefs.items() if how == "mention"]
        with speaking(interaction.guild_locale or "en"):     # a post for the channel: the server's language
            file = await self._render(match, match.state, match.previous, match.last_turn)
            channel: Any = interaction.channel or self.bot.get_partial_messageable(match.row.channel_id)
            message = await channel.send(
                content=" ".join(f"<@{u}>" for u in pinged) or None,
                embed=board_embed(match, wording.to_move_text(match, mention) + await self._away_note(match)),
                file=file, view=board_view(match),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in pinged]))
        async with self.services.db.transaction() as tx:
            await self.services.matches.set_message(tx, match.id, "board_message_id", message.id)
        link = jump_url(match.row.guild_id, message.channel.id, message.id)
        await interaction.edit_original_response(content=_("The board is posted: {link}").format(link=link))

    # ---- time away and the digest ------------------------------------------------------------------------------
    async def _away_note(self, match: Match) -> str:
        """'⏸️ @Bob is away until <date>' under a board whose player to move is away ('' otherwise)."""
        who = match.to_move_user
        if who is None or who.is_ai:
            return ""
        until = (await self.services.away.until(match.row.guild_id, [who.user_id])).get(who.user_id)
        if until is None:
            return ""
        return "\n" + _(wording.AWAY_BOARD_NOTE).format(player=mention(who), until=timestamp(until, "D"))

    async def _away(self, row: OutboxRow) -> Delivered:
        """A short post in a match's channel: a player is away (their clock paused) or back."""
        match = await self.services.queries.get(row.match_id, position=False)
        if match.status != "active":
            return Delivered("skipped: the match is over")
        who = f"<@{int(row.payload['user_id'])}>"
        until = row.payload.get("until")
        text = (_(wording.AWAY_NOTICE).format(player=who, until=timestamp(datetime.fromisoformat(str(until)), "D"),
                                           caption=wording.board_caption(match)) if until else
                _(wording.BACK_NOTICE).format(player=who, caption=wording.board_caption(match)))
        channel = self.bot.get_partial_messageable(match.row.channel_id, guild_id=match.row.guild_id)
        message = await channel.send(text, nonce=nonce(row), allowed_mentions=discord.AllowedMentions.none())
        return Delivered("sent", message.id)

    async def _digest(self, row: OutboxRow) -> Delivered:
        """The daily digest: a DM listing every match where it is still the player's move, with a jump link to
        its latest board and its deadline. A closed DM is not replaced by a channel post (the digest lists
        matches of other servers). It speaks the user's Discord locale as last seen; without one, the language
        of the server of the match its row is anchored on (the first listed; ``deliver``)."""
        user_id = int(row.payload["user_id"])
        with speaking(await self.reader_language(user_id)):
            return await self._send_digest(row, user_id)

    async def _send_digest(self, row: OutboxRow, user_id: int) -> Delivered:
        matches = await self.services.queries.many([int(i) for i in row.payload.get("matches", [])])
        mine = [m for m in matches if m.to_move_user is not None and m.to_move_user.user_id == user_id]
        if not mine:
            return Delivered("skipped: no match awaits the player any more")
        lines = [wording.digest_head(len(mine))]
        for m in mine:
            deadline = _(wording.DIGEST_DEADLINE).format(when=timestamp(m.deadline)) if m.deadline \
                else _(wording.DIGEST_NO_DEADLINE)
            caption = wording.board_caption(m)
            if m.row.board_message_id:
                link = jump_url(m.row.guild_id, m.row.channel_id, m.row.board_message_id)
                lines.append(_(wording.DIGEST_LINE).format(caption=caption, link=link, deadline=deadline))
            else:
                lines.append(_(wording.DIGEST_LINE_NO_BOARD).format(caption=caption, deadline=deadline))
        text = lines[0]
        for line in lines[1:]:              # whole lines within one message (the nearest deadlines first)
            if len(text) + 1 + len(line) > DIGEST_MESSAGE:
                break
            text += "\n" + line
        try:
            dm = await self.bot.create_dm(discord.Object(user_id))
            message = await dm.send(text, nonce=nonce(row))
        except discord.Forbidden:
            return Delivered("skipped: direct messages closed")
        return Delivered("sent", message.id)

