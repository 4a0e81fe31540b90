"""Game records: a whole match as plain text, written for ``/match record`` and read back by ``/<game> analyze``.

The format (docs/records.md has the full description and an example) is PGN-like, UTF-8 text, one item a line:

    [Game "Tintas"]
    [Variant "-"]
    [Players "2"]
    [Seat1 "Player 1"]
    [Player1 "Ann"]
    [Seat2 "Player 2"]
    [Player2 "Bob"]
    [Date "2025-03-01"]
    [Result "1-2"]
    [Termination "Bob holds all seven red pieces."]
    [Match "#12"]
    [Site "BoardGames (Discord)"]
    [Start "<position code of the start>"]

    1. Player 1: E4 {<position code after turn 1>}
    2. Player 2: F5, F6 {<position code after turn 2>}

* A **header** of tag lines ``[Key "value"]`` (a ``"`` or ``\\`` inside a value is escaped with ``\\``). ``Game``
  (the game's name or key), ``Players`` and ``Start`` are required; ``Variant`` (``-`` = the game's only or default
  board) must agree with the start position. ``SeatN`` is the rules' name of seat N, ``PlayerN`` who played it.
  ``Date`` is the day the match started, in **UTC** (a Discord server has no time zone of its own). ``Result``
  gives each seat's rank in seat order joined by ``-`` (``1-2``: seat 1 won; ``1-1``: a draw; ``*``: still
  running; ``aborted``); ``Termination`` the sentence that says why the match ended (``-`` while it runs);
  ``Match`` and ``Site`` say where it was played. Other tags are kept and ignored.
* Then one line per **whole turn** (all the moves one seat makes before the next seat is to move):
  ``<turn number>. <seat name>: <moves> {<position code after the turn>}``. The moves are the canonical moves
  the bot stored, separated by ``, `` (no game's move contains a comma), without the ``end`` the bot adds
  itself when a player stops an optional continuation; it is the text ``/<game> move`` accepts too.
* Blank lines and comment lines starting with ``;`` may appear anywhere.

Reading checks every line and replays every turn on the engine from the start position, so a record is
accepted only when each turn is legal, is played by the seat named, and reaches exactly the code written after
it; any other record is refused with the line (and turn) at fault. Discord-free and storage-free. Each line is
read in time linear in it (a tokenizer for tags, a pattern that cannot backtrack for turns), and the limits below
(bytes, line length, lines, the game's turn cap, moves replayed) are checked before any turn is replayed; names
are trimmed as a match trims them.

The file is the same in every language, like PGN: tag names, seat names and the Termination sentence are English
whoever exports it; only the refusals of a bad record speak the reader's language (and keep the tag names).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot import wording
from bot.i18n import SOURCE_LANGUAGE, Either, Said, T, speaking
from bot.model import MAX_NAME, BadInput, BadMove, Match
from bot.services.play import play_turn, quote
from engines import GAMES, Game, InvalidPosition, State

MAX_RECORD_BYTES = 256 * 1024     # a record file larger than this is refused unread (a 400-turn game is ~60 KB)
MAX_LINE = 4000                   # characters of one line (a position code is a few hundred)
TURN_SEPARATOR = ", "
NONE = "-"                        # an empty tag value (no variant, no termination yet)

MAX_RECORD_TURNS = 5000           # turns of a game without a turn cap (random Rincala games reach ~2,000)
MAX_RECORD_MOVES = 10_000         # moves replayed on the engine in one record: the bound on a record's work
MAX_RECORD_LINES = MAX_RECORD_TURNS + 1000   # lines of any kind (the header, blank lines and comments besides turns)
TAG_KEY = 31                      # characters of a tag's name
TURN_NUMBER = 7                   # digits of a turn number

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True, slots=True)    # slots: a third of the cost of making one, and a record makes hundreds
class RecordTurn:
    number: int
    seat: int
    moves: tuple[str, ...]        # canonical, with the automatic ``end`` where the bot plays one
    code: str                     # the position after the turn


@dataclass
class GameRecord:
    """A match as a record; ``states`` holds the start and the position after each turn (for analysis)."""

    game: str                     # the game's key
    variant: str | None
    players: int
    start: str
    turns: list[RecordTurn]
    seats: tuple[str, ...] = ()   # the rules' seat names
    people: tuple[str, ...] = ()  # who played each seat ('' when unknown)
    tags: dict[str, str] = field(default_factory=dict)   # the other header tags, in order
    states: list[State] = field(default_factory=list, compare=False)

    def position(self, turn: int | None = None) -> tuple[State, State | None, list[str]]:
        """The position after ``turn`` (default: the last), the one before that turn and the turn's moves."""
        last = len(self.turns)
        n = last if turn is None else turn
        if not 0 <= n <= last:
            raise BadInput(T(wording.RECORD_NO_SUCH_TURN, turn=n, turns=last))
        if n == 0:
            return self.states[0], None, []
        return self.states[n], self.states[n - 1], list(self.turns[n - 1].moves)


