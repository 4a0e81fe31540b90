"""Challenges: open one, answer it, start the match once every seat has accepted — decided in SQL.

Every decision is a conditional write inside one transaction (an acceptance counts only while the challenge
is open; the match starts only if no one is left to accept), so two processes answering one challenge at
once start it exactly once. The match start and its announcements are written in the same transaction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import timedelta

from bot.i18n import Either, T
from bot.model import AI_LEVELS, Match, NotAllowed, NotFound, Person, StalePosition, ai_people
from bot.services.announce import Card, Notice, start_announcements
from bot.services.context import Context
from bot.services.queries import Queries
from bot.store.db import Tx
from bot.store.rows import Start
from engines import GAMES

CHALLENGE_LIFETIME = timedelta(days=1)   # an unanswered challenge expires then
TIME_CHOICES_DAYS = (1, 2, 3, 5, 7, 14)  # what a challenge may choose; 0 = casual (no limit, unrated)
AI_MATCHES_RATED = False   # the bot's fixed strength would make ratings farmable, and it is no server member
MAX_OPEN_PER_USER = 10     # open challenges one person may have waiting in a server
MAX_OPEN_PER_USER_EVERYWHERE = 25
OPEN_SEAT_TEAMS = (0, 1, 0, 1)
FIRST_SEAT_TRIES = 64       # seeds drawn for a tournament table whose seat 0 must move first
"""A team game with open seats and no named partner: the team of each arrival in order (the challenger first,
then the named opponents, then the joiners in join order) follows the rules' W, B, W, B seating, so the
challenger partners the third to sit. An arrival whose team is full goes to the other team: a named partner
fills the challenger's team, so then every joiner plays against the two of them."""


