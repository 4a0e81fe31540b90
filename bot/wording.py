"""Everything the bot says about matches, in one place, shared by Discord and the terminal. No Discord here.

``mention`` turns a participant into how the front end names people: ``<@id>`` on Discord, the plain
name in the terminal. How a match ended is data (``termination`` with roles and facts); its sentence is
composed here from the game's templates (or the service's, for resignations, time-outs and aborts).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from bot import gametexts
from bot.i18n import N_, _, compose, ngettext
from bot.model import Match, TurnResult, shown_name
from bot.ratings import display
from bot.services.challenges import open_seat_teams
from bot.store.rows import ParticipantRow
from engines import State
from engines.base import Outcome, Phrase, Termination, fill_template, translate_facts

Mention = Callable[[ParticipantRow], str]

# How a match ends outside the rules: the service's own terminations.
SERVICE_TERMINATIONS = {
    "resigned": N_("{loser} resigned."),
    "timeout": N_("{loser} ran out of time."),
    "never_moved": N_("{loser} never made a first move before the deadline; the match is aborted (unrated)."),
    "aborted": N_("Aborted by {admin}{reason} (unrated)."),
    "turn_cap": N_("No one won in {turns} turns, so the game is a draw."),
    "agreement": N_("Drawn by agreement."),
    "withdrew": N_("{loser} withdrew from the tournament."),
    "adjudicated": N_("The round's deadline passed, so the game was adjudicated: less thinking time used ranks "
                      "higher."),
}


class ServiceTermination(Termination):
    """The keys of ``SERVICE_TERMINATIONS``, as an ``Outcome`` holds them."""

    RESIGNED = "resigned"
    TIMEOUT = "timeout"
    NEVER_MOVED = "never_moved"
    ABORTED = "aborted"
    TURN_CAP = "turn_cap"
    AGREEMENT = "agreement"
    WITHDREW = "withdrew"          # a tournament entrant withdrew while this game ran
    ADJUDICATED = "adjudicated"    # a tournament round's deadline (bot.tournaments.scoring.ADJUDICATION_RULE)


def words(phrase: Phrase | str, names: Mapping[str, str] | None = None) -> str:
    """An engine's phrase (a move's description, a refusal, a turn record, a text board) in the language of the
    moment, every nested phrase too; ``names`` puts people's names for the seat names it holds ('Player 1' ->
    'Ann'). A plain string is shown as it is. The one place front ends compose the engines' words."""
    return phrase if isinstance(phrase, str) else compose(phrase, names)


def phrase_words(data: Mapping[str, object] | None, english: str | None) -> str:
    """An announcement's phrase field (a turn's record, what is pending) in the language of the moment: its
    data (``Phrase.to_data``) composed, else (a row written before phrases) its English text."""
    if isinstance(data, Mapping):
        return words(Phrase.from_data(dict(data)))
    return english or ""


def plain(p: ParticipantRow) -> str:
    return shown_name(p)