# ---- writing ------------------------------------------------------------------------------------------------------
def notation(moves: Sequence[str]) -> str:
    """A turn as written in a record: its moves joined by ', ', without a trailing automatic ``end``."""
    shown = list(moves[:-1]) if len(moves) > 1 and moves[-1] == "end" else list(moves)
    return TURN_SEPARATOR.join(shown)


def _value(text: str) -> str:
    text = " ".join(_CONTROL.sub(" ", text).split()) or NONE
    return text.replace("\\", "\\\\").replace('"', '\\"')


def write(record: GameRecord) -> str:
    """The record as text (see the module docstring); ``parse(write(r))`` gives ``r`` back."""
    game = GAMES[record.game]
    seats = record.seats or game.seat_names(record.players)
    tags: list[tuple[str, str]] = [("Game", game.title), ("Variant", record.variant or NONE),
                                   ("Players", str(record.players))]
    for i, seat in enumerate(seats):
        tags.append((f"Seat{i + 1}", seat))
        tags.append((f"Player{i + 1}", record.people[i] if i < len(record.people) else ""))
    tags += [(k, v) for k, v in record.tags.items()]
    tags.append(("Start", record.start))
    lines = [f'[{key} "{_value(value)}"]' for key, value in tags]
    lines.append("")
    for t in record.turns:
        lines.append(f"{t.number}. {seats[t.seat]}: {notation(t.moves)} {{{t.code}}}")
    return "\n".join(lines) + "\n"


def from_match(match: Match, frames: Sequence[tuple[State, State | None, list[str]]], *, site: str) -> GameRecord:
    """The record of a started match from its turns (``Queries.turns``: the start first, then each turn)."""
    row = match.row
    start = frames[0][0]
    turns = [RecordTurn(i, before.to_move if before is not None and before.to_move is not None else 0,
                        tuple(moves), after.encode())
             for i, (after, before, moves) in enumerate(frames[1:], 1)]
    if row.status == "finished":
        result = "-".join(str(r) for r in row.ranks) if row.ranks else NONE
    else:
        result = "aborted" if row.status == "aborted" else "*"
    started = row.started_at or row.created_at
    with speaking(SOURCE_LANGUAGE):     # a file format, like PGN: the same English text whoever exports it
        termination = wording.end_sentence(match) if match.is_over else NONE
    tags = {"Date": datetime.fromisoformat(started).astimezone(UTC).date().isoformat(), "Result": result,
            "Termination": termination, "Match": f"#{row.id}",
            "Site": site}
    return GameRecord(row.game, start.variant, row.players, start.encode(), turns,
                      tuple(match.game.seat_names(row.players)), tuple(match.names), tags,
                      [start, *(f[0] for f in frames[1:])])


