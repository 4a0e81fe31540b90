"""The matches repository: matches, their participants, and the move log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.db import Database


@dataclass(frozen=True)
class MatchRow:
    id: int
    game: str
    variant: str | None
    players: int
    guild_id: int
    channel_id: int
    status: str
    seed: int
    ply: int
    turn: int
    position: str | None
    to_move: int | None
    winners: tuple[int, ...]
    end_reason: str | None
    created_by: int
    created_at: str
    started_at: str | None
    finished_at: str | None
    card_message_id: int | None
    board_message_id: int | None
    time_per_move: int | None = None     # seconds; None = casual
    deadline_at: str | None = None
    remind_at: str | None = None
    expires_at: str | None = None
    ranks: tuple[int, ...] = ()
    rematch_of: int | None = None

    @property
    def rated(self) -> bool:
        """Casual matches (no time limit) and aborted ones leave ratings alone."""
        return self.time_per_move is not None and self.status == "finished"

    @classmethod
    def from_row(cls, r) -> MatchRow:
        d = dict(r)
        for key in ("winners", "ranks"):   # seats joined by ','
            d[key] = tuple(int(x) for x in d[key].split(",")) if d[key] else ()
        return cls(**d)


@dataclass(frozen=True)
class ParticipantRow:
    user_id: int
    name: str
    invited_order: int
    team: int | None
    accepted: bool
    seat: int | None
    preset_seat: int | None = None
    ai_level: int | None = None          # a seat the bot plays, at this level

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass(frozen=True)
class TurnClock:
    """When the player to move is reminded and when they run out of time (ISO UTC; None = no limit)."""
    deadline_at: str | None
    remind_at: str | None


@dataclass(frozen=True)
class Start:
    seats: dict[int, int]          # user id -> seat
    position: str
    to_move: int | None
    clock: TurnClock


@dataclass(frozen=True)
class Result:
    status: str                    # 'finished' or 'aborted'
    winners: tuple[int, ...]
    ranks: tuple[int, ...]         # per seat, 1 = best; ties share a rank
    reason: str


@dataclass(frozen=True)
class MoveRow:
    ply: int
    turn: int
    seat: int
    move: str
    position: str
    played_at: str


class MatchStore:
    def __init__(self, db: Database):
        self.db = db

    async def create_challenge(self, *, game: str, variant: str | None, players: int, guild_id: int,
                               channel_id: int, seed: int, created_by: int, now: str, expires_at: str,
                               time_per_move: int | None, rematch_of: int | None,
                               people: Sequence[tuple[int, str, int | None, int | None, int | None]]) -> int:
        """A new open challenge; ``people`` is (user id, name, team, preset seat, AI level), the challenger
        first. The challenger and AI seats have accepted already."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "INSERT INTO matches (game, variant, players, guild_id, channel_id, status, seed, created_by,"
                " created_at, expires_at, time_per_move, rematch_of)"
                " VALUES (?, ?, ?, ?, ?, 'challenge', ?, ?, ?, ?, ?, ?)",
                (game, variant, players, guild_id, channel_id, seed, created_by, now, expires_at, time_per_move,
                 rematch_of))
            match_id = cur.lastrowid
            await conn.executemany(
                "INSERT INTO participants (match_id, user_id, name, invited_order, team, preset_seat, ai_level,"
                " accepted) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(match_id, uid, name, i, team, preset, level, int(i == 0 or level is not None))
                 for i, (uid, name, team, preset, level) in enumerate(people)])
        return match_id

    async def accept(self, match_id: int, user_id: int, name: str, *, start: Start | None, now: str) -> bool:
        """Mark an acceptance; with ``start`` also seat everyone and start the clock."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE participants SET accepted = 1, name = ? WHERE match_id = ? AND user_id = ?"
                " AND accepted = 0 AND EXISTS (SELECT 1 FROM matches WHERE id = ? AND status = 'challenge')",
                (name, match_id, user_id, match_id))
            if cur.rowcount != 1:
                return False
            if start is not None:
                await self._start(conn, match_id, start, now)
        return True

    async def start(self, match_id: int, start: Start, *, now: str) -> bool:
        """Start a challenge everyone has already accepted (a match against the bot)."""
        async with self.db.transaction() as conn:
            return await self._start(conn, match_id, start, now)

    @staticmethod
    async def _start(conn, match_id: int, start: Start, now: str) -> bool:
        cur = await conn.execute(
            "UPDATE matches SET status = 'active', started_at = ?, position = ?, to_move = ?, deadline_at = ?,"
            " remind_at = ?, expires_at = NULL WHERE id = ? AND status = 'challenge'",
            (now, start.position, start.to_move, start.clock.deadline_at, start.clock.remind_at, match_id))
        if cur.rowcount != 1:
            return False
        await conn.executemany("UPDATE participants SET seat = ? WHERE match_id = ? AND user_id = ?",
                               [(seat, match_id, uid) for uid, seat in start.seats.items()])
        return True

    async def close_challenge(self, match_id: int, status: str, *, now: str) -> bool:
        """Decline, cancel or expire an open challenge."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE matches SET status = ?, finished_at = ?, expires_at = NULL"
                " WHERE id = ? AND status = 'challenge'", (status, now, match_id))
            return cur.rowcount == 1

    async def append_turn(self, match_id: int, *, expected_ply: int, moves: Sequence[tuple[int, int, str, str]],
                          position: str, to_move: int | None, clock: TurnClock | None, result: Result | None,
                          now: str) -> bool:
        """Store one turn (rows of ply, seat, move, position) if the match is still at ``expected_ply``.

        ``clock`` is the new deadline (None keeps the running one: the same player goes on).
        """
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE matches SET ply = ?, turn = turn + 1, position = ?, to_move = ?"
                " WHERE id = ? AND ply = ? AND status = 'active'",
                (expected_ply + len(moves), position, to_move, match_id, expected_ply))
            if cur.rowcount != 1:
                return False
            if clock is not None:
                await conn.execute("UPDATE matches SET deadline_at = ?, remind_at = ? WHERE id = ?",
                                   (clock.deadline_at, clock.remind_at, match_id))
            if result is not None:
                await self._finish(conn, match_id, result, now)
            turn = (await (await conn.execute("SELECT turn FROM matches WHERE id = ?", (match_id,))).fetchone())[0]
            await conn.executemany(
                "INSERT INTO moves (match_id, ply, turn, seat, move, position, played_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(match_id, ply, turn, seat, move, pos, now) for ply, seat, move, pos in moves])
        return True

    async def finish(self, match_id: int, *, expected_ply: int, result: Result, now: str,
                     event: tuple[int | None, str, str] | None = None) -> bool:
        """End an active match without a move (resignation, time-out, abort), logging ``event``."""
        async with self.db.transaction() as conn:
            cur = await conn.execute("SELECT 1 FROM matches WHERE id = ? AND ply = ? AND status = 'active'",
                                     (match_id, expected_ply))
            if await cur.fetchone() is None:
                return False
            await self._finish(conn, match_id, result, now)
            if event is not None:
                await self._event(conn, match_id, now, *event)
        return True

    @staticmethod
    async def _finish(conn, match_id: int, result: Result, now: str) -> None:
        await conn.execute(
            "UPDATE matches SET status = ?, to_move = NULL, winners = ?, ranks = ?, end_reason = ?, finished_at = ?,"
            " deadline_at = NULL, remind_at = NULL WHERE id = ?",
            (result.status, ",".join(map(str, result.winners)), ",".join(map(str, result.ranks)), result.reason,
             now, match_id))

    @staticmethod
    async def _event(conn, match_id: int, now: str, actor_id: int | None, action: str, detail: str) -> None:
        await conn.execute("INSERT INTO match_events (match_id, at, actor_id, action, detail) VALUES (?, ?, ?, ?, ?)",
                           (match_id, now, actor_id, action, detail))

    async def log_event(self, match_id: int, *, now: str, actor_id: int | None, action: str, detail: str) -> None:
        async with self.db.transaction() as conn:
            await self._event(conn, match_id, now, actor_id, action, detail)

    async def events(self, match_id: int) -> list[tuple[str, int | None, str, str]]:
        rows = await self.db.fetchall(
            "SELECT at, actor_id, action, detail FROM match_events WHERE match_id = ? ORDER BY id", (match_id,))
        return [tuple(r) for r in rows]

    async def mark_reminded(self, match_id: int, *, now: str) -> bool:
        """Clear a due reminder; False if it was not due (or already sent)."""
        async with self.db.transaction() as conn:
            cur = await conn.execute("UPDATE matches SET remind_at = NULL WHERE id = ? AND status = 'active'"
                                     " AND remind_at IS NOT NULL AND remind_at <= ?", (match_id, now))
            return cur.rowcount == 1

    async def due(self, now: str) -> dict[str, list[int]]:
        """Match ids whose challenge expired, reminder fell due, or deadline passed at ``now``."""
        q = {"expired": "SELECT id FROM matches WHERE status = 'challenge' AND expires_at <= ? ORDER BY expires_at",
             "remind": "SELECT id FROM matches WHERE status = 'active' AND remind_at <= ? ORDER BY remind_at",
             "deadline": "SELECT id FROM matches WHERE status = 'active' AND deadline_at <= ? ORDER BY deadline_at"}
        return {k: [r[0] for r in await self.db.fetchall(sql, (now,))] for k, sql in q.items()}

    async def next_due(self) -> str | None:
        row = await self.db.fetchone(
            "SELECT MIN(t) FROM (SELECT MIN(expires_at) t FROM matches WHERE status = 'challenge'"
            " UNION ALL SELECT MIN(remind_at) FROM matches WHERE status = 'active'"
            " UNION ALL SELECT MIN(deadline_at) FROM matches WHERE status = 'active')")
        return row[0] if row else None

    async def set_channel(self, match_id: int, channel_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE matches SET channel_id = ? WHERE id = ?", (channel_id, match_id))

    async def set_message(self, match_id: int, column: str, message_id: int) -> None:
        assert column in ("board_message_id", "card_message_id")
        async with self.db.transaction() as conn:
            await conn.execute(f"UPDATE matches SET {column} = ? WHERE id = ?", (message_id, match_id))

    async def match(self, match_id: int) -> MatchRow | None:
        r = await self.db.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
        return MatchRow.from_row(r) if r else None

    async def participants(self, match_id: int) -> list[ParticipantRow]:
        rows = await self.db.fetchall(
            "SELECT user_id, name, invited_order, team, accepted, seat, preset_seat, ai_level FROM participants"
            " WHERE match_id = ? ORDER BY invited_order", (match_id,))
        return [ParticipantRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], r[7]) for r in rows]

    async def moves(self, match_id: int) -> list[MoveRow]:
        rows = await self.db.fetchall(
            "SELECT ply, turn, seat, move, position, played_at FROM moves WHERE match_id = ? ORDER BY ply",
            (match_id,))
        return [MoveRow(*r) for r in rows]

    async def match_ids_of(self, user_id: int, *, guild_id: int, game: str | None, channel_id: int | None,
                           statuses: tuple[str, ...], newest_first: bool = False, limit: int = -1) -> list[int]:
        sql = ("SELECT m.id FROM matches m JOIN participants p ON p.match_id = m.id"
               f" WHERE p.user_id = ? AND m.guild_id = ? AND m.status IN ({','.join('?' * len(statuses))})")
        params: list = [user_id, guild_id, *statuses]
        if game is not None:
            sql += " AND m.game = ?"
            params.append(game)
        if channel_id is not None:
            sql += " AND m.channel_id = ?"
            params.append(channel_id)
        order = " ORDER BY COALESCE(m.finished_at, m.created_at) DESC, m.id DESC" if newest_first else " ORDER BY m.id"
        rows = await self.db.fetchall(sql + order + " LIMIT ?", (*params, limit))
        return [r[0] for r in rows]
