"""What a change must announce, as outbox rows (written by the services in the change's own transaction).

Kinds, and what the dispatcher's deliverer does with each:
- ``card``: post the challenge card (``event`` 'open') or bring it up to date ('update');
- ``board``: post the board at ``ply`` as a new message, pinging whoever must act ('start', 'turn', 'result');
- ``bot_turn``: the bot's seat is to move at ``ply``: search and submit its turn;
- ``reminder``: remind the player to move at ``ply`` that the deadline is near;
- ``reply``: complete the interaction that asked (its token lives 15 minutes);
- ``dm``: a direct message to one player who chose them;
- ``replay``: a finished match's whole game as an animation, in its own message after the result (written by
  the front end with the result's mark, so the result never waits for it nor fails with it).
"""

from __future__ import annotations

from typing import Any

from bot.model import Match
from bot.store.rows import Announcement


def board(match: Match, event: str, **fields: Any) -> Announcement:
    return Announcement("board", {"event": event, "ply": match.ply, "turns": match.row.whole_turns, **fields})


def bot_turn(match: Match) -> list[Announcement]:
    """A bot-turn row when one of the bot's seats is to move."""
    return [Announcement("bot_turn", {"ply": match.ply})] if match.ai_to_move is not None else []


def start_announcements(match: Match) -> list[Announcement]:
    return [board(match, "start"), *bot_turn(match)]


def reply(token: str, application_id: int, text: str, *, expires_at: str) -> Announcement:
    """Complete a deferred interaction (the 'thinking…' message) with ``text`` and a link to what was posted."""
    return Announcement("reply", {"token": token, "application_id": application_id, "text": text},
                        expires_at=expires_at)
