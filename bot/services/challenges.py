"""Challenges: open one, answer it, start the match once every seat has accepted — decided in SQL.

Every decision is a conditional write inside one transaction (an acceptance counts only while the challenge
is open; the match starts only if no one is left to accept), so two processes answering one challenge at
once start it exactly once. The match start and its announcements are written in the same transaction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import timedelta

from bot.model import AI_LEVELS, Match, NotAllowed, NotFound, Person, StalePosition, ai_people
from bot.services.announce import start_announcements
from bot.services.context import Context
from bot.services.queries import Queries
from bot.store.db import Tx
from bot.store.rows import Announcement, Start
from engines import GAMES

CHALLENGE_LIFETIME = timedelta(days=1)   # an unanswered challenge expires then
TIME_CHOICES_DAYS = (1, 2, 3, 5, 7, 14)  # what a challenge may choose; 0 = casual (no limit, unrated)
AI_MATCHES_RATED = False   # the bot's fixed strength would make ratings farmable, and it is no server member
MAX_OPEN_PER_USER = 10     # open challenges one person may have waiting in a server
MAX_OPEN_PER_USER_EVERYWHERE = 25


class Challenges:
    def __init__(self, ctx: Context, queries: Queries):
        self.ctx = ctx
        self.queries = queries

    async def challenge(self, game_key: str, *, guild_id: int, channel_id: int, challenger: Person,
                        opponents: Sequence[Person], variant: str | None = None, partner: Person | None = None,
                        days_per_move: int | None = None, parent_channel_id: int | None = None,
                        rematch_of: Match | None = None, reply: Announcement | None = None) -> Match:
        """Open a challenge (and start it at once when only the bot was challenged).

        ``days_per_move`` None takes the server's default, 0 means casual. ``parent_channel_id`` is the
        channel a thread belongs to (the server's channel list names channels). ``reply`` completes the
        interaction that asked, once the card (or the first board) is posted.
        """
        game = GAMES.get(game_key)
        if game is None:
            raise NotFound(f"There is no game called {game_key!r}.")
        server = await self.ctx.settings.guild(guild_id)
        if server.channels and channel_id not in server.channels and parent_channel_id not in server.channels:
            where = ", ".join(f"<#{c}>" for c in sorted(server.channels))
            raise NotAllowed(f"Games are played in {where} on this server.")
        against_ai = any(o.ai_level is not None for o in opponents)
        seconds: int | None
        if against_ai and not AI_MATCHES_RATED:
            seconds = None   # casual: no clock and no rating against the bot
        elif days_per_move is None:
            seconds = server.default_time_per_move
        elif days_per_move == 0:
            seconds = None
        elif days_per_move in TIME_CHOICES_DAYS:
            seconds = days_per_move * 86400
        else:
            raise NotAllowed(f"Time per move is one of {', '.join(map(str, TIME_CHOICES_DAYS))} days, or none.")
        people = [challenger, *opponents]
        ids = [p.user_id for p in people]
        if challenger.user_id in {o.user_id for o in opponents}:
            raise NotAllowed("You cannot challenge yourself — pick someone else.")
        if len(set(ids)) != len(ids):
            raise NotAllowed("Each opponent can only be named once.")
        if challenger.is_bot or any(o.is_bot and o.ai_level is None for o in opponents):
            raise NotAllowed(f"Other bots cannot play here — challenge a person, or play me with /{game_key} "
                             "vs-bot.")
        if len(people) not in game.player_counts:
            allowed = " or ".join(str(n) for n in game.player_counts)
            raise NotAllowed(f"{game.title} is played by {allowed} players, not {len(people)}.")
        if variant is not None and variant not in game.variants:
            raise NotAllowed(f"{game.title} has no variant {variant[:40]!r}; choose one of "
                             f"{', '.join(game.variants)}.")
        teams = game.teams.get(len(people))
        if partner is not None:
            if not teams:
                raise NotAllowed(f"{game.title} with {len(people)} players has no teams, so no partner.")
            if partner.user_id not in {o.user_id for o in opponents}:
                raise NotAllowed("Your partner must be one of the players you challenge.")
        elif teams:
            raise NotAllowed(f"{game.title} with {len(people)} players is played in teams: "
                             "choose your partner with the partner option.")
        team_of: dict[int, int] = {}
        if teams:
            assert partner is not None
            team_of = {p.user_id: (0 if p.user_id in (challenger.user_id, partner.user_id) else 1) for p in people}
        preset: dict[int, int] = {}
        if rematch_of is not None:   # seats rotate by one; teams stay together
            preset = {p.user_id: ((p.seat or 0) + 1) % rematch_of.row.players for p in rematch_of.seated}
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            await tx.serialize(f"challenges-by:{challenger.user_id}")   # counted, then created: one at a time
            if not against_ai:
                await self._within_limits(tx, challenger.user_id, guild_id)
            if rematch_of is not None:
                await tx.lock_match(rematch_of.id)                      # one rematch offer of a match
            if rematch_of is not None and await self.ctx.matches.open_rematch(tx, rematch_of.id) is not None:
                raise StalePosition("A rematch of this match was already offered; answer that one.")
            match_id = await self.ctx.matches.create_challenge(
                tx, game=game.key, variant=variant or (game.variants[0] if game.variants else None),
                players=len(people), guild_id=guild_id, channel_id=channel_id,
                seed=self.ctx.seeds.randrange(1 << 31), created_by=challenger.user_id, now=now,
                expires_at=self.ctx.later(CHALLENGE_LIFETIME), time_per_move=seconds,
                rematch_of=rematch_of.id if rematch_of else None,
                people=[(p.user_id, p.name, team_of.get(p.user_id), preset.get(p.user_id), p.ai_level)
                        for p in people])
            match = await self._read(tx, match_id)
            told: list[Announcement] = []
            if all(p.accepted for p in match.participants):   # only the bot was challenged: it accepts at once
                match = await self._start(tx, match)
                told = start_announcements(match)
            else:
                told = [Announcement("card", {"event": "open"})]
            if reply is not None:
                told.append(reply)
            await self.ctx.outbox.add(tx, match_id, told, now=now)
        self._after(match)
        return match

    async def challenge_bot(self, game_key: str, *, guild_id: int, channel_id: int, player: Person, level: int,
                            bots: int = 1, variant: str | None = None, parent_channel_id: int | None = None,
                            reply: Announcement | None = None) -> Match:
        """A match against the bot, which fills ``bots`` seats (a team-mate first in a team game); created and
        started in one transaction."""
        game = GAMES.get(game_key)
        if game is None:
            raise NotFound(f"There is no game called {game_key!r}.")
        if level not in AI_LEVELS:
            raise NotAllowed(f"The bot plays at level 1 to 5, not {level}.")
        if bots + 1 not in game.player_counts:
            allowed = " or ".join(str(n - 1) for n in game.player_counts)
            raise NotAllowed(f"{game.title} against the bot takes {allowed} bot seat(s), not {bots}.")
        seats = ai_people(level, bots)
        partner = seats[0] if game.teams.get(bots + 1) else None
        return await self.challenge(game_key, guild_id=guild_id, channel_id=channel_id, challenger=player,
                                    opponents=seats, variant=variant, partner=partner,
                                    parent_channel_id=parent_channel_id, reply=reply)

    async def rematch(self, match_id: int, person: Person, *, guild_id: int,
                      reply: Announcement | None = None) -> Match:
        """The same players again, seats rotated; the one who asks is the challenger. Once per match."""
        old = await self.queries.get(match_id, position=False)
        if old.row.guild_id != guild_id:
            raise NotFound("That match belongs to another server.")
        if old.status not in ("finished", "aborted") or not old.seated:
            raise NotAllowed("A rematch is offered once a match is over.")
        me = old.participant(person.user_id)
        if me is None or me.seat is None:
            raise NotAllowed("Only the players of that match can ask for a rematch.")
        others = [Person(p.user_id, p.name, ai_level=p.ai_level, is_bot=p.is_ai)
                  for p in old.seated if p.user_id != person.user_id]
        partner = None
        for team in old.game.teams.get(old.row.players, ()):
            if me.seat in team:
                partner = next(o for o in others if old.seat_of(o.user_id) in team)
        days = None if old.row.time_per_move is None else old.row.time_per_move // 86400
        return await self.challenge(old.row.game, guild_id=guild_id, channel_id=old.row.channel_id,
                                    challenger=person, opponents=others, variant=old.row.variant,
                                    partner=partner, days_per_move=days if days else 0, rematch_of=old, reply=reply)

    async def accept(self, match_id: int, person: Person, *, guild_id: int) -> Match:
        """Record an acceptance; the match starts once every challenged player has accepted."""
        match = await self._open_challenge(match_id, guild_id)
        me = match.participant(person.user_id)
        if me is None:
            raise NotAllowed("This challenge is not addressed to you.")
        if me.invited_order == 0:
            raise NotAllowed("You made this challenge; wait for your opponent (or cancel it).")
        if me.accepted:
            raise NotAllowed("You have already accepted; waiting for the others.")
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            if not await self.ctx.matches.accept(tx, match_id, person.user_id, person.name):
                raise StalePosition("This challenge was answered in the meantime.")
            started = await self.ctx.matches.everyone_accepted(tx, match_id)
            match = await self._read(tx, match_id)
            told = [Announcement("card", {"event": "update"})]
            if started:
                match = await self._start(tx, match)
                told += start_announcements(match)
            await self.ctx.outbox.add(tx, match_id, told, now=now)
        self._after(match)
        return match

    async def decline(self, match_id: int, user_id: int, *, guild_id: int) -> Match:
        match = await self._open_challenge(match_id, guild_id)
        me = match.participant(user_id)
        if me is None or me.invited_order == 0:
            raise NotAllowed("Only a challenged player can decline (the challenger can cancel).")
        return await self._close(match_id, "declined")

    async def cancel(self, match_id: int, user_id: int, *, guild_id: int) -> Match:
        match = await self._open_challenge(match_id, guild_id)
        if match.challenger.user_id != user_id:
            raise NotAllowed("Only the player who made the challenge can cancel it.")
        return await self._close(match_id, "cancelled")

    async def expire(self, match_id: int) -> Match | None:
        """Close a challenge whose time ran out (the scheduler); None if it was answered meanwhile."""
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            changed = await tx.execute("UPDATE matches SET status = 'expired', finished_at = ?, expires_at = NULL"
                                       " WHERE id = ? AND status = 'challenge' AND expires_at <= ?",
                                       (now, match_id, now))
            if changed != 1:
                return None
            await self.ctx.outbox.add(tx, match_id, [Announcement("card", {"event": "update"})], now=now)
            match = await self._read(tx, match_id)
        self.ctx.events.announcements.emit(match_id)
        return match

    # ---- internals ---------------------------------------------------------------------------------------------
    async def _within_limits(self, tx: Tx, user_id: int, guild_id: int) -> None:
        if await self.ctx.matches.open_challenges_by(tx, user_id, guild_id) >= MAX_OPEN_PER_USER:
            raise NotAllowed(f"You have {MAX_OPEN_PER_USER} open challenges in this server already; wait for "
                             "answers or cancel some (/matches lists them).")
        if await self.ctx.matches.open_challenges_by(tx, user_id) >= MAX_OPEN_PER_USER_EVERYWHERE:
            raise NotAllowed(f"You have {MAX_OPEN_PER_USER_EVERYWHERE} open challenges across servers; wait for "
                             "answers or cancel some.")

    async def _close(self, match_id: int, status: str) -> Match:
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            if not await self.ctx.matches.close_challenge(tx, match_id, status, now=now):
                raise StalePosition("This challenge was answered in the meantime.")
            await self.ctx.outbox.add(tx, match_id, [Announcement("card", {"event": "update"})], now=now)
            match = await self._read(tx, match_id)
        self._after(match)
        return match

    async def _open_challenge(self, match_id: int, guild_id: int) -> Match:
        match = await self.queries.get(match_id, position=False)
        if match.row.guild_id != guild_id:
            raise NotFound("That challenge belongs to another server.")
        if match.status != "challenge":
            raise StalePosition(f"This challenge is no longer open (it was {match.status}).")
        return match

    async def _read(self, tx: Tx, match_id: int) -> Match:
        """The match as this transaction sees it."""
        return Match(*await self.ctx.matches.read(tx, match_id))

    async def _start(self, tx: Tx, match: Match) -> Match:
        row = match.row
        state = match.game.new(players=row.players, seed=row.seed, variant=row.variant)
        start = Start(seat_order(match), state.encode(), state.to_move, self.ctx.turn_clock(row))
        if not await self.ctx.matches.start(tx, match.id, start, now=self.ctx.now()):
            raise StalePosition("This challenge was answered in the meantime.")
        started = await self._read(tx, match.id)
        started.state = state
        return started

    def _after(self, match: Match) -> None:
        if match.status == "active":
            self.queries.remember(match)
        self.ctx.events.deadline_set.emit(match.next_timer)
        self.ctx.events.announcements.emit(match.id)


def seat_order(match: Match) -> dict[int, int]:
    """Random seats (fixed by the match seed); team games put partners on alternate seats."""
    rng = random.Random(match.row.seed ^ 0x5EA75)
    people = sorted(match.participants, key=lambda p: p.invited_order)
    if all(p.preset_seat is not None for p in people):   # a rematch
        return {p.user_id: p.preset_seat for p in people if p.preset_seat is not None}
    teams = match.game.teams.get(len(people))
    if teams:
        sides = [[p.user_id for p in people if p.team == t] for t in (0, 1)]
        rng.shuffle(sides)
        order: dict[int, int] = {}
        for team_seats, side in zip(teams, sides, strict=True):
            rng.shuffle(side)
            order.update(zip(side, team_seats, strict=True))
        return order
    ids = [p.user_id for p in people]
    rng.shuffle(ids)
    return {uid: seat for seat, uid in enumerate(ids)}
