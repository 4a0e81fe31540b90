"""What the store reads and writes: plain records, one per row shape."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.ratings import display


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
    termination: str | None = None       # how it ended, as a key (see engines.base.Outcome)
    outcome: Mapping[str, Any] = field(default_factory=dict)   # {'roles': {...}, 'facts': {...}}
    whole_turns: int = 0
    turn_start_ply: int = 0
    last_seat: int | None = None
    # the open proposals (rows of ``proposals``, read with the match by ``MatchStore``; not columns of matches)
    draw_offer_ply: int | None = None     # an open draw offer, made at this ply
    draw_accepted: tuple[int, ...] = ()   # who agrees to it so far (the one who offered first)
    takeback_ply: int | None = None       # an open takeback request, made at this ply
    takeback_accepted: tuple[int, ...] = ()   # who agrees to it so far (the requester first)
    open_seats: int = 0                   # an open challenge: seats anyone in the server may still take
    tournament_id: int | None = None      # a tournament's game (bot/services/tournaments.py)
    tournament_round: int | None = None
    unrated: int = 0                      # 1: timed but played for no rating (a tournament's choice)
    # the match's server's match pages setting (guild_settings.pages, 'off' without a row), read with the match by
    # ``MatchStore.load``/``load_many`` (one join): a board post in a server with pages off needs no further read.
    # None where the read did not join it (then whoever needs it reads the page settings)
    server_pages: str | None = None

    @property
    def rated(self) -> bool:
        """Casual matches (no time limit) and aborted ones leave ratings alone."""
        return self.time_per_move is not None and self.status == "finished" and not self.unrated

    @classmethod
    def from_row(cls, r: Any) -> MatchRow:
        """From a database row of ``matches`` (any mapping of column names)."""
        d = dict(r)
        for key in ("winners", "ranks"):   # seats joined by ','
            d[key] = tuple(int(x) for x in d[key].split(",")) if d.get(key) else ()
        d["outcome"] = json.loads(d["outcome"]) if d.get("outcome") else {}
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
    joined: bool = False                 # took an open seat (rather than being invited)

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
    """How a match ended: 'finished' (rated if timed) or 'aborted' (never rated)."""
    status: str
    winners: tuple[int, ...]
    ranks: tuple[int, ...]         # per seat, 1 = best; ties share a rank
    termination: str               # a key of the game's or the service's termination texts
    roles: Mapping[str, int] = field(default_factory=dict)
    facts: Mapping[str, Any] = field(default_factory=dict)

    def outcome_json(self) -> str:
        return json.dumps({"roles": dict(self.roles), "facts": dict(self.facts)}, sort_keys=True)


@dataclass(frozen=True)
class MoveRow:
    ply: int
    turn: int
    seat: int
    move: str
    position: str
    played_at: str
    undone_by: int | None = None   # the takeback (match_events id) that undid it; None = in force
    undone_at_ply: int | None = None   # the match's ply once it was undone (in force before that ply)


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    mu_before: float
    mu_after: float
    outcome: str

    @property
    def delta(self) -> int:
        return display(self.mu_after) - display(self.mu_before)


@dataclass(frozen=True)
class Announcement:
    """A raw row of the outbox, any kind and payload (the services write typed ones: bot.services.announce)."""
    kind: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    expires_at: str | None = None  # pointless after this (an interaction token lives 15 minutes)

    def to_payload(self) -> Mapping[str, Any]:
        return self.payload


@dataclass(frozen=True)
class OutboxRow:
    id: int
    match_id: int | None          # None: a tournament's row
    kind: str
    payload: Mapping[str, Any]
    created_at: str
    due_at: str
    expires_at: str | None
    attempts: int
    tournament_id: int | None = None
