"""Archived move logs: a finished match's whole log as one compressed blob; positions come back by replay.

An active match keeps one ``moves`` row per ply (the turn path stays as it is). Once a match has ended and
been told (see ``bot.archiver``), its log is written as ONE row of ``move_archives`` and its ``moves`` rows are
deleted in the same transaction, but only when replaying the archived log on the engine reproduced every
stored position code and ``matches.position`` (``verified_blob``). Position codes are not stored: replay is
the guarantee, and ``MatchStore`` recomputes them when it reads an archived match, so every reader sees the
same ``MoveRow``s as before.

Format 1 (``FORMAT``): zlib (level 9) of UTF-8 JSON without spaces, one object::

    {"game": "tintas", "variant": null, "players": 2, "seed": 123, "start": "2026-01-01T12:00:00+00:00",
     "ply": [1, 1, 2, …],      # each row's ply minus the previous row's (the first: minus 0)
     "turn": [1, 0, 1, …],     # each row's turn, likewise as a difference
     "seat": [0, 0, 1, …],
     "move": ["E4", "end", …], # canonical move texts
     "at": [5, 0, 3600, …],    # seconds since the previous row was played (the first: since "start")
     "undone": [[i, by, at]]}  # row i (0-based) was taken back by match event ``by`` at match ply ``at``
                               # (its ``undone_at_ply``)

Every row is kept, taken-back ones included, in ply order. ``played_at`` is stored to the second, which is
how every time is stored (``iso``); a log whose times do not come back exactly is not archived.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot import history
from bot.store.rows import MoveRow

FORMAT = 1
COMPRESSION_LEVEL = 9
ENDED = ("finished", "aborted")     # matches that ended after they started: their logs no longer change


class LogMismatch(Exception):
    """The log does not reproduce what is stored (or does not survive the round trip): never archived."""


@dataclass(frozen=True)
class LoggedMove:
    """One row of ``moves`` as the archive keeps it (everything but the position code)."""
    ply: int
    turn: int
    seat: int
    move: str
    played_at: str
    undone_by: int | None = None
    undone_at_ply: int | None = None


@dataclass(frozen=True)
class Setup:
    """What replay starts from (the match's row)."""
    game: str
    variant: str | None
    players: int
    seed: int
    start: str             # the match's start (ISO, to the second): the base of the times


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def encode(setup: Setup, rows: Sequence[LoggedMove]) -> bytes:
    """The blob of format 1 (see the module docstring)."""
    plies, turns, seats, moves, ats, undone = [], [], [], [], [], []
    last_ply, last_turn, last_at = 0, 0, datetime.fromisoformat(setup.start)
    for i, r in enumerate(rows):
        at = datetime.fromisoformat(r.played_at)
        plies.append(r.ply - last_ply)
        turns.append(r.turn - last_turn)
        seats.append(r.seat)
        moves.append(r.move)
        ats.append(int((at - last_at).total_seconds()))
        if r.undone_by is not None or r.undone_at_ply is not None:
            undone.append([i, r.undone_by, r.undone_at_ply])
        last_ply, last_turn, last_at = r.ply, r.turn, at
    doc = {"game": setup.game, "variant": setup.variant, "players": setup.players, "seed": setup.seed,
           "start": setup.start, "ply": plies, "turn": turns, "seat": seats, "move": moves, "at": ats,
           "undone": undone}
    return zlib.compress(json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8"),
                         COMPRESSION_LEVEL)


def decode(fmt: int, blob: bytes) -> tuple[Setup, list[LoggedMove]]:
    if fmt != FORMAT:
        raise LogMismatch(f"unknown archive format {fmt}")
    doc: dict[str, Any] = json.loads(zlib.decompress(blob).decode("utf-8"))
    setup = Setup(doc["game"], doc["variant"], doc["players"], doc["seed"], doc["start"])
    undone = {i: (by, at) for i, by, at in doc["undone"]}
    rows: list[LoggedMove] = []
    ply, turn, moment = 0, 0, datetime.fromisoformat(setup.start)
    for i, (dp, dt, seat, move, secs) in enumerate(zip(doc["ply"], doc["turn"], doc["seat"], doc["move"], doc["at"],
                                                       strict=True)):
        ply, turn, moment = ply + dp, turn + dt, moment + timedelta(seconds=secs)
        by, at = undone.get(i, (None, None))
        rows.append(LoggedMove(ply, turn, seat, move, _iso(moment), by, at))
    return setup, rows


def replay(setup: Setup, rows: Sequence[LoggedMove]) -> tuple[list[str], str]:
    """(the position code after each row, the position now) by replaying the log on the engine
    (``history.replay``); the position now is the one after the last row still in force."""
    after = history.replay(setup, rows)
    in_force = [state for r, state in zip(rows, after, strict=True) if r.undone_by is None]
    return [state.encode() for state in after], (in_force[-1] if in_force else history.start(setup)).encode()


def move_rows(setup: Setup, rows: Sequence[LoggedMove]) -> list[MoveRow]:
    """The archived log as the ``moves`` table had it, each row with its replayed position."""
    codes, _now = replay(setup, rows)
    return [MoveRow(r.ply, r.turn, r.seat, r.move, code, r.played_at, r.undone_by, r.undone_at_ply)
            for r, code in zip(rows, codes, strict=True)]


def verified_blob(setup: Setup, rows: Sequence[LoggedMove], positions: Sequence[str], position: str | None) -> bytes:
    """The archive of a stored log, checked end to end: the blob decodes to exactly ``rows``, and replaying it
    reproduces every stored position code (``positions``, one per row) and the match's ``position``.
    Raises LogMismatch (saying where) otherwise."""
    blob = encode(setup, rows)
    back_setup, back = decode(FORMAT, blob)
    if back_setup != setup or back != list(rows):
        raise LogMismatch("the log does not survive the archive's round trip (a time not to the second?)")
    try:
        codes, now = replay(back_setup, back)
    except Exception as exc:     # an illegal or garbled move (IllegalMove, or any engine error on nonsense)
        raise LogMismatch(f"the log does not replay: {exc}") from exc
    for r, code, stored in zip(back, codes, positions, strict=True):
        if code != stored:
            raise LogMismatch(f"replaying ply {r.ply} ({r.move!r}) does not give its stored position")
    if position is not None and now != position:
        raise LogMismatch("replaying the log does not give the match's stored position")
    return blob