def seat_labels(match: Match, mention: Mention = plain) -> list[str]:
    """How each seat is named in a sentence: the person ('@Ann'), or the seat and the person ('White (@Ann)')
    when the rules name seats."""
    seats = match.game.seat_names(match.row.players)
    generic = all(re.fullmatch(r"Player \d+", s) for s in seats)
    return [mention(match.at_seat(s)) if generic else f"{_(seats[s])} ({mention(match.at_seat(s))})"
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
    rules = {key: _(template) for key, template in match.game.terminations.items()}
    templates = {**ours, **rules}   # a game's own sentence (as its rules) comes first
    if row.termination not in templates:
        return ""
    kinds = {kind.value: kind for kind in (*ServiceTermination, *match.game.termination_kinds)}
    outcome = Outcome(kinds[row.termination], row.winners, row.ranks, roles, facts)
    if row.termination in rules:    # its word facts ('red', 'checkers') in the reader's language too
        outcome = translate_facts(match.game, outcome, _)
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


def first_upper(text: str) -> str:
    """The text with its first letter a capital and nothing else changed (``str.capitalize`` lowercases the rest,
    German nouns included)."""
    return text[:1].upper() + text[1:]


def count(n: int, thing: str) -> str:
    """'1 game', '2 games' (in the language of the moment for the things the bot counts)."""
    forms = {"game": ngettext("{n} game", "{n} games", n), "turn": ngettext("{n} turn", "{n} turns", n),
             "move": ngettext("{n} move", "{n} moves", n), "open seat": ngettext("{n} open seat", "{n} open seats", n)}
    return forms[thing].format(n=n) if thing in forms else f"{n} {thing}{'' if n == 1 else 's'}"


def seat_line(match: Match, mention: Mention = plain) -> str:
    """Who plays which seat: 'White: Ann · Black: Bob' when the rules name seats, else the order of play
    ('Ann plays first, Bob second'), and the teams of a team game."""
    seats = match.game.seat_names(match.row.players)
    people = [p for p in match.seated if p.seat is not None]
    teams = match.game.teams.get(match.row.players)
    if all(re.fullmatch(r"Player \d+", s) for s in seats):
        order = [_("{player} plays first"), _("{player} second"), _("{player} third"), _("{player} fourth")]
        first = _starting_seat(match)
        people.sort(key=lambda p: ((p.seat or 0) - first) % match.row.players)
        line = ", ".join(order[i].format(player=mention(p)) for i, p in enumerate(people))
    else:
        line = " · ".join(f"{_(seats[p.seat])}: {mention(p)}" for p in people if p.seat is not None)
    if teams:
        line += "\n" + _("Teams: {teams}").format(teams=" vs ".join(
            " & ".join(mention(match.at_seat(s)) for s in team) for team in teams))
    return line


def _starting_seat(match: Match) -> int:
    """The seat that moves first in the match's starting position (an engine may draw it, as Rincala does)."""
    row = match.row
    start = match.game.new(players=row.players, seed=row.seed, variant=row.variant)
    return start.to_move or 0


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
    lines.append(f"*{gametexts.summary(game.key)}*")
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
        return " vs ".join(" & ".join(shorten(shown_name(match.at_seat(s)), CAPTION_NAME) for s in team)
                           for team in teams)
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


def seat_names(match: Match) -> dict[str, str]:
    """The engine's generic seat names ('Player 1') -> the players' names, for ``words``."""
    seats = match.game.seat_names(match.row.players)
    return {seats[p.seat]: shown_name(p) for p in match.seated
            if p.seat is not None and re.fullmatch(r"Player \d+", seats[p.seat])}


def text_board(match: Match) -> str:
    """The position as text in a code block, with whose turn it is: what a screen reader can read out."""
    board = words(match.position.text_board_phrase(), seat_names(match))
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
        parts.append(_("{player} to move").format(player=shown_name(match.at_seat(state.to_move))))
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


# ---- takebacks ----
TAKEBACKS_SETTING = N_("\nTakebacks in rated matches: {state} (casual matches always allow them)")
TAKEBACK_ASKED = N_("↩️ Takeback requested; the others answer with the buttons.")
TAKEBACK_DONE_AT_ONCE = N_("↩️ Taken back: the bot agreed at once. It is your move again.")
TAKEBACK_REQUEST = N_("{pings} ↩️ {by} asks to take back their last turn in {caption}. Every other player must "
                    "accept; a move lets the request lapse.")
TAKEBACK_DECLINED = N_("{ping}↩️ {by} declined the takeback in {caption}; play goes on.")
TAKEBACK_AGREED_SO_FAR = N_("↩️ Takeback requested in {caption}. Agreed so far: {names}.")
TAKEBACK_ANSWERED_YES = N_("↩️ The takeback was accepted: the turn is undone.")
TAKEBACK_ANSWERED_NO = N_("↩️ The takeback was declined.")
TAKEBACK_BOARD = N_("↩️ {by}'s last turn was taken back ({plies} undone; the log keeps them).")
TAKEBACK_ACCEPT_LABEL = N_("Accept takeback")
TAKEBACK_DECLINE_LABEL = N_("Decline takeback")
TAKEBACK_COMMAND = "Ask to take back your last {title} turn (the others must accept)"


def takeback_board_text(by: str, plies: int) -> str:
    """The line above a board re-posted after a takeback."""
    return _(TAKEBACK_BOARD).format(by=by, plies=count(plies, "move"))


# ---- help ----
HELP_TITLE = N_("Board games in Discord")
HELP_INTRO = N_("I host rare abstract board games, played turn by turn, hours or days apart. After every turn I "
              "post the board and ping whoever is to move.")
HELP_GAME_LINE = N_("**{title}** ({players} players) — {summary}")
HELP_HOW_TO_START = N_("**How to start**\n"
                     "• `/<game> challenge opponent:@someone` — challenge a member (timed matches are rated)\n"
                     "• `/<game> vs-bot` — play me at once, unrated\n"
                     "• `/<game> move` — play your turn (the autocomplete lists legal turns); "
                     "`/<game> rules` — the full rules\n"
                     "• `/matches` — your matches here; `/settings` — your notifications and the server's options\n"
                     "• `/<game> analyze` — my best turns for a position code or a record; never for a rated match "
                     "in progress nor a position within one turn of it (fair play)\n"
                     "• `/tournament list` — this server's tournaments: join one with its card's button, "
                     "`/tournament standings` any time\n"
                     "The buttons below show each game's quick start.")
HELP_GAME_TITLE = N_("{title} — quick start")
HELP_GAME_FOOTER = N_("The image shows a start position. Start a match with /{key} challenge or /{key} vs-bot; "
                    "the full rules: /{key} rules.")
HELP_GAME_ALT = N_("{title}: a start position")
HELP_UNKNOWN_GAME = N_("That game is no longer offered here; use /help again.")
HELP_COMMAND = "What this bot does, how to start, and a quick start per game"
# ---- time away ----
AWAY_NOTICE = N_("⏸️ {player} is away until {until}; their clock in {caption} is paused until then.")
BACK_NOTICE = N_("▶️ {player} is back; their clock in {caption} runs again with the time that remained.")
AWAY_BOARD_NOTE = N_("⏸️ {player} is away until {until}; their clock is paused.")
AWAY_MATCHES_NOTE = N_("{state} (away until {until})")
AWAY_SET = N_("You are away until {until}. The clocks of your timed matches in this server ({matches}) are paused "
            "until then; coming back early (`/settings away:0`) resumes them.")
AWAY_BACK = N_("Welcome back: your clocks in this server run again with the time that remained.")
AWAY_ADMIN_ONLY = N_("Only members with the Manage Server permission can change the allowance of time away; "
                   "nothing was changed.")
AWAY_SETTINGS_LINE = N_("**Time away:** {state} · {left} of {allowance} days left (any 365 days)")
AWAY_STATE_AWAY = N_("away until {until}")
AWAY_STATE_HERE = N_("not away")
AWAY_SERVER_LINE = N_("Time away allowed: {allowance} days a year")


# ---- digest ----
DIGEST_NOTIFY_LABEL = N_("a daily digest by direct message (at an hour you pick)")
DIGEST_SETTING = N_("a daily digest at {hour:02d}:00 ({timezone}), next {next}")
DIGEST_LINE = N_("• **{caption}** — [board]({link}) · {deadline}")
DIGEST_LINE_NO_BOARD = N_("• **{caption}** — {deadline}")
DIGEST_DEADLINE = N_("move by {when}")
DIGEST_NO_DEADLINE = N_("no time limit")


def digest_head(n: int) -> str:
    """The first line of a daily digest: in how many matches it is one's move."""
    return ngettext("📬 Your daily digest: it is your move in {count} match.",
                    "📬 Your daily digest: it is your move in {count} matches.", n).format(count=n)
# ---- open seats ----
OPEN_SUMMARY = N_("{challenger} challenges anyone in the server to **{game}** — a table of {players}.")
OPEN_INVITED = N_("Invited: {people}")
OPEN_JOINED = N_("Joined: {people}")
OPEN_SEATS_LINE = N_("🪑 Open seats: {open} of {players} — press **Join** to take one.")
OPEN_SEAT = N_("*open seat*")
OPEN_TEAMS = N_("Teams: {teams} (open seats are filled in join order)")
OPEN_VARIANT = N_("Variant: {variant}")
OPEN_CARD = N_("{invited}🪑 {challenger} has {seats} for {game} — press **Join** to take one!")
OPEN_FULL = N_("Every seat is taken — the match is on!")
OPEN_MATCHES_STATE = N_("open challenge · {seats}")
OPEN_ANYONE = N_("anyone")
OPEN_MATCHES_HEADER = N_("**Open seats in this server** (press Join on the card):")
OPEN_MATCHES_LINE = N_("🪑 **{game}**{variant} #{id} by {challenger} — {seats}{link}")
OPEN_POSTED = N_("Open challenge posted; the match starts when every seat is taken.")
CHALLENGE_TO_PICK = N_("Challenge {name} to which game? (a 2-player challenge with this server's defaults)")
CHALLENGE_TO_PLACEHOLDER = N_("Choose a game")
CHALLENGE_TO_CANNOT_SEE = N_("{name} cannot see this channel, so they would never see the challenge. Challenge them "
                           "in a channel they can read.")


def open_seats_count(n: int) -> str:
    """'1 open seat', '2 open seats'."""
    return count(n, "open seat")


def is_open_challenge(match: Match) -> bool:
    """A challenge that had seats open to anyone (some may be taken by now)."""
    return match.row.open_seats > 0 or any(p.joined for p in match.participants)


def open_challenge_summary(match: Match, mention: Mention = plain) -> str:
    """The card of an open challenge: who invited whom, who joined, the open seats, and the teams by arrival."""
    game = match.game
    people = sorted(match.participants, key=lambda p: p.invited_order)
    invited = [p for p in people if p.invited_order > 0 and not p.joined]
    joined = [p for p in people if p.joined]
    lines = [_(OPEN_SUMMARY).format(challenger=mention(people[0]), game=game.title, players=match.row.players)]
    if match.variant_label:
        lines.append(_(OPEN_VARIANT).format(variant=match.variant_label))
    if invited:
        lines.append(_(OPEN_INVITED).format(people=", ".join(f"{mention(p)} {'✅' if p.accepted else '⏳'}"
                                                          for p in invited)))
    if joined:
        lines.append(_(OPEN_JOINED).format(people=", ".join(mention(p) for p in joined)))
    if match.status == "challenge" and match.row.open_seats:
        lines.append(_(OPEN_SEATS_LINE).format(open=match.row.open_seats, players=match.row.players))
    teams = game.teams.get(match.row.players)
    if teams:
        sides: list[list[str]] = [[], []]
        for p in people:
            sides[p.team or 0].append(mention(p))
        for team in open_seat_teams(match):
            sides[team].append(_(OPEN_SEAT))
        lines.append(_(OPEN_TEAMS).format(teams=" vs ".join(" & ".join(side) for side in sides)))
    lines.append(f"*{gametexts.summary(game.key)}*")
    return "\n".join(lines)
# ---- records and analysis ----
RECORD_FILE = "match-{match_id}.txt"
RECORD_EXPORTED = N_("📜 The record of {caption}: every turn with the position code after it. Feed it to "
    "`/{game} analyze record:` to study any position (add `turn:` for the position after that turn).")
RECORD_NEEDS_MATCH = N_("Name the match to export, like #12.")
RECORD_TOO_LARGE = N_("That file has {size:,} bytes; a record may have at most {limit:,}. Nothing was read.")
RECORD_DOWNLOAD_FAILED = N_("I could not download that file from Discord; please attach it again.")
RECORD_NOT_TEXT = N_("That file is not UTF-8 text, so it is no game record.")
RECORD_UNKNOWN_GAME = N_("The record's Game tag names {game}, which is no game of this bot.")
RECORD_LINE_TOO_LONG = N_("Line {line} of the record is longer than {limit:,} characters; no line of a record is.")
RECORD_OVER_TURN_CAP = N_("The record has {turns:,} turns, but {game} ends in a draw after {cap:,} turns, so it "
    "cannot be read.")
RECORD_TOO_MANY_TURNS = N_("The record has more than {limit:,} turns; no record may have more. Nothing was read.")
RECORD_TOO_MANY_LINES = N_("The record has {lines:,} lines; a record may have at most {limit:,}. Nothing was read.")
RECORD_TOO_MANY_MOVES = N_("The record has {moves:,} moves; a record may have at most {limit:,}. Nothing was read.")
RECORD_TAG_AFTER_TURNS = N_("Line {line} of the record is a header tag after the turns; tags come first.")
RECORD_DUPLICATE_TAG = N_("Line {line} of the record repeats the {tag} tag.")
RECORD_BAD_LINE = N_("Line {line} of the record is neither a tag like [Game \"Tintas\"] nor a turn like "
    "1. Player 1: E4 {{code}}: {text}.")
RECORD_MISSING_TAG = N_("The record has no {tag} tag in its header, so it cannot be read.")
RECORD_BAD_PLAYERS = N_("The record's Players tag says {players}; {game} is played by {counts} players.")
RECORD_BAD_START = N_("The record's Start position cannot be read: {reason}")
RECORD_START_DISAGREES = N_("The record's Players or Variant tag does not match its Start position.")
RECORD_TURN_NUMBER = N_("Line {line} of the record is numbered turn {number}, but turn {expected} comes next.")
RECORD_AFTER_END = N_("Line {line} of the record has turn {turn}, but the game is already over before it.")
RECORD_WRONG_SEAT = N_("Line {line} of the record gives turn {turn} to {label}, but {seat} is to move.")
RECORD_EMPTY_MOVE = N_("Line {line} of the record (turn {turn}) has an empty move between its commas.")
RECORD_ILLEGAL_TURN = N_("Line {line} of the record (turn {turn}) cannot be played: {reason}")
RECORD_CODE_MISMATCH = N_("Line {line} of the record: the position code after turn {turn} is not the position its "
    "moves reach, so the record was changed or damaged.")
RECORD_NO_SUCH_TURN = N_("There is no position after turn {turn}: the record has {turns} turns (0 is the start).")
ANALYZE_NEEDS_INPUT = N_("Give a position code (code:) or attach a record (record:) to analyze.")
ANALYZE_BOTH = N_("Give either a position code or a record, not both.")
ANALYZE_TURN_NEEDS_RECORD = N_("turn: picks a position in an attached record; a position code is one position already.")
ANALYZE_BUSY = N_("The search did not finish in time; please try again in a moment.")
ANALYSIS_TITLE = N_("{game} — analysis of {where}")
ANALYSIS_WHERE_CODE = N_("a position code")
ANALYSIS_WHERE_RECORD = N_("the position after turn {turn} of {source}")
# how many turns an analysis lists, as a word ('My two best turns'); larger numbers are written in digits
ANALYSIS_COUNT_WORDS = {2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five")}
ANALYSIS_LINE = N_("{rank}. `{turn}` — {verdict}")
ANALYSIS_VERDICT_WINS = N_("wins the game at once")
ANALYSIS_VERDICT_LOSES = N_("ends the game, lost")
ANALYSIS_VERDICT_ENDS = N_("ends the game: {share:.0f} % of the win")
ANALYSIS_VERDICT_CHANCES = N_("winning chances ≈ {chances:.0f} %")
ANALYSIS_LEGEND = N_("Winning chances are my search's estimate of the mover's share of the win after the turn "
    "(100 % a sure win, 0 % a sure loss; 50 % is even with two players).")
ANALYSIS_OVER = N_("**The game is over.** {result}")
ANALYSIS_OVER_WINNER = N_("{who} won: {why}")
ANALYSIS_OVER_DRAW = N_("A draw: {why}")
ANALYSIS_CODE = N_("Position code: `{code}`")
HINT_TITLE = N_("{game} — hint for your turn in #{match_id}")
HINT_TOLD = N_("💡 {who} used a hint in {caption}.")


def analysis_verdict(value: float, final: bool) -> str:
    """How good a proposed turn is, for a player: 'wins the game at once', 'winning chances ≈ 62 %'."""
    if final:
        if value >= 1.0:
            return _(ANALYSIS_VERDICT_WINS)
        if value <= 0.0:
            return _(ANALYSIS_VERDICT_LOSES)
        return _(ANALYSIS_VERDICT_ENDS).format(share=value * 100)
    return _(ANALYSIS_VERDICT_CHANCES).format(chances=value * 100)


def analysis_text(seat: str, turns: list[tuple[str, float, bool]]) -> str:
    """The best turns (notation, value, final), best first, with the legend; the heading says how many."""
    n = len(turns)
    count = _(ANALYSIS_COUNT_WORDS[n]) if n in ANALYSIS_COUNT_WORDS else str(n)
    lines = [ngettext("**{seat}** is to move. My best turn for {seat}:",
                      "**{seat}** is to move. My {count} best turns for {seat}:", n).format(seat=seat, count=count)]
    lines += [_(ANALYSIS_LINE).format(rank=i, turn=turn, verdict=analysis_verdict(value, final))
              for i, (turn, value, final) in enumerate(turns, 1)]
    lines.append(f"*{_(ANALYSIS_LEGEND)}*")
    return "\n".join(lines)


def analysis_over_text(winners: list[str], players: int, why: str) -> str:
    """A finished position: who won and why (or a draw)."""
    if len(winners) == players and players > 1:
        result = _(ANALYSIS_OVER_DRAW).format(why=why)
    else:
        result = _(ANALYSIS_OVER_WINNER).format(who=" & ".join(winners), why=why)
    return _(ANALYSIS_OVER).format(result=result)


def step_group(start: str, count: int) -> str:
    """A narrowing group of moves, in the autocomplete, the picker and the terminal: ``e2… (3 moves)``."""
    return ngettext("{start}… (1 move)", "{start}… ({count} moves)", count).format(start=start, count=count)