# ---- reading ------------------------------------------------------------------------------------------------------
def decode_text(data: bytes) -> str:
    """A record file's text: at most MAX_RECORD_BYTES of UTF-8."""
    if len(data) > MAX_RECORD_BYTES:
        raise BadInput(T(wording.RECORD_TOO_LARGE, size=len(data), limit=MAX_RECORD_BYTES))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadInput(T(wording.RECORD_NOT_TEXT)) from None


def find_game(name: str) -> Game:
    want = name.strip().casefold()
    for game in GAMES.values():
        if want in (game.key.casefold(), game.title.casefold()):
            return game
    raise BadInput(T(wording.RECORD_UNKNOWN_GAME, game=quote(name)))


# A line is read in time linear in it whatever it holds: the regular expression this replaced backtracked on a
# turn line whose "{" never closes (68 s for one 4 KB line). A tag is read by a forward-only tokenizer (str.find,
# slices and single-class patterns). A turn line, the common line, is matched by one pattern whose every piece is
# a character class that excludes the delimiter after it, and nothing else: the number stops at its ".", the seat
# at the first ":", the moves at the only "{", the code at the "}" that ends the line. A piece can only end at its
# delimiter, so a failed match gives back at most each piece's characters once (linear), never a combination of
# splits; the pattern runs in C over every line of a record (``scan``), the per-line Python only on the rest.
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")    # a tag's name: one greedy class, nothing after it to retry
_ESCAPED = re.compile(r"\\(.)", re.S)           # one escaped character: no quantifier at all
_TURN_LINE = re.compile(r"(\d{1," + str(TURN_NUMBER) + r"})\.(\s[^:{}]+):(\s+[^{}\s][^{}]*)\{(?=[^{]*\Z)([^}]*)\}")
"""``<number>. <seat>: <moves> {<code>}`` (a stripped line, ``fullmatch``): the number's digits, then at least
one space and the seat's name (no ":", "{" or "}"), ":", at least one space and the moves (some not a space; no
"{" or "}", ":" allowed), and the code between the line's only "{" and the "}" that ends it. The code, most of a
turn line's characters, is read by classes of ONE excluded character (``[^{]*`` looking ahead: no second "{";
``[^}]*``: up to the first "}"), which the regular expression engine scans in a tight loop, five times faster than
a class of two (``[^{}]*``): the same lines match, with the same pieces."""


TurnLine = tuple[int, str, str, str]
"""The pieces of ``<number>. <seat>: <moves> {<code>}``, stripped: number, seat, moves, code."""
ScannedTurn = tuple[int, re.Match[str]]
"""A turn line as ``scan`` found it: its line number and its match of ``_TURN_LINE``, made into pieces
(``turn_pieces``) only when the replay reaches it: a record of thousands of turn lines that goes wrong early
(say, turns after the end of the game) costs the pattern, not thousands of tuples."""


def read_tag(line: str) -> tuple[str, str] | None:
    """``[Key "value"]`` as the key and the unescaped value; None when the line is no tag."""
    if not (line.startswith("[") and line.endswith('"]')):
        return None
    word = _WORD.match(line, 1)
    if word is None or word.end() - 1 > TAG_KEY:
        return None
    rest = line[word.end():]
    quoted = rest.lstrip()
    if len(quoted) == len(rest) or not quoted.startswith('"') or len(quoted) < 3:
        return None
    inner = quoted[1:-2]                           # between the opening quote and the closing '"]'
    # split in C into the text between escapes and the escaped characters, alternately (a substitution with
    # the template r"\1" calls back into Python for every escape: 0.25 ms for a long name full of them)
    pieces = _ESCAPED.split(inner)
    bare = "".join(pieces[::2])                    # what is left once every escaped character is taken out
    if '"' in bare or bare.endswith("\\"):         # an unescaped quote inside, or the closing quote escaped
        return None
    return word.group(), "".join(pieces)


