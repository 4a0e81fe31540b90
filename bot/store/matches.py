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

    @classmethod
    def from_row(cls, r) -> MatchRow:
        d = dict(r)
        w = d.pop("winners")
        return cls(winners=tuple(int(x) for x in w.split(",")) if w else (), **d)


@dataclass(frozen=True)
class ParticipantRow:
    user_id: int
    name: str
    invited_order: int
    team: int | None
    accepted: bool
    seat: int | None


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
                               channel_id: int, seed: int, created_by: int, now: str,
                               people: Sequence[tuple[int, str, int | None]]) -> int:
        """A new open challenge; ``people`` is (user id, name, team) with the challenger first."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "INSERT INTO matches (game, variant, players, guild_id, channel_id, status, seed,"
                " created_by, created_at) VALUES (?, ?, ?, ?, ?, 'challenge', ?, ?, ?)",
                (game, variant, players, guild_id, channel_id, seed, created_by, now))
            match_id = cur.lastrowid
            await conn.executemany(
                "INSERT INTO participants (match_id, user_id, name, invited_order, team, accepted)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(match_id, uid, name, i, team, int(i == 0)) for i, (uid, name, team) in enumerate(people)])
        return match_id

    async def accept(self, match_id: int, user_id: int, name: str, *,
                     start: tuple[dict[int, int], str, int | None] | None, now: str) -> bool:
        """Mark an acceptance; with ``start`` = (seats by user, start position, to move) also start."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE participants SET accepted = 1, name = ? WHERE match_id = ? AND user_id = ?"
                " AND accepted = 0 AND EXISTS (SELECT 1 FROM matches WHERE id = ? AND status = 'challenge')",
                (name, match_id, user_id, match_id))
            if cur.rowcount != 1:
                return False
            if start is not None:
                seats, position, to_move = start
                await conn.executemany("UPDATE participants SET seat = ? WHERE match_id = ? AND user_id = ?",
                                       [(seat, match_id, uid) for uid, seat in seats.items()])
                await conn.execute(
                    "UPDATE matches SET status = 'active', started_at = ?, position = ?, to_move = ?"
                    " WHERE id = ?", (now, position, to_move, match_id))
        return True

    async def close_challenge(self, match_id: int, status: str, *, now: str) -> bool:
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE matches SET status = ?, finished_at = ? WHERE id = ? AND status = 'challenge'",
                (status, now, match_id))
            return cur.rowcount == 1

    async def append_turn(self, match_id: int, *, expected_ply: int, moves: Sequence[tuple[int, int, str, str]],
                          position: str, to_move: int | None, winners: tuple[int, ...] | None,
                          reason: str | None, now: str) -> bool:
        """Store one turn (rows of ply, seat, move, position) if the match is still at ``expected_ply``."""
        finished = winners is not None
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE matches SET ply = ?, turn = turn + 1, position = ?, to_move = ?, status = ?,"
                " winners = ?, end_reason = ?, finished_at = ? WHERE id = ? AND ply = ? AND status = 'active'",
                (expected_ply + len(moves), position, to_move, "finished" if finished else "active",
                 ",".join(map(str, winners)) if finished else None, reason, now if finished else None,
                 match_id, expected_ply))
            if cur.rowcount != 1:
                return False
            turn = (await (await conn.execute("SELECT turn FROM matches WHERE id = ?", (match_id,))).fetchone())[0]
            await conn.executemany(
                "INSERT INTO moves (match_id, ply, turn, seat, move, position, played_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(match_id, ply, turn, seat, move, pos, now) for ply, seat, move, pos in moves])
        return True

    async def finish(self, match_id: int, *, expected_ply: int, winners: tuple[int, ...], reason: str,
                     now: str) -> bool:
        """End an active match without a move (a resignation)."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE matches SET status = 'finished', to_move = NULL, winners = ?, end_reason = ?,"
                " finished_at = ? WHERE id = ? AND ply = ? AND status = 'active'",
                (",".join(map(str, winners)), reason, now, match_id, expected_ply))
            return cur.rowcount == 1

    async def set_message(self, match_id: int, column: str, message_id: int) -> None:
        assert column in ("board_message_id", "card_message_id")
        async with self.db.transaction() as conn:
            await conn.execute(f"UPDATE matches SET {column} = ? WHERE id = ?", (message_id, match_id))

    async def match(self, match_id: int) -> MatchRow | None:
        r = await self.db.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
        return MatchRow.from_row(r) if r else None

    async def participants(self, match_id: int) -> list[ParticipantRow]:
        rows = await self.db.fetchall(
            "SELECT user_id, name, invited_order, team, accepted, seat FROM participants"
            " WHERE match_id = ? ORDER BY invited_order", (match_id,))
        return [ParticipantRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5]) for r in rows]

    async def moves(self, match_id: int) -> list[MoveRow]:
        rows = await self.db.fetchall(
            "SELECT ply, turn, seat, move, position, played_at FROM moves WHERE match_id = ? ORDER BY ply",
            (match_id,))
        return [MoveRow(*r) for r in rows]

    async def match_ids_of(self, user_id: int, *, guild_id: int, game: str | None, channel_id: int | None,
                           statuses: tuple[str, ...]) -> list[int]:
        sql = ("SELECT m.id FROM matches m JOIN participants p ON p.match_id = m.id"
               f" WHERE p.user_id = ? AND m.guild_id = ? AND m.status IN ({','.join('?' * len(statuses))})")
        params: list = [user_id, guild_id, *statuses]
        if game is not None:
            sql += " AND m.game = ?"
            params.append(game)
        if channel_id is not None:
            sql += " AND m.channel_id = ?"
            params.append(channel_id)
        rows = await self.db.fetchall(sql + " ORDER BY m.id", tuple(params))
        return [r[0] for r in rows]
