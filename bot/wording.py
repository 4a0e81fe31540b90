"""Everything the bot says about matches, in one place, shared by Discord and the terminal. No Discord here.

``mention`` turns a participant into how the front end names people: ``<@id>`` on Discord, the plain
name in the terminal. How a match ended is data (``termination`` with roles and facts); its sentence is
composed here from the game's templates (or the service's, for resignations, time-outs and aborts).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.i18n import N_, _, ngettext
from bot.model import Match, TurnResult
from bot.ratings import display
from bot.store.rows import ParticipantRow
from engines import State
from engines.base import Outcome, fill_template

Mention = Callable[[ParticipantRow], str]

# How a match ends outside the rules: the service's own terminations.
SERVICE_TERMINATIONS = {
    "resigned": N_("{loser} resigned."),
    "timeout": N_("{loser} ran out of time."),
    "never_moved": N_("{loser} never made a first move before the deadline; the match is aborted (unrated)."),
    "aborted": N_("Aborted by {admin}{reason} (unrated)."),
    "turn_cap": N_("No one won in {turns} turns, so the game is a draw."),
    "agreement": N_("Drawn by agreement."),
}


def plain(p: ParticipantRow) -> str:
    return p.name


def seat_labels(match: Match, mention: Mention = plain) -> list[str]:
    """How each seat is named in a sentence: the person ('@Ann'), or the seat and the person ('White (@Ann)')
    when the rules name seats."""
    seats = match.game.seat_names(match.row.players)
    generic = all(re.fullmatch(r"Player \d+", s) for s in seats)
    return [mention(match.at_seat(s)) if generic else f"{seats[s]} ({mention(match.at_seat(s))})"
            for s in range(match.row.players)]


def end_sentence(match: Match, mention: Mention = plain) -> str:
    """Why the match ended, with the people's names."""
    row = match.row
    if row.termination is None:
        return row.end_reason or ""      # a match that ended before outcomes were stored as data
    roles = dict(row.outcome.get("roles", {}))
    facts = dict(row.outcome.get("facts", {}))
    if row.termination == "aborted":   # the admin is no seat: named like a person, 'an admin' in plain text
        admin = ParticipantRow(int(facts.get("admin") or 0), _("an admin"), 0, None, True, None)
        facts = {"reason": f": {facts['reason']}" if facts.get("reason") else "",
                 "admin": mention(admin) if facts.get("admin") else _("an admin")}
    ours = {key: _(template) for key, template in SERVICE_TERMINATIONS.items()}
    templates = {**ours, **match.game.terminations}   # a game's own sentence (English, as its rules) comes first
    if row.termination not in templates:
        return ""
    outcome = Outcome(row.termination, row.winners, row.ranks, roles, facts)
    return fill_template(templates[row.termination], outcome, seat_labels(match, mention))