class Challenges:
    def __init__(self, ctx: Context, queries: Queries):
        self.ctx = ctx
        self.queries = queries

    async def challenge(self, game_key: str, *, guild_id: int, channel_id: int, challenger: Person,
                        opponents: Sequence[Person], variant: str | None = None, partner: Person | None = None,
                        days_per_move: int | None = None, parent_channel_id: int | None = None,
                        rematch_of: Match | None = None, reply: Notice | None = None,
                        players: int | None = None) -> Match:
        """Open a challenge (and start it at once when only the bot was challenged).

        ``players`` is the size of the table: seats beyond the challenger and ``opponents`` are open to anyone
        in the server (with no opponent named, the game's smallest table).

        ``days_per_move`` None takes the server's default, 0 means casual. ``parent_channel_id`` is the
        channel a thread belongs to (the server's channel list names channels). ``reply`` completes the
        interaction that asked, once the card (or the first board) is posted.
        """
        game = GAMES.get(game_key)
        if game is None:
            raise NotFound(T("There is no game called {game}.", game=repr(game_key)))
        server = await self.ctx.settings.guild(guild_id)
        if server.channels and channel_id not in server.channels and parent_channel_id not in server.channels:
            where = ", ".join(f"<#{c}>" for c in sorted(server.channels))
            raise NotAllowed(T("Games are played in {where} on this server.", where=where))
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
            raise NotAllowed(T("Time per move is one of {days} days, or none.",
                               days=", ".join(map(str, TIME_CHOICES_DAYS))))
        people = [challenger, *opponents]
        ids = [p.user_id for p in people]
        if challenger.user_id in {o.user_id for o in opponents}:
            raise NotAllowed(T("You cannot challenge yourself — pick someone else."))
        if len(set(ids)) != len(ids):
            raise NotAllowed(T("Each opponent can only be named once."))
        if challenger.is_bot or any(o.is_bot and o.ai_level is None for o in opponents):
            raise NotAllowed(T("Other bots cannot play here — challenge a person, or play me with /{game} "
                               "vs-bot.", game=game_key))
        total = players or (len(people) if opponents else min(game.player_counts))
        if total < len(people):
            raise NotAllowed(T("You named {n} players (you included) for a table of {total}; name fewer "
                               "opponents or choose more players.", n=len(people), total=total))
        if total not in game.player_counts:
            raise NotAllowed(T("{game} is played by {allowed} players, not {n}.", game=game.title,
                               allowed=Either(game.player_counts), n=total))
        open_seats = total - len(people)
        if variant is not None and variant not in game.variants:
            raise NotAllowed(T("{game} has no variant {variant}; choose one of {variants}.", game=game.title,
                               variant=repr(variant[:40]), variants=", ".join(game.variants)))
        teams = game.teams.get(total)
        if partner is not None:
            if not teams:
                raise NotAllowed(T("{game} with {n} players has no teams, so no partner.", game=game.title,
                                   n=total))
            if partner.user_id not in {o.user_id for o in opponents}:
                raise NotAllowed(T("Your partner must be one of the players you challenge."))
        elif teams and not open_seats:
            raise NotAllowed(T("{game} with {n} players is played in teams: "
                               "choose your partner with the partner option.", game=game.title, n=total))
        team_of: dict[int, int] = {}
        if teams and partner is not None:
            team_of = {p.user_id: (0 if p.user_id in (challenger.user_id, partner.user_id) else 1) for p in people}
        elif teams:   # open seats, no partner named: teams by arrival
            for p in people:
                team_of[p.user_id] = arrival_team(len(team_of), list(team_of.values()), len(teams[0]))
        preset: dict[int, int] = {}
        if rematch_of is not None:   # seats rotate by one; teams stay together
            preset = {p.user_id: ((p.seat or 0) + 1) % rematch_of.row.players for p in rematch_of.seated}
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            await tx.serialize(f"challenges-by:{challenger.user_id}")   # counted, then created: one at a time
            if not against_ai or open_seats:
                await self._within_limits(tx, challenger.user_id, guild_id)
            if rematch_of is not None:
                await tx.lock_match(rematch_of.id)                      # one rematch offer of a match
            if rematch_of is not None and await self.ctx.matches.open_rematch(tx, rematch_of.id) is not None:
                raise StalePosition(T("A rematch of this match was already offered; answer that one."))
            match_id = await self.ctx.matches.create_challenge(
                tx, game=game.key, variant=variant or (game.variants[0] if game.variants else None),
                players=total, guild_id=guild_id, channel_id=channel_id, open_seats=open_seats,
                seed=self.ctx.seeds.randrange(1 << 31), created_by=challenger.user_id, now=now,
                expires_at=self.ctx.later(CHALLENGE_LIFETIME), time_per_move=seconds,
                rematch_of=rematch_of.id if rematch_of else None,
                people=[(p.user_id, p.name, team_of.get(p.user_id), preset.get(p.user_id), p.ai_level)
                        for p in people])
            match = await self._read(tx, match_id)
            told: list[Notice] = []
            if all(p.accepted for p in match.participants) and not open_seats:   # only the bot: it accepts at once
                match = await self._start(tx, match)
                told = start_announcements(match)
            else:
                told = [Card("open")]
            if reply is not None:
                told.append(reply)
            await self.ctx.outbox.add(tx, match_id, told, now=now)
        self._after(match)
        return match

    async def challenge_bot(self, game_key: str, *, guild_id: int, channel_id: int, player: Person, level: int,
                            bots: int = 1, variant: str | None = None, parent_channel_id: int | None = None,
                            reply: Notice | None = None) -> Match:
        """A match against the bot, which fills ``bots`` seats (a team-mate first in a team game); created and
        started in one transaction."""
        game = GAMES.get(game_key)
        if game is None:
            raise NotFound(T("There is no game called {game}.", game=repr(game_key)))
        if level not in AI_LEVELS:
            raise NotAllowed(T("The bot plays at level 1 to 5, not {level}.", level=level))
        if bots + 1 not in game.player_counts:
            allowed = Either(n - 1 for n in game.player_counts)
            raise NotAllowed(T("{game} against the bot takes {allowed} bot seat(s), not {bots}.", game=game.title,
                               allowed=allowed,
                               bots=bots))
        seats = ai_people(level, bots)
        partner = seats[0] if game.teams.get(bots + 1) else None
        return await self.challenge(game_key, guild_id=guild_id, channel_id=channel_id, challenger=player,
                                    opponents=seats, variant=variant, partner=partner,
                                    parent_channel_id=parent_channel_id, reply=reply)

    async def rematch(self, match_id: int, person: Person, *, guild_id: int,
                      reply: Notice | None = None) -> Match:
        """The same players again, seats rotated; the one who asks is the challenger. Once per match."""
        old = await self.queries.get(match_id, position=False)
        if old.row.guild_id != guild_id:
            raise NotFound(T("That match belongs to another server."))
        if old.status not in ("finished", "aborted") or not old.seated:
            raise NotAllowed(T("A rematch is offered once a match is over."))
        me = old.participant(person.user_id)
        if me is None or me.seat is None:
            raise NotAllowed(T("Only the players of that match can ask for a rematch."))
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
            raise NotAllowed(T("This challenge is not addressed to you."))
        if me.invited_order == 0:
            raise NotAllowed(T("You made this challenge; wait for your opponent (or cancel it)."))
        if me.accepted:
            raise NotAllowed(T("You have already accepted; waiting for the others."))
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            if not await self.ctx.matches.accept(tx, match_id, person.user_id, person.name):
                raise StalePosition(T("This challenge was answered in the meantime."))
            match = await self._seat_taken(tx, match_id, now)
        self._after(match)
        return match

    async def join(self, match_id: int, person: Person, *, guild_id: int) -> Match:
        """Take an open seat. The last seat (once every invited player has accepted too) starts the match
        through the same start as the last acceptance; every join brings the card up to date."""
        match = await self.queries.get(match_id, position=False)
        if match.row.guild_id != guild_id:
            raise NotFound(T("That challenge belongs to another server."))
        if match.status == "active":
            raise StalePosition(T("Too late — every seat was taken and the match has begun."))
        if match.status != "challenge":
            raise StalePosition(T("This challenge is no longer open (it was {status}).", status=T(match.status)))
        if person.is_bot:
            raise NotAllowed(T("Bots cannot take a seat; people join open challenges."))
        me = match.participant(person.user_id)
        if me is not None and me.invited_order == 0:
            raise NotAllowed(T("This is your own challenge; wait for others to join (or cancel it)."))
        if me is not None and me.joined:
            raise NotAllowed(T("You already have a seat in this challenge; wait for the others."))
        if me is not None:
            raise NotAllowed(T("You are invited to this challenge already: press Accept instead."))
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            if not await self.ctx.matches.claim_seat(tx, match_id):
                raise StalePosition(T("Too late — the last open seat was just taken."))
            seated = await self._read(tx, match_id)     # who sits already, read under the claim
            teams = seated.game.teams.get(seated.row.players)
            team = arrival_team(len(seated.participants), [p.team for p in seated.participants],
                                len(teams[0])) if teams else None
            if not await self.ctx.matches.add_joiner(tx, match_id, user_id=person.user_id, name=person.name,
                                                     arrival=len(seated.participants), team=team):
                raise NotAllowed(T("You already have a seat in this challenge; wait for the others."))
            match = await self._seat_taken(tx, match_id, now)
        self._after(match)
        return match

    async def _seat_taken(self, tx: Tx, match_id: int, now: str) -> Match:
        """After an acceptance or a join: the card brought up to date, and the match started once every seat is
        taken and every invited player has accepted (with its start announcements), in the caller's transaction."""
        started = await self.ctx.matches.everyone_accepted(tx, match_id)
        match = await self._read(tx, match_id)
        told: list[Notice] = [Card("update")]
        if started and not match.row.open_seats:
            match = await self._start(tx, match)
            told += start_announcements(match)
        await self.ctx.outbox.add(tx, match_id, told, now=now)
        return match

    async def decline(self, match_id: int, user_id: int, *, guild_id: int) -> Match:
        match = await self._open_challenge(match_id, guild_id)
        me = match.participant(user_id)
        if me is None or me.invited_order == 0:
            raise NotAllowed(T("Only a challenged player can decline (the challenger can cancel)."))
        return await self._close(match_id, "declined")

    async def cancel(self, match_id: int, user_id: int, *, guild_id: int) -> Match:
        match = await self._open_challenge(match_id, guild_id)
        if match.challenger.user_id != user_id:
            raise NotAllowed(T("Only the player who made the challenge can cancel it."))
        return await self._close(match_id, "cancelled")

    async def expire(self, match_id: int) -> Match | None:
        """Close a challenge whose time ran out (the scheduler); None if it was answered meanwhile."""
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            if not await self.ctx.matches.expire_challenge(tx, match_id, now=now):
                return None
            await self.ctx.outbox.add(tx, match_id, [Card("update")], now=now)
            match = await self._read(tx, match_id)
        self.ctx.events.announcements.emit(match_id)
        return match

    async def start_seated(self, tx: Tx, game_key: str, *, variant: str | None, guild_id: int, channel_id: int,
                           seats: Sequence[Person], teams: Sequence[Sequence[int]], time_per_move: int,
                           rated: bool, tournament: tuple[int, int], created_by: int, now: str) -> Match:
        """A match whose seats are decided already (a tournament's pairing: ``seats`` in seat order, ``teams``
        seat indices per team), created and started in the caller's transaction; the caller writes its start
        announcements (``start_announcements``)."""
        game = GAMES[game_key]
        variant = variant or (game.variants[0] if game.variants else None)
        team_of = {seat: t for t, team in enumerate(teams) for seat in team}
        match_id = await self.ctx.matches.create_challenge(
            tx, game=game.key, variant=variant, players=len(seats),
            guild_id=guild_id, channel_id=channel_id, seed=self.seat_zero_first_seed(game_key, len(seats), variant),
            created_by=created_by, now=now, expires_at=now, time_per_move=time_per_move, rematch_of=None,
            people=[(p.user_id, p.name, team_of.get(seat), seat, None) for seat, p in enumerate(seats)],
            all_accepted=True, tournament=tournament, unrated=not rated)
        return await self._start(tx, await self._read(tx, match_id))

    def seat_zero_first_seed(self, game_key: str, players: int, variant: str | None) -> int:
        """A random seed whose set-up has seat 0 to move. In Tintas and Rincala the rules draw the first player by
        lot with the set-up; at a tournament's table the pairing has decided who moves first (a Swiss balances
        it, a double round robin swaps it), so the lot keeps only the set-up. After FIRST_SEAT_TRIES draws (a
        chance below 10^-11 with three seats) the last seed is kept."""
        game = GAMES[game_key]
        for _ in range(FIRST_SEAT_TRIES):
            seed = self.ctx.seeds.randrange(1 << 31)
            if game.new(players=players, seed=seed, variant=variant).to_move == 0:
                break
        return seed

    # ---- internals ---------------------------------------------------------------------------------------------
    async def _within_limits(self, tx: Tx, user_id: int, guild_id: int) -> None:
        if await self.ctx.matches.open_challenges_by(tx, user_id, guild_id) >= MAX_OPEN_PER_USER:
            raise NotAllowed(T("You have {n} open challenges in this server already; wait for "
                               "answers or cancel some (/matches lists them).", n=MAX_OPEN_PER_USER))
        if await self.ctx.matches.open_challenges_by(tx, user_id) >= MAX_OPEN_PER_USER_EVERYWHERE:
            raise NotAllowed(T("You have {n} open challenges across servers; wait for "
                               "answers or cancel some.", n=MAX_OPEN_PER_USER_EVERYWHERE))

    async def _close(self, match_id: int, status: str) -> Match:
        now = self.ctx.now()
        async with self.ctx.db.transaction() as tx:
            if not await self.ctx.matches.close_challenge(tx, match_id, status, now=now):
                raise StalePosition(T("This challenge was answered in the meantime."))
            await self.ctx.outbox.add(tx, match_id, [Card("update")], now=now)
            match = await self._read(tx, match_id)
        self._after(match)
        return match

    async def _open_challenge(self, match_id: int, guild_id: int) -> Match:
        match = await self.queries.get(match_id, position=False)
        if match.row.guild_id != guild_id:
            raise NotFound(T("That challenge belongs to another server."))
        if match.status != "challenge":
            raise StalePosition(T("This challenge is no longer open (it was {status}).", status=T(match.status)))
        return match

    async def _read(self, tx: Tx, match_id: int) -> Match:
        """The match as this transaction sees it."""
        return Match(*await self.ctx.matches.read(tx, match_id))

    async def _start(self, tx: Tx, match: Match) -> Match:
        row = match.row
        state = match.game.new(players=row.players, seed=row.seed, variant=row.variant)
        start = Start(seat_order(match), state.encode(), state.to_move, self.ctx.turn_clock(row))
        if not await self.ctx.matches.start(tx, match.id, start, now=self.ctx.now()):
            raise StalePosition(T("This challenge was answered in the meantime."))
        await self.ctx.away.defer_new_clock(tx, match.id, self.ctx.now())   # the first mover may be away
        started = await self._read(tx, match.id)
        started.state = state
        return started

    def _after(self, match: Match) -> None:
        if match.status == "active":
            self.queries.remember(match)
        self.ctx.events.deadline_set.emit(match.next_timer)
        self.ctx.events.announcements.emit(match.id)


def arrival_team(arrival: int, teams_so_far: Sequence[int | None], size: int) -> int:
    """The team of the ``arrival``-th person to sit at an open team table (see OPEN_SEAT_TEAMS)."""
    team = OPEN_SEAT_TEAMS[arrival % len(OPEN_SEAT_TEAMS)]
    return team if list(teams_so_far).count(team) < size else 1 - team


def open_seat_teams(match: Match) -> list[int]:
    """The team each open seat of a team challenge goes to, in join order (``arrival_team`` after everyone who
    sits already); none for a game without teams."""
    teams = match.game.teams.get(match.row.players)
    if not teams:
        return []
    seated: list[int | None] = [p.team for p in match.participants]
    added: list[int] = []
    for _seat in range(match.row.open_seats):
        added.append(arrival_team(len(seated) + len(added), [*seated, *added], len(teams[0])))
    return added


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
