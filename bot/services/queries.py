"""Reading matches: one match with its position, the matches of a player, the match a command means."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot import history
from bot.history import Position
from bot.i18n import T
from bot.model import BadInput, Match, NotAllowed, NotFound
from bot.services.context import Context
from engines import GAMES

MAX_MATCH_ID = 2**63 - 1        # SQLite's integer range
OPEN_SEATS_LISTED = 10          # open challenges /matches lists for others to join (oldest first)
WATCHABLE_LISTED = 100          # running matches of a server read for a spectator's match list (newest first)


def parse_match_id(raw: str | None) -> int | None:
    """The match option's value: an id chosen from autocomplete, or typed as '12' or '#12'.

    Only ASCII digits count ('²' and other Unicode digits are no number here), and only ids SQLite can hold.
    """
    if raw is None or not raw.strip():
        return None
    text = raw.strip().removeprefix("#").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) > MAX_MATCH_ID:
        shown = raw.strip()
        shown = shown if len(shown) <= 20 else shown[:20] + "…"
        raise BadInput(T("{shown} is not a match number — choose one from the list, or type it like #12.",
                         shown=repr(shown)))
    return int(text)


class Queries:
    def __init__(self, ctx: Context):
        self.ctx = ctx

    async def get(self, match_id: int, *, position: bool = True) -> Match:
        """A match; with ``position`` (and once started) its position, from the cache or the log."""
        found = await self.ctx.matches.load(match_id)
        if found is None:
            raise NotFound(T("There is no match #{id}.", id=match_id))
        match = Match(*found)
        if match.status == "finished":
            match.rating_changes = await self.ctx.ratings.changes(match_id)
        if position:
            await self.attach_position(match)
        return match

    async def in_server(self, match_id: int, guild_id: int, *, position: bool = True) -> Match:
        """A match of this server. A match of another server gets the very answer a missing one gets, before its
        position is read, so nobody learns another server's match numbers."""
        match = await self._of_server(match_id, guild_id)
        if match is None:
            raise NotFound(T("There is no match #{id} in this server.", id=match_id))
        if position:
            await self.attach_position(match)
        return match

    async def _of_server(self, match_id: int, guild_id: int) -> Match | None:
        """Match ``match_id`` without its position, or None when it is missing or of another server."""
        try:
            match = await self.get(match_id, position=False)
        except NotFound:
            return None
        return match if match.row.guild_id == guild_id else None

    async def attach_position(self, match: Match) -> None:
        row = match.row
        if row.position is None:
            return
        cached = self.ctx.positions.get(row.id, row.ply)
        if cached is None:
            game = GAMES[row.game]
            moves = await (self.ctx.matches.moves(row.id) if game.history_in_state
                           else self.ctx.matches.moves_from(row.id, row.turn_start_ply))
            build = self.ctx.positions.build
            # a replay of the whole log (history in the state) takes milliseconds per turn: off the event loop
            cached = await asyncio.to_thread(build, row, moves) if game.history_in_state else build(row, moves)
            self.ctx.positions.put(row.id, cached)
        match.state, match.previous, match.last_turn = cached.state, cached.previous, list(cached.last_turn)

    def remember(self, match: Match) -> None:
        """Keep a position just computed (after a turn) so the next read needs no log."""
        if match.state is not None:
            self.ctx.positions.put(match.id, Position(match.ply, match.state, match.previous,
                                                      tuple(match.last_turn)))

    async def many(self, ids: Sequence[int]) -> list[Match]:
        """Matches without positions (lists show who plays and who is to move), in one read."""
        return [Match(row, people) for row, people in await self.ctx.matches.load_many(ids)]

    async def matches_of(self, user_id: int, *, guild_id: int, game: str | None = None,
                         channel_id: int | None = None, statuses: Sequence[str] = ("active",),
                         newest_first: bool = False, limit: int = -1) -> list[Match]:
        ids = await self.ctx.matches.match_ids_of(user_id, guild_id=guild_id, game=game, channel_id=channel_id,
                                                  statuses=tuple(statuses), newest_first=newest_first, limit=limit)
        return await self.many(ids)

    async def open_seats(self, guild_id: int, limit: int = OPEN_SEATS_LISTED) -> list[Match]:
        """Open challenges of a server with seats anyone may still take, oldest first."""
        return await self.many(await self.ctx.matches.open_seat_ids(guild_id, limit))

    async def running(self, guild_id: int, *, game: str | None = None, channel_id: int | None = None,
                      limit: int = WATCHABLE_LISTED) -> list[Match]:
        """Running matches of a server (of a game, in a channel), newest first, without positions: read-only,
        for anyone who wants to watch."""
        return await self.many(await self.ctx.matches.running_ids(guild_id, game=game, channel_id=channel_id,
                                                                  limit=limit))

    async def find_match(self, game: str, user_id: int, *, guild_id: int, channel_id: int,
                         match_id: int | None = None, prefer_my_turn: bool = False, watch: bool = False) -> Match:
        """The match a command means: the one named, or the caller's only active one in this channel.

        One rule for every command: a match is played in its own channel (or thread). Named from elsewhere,
        or looked for where the caller has none, the answer says where the caller's matches are. With ``watch``
        (looking, not acting) any started match of the server may be named, by anyone, from anywhere, and
        without a name a caller who plays none here watches the match running in this channel.
        """
        title = GAMES[game].title
        if match_id is not None:
            match = await self._of_server(match_id, guild_id)   # missing or elsewhere: one answer
            if match is None or match.row.game != game:
                raise NotFound(T("There is no {game} match #{id} in this server.", game=title, id=match_id))
            await self.attach_position(match)
            if watch and match.state is not None and match.participant(user_id) is None:
                return match           # a spectator looks from anywhere; players act where the match lives
            if match.participant(user_id) is None:
                raise NotAllowed(T("You are not playing in {game} match #{id}.", game=title, id=match_id))
            if match.row.channel_id != channel_id:
                raise NotAllowed(T("{game} match #{id} is played in <#{channel}>; use the command there.", game=title,
                                   id=match_id, channel=match.row.channel_id))
            return match
        mine = await self.matches_of(user_id, guild_id=guild_id, game=game)
        here = [m for m in mine if m.row.channel_id == channel_id]
        if prefer_my_turn and len(here) > 1:
            on_turn = [m for m in here if m.to_move_user and m.to_move_user.user_id == user_id]
            if len(on_turn) == 1:
                here = on_turn
        if len(here) > 1:
            raise NotFound(T("You have {n} active {game} matches in this channel; "
                             "pick one with the match option.", n=len(here), game=title))
        if not here and watch:      # a spectator: the match running in this channel, if there is just one
            running = await self.running(guild_id, game=game, channel_id=channel_id, limit=2)
            if len(running) > 1:
                raise NotFound(T("Several {game} matches run in this channel; pick one with the match option.",
                                 game=title))
            here = running
        if not here:
            elsewhere = ", ".join(f"#{m.id} in <#{m.row.channel_id}>" for m in mine[:5])
            raise NotFound(T("You have no active {game} match in this channel. Yours: {elsewhere}.", game=title,
                             elsewhere=elsewhere) if elsewhere else
                           T("You have no active {game} match in this channel. Start one with /{key} challenge.",
                             game=title, key=game))
        match = here[0]
        await self.attach_position(match)
        return match

    async def position_at(self, match: Match, ply: int, *, turn_start: int) -> Position:
        """The position of a started match when it stood at ``ply``, and the turn that led there (its moves
        after ``turn_start``): a board delivered after the match moved on. A move taken back later still counts
        for a position before the takeback (``history.position_at``)."""
        moves = await self.ctx.matches.moves(match.id, at_ply=ply)
        return history.position_at(match.row, moves, ply, turn_start=turn_start)

    async def turns(self, match_id: int, *, guild_id: int) -> tuple[Match, list[history.Frame]]:
        """A started match of this server and every turn of it, for a replay: (the position after the turn, the
        one before it, the turn's moves), the starting position first. One read of the log, one replay, in a
        thread (a long match's takes tens of milliseconds: never on the event loop)."""
        match = await self.in_server(match_id, guild_id, position=False)
        if match.row.position is None:
            raise NotFound(T("Match #{id} never started, so there is nothing to replay.", id=match_id))
        moves = await self.ctx.matches.moves(match_id)
        return match, await asyncio.to_thread(history.turns, match.row, moves)

    async def log_reproduces_position(self, match_id: int) -> bool:
        """Whether replaying the whole move log reproduces every stored position (for a rebuild or a check)."""
        match = await self.get(match_id, position=False)
        moves = await self.ctx.matches.moves(match_id)
        after = history.replay(match.row, moves)
        if any(state.encode() != mv.position for mv, state in zip(moves, after, strict=True)):
            return False
        now = after[-1] if after else history.start(match.row)
        return match.row.position is None or now.encode() == match.row.position
