"""The Discord front end of the outbox: which handler posts each kind of announcement (``Poster.handlers``,
checked against the registry at start-up), in which language, and which of Discord's errors are for good.

The handlers live in ``bot.discord.posts``, one module per kind of post. They only post: what a post must
remember is returned in ``Delivered`` and written by the dispatcher with the row's done-mark. The bot's own
turn is not the poster's: the dispatcher's worker plays it (``AIPlayer.workers``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.discord.posts.boards import Boards
from bot.discord.posts.cards import Cards
from bot.discord.posts.common import permanent
from bot.discord.posts.messages import Messages
from bot.discord.posts.proposals import Proposals
from bot.discord.posts.replays import Replays
from bot.discord.posts.replies import Replies
from bot.discord.posts.tournaments import TournamentPosts
from bot.dispatcher import PermanentFailure
from bot.i18n import language_of, speaking
from bot.model import NotFound
from bot.services.announce import (
    AwayNotice,
    BoardPost,
    Card,
    Delivered,
    Digest,
    Dm,
    DrawProposal,
    Handler,
    Handlers,
    Hint,
    Outgoing,
    Reminder,
    ReplayPost,
    Reply,
    TakebackProposal,
    TournamentCard,
    TournamentEnd,
    TournamentRound,
    TournamentStandings,
)

if TYPE_CHECKING:
    from bot.discord.client import GameBot


class Poster:
    name = "the Discord poster"

    def __init__(self, bot: GameBot):
        self.bot = bot
        self.boards, self.cards, self.messages = Boards(bot), Cards(bot), Messages(bot)
        self.proposals, self.replay_posts, self.replies = Proposals(bot), Replays(bot), Replies(bot)
        self.tournaments = TournamentPosts(bot)
        self.replays = self.replay_posts.cache
        # what the commands post or answer directly
        self.reply_row = self.replies.reply_row
        self.show_board = self.boards.show_board
        self.repost_board = self.boards.repost_board
        self.replay_reply = self.replay_posts.reply

    @property
    def handlers(self) -> Handlers:
        return {BoardPost: self.boards.board, ReplayPost: self.replay_posts.post, Card: self.cards.card,
                DrawProposal: self.proposals.post, TakebackProposal: self.proposals.post,
                Reply: self.replies.reply, Reminder: self.messages.reminder, Dm: self.messages.dm,
                Digest: self.messages.digest, AwayNotice: self.messages.away, Hint: self.messages.hint,
                TournamentCard: self.tournaments.card, TournamentRound: self.tournaments.round,
                TournamentStandings: self.tournaments.standings, TournamentEnd: self.tournaments.end}

    async def perform(self, outgoing: Outgoing[Any], handler: Handler) -> Delivered:
        """Post in the asker's language (a reply) or the server's; an error that can never pass is permanent."""
        notice = outgoing.notice
        asker = notice.language if isinstance(notice, Reply) else None
        try:
            with speaking(asker or await self.language_of(outgoing)):
                return await handler(outgoing)
        except discord.HTTPException as exc:
            if permanent(exc):
                raise PermanentFailure(f"{exc.status} {exc.text[:100]}") from exc
            raise
        except NotFound as exc:
            raise PermanentFailure(str(exc)) from exc

    async def language_of(self, outgoing: Outgoing[Any]) -> str:
        """The language of the server a row is posted in: its tournament's, or its match's."""
        if outgoing.tournament_id is not None:
            return self.guild_language((await self.tournaments.tournament(outgoing)).guild_id)
        return await self.server_language(outgoing.match_id)

    def guild_language(self, guild_id: int) -> str:
        guild = self.bot.get_guild(guild_id)
        return language_of(guild.preferred_locale if guild is not None else None)

    async def server_language(self, match_id: int) -> str:
        """The language of a match's server (its community locale, from the client's cache; English without)."""
        match = await self.bot.services.queries.get(match_id, position=False)
        guild = self.bot.get_guild(match.row.guild_id)
        return language_of(guild.preferred_locale if guild is not None else None)
