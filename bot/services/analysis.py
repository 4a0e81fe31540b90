"""What an analysis may look at: a typed position code, or the position after a turn of a record.

Every front end gets the position to analyse from here, and here the fair-play rule is applied to it
(``services.fairplay``: nothing near a rated match in progress), so no front end can forget it; a handler only
reads its options and maps a refusal to words. Hints keep their own rules (``services.hints``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.i18n import Said, T
from bot.model import BadInput
from bot.services.fairplay import FairPlay
from engines import GAMES, Game, InvalidPosition, State

MAX_CODE = 2000            # characters of a typed position code we read (the longest code is a few hundred)
MAX_REASON = 300           # characters of an engine's reason for refusing a code, quoted back


class Recorded(Protocol):
    """A record read and replayed (``bot.records.GameRecord``)."""

    @property
    def game(self) -> str: ...

    def position(self, turn: int | None = None) -> tuple[State, State | None, list[str]]: ...


@dataclass(frozen=True)
class Analysable:
    """A position an analysis may look at, with the turn that led there when known (for the board)."""

    state: State
    previous: State | None = None
    last_turn: tuple[str, ...] = ()


class Analysis:
    def __init__(self, fairplay: FairPlay):
        self.fairplay = fairplay

    async def of_code(self, game: Game, code: str) -> Analysable:
        """The position a typed code stands for, if it may be analysed."""
        return await self._allowed(Analysable(decode(game, code)))

    async def of_record(self, game: Game, record: Recorded, turn: int | None) -> Analysable:
        """The position after ``turn`` of a record (default: the last), if it may be analysed."""
        if record.game != game.key:
            other = GAMES[record.game]
            raise BadInput(T("That is a {other} record; use /{key} analyze for it.", other=other.title,
                             key=other.key))
        state, previous, last_turn = record.position(turn)
        return await self._allowed(Analysable(state, previous, tuple(last_turn)))

    async def _allowed(self, position: Analysable) -> Analysable:
        await self.fairplay.check(position.state)     # no analysis near a rated match in progress
        return position


def decode(game: Game, code: str) -> State:
    """A typed position code as a position; any malformed code is refused, not a crash."""
    if len(code) > MAX_CODE:
        raise BadInput(T("That code has {length:,} characters; no {game} position code is that long.",
                         length=len(code), game=game.title))
    try:
        return game.decode(" ".join(code.split()))
    except InvalidPosition as exc:      # the engine's reason, in the reader's language
        raise BadInput(T("That is no {game} position code: {reason}", game=game.title,
                         reason=Said(exc.phrase, finish=lambda text: text[:MAX_REASON]))) from None
    except (ValueError, IndexError, KeyError) as exc:   # any other malformed code is refused, not a crash
        raise BadInput(T("That is no {game} position code: {reason}", game=game.title,
                         reason=str(exc)[:MAX_REASON])) from None
