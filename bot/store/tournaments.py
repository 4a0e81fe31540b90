"""Tournaments' SQL: the events, their entrants and their tables (games and byes), and who may create them.

Writes run in the caller's transaction; each decision that may race is a conditional write (an entry once, a
start once, a round once, a result once, an end once) or runs behind ``lock`` (one tournament's decisions one
after another, across processes).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.db import Database, Tx

_TOURNAMENT = ("id, guild_id, channel_id, created_by, name, game, variant, format, table_size, rounds, schedule,"
               " days_per_move, rated, start_at, min_entrants, max_entrants, round_days, status, current_round,"
               " pairing_round, total_rounds, round_deadline, card_message_id, created_at, started_at, finished_at,"
               " repeat_days, series_id, edition")
_ENTRANT = "user_id, name, rating, joined_round, withdrawn_round, half_byes, annulled, division, seed_order"
_TABLE = "id, round, number, kind, seats, teams, ranks, forfeit, adjudicated, annulled, match_id"


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    created_by: int
    name: str
    game: str
    variant: str | None
    format: str
    table_size: int
    rounds: int | None
    schedule: str
    days_per_move: int
    rated: bool
    start_at: str | None
    min_entrants: int
    max_entrants: int
    round_days: int | None
    status: str
    current_round: int
    pairing_round: int
    total_rounds: int
    round_deadline: str | None
    card_message_id: int | None
    created_at: str
    started_at: str | None
    finished_at: str | None
    repeat_days: int | None = None      # a league: days from an edition's end to the next one's start
    series_id: int | None = None        # a league: its first edition (None for the first itself)
    edition: int = 1


@dataclass(frozen=True)
class EntrantRow:
    user_id: int
    name: str
    rating: float
    joined_round: int
    withdrawn_round: int | None
    half_byes: tuple[int, ...]
    annulled: bool
    division: int | None = None         # a league: 1 the top division
    seed_order: int | None = None       # a league: the place carried from the last edition


@dataclass(frozen=True)
class TableRow:
    id: int
    round: int
    number: int
    kind: str
    seats: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...] | None
    forfeit: bool
    adjudicated: bool
    annulled: bool
    match_id: int | None


@dataclass(frozen=True)
class NewTable:
    """A table to write: ``ranks`` set when it is decided without a match (a forfeit)."""
    round: int
    number: int
    kind: str
    seats: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...] = ()
    ranks: tuple[int, ...] | None = None
    forfeit: bool = False
    match_id: int | None = None


def ints(text: str | None) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(",")) if text else ()


def joined(values: Sequence[int]) -> str:
    return ",".join(str(v) for v in values)


def _teams_text(teams: Sequence[Sequence[int]]) -> str:
    return ";".join(joined(t) for t in teams)


def _teams(text: str) -> tuple[tuple[int, ...], ...]:
    return tuple(ints(t) for t in text.split(";")) if text else ()


def _tournament(r: Any) -> TournamentRow:
    values = list(r)
    values[12] = bool(values[12])
    return TournamentRow(*values)


def _entrant(r: Any) -> EntrantRow:
    return EntrantRow(r[0], r[1], float(r[2]), r[3], r[4], ints(r[5]), bool(r[6]), r[7], r[8])


def _table(r: Any) -> TableRow:
    return TableRow(r[0], r[1], r[2], r[3], ints(r[4]), _teams(r[5]), ints(r[6]) if r[6] else None, bool(r[7]),
                    bool(r[8]), bool(r[9]), r[10])


class TournamentStore:
    def __init__(self, db: Database):
        self.db = db

    # ---- writes (in the caller's transaction) --------------------------------------------------------------
    async def lock(self, tx: Tx, tournament_id: int) -> None:
        """One tournament's decisions (entries, results, round ends, pairings) one after another."""
        await tx.serialize(f"tournament:{tournament_id}")

    async def create(self, tx: Tx, *, guild_id: int, channel_id: int, created_by: int, name: str, game: str,
                     variant: str | None, format: str, table_size: int, rounds: int | None, schedule: str,
                     days_per_move: int, rated: bool, start_at: str | None, min_entrants: int, max_entrants: int,
                     round_days: int | None, now: str, repeat_days: int | None = None,
                     series_id: int | None = None, edition: int = 1) -> int:
        return await tx.insert(
            "INSERT INTO tournaments (guild_id, channel_id, created_by, name, game, variant, format, table_size,"
            " rounds, schedule, days_per_move, rated, start_at, min_entrants, max_entrants, round_days, created_at,"
            " repeat_days, series_id, edition) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, channel_id, created_by, name, game, variant, format, table_size, rounds, schedule,
             days_per_move, int(rated), start_at, min_entrants, max_entrants, round_days, now, repeat_days,
             series_id, edition))

    async def add_entrant(self, tx: Tx, tournament_id: int, *, user_id: int, name: str, rating: float,
                          joined_round: int, now: str, seed_order: int | None = None) -> bool:
        """Enter once: False when they are entered already."""
        return await tx.execute(
            "INSERT INTO tournament_entrants (tournament_id, user_id, name, rating, joined_round, joined_at,"
            " seed_order) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (tournament_id, user_id, name, rating, joined_round, now, seed_order)) == 1

    async def set_divisions(self, tx: Tx, tournament_id: int, divisions: Sequence[Sequence[int]]) -> None:
        """A league edition's divisions at its start (1 the top one)."""
        await tx.executemany("UPDATE tournament_entrants SET division = ? WHERE tournament_id = ? AND user_id = ?",
                             [(d, tournament_id, u) for d, members in enumerate(divisions, start=1) for u in members])

    async def remove_entrant(self, tx: Tx, tournament_id: int, user_id: int) -> bool:
        return await tx.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                                (tournament_id, user_id)) == 1

    async def set_withdrawn(self, tx: Tx, tournament_id: int, user_id: int, *, from_round: int,
                            annulled: bool) -> bool:
        """Withdraw once: False when they had withdrawn already."""
        return await tx.execute(
            "UPDATE tournament_entrants SET withdrawn_round = ?, annulled = ? WHERE tournament_id = ?"
            " AND user_id = ? AND withdrawn_round IS NULL", (from_round, int(annulled), tournament_id, user_id)) == 1

    async def set_half_byes(self, tx: Tx, tournament_id: int, user_id: int, rounds: Sequence[int]) -> None:
        await tx.execute("UPDATE tournament_entrants SET half_byes = ? WHERE tournament_id = ? AND user_id = ?",
                         (joined(sorted(set(rounds))), tournament_id, user_id))

    async def start(self, tx: Tx, tournament_id: int, *, total_rounds: int, now: str) -> bool:
        """Open to running, once."""
        return await tx.execute(
            "UPDATE tournaments SET status = 'running', started_at = ?, total_rounds = ? WHERE id = ?"
            " AND status = 'open'", (now, total_rounds, tournament_id)) == 1

    async def ask_pairing(self, tx: Tx, tournament_id: int, round_no: int) -> bool:
        """Note that round ``round_no`` is to be paired; False when it was asked for already."""
        return await tx.execute(
            "UPDATE tournaments SET pairing_round = ? WHERE id = ? AND pairing_round < ? AND status = 'running'",
            (round_no, tournament_id, round_no)) == 1

    async def advance(self, tx: Tx, tournament_id: int, *, from_round: int, to_round: int,
                      deadline: str | None) -> bool:
        """The round-once guard: the current round moves on only from the round the pairing was made after."""
        return await tx.execute(
            "UPDATE tournaments SET current_round = ?, round_deadline = ? WHERE id = ? AND current_round = ?"
            " AND status = 'running'", (to_round, deadline, tournament_id, from_round)) == 1

    async def end(self, tx: Tx, tournament_id: int, status: str, *, now: str) -> bool:
        """Finish a running tournament, or cancel an open or running one — once."""
        allowed = "('running')" if status == "finished" else "('open', 'running')"
        return await tx.execute(
            f"UPDATE tournaments SET status = ?, finished_at = ?, round_deadline = NULL WHERE id = ?"
            f" AND status IN {allowed}", (status, now, tournament_id)) == 1

    async def add_tables(self, tx: Tx, tournament_id: int, tables: Sequence[NewTable]) -> None:
        await tx.executemany(
            "INSERT INTO tournament_tables (tournament_id, round, number, kind, seats, teams, ranks, forfeit,"
            " match_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(tournament_id, t.round, t.number, t.kind, joined(t.seats), _teams_text(t.teams),
              joined(t.ranks) if t.ranks is not None else None, int(t.forfeit), t.match_id) for t in tables])

    async def record(self, tx: Tx, table_id: int, ranks: Sequence[int], *, forfeit: bool = False,
                     adjudicated: bool = False) -> bool:
        """A table's result, once."""
        return await tx.execute(
            "UPDATE tournament_tables SET ranks = ?, forfeit = ?, adjudicated = ? WHERE id = ? AND ranks IS NULL",
            (joined(ranks), int(forfeit), int(adjudicated), table_id)) == 1

    async def annul(self, tx: Tx, table_ids: Sequence[int]) -> None:
        if table_ids:
            marks = ",".join("?" * len(table_ids))
            await tx.execute(f"UPDATE tournament_tables SET annulled = 1 WHERE id IN ({marks})", tuple(table_ids))

    async def timed_out(self, tx: Tx, tournament_id: int) -> set[int]:
        """Who lost a game of this tournament on time (or by never moving)."""
        rows = await tx.fetchall("SELECT p.user_id, p.seat, m.outcome FROM matches m JOIN participants p"
                                 " ON p.match_id = m.id WHERE m.tournament_id = ?"
                                 " AND m.termination IN ('timeout', 'never_moved')", (tournament_id,))
        return {r[0] for r in rows if r[2] and json.loads(r[2]).get("roles", {}).get("loser") == r[1]}

    async def last_moves(self, tx: Tx, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """When each of these last moved in a match of the server (those who never did are missing)."""
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await tx.fetchall(
            "SELECT p.user_id, MAX(v.played_at) FROM moves v JOIN participants p ON p.match_id = v.match_id"
            f" AND p.seat = v.seat JOIN matches m ON m.id = v.match_id WHERE m.guild_id = ? AND p.user_id IN ({marks})"
            " GROUP BY p.user_id", (guild_id, *user_ids))
        return {r[0]: r[1] for r in rows if r[1]}

    async def forbid(self, tx: Tx, tournament_id: int, first: int, second: int) -> bool:
        """Never pair these two; False when they were kept apart already."""
        low, high = sorted((first, second))
        return await tx.execute("INSERT INTO tournament_forbidden (tournament_id, first_user, second_user)"
                                " VALUES (?, ?, ?) ON CONFLICT DO NOTHING", (tournament_id, low, high)) == 1

    async def forbidden(self, r: Tx | Database, tournament_id: int) -> list[tuple[int, int]]:
        rows = await r.fetchall("SELECT first_user, second_user FROM tournament_forbidden WHERE tournament_id = ?"
                                " ORDER BY first_user, second_user", (tournament_id,))
        return [(row[0], row[1]) for row in rows]

    async def set_card_message(self, tx: Tx, tournament_id: int, message_id: int) -> None:
        await tx.execute("UPDATE tournaments SET card_message_id = ? WHERE id = ?", (message_id, tournament_id))

    async def set_creators(self, tx: Tx, guild_id: int, who: str) -> None:
        await tx.execute("INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT DO NOTHING", (guild_id,))
        await tx.execute("UPDATE guild_settings SET tournament_creators = ? WHERE guild_id = ?", (who, guild_id))

    # ---- reads ----------------------------------------------------------------------------------------------
    async def read(self, r: Tx, tournament_id: int) -> tuple[TournamentRow, list[EntrantRow], list[TableRow]] | None:
        """The tournament with its entrants (by join) and tables (by round and number), as ``r`` sees them."""
        row = await r.fetchone(f"SELECT {_TOURNAMENT} FROM tournaments WHERE id = ?", (tournament_id,))
        if row is None:
            return None
        entrants = await r.fetchall(f"SELECT {_ENTRANT} FROM tournament_entrants WHERE tournament_id = ?"
                                    " ORDER BY joined_at, user_id", (tournament_id,))
        tables = await r.fetchall(f"SELECT {_TABLE} FROM tournament_tables WHERE tournament_id = ?"
                                  " ORDER BY round, number", (tournament_id,))
        return _tournament(row), [_entrant(e) for e in entrants], [_table(t) for t in tables]

    async def load(self, tournament_id: int) -> tuple[TournamentRow, list[EntrantRow], list[TableRow]] | None:
        async with self.db.reading() as r:
            return await self.read(r, tournament_id)

    async def status(self, tx: Tx, tournament_id: int) -> str | None:
        row = await tx.fetchone("SELECT status FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else row[0]

    async def table_of_match(self, tx: Tx, match_id: int) -> tuple[int, TableRow] | None:
        """(tournament id, table) of a tournament match."""
        row = await tx.fetchone(f"SELECT tournament_id, {_TABLE} FROM tournament_tables WHERE match_id = ?",
                                (match_id,))
        return None if row is None else (row[0], _table(tuple(row)[1:]))

    async def of_guild(self, guild_id: int, statuses: Sequence[str], limit: int) -> list[tuple[TournamentRow, int]]:
        """(tournament, entrants still in) of a server, newest first."""
        marks = ",".join("?" * len(statuses))
        rows = await self.db.fetchall(
            f"SELECT {_TOURNAMENT}, (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id"
            f" AND e.withdrawn_round IS NULL) FROM tournaments t WHERE guild_id = ? AND status IN ({marks})"
            f" ORDER BY id DESC LIMIT {int(limit)}", (guild_id, *statuses))
        return [(_tournament(tuple(r)[:-1]), r[-1]) for r in rows]

    async def creators(self, guild_id: int) -> str:
        row = await self.db.fetchone("SELECT tournament_creators FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return row[0] if row else "managers"

    async def due_starts(self, now: str) -> list[int]:
        rows = await self.db.fetchall("SELECT id FROM tournaments WHERE status = 'open' AND start_at <= ?"
                                      " ORDER BY start_at", (now,))
        return [r[0] for r in rows]

    async def due_deadlines(self, now: str) -> list[int]:
        rows = await self.db.fetchall("SELECT id FROM tournaments WHERE status = 'running'"
                                      " AND round_deadline <= ? ORDER BY round_deadline", (now,))
        return [r[0] for r in rows]

    async def next_due(self) -> str | None:
        row = await self.db.fetchone(
            "SELECT MIN(t) FROM (SELECT MIN(start_at) AS t FROM tournaments WHERE status = 'open'"
            " UNION ALL SELECT MIN(round_deadline) AS t FROM tournaments WHERE status = 'running') AS due")
        return row[0] if row else None