def read_turn_line(line: str) -> TurnLine | None:
    """A turn line's pieces; None when the line is no turn (the grammar in the module docstring)."""
    turn = _TURN_LINE.fullmatch(line)
    return None if turn is None else turn_pieces(turn)


def turn_pieces(turn: re.Match[str]) -> TurnLine:
    return int(turn[1]), turn[2].strip(), turn[3].strip(), turn[4].strip()


def scan(text: str) -> tuple[dict[str, str], list[ScannedTurn]]:
    """The syntax pass: the header tags and the turn lines (with their line numbers), each line checked on its own
    in time linear in it, at most MAX_RECORD_LINES lines and MAX_RECORD_TURNS turns; nothing is replayed yet. The
    first line at fault, in the order of the lines, gives the refusal."""
    lines = text.splitlines()
    if len(lines) > MAX_RECORD_LINES:
        raise BadInput(T(wording.RECORD_TOO_MANY_LINES, lines=len(lines), limit=MAX_RECORD_LINES))
    stripped = [line.strip() for line in lines]
    turns = list(map(_TURN_LINE.fullmatch, stripped))        # in C: the pattern over every line
    found: list[ScannedTurn] = [(number, turn) for number, turn in enumerate(turns, 1) if turn is not None]
    numbers = [number for number, _ in found]
    over = _over_a_limit(stripped, numbers)
    tags: dict[str, str] = {}
    for number in (number for number, turn in enumerate(turns, 1) if turn is None):   # no turn: tags, the rest
        if over is not None and over[0] <= number:
            raise over[1]
        line = stripped[number - 1]
        if not line or line[0] == ";":
            continue
        tag = read_tag(line) if line[0] == "[" else None
        if tag is None:
            raise BadInput(T(wording.RECORD_BAD_LINE, line=number, text=quote(line)))
        if numbers and numbers[0] < number:
            raise BadInput(T(wording.RECORD_TAG_AFTER_TURNS, line=number))
        key, value = tag
        if key in tags:
            raise BadInput(T(wording.RECORD_DUPLICATE_TAG, line=number, tag=key))
        tags[key] = value
    if over is not None:
        raise over[1]
    return tags, found


def _over_a_limit(stripped: list[str], turn_numbers: list[int]) -> tuple[int, BadInput] | None:
    """The first line over a limit and its refusal: a line (not a comment) longer than MAX_LINE, or the turn
    after MAX_RECORD_TURNS."""
    found: list[tuple[int, BadInput]] = []
    if max(map(len, stripped), default=0) > MAX_LINE:        # rare: only then a look for the line
        long = next((n for n, line in enumerate(stripped, 1) if len(line) > MAX_LINE and line[0] != ";"), None)
        if long is not None:
            found.append((long, BadInput(T(wording.RECORD_LINE_TOO_LONG, line=long, limit=MAX_LINE))))
    if len(turn_numbers) > MAX_RECORD_TURNS:
        refusal = BadInput(T(wording.RECORD_TOO_MANY_TURNS, limit=MAX_RECORD_TURNS))
        found.append((turn_numbers[MAX_RECORD_TURNS], refusal))
    return min(found, key=lambda f: f[0]) if found else None


def _check_work(game: Game, turn_lines: Sequence[ScannedTurn]) -> None:
    """Refuse, before any replay, a record longer than its game allows or with more moves than we replay (more
    than MAX_RECORD_TURNS turns were refused by ``scan``)."""
    turns = len(turn_lines)
    if game.turn_cap and turns > game.turn_cap:
        raise BadInput(T(wording.RECORD_OVER_TURN_CAP, turns=turns, game=game.title, cap=game.turn_cap))
    moves = turns + sum(turn[3].count(",") for _, turn in turn_lines)
    if moves > MAX_RECORD_MOVES:
        raise BadInput(T(wording.RECORD_TOO_MANY_MOVES, moves=moves, limit=MAX_RECORD_MOVES))