def shorten(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, cut at a word boundary with an ellipsis (never mid-word)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:—-") + "…"


def paragraphs(text: str, limit: int) -> list[str]:
    """``text`` split at paragraph (else line, else word) boundaries into pieces of at most ``limit``
    characters, nothing dropped."""
    pieces: list[str] = []
    current = ""
    for block in text.split("\n\n"):
        candidate = f"{current}\n\n{block}" if current else block
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            pieces.append(current)
        while len(block) > limit:
            cut = block.rfind("\n", 0, limit)
            cut = cut if cut > 0 else block.rfind(" ", 0, limit)
            cut = cut if cut > 0 else limit
            pieces.append(block[:cut])
            block = block[cut:].lstrip()
        current = block
    if current:
        pieces.append(current)
    return pieces


def count(n: int, thing: str) -> str:
    """'1 game', '2 games' (in the language of the moment for the things the bot counts)."""
    forms = {"game": ngettext("{n} game", "{n} games", n), "turn": ngettext("{n} turn", "{n} turns", n)}
    return forms[thing].format(n=n) if thing in forms else f"{n} {thing}{'' if n == 1 else 's'}"


def seat_line(match: Match, mention: Mention = plain) -> str:
    """Who plays which seat: 'White: Ann · Black: Bob' when the rules name seats, else the order of play
    ('Ann plays first, Bob second'), and the teams of a team game."""
    seats = match.game.seat_names(match.row.players)
    people = [p for p in match.seated if p.seat is not None]
    teams = match.game.teams.get(match.row.players)
    if all(re.fullmatch(r"Player \d+", s) for s in seats):
        order = [_("{player} plays first"), _("{player} second"), _("{player} third"), _("{player} fourth")]
        line = ", ".join(order[i].format(player=mention(p)) for i, p in enumerate(people))
    else:
        line = " · ".join(f"{seats[p.seat]}: {mention(p)}" for p in people if p.seat is not None)
    if teams:
        line += "\n" + _("Teams: {teams}").format(teams=" vs ".join(
            " & ".join(mention(match.at_seat(s)) for s in team) for team in teams))
    return line


def challenge_summary(match: Match, mention: Mention = plain) -> str:
    game = match.game
    people = sorted(match.participants, key=lambda p: p.invited_order)
    others = [p for p in people if p.invited_order > 0]
    lines = [_("{challenger} challenges {opponents} to **{game}**.").format(
        challenger=mention(people[0]), opponents=", ".join(mention(p) for p in others), game=game.title)]
    if match.variant_label:
        lines.append(_("Variant: {variant}").format(variant=match.variant_label))
    teams = [p for p in people if p.team == 0]
    if match.game.teams.get(match.row.players) and teams:
        lines.append(_("Teams: {teams}").format(teams=" & ".join(mention(p) for p in teams) + " vs "
                     + " & ".join(mention(p) for p in people if p.team == 1)))
    lines.append(f"*{_(game.summary)}*")
    if len(others) > 1:
        lines.append(_("Accepted: {players}").format(
            players=", ".join(f"{mention(p)} {'✅' if p.accepted else '⏳'}" for p in others)))
    return "\n".join(lines)


def closed_challenge_text(match: Match) -> str:
    by = {"declined": N_("This {game} challenge was declined."),
          "cancelled": N_("This {game} challenge was cancelled by the challenger."),
          "expired": N_("This {game} challenge expired: nobody answered it within a day.")}
    template = _(by[match.status]) if match.status in by else _("This {game} challenge is {status}.")
    return template.format(game=match.game.title, status=_(match.status))


def to_move_text(match: Match, mention: Mention = plain, *, pending: str = "") -> str:
    """'@Bob, your move.' / '@Ann, your turn goes on: …' (or the result once over)."""
    if match.is_over:
        return result_text(match, mention)
    who = match.to_move_user
    if who is None:
        return ""
    if who.is_ai:   # the bot is not told it is its move: it is thinking
        return _("{player} is thinking…").format(player=mention(who)) if not pending \
            else _("{player} goes on: {pending}.").format(player=mention(who), pending=pending)
    if pending:
        return _("{player}, your turn goes on: {pending}.").format(player=mention(who), pending=pending)
    return _("{player}, your move.").format(player=mention(who))


def turn_text(result: TurnResult, mention: Mention = plain) -> str:
    return played_text(result.match, result.seat, result.record, mention)


def played_text(match: Match, seat: int, record: str, mention: Mention = plain) -> str:
    return _("{player} played **{record}**").format(player=mention(match.at_seat(seat)), record=record)


def result_text(match: Match, mention: Mention = plain) -> str:
    """'🏆 Ann wins — Ann holds all seven red pieces.' plus the rating changes of a rated match."""
    reason = end_sentence(match, mention)
    if match.status == "aborted":
        return _("⛔ Match aborted — {reason}").format(reason=reason) if reason else _("⛔ Match aborted (unrated).")
    winners = [match.at_seat(s) for s in match.winners]
    if len(winners) == match.row.players and match.row.players > 1:
        head = _("🤝 Draw")
    elif len(winners) == 1:
        head = _("🏆 {player} wins").format(player=mention(winners[0]))
    else:
        head = _("🏆 {players} win together").format(players=_("{a} and {b}").format(
            a=", ".join(mention(w) for w in winners[:-1]), b=mention(winners[-1])))
    head = f"{head} — {reason}" if reason else head
    ratings = rating_line(match, mention)
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
    return _("Ratings: {changes}").format(changes=" · ".join(parts))


CAPTION_NAME = 32     # characters of each name in a one-line caption (a title holds 256)


def sides(match: Match) -> str:
    """'Ann vs Bob', or 'Ann & Cy vs Bob & Dee' in a team game."""
    teams = match.game.teams.get(match.row.players)
    if teams and match.status != "challenge" and len(match.seated) == match.row.players:
        return " vs ".join(" & ".join(shorten(match.at_seat(s).name, CAPTION_NAME) for s in team) for team in teams)
    return " vs ".join(shorten(name, CAPTION_NAME) for name in match.names)


def board_caption(match: Match, turns: int | None = None) -> str:
    """A one-line title for a board: 'Tintas #12 · Ann vs Bob · turn 14' (the turn being played; a finished
    match says how many turns it lasted). ``turns`` is the whole turns played at the board's position."""
    done = match.row.whole_turns if turns is None else turns
    variant = f" · {match.variant_label}" if match.variant_label else ""
    when = count(done, "turn") if match.is_over and turns is None else _("turn {n}").format(n=done + 1)
    return f"{match.game.title} #{match.id}{variant} · {sides(match)} · {when}"


def start_text(match: Match, mention: Mention = plain) -> str:
    return f"{_('The match begins!')}\n{seat_line(match, mention)}\n{to_move_text(match, mention)}"


TEXT_BOARD_LIMIT = 1900     # characters of a text board in one message (Discord allows 2,000)


def text_board(match: Match) -> str:
    """The position as text in a code block, with whose turn it is: what a screen reader can read out."""
    board = match.position.text_board()
    if len(board) > TEXT_BOARD_LIMIT:
        board = board[:TEXT_BOARD_LIMIT] + "\n…"
    return f"{board_caption(match)}\n```\n{board}\n```\n{to_move_text(match).replace('**', '')}"


def board_alt_text(match: Match, state: State, last_turn: list[str], *, turns: int | None = None) -> str:
    """The board image's description for screen readers: which match, what was just played, who is to move."""
    parts = [board_caption(match, turns)]
    if last_turn:
        parts.append(_("last turn: {moves}").format(moves=", ".join(m for m in last_turn if m != "end")))
    if state.is_over or match.is_over:
        parts.append(result_text(match).splitlines()[0].lstrip("🏆🤝⛔ "))
    elif state.to_move is not None:
        parts.append(_("{player} to move").format(player=match.at_seat(state.to_move).name))
    return ". ".join(parts)[:1000]


def reminder_text(match: Match) -> str:
    deadline = match.deadline
    when = f"<t:{int(deadline.timestamp())}:f>" if deadline else _("the deadline")
    if match.row.players == 2:
        then = _("⏰ Reminder: {caption} — most of your time is used. Move by {when} or you lose on time.")
    elif match.game.teams.get(match.row.players):
        then = _("⏰ Reminder: {caption} — most of your time is used. Move by {when} or your team ranks last on time.")
    else:
        then = _("⏰ Reminder: {caption} — most of your time is used. Move by {when} or you rank last on time.")
    return then.format(caption=board_caption(match), when=when)
