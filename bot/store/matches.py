"""The matches repository: matches, their participants, the move log, the match record of events and the
proposals every other player must accept (draw offers, takebacks: ``proposals`` and ``proposal_agreements``).

Writes take the caller's transaction (``Tx``), so a service decides and writes everything a change
causes — the move, the result, the ratings, the announcements — in one transaction. Every write that
decides something is conditional (``WHERE status = … AND ply = …``) and reports whether it applied, so
two processes on one database cannot both apply it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot import history
from bot.store import archive
from bot.store.db import Database, Tx
from bot.store.rows import MatchRow, MoveRow, ParticipantRow, Result, Start, TurnClock

ARCHIVES_CACHED = 32     # archived logs kept decoded and replayed (a replay GIF, a record and a board read one)
# a moves row (a MoveRow), and the two columns of an archive row its reads are united with (see MatchStore._log)
LOG_COLUMNS = "ply, turn, seat, move, position, played_at, undone_by, undone_at_ply, NULL, NULL"

PARTICIPANT_COLUMNS = "user_id, name, invited_order, team, accepted, seat, preset_seat, ai_level, joined"
# a match row with its server's match pages setting (MatchRow.server_pages): one primary-key join, read with it
WITH_SERVER_PAGES = ("SELECT m.*, COALESCE(g.pages, 'off') AS server_pages FROM matches m"
                     " LEFT JOIN guild_settings g ON g.guild_id = m.guild_id")


@dataclass(frozen=True)
class NewTurn:
    """One stored turn: rows of (ply, seat, move, position code after it) and where the match stands after."""
    moves: Sequence[tuple[int, int, str, str]]
    position: str
    to_move: int | None
    clock: TurnClock | None           # None keeps the running deadline (the same player goes on)
    turn_start_ply: int               # the ply the mover's turn started from (the board's "previous")
    seat: int
    turn_passed: bool                 # the seat to move changed: one more whole turn


@dataclass(frozen=True)
class Undo:
    """One accepted takeback: the plies it undoes and where the match stands after it (see services.takebacks)."""
    plies: Sequence[int]
    position: str
    to_move: int | None
    clock: TurnClock
    whole_turns: int                  # whole turns undone
    turn_start_ply: int               # the last turn still in force: the ply it started from, and its seat
    last_seat: int | None
    actor_id: int
    detail: str                       # the match record's line (JSON: who asked, who accepted, which plies)


@dataclass(frozen=True)
class Agreement:
    """Who agrees to a proposal after one more agreed (the proposer first); ``new`` is False when that person had
    agreed already (the key of proposal_agreements refused the second row)."""
    agreed: tuple[int, ...]
    new: bool


def _participant(r) -> ParticipantRow:
    return ParticipantRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], r[7], bool(r[8]))


class MatchStore:
    def __init__(self, db: Database):
        self.db = db
        self.match_reads = 0     # loads of match rows (tests count what a command costs)
        self._archives: OrderedDict[int, tuple[bytes, list[MoveRow]]] = OrderedDict()

    # ---- writes (in the caller's transaction) --------------------------------------------------------------
    async def create_challenge(self, tx: Tx, *, game: str, variant: str | None, players: int, guild_id: int,
                               channel_id: int, seed: int, created_by: int, now: str, expires_at: str,
                               time_per_move: int | None, rematch_of: int | None,
                               people: Sequence[tuple[int, str, int | None, int | None, int | None]],
                               open_seats: int = 0, all_accepted: bool = False,
                               tournament: tuple[int, int] | None = None, unrated: bool = False) -> int:
        """A new open challenge; ``people`` is (user id, name, team, preset seat, AI level), the challenger
        first. The challenger and AI seats have accepted already (everyone, ``all_accepted``: a tournament's
        pairing). ``open_seats`` more seats anyone may take. ``tournament``: (tournament id, round) it plays."""
        tournament_id, tournament_round = tournament or (None, None)
        match_id = await tx.insert(
            "INSERT INTO matches (game, variant, players, guild_id, channel_id, status, seed, created_by,"
            " created_at, expires_at, time_per_move, rematch_of, open_seats, tournament_id, tournament_round,"
            " unrated) VALUES (?, ?, ?, ?, ?, 'challenge', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game, variant, players, guild_id, channel_id, seed, created_by, now, expires_at, time_per_move,
             rematch_of, open_seats, tournament_id, tournament_round, int(unrated)))
        await tx.executemany(
            "INSERT INTO participants (match_id, user_id, name, invited_order, team, preset_seat, ai_level, accepted)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(match_id, uid, name, i, team, preset, level, int(all_accepted or i == 0 or level is not None))
             for i, (uid, name, team, preset, level) in enumerate(people)])
        return match_id

    async def accept(self, tx: Tx, match_id: int, user_id: int, name: str) -> bool:
        """Mark an acceptance of an open challenge; False if it was not open or already accepted. The match row
        stays locked, so of two acceptances at once the later sees the earlier (``everyone_accepted``)."""
        await tx.lock_match(match_id)
        changed = await tx.execute(
            "UPDATE participants SET accepted = 1, name = ? WHERE match_id = ? AND user_id = ?"
            " AND accepted = 0 AND EXISTS (SELECT 1 FROM matches WHERE id = ? AND status = 'challenge')",
            (name, match_id, user_id, match_id))
        return changed == 1

    async def everyone_accepted(self, tx: Tx, match_id: int) -> bool:
        row = await tx.fetchone("SELECT COUNT(*) FROM participants WHERE match_id = ? AND accepted = 0", (match_id,))
        return row is not None and row[0] == 0

    async def start(self, tx: Tx, match_id: int, start: Start, *, now: str) -> bool:
        """Seat everyone and start the clock of an open challenge; False if it was not open."""
        changed = await tx.execute(
            "UPDATE matches SET status = 'active', started_at = ?, position = ?, to_move = ?, deadline_at = ?,"
            " remind_at = ?, expires_at = NULL WHERE id = ? AND status = 'challenge'",
            (now, start.position, start.to_move, start.clock.deadline_at, start.clock.remind_at, match_id))
        if changed != 1:
            return False
        await tx.executemany("UPDATE participants SET seat = ? WHERE match_id = ? AND user_id = ?",
                             [(seat, match_id, uid) for uid, seat in start.seats.items()])
        return True

    async def close_challenge(self, tx: Tx, match_id: int, status: str, *, now: str) -> bool:
        """Decline, cancel or expire an open challenge."""
        changed = await tx.execute(
            "UPDATE matches SET status = ?, finished_at = ?, expires_at = NULL WHERE id = ? AND status = 'challenge'",
            (status, now, match_id))
        return changed == 1

    async def expire_challenge(self, tx: Tx, match_id: int, *, now: str) -> bool:
        """Close a challenge whose time ran out at ``now``; False if it was answered (or moved) meanwhile."""
        changed = await tx.execute("UPDATE matches SET status = 'expired', finished_at = ?, expires_at = NULL"
                                   " WHERE id = ? AND status = 'challenge' AND expires_at <= ?",
                                   (now, match_id, now))
        return changed == 1

    async def append_turn(self, tx: Tx, match_id: int, *, expected_ply: int, turn: NewTurn, now: str) -> bool:
        """Store one turn if the match is still active at ``expected_ply``."""
        clock = ", deadline_at = ?, remind_at = ?" if turn.clock is not None else ""
        params: list = [expected_ply + len(turn.moves), turn.position, turn.to_move, int(turn.turn_passed),
                        turn.turn_start_ply, turn.seat]
        if turn.clock is not None:
            params += [turn.clock.deadline_at, turn.clock.remind_at]
        changed = await tx.execute(
            "UPDATE matches SET ply = ?, turn = turn + 1, position = ?, to_move = ?, whole_turns = whole_turns + ?,"
            f" turn_start_ply = ?, last_seat = ?{clock} WHERE id = ? AND ply = ? AND status = 'active'",
            (*params, match_id, expected_ply))
        if changed != 1:
            return False
        await self._lapse(tx, match_id, now=now)     # a move lets every open proposal lapse
        number = await tx.fetchone("SELECT turn FROM matches WHERE id = ?", (match_id,))
        assert number is not None
        await tx.executemany(
            "INSERT INTO moves (match_id, ply, turn, seat, move, position, played_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(match_id, ply, number[0], seat, move, pos, now) for ply, seat, move, pos in turn.moves])
        return True

    async def finish(self, tx: Tx, match_id: int, result: Result, *, now: str,
                     expected_ply: int | None = None, deadline_before: str | None = None) -> bool:
        """End an active match (after its last move, or by resignation, time-out, abort); with ``expected_ply``
        only if it still stands there, with ``deadline_before`` (a time-out) only if its deadline has not moved
        past that moment (a time-away shifts deadlines without a move: it may commit while this waits)."""
        guard = "" if expected_ply is None else " AND ply = ?"
        params: tuple = () if expected_ply is None else (expected_ply,)
        if deadline_before is not None:
            guard += " AND deadline_at <= ?"
            params += (deadline_before,)
        changed = await tx.execute(
            "UPDATE matches SET status = ?, to_move = NULL, winners = ?, ranks = ?, termination = ?, outcome = ?,"
            " finished_at = ?, deadline_at = NULL, remind_at = NULL WHERE id = ? AND status = 'active'" + guard,
            (result.status, ",".join(map(str, result.winners)), ",".join(map(str, result.ranks)), result.termination,
             result.outcome_json(), now, match_id, *params))
        if changed != 1:
            return False
        await self._lapse(tx, match_id, now=now)     # an ended match has no open proposal
        return True

    # ---- proposals: every other player must accept (draw offers, takebacks) ----------------------------------
    async def propose(self, tx: Tx, match_id: int, kind: str, *, ply: int, user_id: int, now: str) -> bool:
        """Open a proposal of ``kind`` at ``ply``, its proposer agreeing; False if the match moved on or one of
        that kind is open (the unique index ``proposals_open``)."""
        changed = await tx.execute(
            "INSERT INTO proposals (match_id, kind, ply, proposer, status, created_at) SELECT id, ?, ply, ?, 'open', ?"
            " FROM matches WHERE id = ? AND ply = ? AND status = 'active' ON CONFLICT DO NOTHING",
            (kind, user_id, now, match_id, ply))
        if changed != 1:
            return False
        await tx.execute("INSERT INTO proposal_agreements (proposal_id, user_id, agreed_at) SELECT id, proposer,"
                         " created_at FROM proposals WHERE match_id = ? AND kind = ? AND status = 'open'",
                         (match_id, kind))
        return True

    async def agree(self, tx: Tx, match_id: int, kind: str, *, ply: int, user_id: int,
                    now: str) -> Agreement | None:
        """Record that ``user_id`` agrees to the latest proposal of ``kind`` made at ``ply`` (None if there is
        none). Whether it is still open is not checked here: the one who completes it must ``decide`` it."""
        await tx.lock_match(match_id)       # agreements to one match one after another: the last sees the others
        found = await tx.fetchone("SELECT id, proposer FROM proposals WHERE match_id = ? AND kind = ? AND ply = ?"
                                  " ORDER BY id DESC LIMIT 1", (match_id, kind, ply))
        if found is None:
            return None
        proposal, proposer = found[0], found[1]
        added = await tx.execute("INSERT INTO proposal_agreements (proposal_id, user_id, agreed_at) VALUES (?, ?, ?)"
                                 " ON CONFLICT DO NOTHING", (proposal, user_id, now))
        rows = await tx.fetchall("SELECT user_id FROM proposal_agreements WHERE proposal_id = ?"
                                 " ORDER BY agreed_at, user_id", (proposal,))
        others = tuple(r[0] for r in rows if r[0] != proposer)
        return Agreement((proposer, *others), new=added == 1)

    async def decide(self, tx: Tx, match_id: int, kind: str, *, ply: int, status: str, now: str) -> bool:
        """Accept or decline the open proposal of ``kind`` made at ``ply``; False if it is no longer open. Of an
        acceptance and a decline at once exactly one gets True: the UPDATE applies only while the row is open,
        and on PostgreSQL the later one waits for the earlier's commit, then finds it decided."""
        if status not in ("accepted", "declined"):
            raise ValueError(status)
        # The match row first, as an agreement and a move take it: a decline holding the proposal's row while it
        # waits for the match (its announcement's key) would deadlock with an acceptance holding the match.
        await tx.lock_match(match_id)       # the match before the proposal, as every other write of it
        changed = await tx.execute("UPDATE proposals SET status = ?, decided_at = ? WHERE match_id = ? AND kind = ?"
                                   " AND ply = ? AND status = 'open'", (status, now, match_id, kind, ply))
        return changed == 1

    async def _lapse(self, tx: Tx, match_id: int, *, now: str) -> None:
        """The match left the position its open proposals were made in (a move, a takeback, its end)."""
        await tx.execute("UPDATE proposals SET status = 'lapsed', decided_at = ? WHERE match_id = ?"
                         " AND status = 'open'", (now, match_id))

    async def _open_proposals(self, r: Tx, ids: Sequence[int]) -> dict[int, dict[str, tuple[int, tuple[int, ...]]]]:
        """Per match of ``ids``, per kind: its open proposal's (ply, who agrees, the proposer first)."""
        marks = ",".join("?" * len(ids))
        rows = await r.fetchall(
            "SELECT p.match_id, p.kind, p.ply, p.proposer, a.user_id FROM proposals p JOIN proposal_agreements a"
            f" ON a.proposal_id = p.id WHERE p.status = 'open' AND p.match_id IN ({marks})"
            " ORDER BY p.id, a.agreed_at, a.user_id", ids)
        found: dict[int, dict[str, tuple[int, tuple[int, ...]]]] = {}
        for match_id, kind, ply, proposer, user_id in (tuple(row) for row in rows):
            _, agreed = found.setdefault(match_id, {}).get(kind, (ply, (proposer,)))
            found[match_id][kind] = (ply, agreed if user_id == proposer else (*agreed, user_id))
        return found

    @staticmethod
    def _with_proposals(row: MatchRow, found: dict[int, dict[str, tuple[int, tuple[int, ...]]]]) -> MatchRow:
        """The match row with its open draw offer and takeback request (``MatchRow.draw_offer_ply`` …)."""
        open_ = found.get(row.id, {})
        draw, takeback = open_.get("draw", (None, ())), open_.get("takeback", (None, ()))
        return replace(row, draw_offer_ply=draw[0], draw_accepted=draw[1], takeback_ply=takeback[0],
                       takeback_accepted=takeback[1])

    async def take_back(self, tx: Tx, match_id: int, *, expected_ply: int, undo: Undo, now: str) -> bool:
        """Undo ``undo.plies`` if the match is still active at ``expected_ply`` (a request's acceptance was
        ``decide``d in the same transaction): the rows stay, marked with the takeback's event; the match advances
        one ply (so every button, cache and guard of the old position is stale) and stands where ``undo`` says."""
        changed = await tx.execute(
            "UPDATE matches SET ply = ply + 1, position = ?, to_move = ?, whole_turns = whole_turns - ?,"
            " turn_start_ply = ?, last_seat = ?, deadline_at = ?, remind_at = ?"
            " WHERE id = ? AND ply = ? AND status = 'active'",
            (undo.position, undo.to_move, undo.whole_turns, undo.turn_start_ply, undo.last_seat,
             undo.clock.deadline_at, undo.clock.remind_at, match_id, expected_ply))
        if changed != 1:
            return False
        await self._lapse(tx, match_id, now=now)     # nor does the position before a takeback
        event = await tx.insert("INSERT INTO match_events (match_id, at, actor_id, action, detail)"
                                " VALUES (?, ?, ?, 'takeback', ?)", (match_id, now, undo.actor_id, undo.detail))
        marks = ",".join("?" * len(undo.plies))
        await tx.execute(f"UPDATE moves SET undone_by = ?, undone_at_ply = ? WHERE match_id = ? AND ply IN ({marks})"
                         " AND undone_by IS NULL", (event, expected_ply + 1, match_id, *undo.plies))
        return True

    async def log_event(self, tx: Tx, match_id: int, *, now: str, actor_id: int | None, action: str,
                        detail: str) -> None:
        await tx.execute("INSERT INTO match_events (match_id, at, actor_id, action, detail) VALUES (?, ?, ?, ?, ?)",
                         (match_id, now, actor_id, action, detail))

    async def clear_reminder(self, tx: Tx, match_id: int, *, now: str) -> bool:
        """Clear a due reminder; False if it was not due (or already handled)."""
        changed = await tx.execute("UPDATE matches SET remind_at = NULL WHERE id = ? AND status = 'active'"
                                   " AND remind_at IS NOT NULL AND remind_at <= ?", (match_id, now))
        return changed == 1

    async def set_channel(self, tx: Tx, match_id: int, channel_id: int) -> None:
        await tx.execute("UPDATE matches SET channel_id = ? WHERE id = ?", (channel_id, match_id))

    async def set_message(self, tx: Tx, match_id: int, column: str, message_id: int) -> None:
        if column not in ("board_message_id", "card_message_id"):
            raise ValueError(column)
        await tx.execute(f"UPDATE matches SET {column} = ? WHERE id = ?", (message_id, match_id))

    # ---- reads -------------------------------------------------------------------------------------------------
    async def read(self, tx: Tx, match_id: int) -> tuple[MatchRow, list[ParticipantRow]]:
        """A match as the caller's transaction sees it."""
        row = await tx.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
        if row is None:
            raise LookupError(f"no match {match_id}")
        people = await tx.fetchall(f"SELECT {PARTICIPANT_COLUMNS} FROM participants WHERE match_id = ?"
                                   " ORDER BY invited_order", (match_id,))
        found = await self._open_proposals(tx, [match_id])
        return self._with_proposals(MatchRow.from_row(row), found), [_participant(p) for p in people]

    async def load(self, match_id: int) -> tuple[MatchRow, list[ParticipantRow]] | None:
        """A match row and its participants: one read."""
        self.match_reads += 1
        async with self.db.reading() as r:
            row = await r.fetchone(f"{WITH_SERVER_PAGES} WHERE m.id = ?", (match_id,))
            if row is None:
                return None
            people = await r.fetchall(f"SELECT {PARTICIPANT_COLUMNS} FROM participants WHERE match_id = ?"
                                      " ORDER BY invited_order", (match_id,))
            found = await self._open_proposals(r, [match_id])
        return self._with_proposals(MatchRow.from_row(row), found), [_participant(p) for p in people]

    async def load_many(self, ids: Sequence[int]) -> list[tuple[MatchRow, list[ParticipantRow]]]:
        """Several matches and their participants in one read, in the order of ``ids``."""
        if not ids:
            return []
        self.match_reads += 1
        marks = ",".join("?" * len(ids))
        async with self.db.reading() as r:
            rows = await r.fetchall(f"{WITH_SERVER_PAGES} WHERE m.id IN ({marks})", ids)
            people = await r.fetchall(f"SELECT match_id, {PARTICIPANT_COLUMNS} FROM participants"
                                      f" WHERE match_id IN ({marks}) ORDER BY invited_order", ids)
            proposals = await self._open_proposals(r, ids)
        by_match: dict[int, list[ParticipantRow]] = {}
        for p in people:
            by_match.setdefault(p[0], []).append(_participant(tuple(p)[1:]))
        found = {r["id"]: self._with_proposals(MatchRow.from_row(r), proposals) for r in rows}
        return [(found[i], by_match.get(i, [])) for i in ids if i in found]

    async def moves(self, match_id: int, *, after_ply: int = 0, at_ply: int | None = None,
                    with_undone: bool = False) -> list[MoveRow]:
        """The move log in ply order: the moves in force now (taken-back ones skipped); with ``at_ply``, those in
        force when the match stood at that ply; ``with_undone``, every row (undone ones carry ``undone_by``).
        An archived match's log is read from its archive, the positions replayed (one read either way)."""
        where, params = " AND undone_by IS NULL", [match_id, after_ply]
        if at_ply is not None:
            where, params = " AND ply <= ? AND (undone_at_ply IS NULL OR undone_at_ply > ?)", [*params, at_ply, at_ply]
        elif with_undone:
            where = ""
        rows, archived = await self._log(
            f"SELECT {LOG_COLUMNS} FROM moves WHERE match_id = ? AND ply > ?{where}", params, match_id)
        if archived is None:
            return rows
        if at_ply is not None:
            return [mv for mv in history.in_force_at(archived, at_ply) if mv.ply > after_ply]
        return [mv for mv in archived if mv.ply > after_ply and (with_undone or mv.undone_by is None)]

    async def moves_from(self, match_id: int, start: int) -> list[MoveRow]:
        """The moves in force from the last one at or before ``start`` (a turn's start ply) on, that one first."""
        rows, archived = await self._log(
            f"SELECT {LOG_COLUMNS} FROM moves WHERE match_id = ?"
            " AND undone_by IS NULL AND ply >= COALESCE((SELECT MAX(ply) FROM moves WHERE match_id = ?"
            " AND undone_by IS NULL AND ply <= ?), 0)", (match_id, match_id, start), match_id)
        if archived is None:
            return rows
        in_force = [mv for mv in archived if mv.undone_by is None]
        first = max((mv.ply for mv in in_force if mv.ply <= start), default=0)
        return [mv for mv in in_force if mv.ply >= first]

    async def rated_in_play(self, game: str) -> list[tuple[int, int, str]]:
        """(id, ply, position code) of every running rated (timed) match of ``game``, anywhere: the positions
        no analysis may reach (see services.fairplay)."""
        rows = await self.db.fetchall("SELECT id, ply, position FROM matches WHERE status = 'active'"
                                      " AND time_per_move IS NOT NULL AND game = ? AND position IS NOT NULL", (game,))
        return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]

    async def position_at(self, match_id: int, ply: int) -> str | None:
        rows, archived = await self._log(f"SELECT {LOG_COLUMNS} FROM moves WHERE match_id = ? AND ply = ?"
                                         " AND undone_by IS NULL", (match_id, ply), match_id)
        found = rows if archived is None else [mv for mv in archived if mv.ply == ply and mv.undone_by is None]
        return found[0].position if found else None

    async def _log(self, sql: str, params: Sequence, match_id: int) -> tuple[list[MoveRow], list[MoveRow] | None]:
        """The rows ``sql`` (a SELECT of LOG_COLUMNS from ``moves``) finds and, in the same statement (so an
        archiving in between cannot hide the log), the match's archive if it has one: (rows in ply order, None)
        or ([], the archived log)."""
        found = await self.db.fetchall(f"{sql} UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                                       " format, log FROM move_archives WHERE match_id = ?", [*params, match_id])
        stored = [r for r in found if r[9] is not None]
        if stored:
            return [], self._archived(match_id, int(stored[0][8]), bytes(stored[0][9]))
        return sorted((MoveRow(*tuple(r)[:8]) for r in found), key=lambda mv: mv.ply), None

    def _archived(self, match_id: int, fmt: int, blob: bytes) -> list[MoveRow]:
        """An archive's log with its positions replayed; the last few are kept (archives never change)."""
        cached = self._archives.get(match_id)
        if cached is not None and cached[0] == blob:
            self._archives.move_to_end(match_id)
            return cached[1]
        log = archive.move_rows(*archive.decode(fmt, blob))
        self._archives[match_id] = (blob, log)
        while len(self._archives) > ARCHIVES_CACHED:
            self._archives.popitem(last=False)
        return log

    async def stands_at(self, tx: Tx, match_id: int, ply: int) -> bool:
        """Whether the match is active at ``ply`` as the caller's transaction sees it."""
        row = await tx.fetchone("SELECT status, ply FROM matches WHERE id = ?", (match_id,))
        return row is not None and row[0] == "active" and row[1] == ply

    async def has_event(self, tx: Tx, match_id: int, *, actor_id: int, action: str, detail: str) -> bool:
        """Whether the match record holds this very line (``log_event``) already."""
        return await tx.fetchone("SELECT 1 FROM match_events WHERE match_id = ? AND actor_id = ? AND action = ?"
                                 " AND detail = ?", (match_id, actor_id, action, detail)) is not None

    async def has_moved(self, tx: Tx, match_id: int, seat: int) -> bool:
        return await tx.fetchone("SELECT 1 FROM moves WHERE match_id = ? AND seat = ? AND undone_by IS NULL LIMIT 1",
                                 (match_id, seat)) is not None

    async def events(self, match_id: int) -> list[tuple[str, int | None, str, str]]:
        rows = await self.db.fetchall(
            "SELECT at, actor_id, action, detail FROM match_events WHERE match_id = ? ORDER BY id", (match_id,))
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    async def due(self, now: str, limit: int) -> dict[str, list[int]]:
        """Match ids whose challenge expired, reminder fell due, or deadline passed at ``now`` (indexed)."""
        q = {"expired": "SELECT id FROM matches WHERE status = 'challenge' AND expires_at <= ? ORDER BY expires_at",
             "deadline": "SELECT id FROM matches WHERE status = 'active' AND deadline_at <= ? ORDER BY deadline_at",
             "remind": "SELECT id FROM matches WHERE status = 'active' AND remind_at <= ? ORDER BY remind_at"}
        async with self.db.reading() as r:
            return {k: [row[0] for row in await r.fetchall(sql + " LIMIT ?", (now, limit))] for k, sql in q.items()}

    async def next_due(self) -> str | None:
        """The earliest expiry, reminder or deadline (each an indexed MIN)."""
        async with self.db.reading() as r:
            times = [(await r.fetchone(sql))[0] for sql in (  # type: ignore[index]
                "SELECT MIN(expires_at) FROM matches WHERE status = 'challenge'",
                "SELECT MIN(remind_at) FROM matches WHERE status = 'active'",
                "SELECT MIN(deadline_at) FROM matches WHERE status = 'active'")]
        found = [t for t in times if t]
        return min(found) if found else None

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
        if limit >= 0:       # a negative limit is none (PostgreSQL has no LIMIT -1)
            order += f" LIMIT {int(limit)}"
        rows = await self.db.fetchall(sql + order, params)
        return [r[0] for r in rows]

    async def running_ids(self, guild_id: int, *, game: str | None, channel_id: int | None, limit: int) -> list[int]:
        """Running matches of a server (of one game, in one channel), newest first: what spectators may watch."""
        sql = "SELECT id FROM matches WHERE guild_id = ? AND status = 'active'"
        params: list = [guild_id]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        if channel_id is not None:
            sql += " AND channel_id = ?"
            params.append(channel_id)
        rows = await self.db.fetchall(sql + " ORDER BY id DESC LIMIT ?", [*params, limit])
        return [r[0] for r in rows]

    async def open_challenges_by(self, tx: Tx, user_id: int, guild_id: int | None = None) -> int:
        """Open challenges a user made (in one server, or everywhere)."""
        where = "" if guild_id is None else " AND guild_id = ?"
        params = (user_id,) if guild_id is None else (user_id, guild_id)
        row = await tx.fetchone(f"SELECT COUNT(*) FROM matches WHERE created_by = ? AND status = 'challenge'{where}",
                                params)
        return row[0] if row else 0

    async def claim_seat(self, tx: Tx, match_id: int) -> bool:
        """Take one open seat of an open challenge; False if none is open any more (or it closed).

        A conditional UPDATE of the match row: it takes the row's write lock, so of two joiners for the last
        seat exactly one passes (the other's UPDATE finds no open seat), and what the caller reads next in
        this transaction (who sits already, to count the arrival order) cannot change under it.
        """
        changed = await tx.execute("UPDATE matches SET open_seats = open_seats - 1 WHERE id = ?"
                                   " AND status = 'challenge' AND open_seats > 0", (match_id,))
        return changed == 1

    async def add_joiner(self, tx: Tx, match_id: int, *, user_id: int, name: str, arrival: int,
                         team: int | None) -> bool:
        """The participant row of someone who took a claimed seat; False if they sit there already."""
        changed = await tx.execute(
            "INSERT INTO participants (match_id, user_id, name, invited_order, team, accepted, joined)"
            " VALUES (?, ?, ?, ?, ?, 1, 1) ON CONFLICT (match_id, user_id) DO NOTHING",
            (match_id, user_id, name, arrival, team))
        return changed == 1

    async def open_seat_ids(self, guild_id: int, limit: int) -> list[int]:
        """Open challenges of a server that still have seats anyone may take, oldest first."""
        rows = await self.db.fetchall("SELECT id FROM matches WHERE guild_id = ? AND status = 'challenge'"
                                      " AND open_seats > 0 ORDER BY id LIMIT ?", (guild_id, limit))
        return [r[0] for r in rows]

    async def open_rematch(self, tx: Tx, match_id: int) -> int | None:
        """An open (or started) rematch of a match, if one exists."""
        row = await tx.fetchone("SELECT id FROM matches WHERE rematch_of = ? AND status IN ('challenge', 'active')"
                                " ORDER BY id LIMIT 1", (match_id,))
        return row[0] if row else None