def person_name(value: str) -> str:
    """A PlayerN tag as a name: trimmed as a match trims a player's name (``Person``); '' when unknown."""
    name = " ".join(value.split())[:MAX_NAME]
    return "" if name == NONE else name


def parse(text: str) -> GameRecord:
    """Read and verify a record (see the module docstring); BadInput names the first line at fault.

    Linear in the text and bounded by the limits above; still some milliseconds per hundred turns of replay, so
    the bot calls it in a thread (``bot.discord.records.read_record``), never on the event loop."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:
        raise BadInput(T(wording.RECORD_TOO_LARGE, size=size, limit=MAX_RECORD_BYTES))
    return _read(text)


def _read(text: str) -> GameRecord:
    """``parse`` of a text known to be at most MAX_RECORD_BYTES of UTF-8."""
    tags, turn_lines = scan(text)
    for required in ("Game", "Players", "Start"):
        if required not in tags:
            raise BadInput(T(wording.RECORD_MISSING_TAG, tag=required))
    game = find_game(tags.pop("Game"))
    _check_work(game, turn_lines)
    players_text = tags.pop("Players")
    if not (players_text.isascii() and players_text.isdigit()) or int(players_text) not in game.player_counts:
        raise BadInput(T(wording.RECORD_BAD_PLAYERS, players=quote(players_text), game=game.title,
                         counts=Either(game.player_counts)))
    players = int(players_text)
    start_code = tags.pop("Start")
    try:
        state = game.decode(start_code)
    except InvalidPosition as exc:
        raise BadInput(T(wording.RECORD_BAD_START, reason=Said(exc.phrase))) from None
    variant_text = tags.pop("Variant", NONE)
    variant = None if variant_text == NONE else variant_text
    if state.players != players or (variant is not None and state.variant != variant):
        raise BadInput(T(wording.RECORD_START_DISAGREES))
    seat_names = game.seat_names(players)
    people = tuple(person_name(tags.pop(f"Player{i + 1}", "")) for i in range(players))
    for i in range(players):
        tags.pop(f"Seat{i + 1}", None)
    folded = [name.casefold() for name in seat_names]
    states = [state]
    turns: list[RecordTurn] = []
    for at, turn_line in turn_lines:
        number, label, text_moves, code = turn_pieces(turn_line)
        expected = len(turns) + 1
        if number != expected:
            raise BadInput(T(wording.RECORD_TURN_NUMBER, line=at, number=number, expected=expected))
        if state.is_over or state.to_move is None:
            raise BadInput(T(wording.RECORD_AFTER_END, line=at, turn=number))
        seat = state.to_move
        if label.casefold() != folded[seat]:
            raise BadInput(T(wording.RECORD_WRONG_SEAT, line=at, turn=number, label=quote(label),
                             seat=seat_names[seat]))
        tokens = [t.strip() for t in text_moves.split(",")]
        if not all(tokens):
            raise BadInput(T(wording.RECORD_EMPTY_MOVE, line=at, turn=number))
        try:
            moves, after = play_turn(state, seat, tokens)
        except BadMove as exc:
            raise BadInput(T(wording.RECORD_ILLEGAL_TURN, line=at, turn=number, reason=exc.message)) from None
        state = after[-1]
        if state.encode() != code:
            raise BadInput(T(wording.RECORD_CODE_MISMATCH, line=at, turn=number))
        turns.append(RecordTurn(number, seat, tuple(moves), code))
        states.append(state)
    return GameRecord(game.key, state.variant if variant is None else variant, players, start_code.strip(), turns,
                      tuple(seat_names), people, tags, states)


def parse_bytes(data: bytes) -> GameRecord:
    # decode_text has refused more than MAX_RECORD_BYTES; the text's UTF-8 is those bytes (without a BOM), so it
    # is not encoded again to be measured (100 KB of text with one non-ASCII name: 0.06 ms)
    return _read(decode_text(data))
