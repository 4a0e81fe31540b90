"""What a change must announce: one type per kind, written as outbox rows in the change's own transaction.

Each kind is a frozen dataclass registered under its kind string (``KINDS``): ``to_payload`` writes it as the
row's JSON payload and ``from_payload`` reads it back, so rows keep the kind strings and payload keys they
always had. A field without a default is always written; an optional one (default None) only when set.
Every front end declares a handler per kind, checked at start-up (``bot.dispatcher.Routes``); the bot's own
turn is done beside the dispatcher, not by a front end.

- ``Card``: post the challenge card (``event`` 'open') or bring it up to date ('update');
- ``BoardPost``: post the board at ``ply`` as a new message, pinging whoever must act ('start', 'turn',
  'takeback', 'result');
- ``BotTurn``: the bot's seat is to move at ``ply``: search and submit its turn;
- ``Reminder``: remind the player to move at ``ply`` that the deadline is near;
- ``Reply``: complete the interaction that asked (its token lives 15 minutes: the row expires);
- ``Dm``: a direct message to one player who chose them;
- ``ReplayPost``: a finished match's whole game as an animation, in its own message after the result (a
  follow-up of the result's delivery, so the result never waits for it nor fails with it);
- ``DrawProposal``, ``TakebackProposal``: a proposal made ('offer', 'request') or declined;
- ``AwayNotice``: a player is away until ``until``, or back (None);
- ``Digest``: the daily list of the matches awaiting a player;
- ``Hint``: a player used a hint;
- ``TournamentCard``: post a tournament's card (``event`` 'open') or bring it up to date ('update': an entrant
  joined or withdrew, it started, finished or was cancelled);
- ``TournamentRound``: a round was paired and its matches started: the pairings post (one message per round);
- ``TournamentStandings``: a result changed the standings: post the standings image (a crosstable for round robins);
- ``TournamentPairing``: the round before ``round`` ended: pair it and start its matches (a worker's, not a front
  end's: ``bot.tournament_pairer.TournamentPairer.workers``);
- ``TournamentEnd``: the last round ended: the final announcement, pinging the winners.

A tournament's rows carry its ``Outgoing.tournament_id``; they are claimed and delivered in order per tournament as
a match's are per match (``match_id`` 0) — but for those a match's result causes (its standings, the tournament's
end), which are delivered in that match's order, after its result post (``match_id`` that match).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Generic, TypeVar

from bot.model import Match

N = TypeVar("N", bound="Notice")
K = TypeVar("K", bound=type["Notice"])

KINDS: dict[str, type[Notice]] = {}     # kind string (the outbox's ``kind`` column) -> its type


def kind(name: str) -> Callable[[K], K]:
    """Register a notice type under its kind string (once: a kind string names one type)."""
    def register(cls: K) -> K:
        if name in KINDS:
            raise ValueError(f"the announcement kind {name!r} is registered twice")
        cls.kind = name
        KINDS[name] = cls
        return cls
    return register


@dataclass(frozen=True)
class Notice:
    """Something to tell; a subclass per kind, its fields the payload."""
    kind: ClassVar[str]
    renamed: ClassVar[Mapping[str, str]] = {}   # field -> its payload key, where the two differ
    expires_at: str | None = field(default=None, kw_only=True)   # the row's column, not its payload

    def to_payload(self) -> dict[str, Any]:
        """The JSON-safe payload: every field without a default, and each optional one that is set."""
        payload: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "expires_at" or value is None and f.default is None:
                continue
            payload[self.renamed.get(f.name, f.name)] = list(value) if isinstance(value, tuple) else value
        return payload

    @classmethod
    def from_payload(cls: type[N], payload: Mapping[str, Any], *, expires_at: str | None = None) -> N:
        """The notice a row holds; keys it does not know (a newer version's) are left aside. Raises TypeError
        when a required key is missing."""
        keys = {cls.renamed.get(f.name, f.name): f.name for f in fields(cls) if f.name != "expires_at"}
        values = {keys[k]: tuple(v) if isinstance(v, list) else v for k, v in payload.items() if k in keys}
        return cls(**values, expires_at=expires_at)


@kind("card")
@dataclass(frozen=True)
class Card(Notice):
    event: str                  # 'open' | 'update'


@kind("board")
@dataclass(frozen=True)
class BoardPost(Notice):
    event: str                  # 'start' | 'turn' | 'takeback' | 'result'
    ply: int
    turns: int | None = None    # whole turns played by then (the caption of a board delivered late)
    seat: int | None = None     # 'turn': who played it
    record: str | None = None   # 'turn': the turn as written in the record
    pending: str | None = None  # 'turn': what the player must still do, '' when the turn passed
    by: int | None = None       # 'takeback': who asked for it
    undone: int | None = None   # 'takeback': how many moves were undone
    from_ply: int | None = None   # the ply before the turn (or takeback): where its last turn starts
    record_phrase: dict[str, Any] | None = None    # 'turn': ``record`` as data (engines.base.Phrase.to_data),
    pending_phrase: dict[str, Any] | None = None   # and ``pending``: composed in each reader's language


@kind("bot_turn")
@dataclass(frozen=True)
class BotTurn(Notice):
    ply: int


@kind("reminder")
@dataclass(frozen=True)
class Reminder(Notice):
    ply: int


@kind("reply")
@dataclass(frozen=True)
class Reply(Notice):
    token: str                  # the interaction's (a credential: the outbox blanks it once done)
    application_id: int
    text: str
    link: str | None = None     # 'board' | 'card': what the reply links once it is posted
    language: str | None = None   # the asker's


@kind("dm")
@dataclass(frozen=True)
class Dm(Notice):
    user_id: int
    text: str                   # in the reader's language
    fallback: str = ""          # a mention in the match's channel says this when DMs are closed


@kind("replay")
@dataclass(frozen=True)
class ReplayPost(Notice):
    ply: int


@dataclass(frozen=True)
class Proposal(Notice):
    """A proposal every other player must accept, made (``event`` 'offer' / 'request') or 'declined'."""
    event: str
    ply: int
    by: int                         # who made it, or who declined it
    proposer: int | None = None     # 'declined': who had made it (its payload key is the kind's own)


@kind("draw")
@dataclass(frozen=True)
class DrawProposal(Proposal):
    renamed = {"proposer": "offerer"}


@kind("takeback")
@dataclass(frozen=True)
class TakebackProposal(Proposal):
    renamed = {"proposer": "requester"}


@kind("away")
@dataclass(frozen=True)
class AwayNotice(Notice):
    user_id: int
    until: str | None           # ISO time the player is away until; None: they are back


@kind("digest")
@dataclass(frozen=True)
class Digest(Notice):
    user_id: int
    matches: tuple[int, ...]    # the matches awaiting the player, nearest deadline first


@kind("hint")
@dataclass(frozen=True)
class Hint(Notice):
    ply: int
    by: int


# ---- tournaments (rows of a tournament, no match: ``Outgoing.tournament_id``) --------------------------------------

@kind("tournament_card")
@dataclass(frozen=True)
class TournamentCard(Notice):
    event: str                  # 'open' | 'update'
    status: str | None = None   # 'update': the status it shows (open, running, finished, cancelled)
    reason: str | None = None   # 'update' when cancelled: 'too_few' (fewer than the minimum at the start) | 'by_hand'


@kind("tournament_round")
@dataclass(frozen=True)
class TournamentRound(Notice):
    round: int
    matches: tuple[int, ...]    # the round's new matches, in table order
    deadline: str | None = None   # ISO time the round is adjudicated at (None: no round deadline)


@kind("tournament_standings")
@dataclass(frozen=True)
class TournamentStandings(Notice):
    round: int                  # the round whose result changed them
    match_id: int | None = None   # the match whose result it was (None: a withdrawal, an adjudication)


@kind("tournament_pairing")
@dataclass(frozen=True)
class TournamentPairing(Notice):
    round: int                  # the round to pair (the one before it has ended)


@kind("tournament_end")
@dataclass(frozen=True)
class TournamentEnd(Notice):
    winners: tuple[int, ...]    # user ids of the entrants ranked first (shared first place: several)


# ---- what the services write -------------------------------------------------------------------------------------

def board(match: Match, event: str, *, seat: int | None = None, record: str | None = None,
          pending: str | None = None, by: int | None = None, undone: int | None = None,
          from_ply: int | None = None, record_phrase: dict[str, Any] | None = None,
          pending_phrase: dict[str, Any] | None = None) -> BoardPost:
    return BoardPost(event, match.ply, match.row.whole_turns, seat=seat, record=record, pending=pending, by=by,
                     undone=undone, from_ply=from_ply, record_phrase=record_phrase, pending_phrase=pending_phrase)


def bot_turn(match: Match) -> list[BotTurn]:
    """A bot-turn row when one of the bot's seats is to move."""
    return [BotTurn(match.ply)] if match.ai_to_move is not None else []


def start_announcements(match: Match) -> list[Notice]:
    return [board(match, "start"), *bot_turn(match)]


# ---- what a delivery reports ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Outgoing(Generic[N]):
    """One outbox row to deliver, its notice typed."""
    row_id: int
    match_id: int               # 0 for a tournament's row of no match
    notice: N
    tournament_id: int | None = None   # a tournament's row


@dataclass(frozen=True)
class Remember:
    """What a delivery must remember of what it posted, written with its done-mark (one transaction)."""
    board_message_id: int | None = None   # the match's latest board
    card_message_id: int | None = None    # the match's challenge card
    channel_id: int | None = None         # the match moved to this channel (its own thread)
    tournament_card_message_id: int | None = None   # a tournament's card (for a tournament's row)


@dataclass(frozen=True)
class Delivered:
    result: str = "sent"                   # or 'skipped: why'
    message_id: int | None = None
    follow_ups: list[Notice] = field(default_factory=list)   # more to tell, written with the mark
    remember: Remember = Remember()


Handler = Callable[[Outgoing[Any]], Awaitable[Delivered]]
Handlers = Mapping[type[Notice], Handler]
