"""The match model the services hand out: a match, the people in it, a played turn, and the refusals.

Discord-free and storage-free: rows come from ``bot.store``, positions from ``engines``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from bot.i18n import N_, T, _, ngettext
from bot.store.rows import MatchRow, ParticipantRow, RatingChange
from engines import GAMES, Game, State


# --- refusals: a message for the user; nothing was changed ----------------------------------------------------
class ServiceError(Exception):
    """A refusal with a message for the user; nothing was changed.

    The message is a lazy ``T`` (or plain text): ``str(error)`` renders it in the language of the moment, so
    the front end shows it in the reader's language and everything else (logs, tests) reads English."""

    def __init__(self, message: str | T = ""):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


class NotFound(ServiceError):
    """No such match (or not in this server, game or channel)."""


class NotAllowed(ServiceError):
    """The caller may not do this (not seated, not their turn, not an admin, a limit reached)."""


class BadMove(ServiceError):
    """The submitted turn breaks a rule; the message names it."""


class StalePosition(ServiceError):
    """The match moved on between reading it and storing the change."""


class BadInput(ServiceError):
    """What was typed cannot be read (a match number that is not one, an over-long text)."""


SHOWN_VALUE = 40         # characters of a refused value repeated in the refusal


def shown(value: object) -> str:
    """A refused value as the refusal repeats it: as text, cut short (a forged one may be anything)."""
    text = str(value)
    return text if len(text) <= SHOWN_VALUE else text[:SHOWN_VALUE] + "…"


# --- people ---------------------------------------------------------------------------------------------------
MAX_NAME = 64            # characters of a display name we keep (Discord's own limit is 32)
AI_LEVELS = (1, 2, 3, 4, 5)
# A match's status as a word in a sentence ('it was declined'): marked here for the catalog.
STATUS_WORDS = (N_("challenge"), N_("active"), N_("finished"), N_("aborted"), N_("declined"), N_("cancelled"),
                N_("expired"))


@dataclass(frozen=True)
class Person:
    user_id: int
    name: str
    is_bot: bool = False
    ai_level: int | None = None       # a seat the bot's AI plays

    def __post_init__(self) -> None:
        clean = " ".join(self.name.split())[:MAX_NAME] or "?"
        object.__setattr__(self, "name", clean)


BOT_NAME = N_("{bot} (level {level})")    # a bot seat's name: stored in English, shown in the reader's language
_BOT_NAME = re.compile(r"(.+) \(level (\d+)\)")


def ai_people(level: int, count: int) -> list[Person]:
    """The bot's seats: negative user ids (never Discord's), one name per seat."""
    if level not in AI_LEVELS:
        raise NotAllowed(T("The bot plays at level 1 to 5, not {level}.", level=level))
    names = ["Bot"] if count == 1 else [f"Bot {chr(ord('A') + i)}" for i in range(count)]
    return [Person(-(i + 1), BOT_NAME.format(bot=n, level=level), True, level) for i, n in enumerate(names)]


def shown_name(p: ParticipantRow) -> str:
    """A participant's name as a reader sees it: a bot seat's 'Bot (level 1)' in the reader's language."""
    found = _BOT_NAME.fullmatch(p.name) if p.is_ai else None
    return _(BOT_NAME).format(bot=found.group(1), level=found.group(2)) if found else p.name


# --- a match ----------------------------------------------------------------------------------------------------
@dataclass
class Match:
    """A match as stored, with its position (``state``) once it has started.

    ``previous`` is the position before ``last_turn`` (the moves of the last seat that moved), which the
    renderer highlights.
    """

    row: MatchRow
    participants: list[ParticipantRow]
    state: State | None = None
    previous: State | None = None
    last_turn: list[str] = field(default_factory=list)
    rating_changes: list[RatingChange] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def game(self) -> Game:
        return GAMES[self.row.game]

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def ply(self) -> int:
        return self.row.ply

    @property
    def is_over(self) -> bool:
        return self.row.status in ("finished", "aborted")

    @property
    def position(self) -> State:
        """The current position of a started match."""
        if self.state is None:
            raise NotFound(T("Match #{id} has not started.", id=self.id))
        return self.state

    @property
    def seated(self) -> list[ParticipantRow]:
        return sorted((p for p in self.participants if p.seat is not None), key=lambda p: p.seat or 0)

    @property
    def names(self) -> list[str]:
        """Display names by seat (the invitation order before the match starts)."""
        if self.row.status == "challenge" or not self.seated:
            return [shown_name(p) for p in sorted(self.participants, key=lambda p: p.invited_order)]
        return [shown_name(p) for p in self.seated]

    @property
    def challenger(self) -> ParticipantRow:
        return min(self.participants, key=lambda p: p.invited_order)

    def participant(self, user_id: int) -> ParticipantRow | None:
        return next((p for p in self.participants if p.user_id == user_id), None)

    def seat_of(self, user_id: int) -> int | None:
        p = self.participant(user_id)
        return None if p is None else p.seat

    def at_seat(self, seat: int) -> ParticipantRow:
        return next(p for p in self.participants if p.seat == seat)

    @property
    def to_move_user(self) -> ParticipantRow | None:
        seat = self.row.to_move
        if seat is None or self.row.status != "active":
            return None
        return self.at_seat(seat)

    @property
    def ai_to_move(self) -> ParticipantRow | None:
        """The bot's seat when the bot is to move."""
        who = self.to_move_user
        return who if who is not None and who.is_ai else None

    @property
    def against_ai(self) -> bool:
        return any(p.is_ai for p in self.participants)

    @property
    def winners(self) -> tuple[int, ...]:
        return self.row.winners

    @property
    def deadline(self) -> datetime | None:
        return datetime.fromisoformat(self.row.deadline_at) if self.row.deadline_at else None

    @property
    def next_timer(self) -> datetime | None:
        """The earliest moment the scheduler must act on this match (expiry, reminder or deadline)."""
        times = [t for t in (self.row.expires_at, self.row.remind_at, self.row.deadline_at) if t]
        return datetime.fromisoformat(min(times)) if times else None

    @property
    def time_label(self) -> str:
        """'3 days per move' or 'casual (no time limit, unrated)'."""
        return time_label(self.row.time_per_move)

    @property
    def variant_label(self) -> str:
        variant = self.row.variant
        if not variant or len(self.game.variants) < 2:
            return ""
        return _(self.game.variant_labels.get(variant, variant))


@dataclass(frozen=True)
class TurnResult:
    """A stored turn: the match after it and what the board post says about it."""

    match: Match
    seat: int
    moves: list[str]             # canonical, including an automatic ``end``
    record: str                  # the game-record line of the turn
    pending: str                 # a forced continuation still with the same player ('move again'), else ''


def time_label(seconds: int | None) -> str:
    if seconds is None:
        return _("casual (no time limit, unrated)")
    days = seconds / 86400
    return ngettext("{days} day per move", "{days} days per move", 1 if days == 1 else 2).format(days=f"{days:g}")
