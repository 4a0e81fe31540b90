"""The words the bot says about matches, shared by Discord and the terminal. No Discord here.

``mention`` turns a participant into how the front end names people: ``<@id>`` on Discord, the plain
name in the terminal.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.ratings import display
from bot.service import Match, TurnResult
from bot.store.matches import ParticipantRow

Mention = Callable[[ParticipantRow], str]


def plain(p: ParticipantRow) -> str:
    return p.name


def with_names(match: Match, text: str, mention: Mention = plain) -> str:
    """Replace the engine's seat names ('Player 1', 'White') by the people sitting there."""
    if not text or match.status == "challenge":
        return text
    seats = match.game.seat_names(match.row.players)
    generic = all(re.fullmatch(r"Player \d+", s) for s in seats)
    # longest names first, so 'White B' is replaced before 'White'
    for seat in sorted(range(len(seats)), key=lambda s: -len(seats[s])):
        who = mention(match.at_seat(seat))
        text = re.sub(rf"\b{re.escape(seats[seat])}\b", who if generic else f"{seats[seat]} ({who})", text)
    return text


def seat_line(match: Match, mention: Mention = plain) -> str:
    """'Player 1: Ann · Player 2: Bob' (or 'White: Ann · Black: Bob')."""
    seats = match.game.seat_names(match.row.players)
    return " · ".join(f"{seats[p.seat]}: {mention(p)}" for p in match.seated)


def challenge_summary(match: Match, mention: Mention = plain) -> str:
    game = match.game
    people = sorted(match.participants, key=lambda p: p.invited_order)
    others = [p for p in people if p.invited_order > 0]
    lines = [f"{mention(people[0])} challenges {', '.join(mention(p) for p in others)} to **{game.title}**."]
    if match.variant_label:
        lines.append(f"Variant: {match.variant_label}")
    teams = [p for p in people if p.team == 0]
    if match.game.teams.get(match.row.players) and teams:
        lines.append("Teams: " + " & ".join(mention(p) for p in teams) + " vs "
                     + " & ".join(mention(p) for p in people if p.team == 1))
    lines.append(f"*{game.summary}*")
    if len(others) > 1:
        lines.append("Accepted: " + ", ".join(
            f"{mention(p)} {'✅' if p.accepted else '⏳'}" for p in others))
    return "\n".join(lines)


def closed_challenge_text(match: Match, mention: Mention = plain) -> str:
    by = {"declined": "was declined", "cancelled": "was cancelled by the challenger",
          "expired": "expired: nobody answered it within a day"}[match.status]
    return f"This {match.game.title} challenge {by}."


def to_move_text(match: Match, mention: Mention = plain, *, pending: str = "") -> str:
    """'@Bob, your move.' / '@Ann, move again.' (or the result once over)."""
    if match.status == "finished":
        return result_text(match, mention)
    who = match.to_move_user
    if who is None:
        return ""
    if pending:
        return f"{mention(who)}, your turn goes on: {pending}."
    return f"{mention(who)}, your move."


def turn_text(result: TurnResult, mention: Mention = plain) -> str:
    match = result.match
    who = mention(match.at_seat(result.seat))
    return f"{who} played **{result.record}**"


def result_text(match: Match, mention: Mention = plain) -> str:
    """'🏆 Ann wins — Ann holds all seven red pieces.' plus the rating changes of a rated match."""
    winners = [match.at_seat(s) for s in match.winners]
    reason = with_names(match, match.row.end_reason or "", mention)
    if match.status == "aborted":
        return f"⛔ Match aborted — {reason}" if reason else "⛔ Match aborted (unrated)."
    ratings = rating_line(match, mention)
    if len(winners) == match.row.players and match.row.players > 1:
        head = "🤝 Draw"
    elif len(winners) == 1:
        head = f"🏆 {mention(winners[0])} wins"
    else:
        head = "🏆 " + " and ".join(mention(w) for w in winners) + " win together"
    head = f"{head} — {reason}" if reason else head
    return f"{head}\n{ratings}" if ratings else head


def rating_line(match: Match, mention: Mention = plain) -> str:
    """'Ratings: Ann 1524 (+24) · Bob 1476 (−24)'."""
    if not match.rating_changes:
        return ""
    by_user = {p.user_id: p for p in match.seated}
    parts = []
    for c in match.rating_changes:
        sign = "+" if c.delta >= 0 else "−"
        parts.append(f"{mention(by_user[c.user_id])} {display(c.mu_after)} ({sign}{abs(c.delta)})")
    return "Ratings: " + " · ".join(parts)


def board_caption(match: Match) -> str:
    """A one-line title for a board: 'Tintas #12 · Ann vs Bob · move 14'."""
    names = " vs ".join(match.names)
    variant = f" · {match.variant_label}" if match.variant_label else ""
    return f"{match.game.title} #{match.id}{variant} · {names} · move {match.ply}"
