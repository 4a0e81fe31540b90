"""The engine contract (../shared/ENGINES.md) and the small extras the bot and renderers share.

Every game module defines one ``Game`` subclass instance and one ``State`` subclass. The contract names
are exact; the extras below (``describe``, ``turn_suggestions``, ``split_turn``...) have sensible defaults
so a new game only overrides what it needs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import ClassVar


@dataclass(frozen=True)
class Phrase:
    """Words as data: an English ``template`` (the catalog's message id) with ``{placeholders}`` filled from
    ``args`` (numbers, cell names, notation, or nested phrases: a colour's name, a part of a description).

    Engines describe moves, refusals and boards with phrases; the bot composes them in the reader's language
    (``bot.wording.words``); ``str()`` is the English. Frozen but not hashable (its dict is not).
    """

    template: str
    args: dict[str, object] = field(default_factory=dict)
    context: str = ""
    """Set where the English alone is ambiguous (a colour's letter): the catalog's message context."""

    def compose(self, translate: Callable[[str, str], str] | None = None) -> str:
        """The text, with ``translate`` ((context, English template) -> the reader's) applied to this and every
        nested phrase; English without it."""
        values = {k: v.compose(translate) if isinstance(v, Phrase) else v for k, v in self.args.items()}
        template = translate(self.context, self.template) if translate and self.template else self.template
        return template.format_map(values) if self.args or "{" in template else template

    def __str__(self) -> str:
        return self.compose()

    def to_data(self) -> dict[str, object]:
        """The phrase as JSON-ready data (kept in an announcement, composed when it is posted)."""
        args = {k: v.to_data() if isinstance(v, Phrase) else v for k, v in self.args.items()}
        return {"template": self.template, "args": args, **({"context": self.context} if self.context else {})}

    @classmethod
    def from_data(cls, data: dict[str, object]) -> Phrase:
        """``to_data`` read back."""
        raw = data.get("args")
        args = {str(k): cls.from_data(v) if isinstance(v, dict) else v for k, v in (raw or {}).items()} \
            if isinstance(raw, dict) else {}
        return cls(str(data.get("template", "")), args, str(data.get("context", "")))


def phrase(template: str, /, **args: object) -> Phrase:
    """A phrase (the marker ``tools/messages.py`` extracts the engines' templates by): ``phrase("{cell} is
    empty.", cell="E4")``."""
    return Phrase(template, args)


def mark(word: str) -> str:
    """Marks an English word kept in a table ('red', 'Rook') for extraction; a phrase that carries it wraps it:
    ``phrase(NAMES[c])``."""
    return word


def mark_in(context: str, word: str) -> str:
    """``mark`` with a message context, for words whose English alone is ambiguous (a colour's letter):
    ``Phrase(word, context=...)`` carries it."""
    return word


def joined(parts: Sequence[Phrase | str], sep: str = ", ") -> Phrase:
    """The parts in one phrase, separated by ``sep`` (a template of no words: nothing to translate)."""
    return Phrase(sep.join(f"{{p{i}}}" for i in range(len(parts))), {f"p{i}": p for i, p in enumerate(parts)})


def _literal(text: str) -> str:
    """``text`` as a template that composes to itself (its braces doubled)."""
    return text.replace("{", "{{").replace("}", "}}")


NOTHING = Phrase("")
"""The empty phrase (a move with nothing to say about it)."""


def labelled(value: str, note: Phrase) -> Phrase:
    """An autocomplete label: ``e2>f3 — captures 3``, or the value alone when there is nothing to say."""
    return Phrase("{value} — {note}", {"value": value, "note": note}) if note.template \
        else Phrase("{value}", {"value": value})


class Refusal(ValueError):
    """A refusal of what a player typed, raised with a ``Phrase`` (or a plain English string): ``phrase`` keeps it
    as data for the bot to compose in the reader's language, ``str()`` is the English."""

    def __init__(self, message: Phrase | str):
        self.phrase = message if isinstance(message, Phrase) else Phrase(_literal(message))
        super().__init__(str(self.phrase))


class IllegalMove(Refusal):
    """A move the rules forbid; the message tells a player, in one sentence, which rule it breaks."""


class InvalidPosition(Refusal):
    """A position code that is malformed or physically impossible."""


class Termination(StrEnum):
    """How a game ended (python-chess's ``Termination``). Each game subclasses it with its own members; a member's
    value is the key stored with a finished match and the key of its sentence in ``Game.terminations``, so a
    member equals (and hashes as) its stored string."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, as data (python-chess's ``Outcome``): texts are made from it, never parsed.

    ``termination`` (a member of the game's ``Game.termination_kinds``) keys the game's template in
    ``Game.terminations``; ``outcome_text`` fills it. ``roles`` name
    the seats the text refers to (``{"winner": 0}``), ``facts`` the other values it needs
    (``{"colour": "red"}``). Frozen but not hashable (its dicts are not): compare it, don't hash it.
    """

    termination: Termination
    winners: tuple[int, ...]           # the seats that won; all seats = a draw; always ``state.winners``
    ranks: tuple[int, ...]             # per seat, 1 = best, ties share a rank (``rank_seats``)
    roles: dict[str, int] = field(default_factory=dict)
    facts: dict[str, str | int] = field(default_factory=dict)


class State:
    """One position. Immutable from the outside: ``play`` returns a new state.

    Subclasses provide ``to_move``, ``is_over``, ``winners``, ``scores``, ``players``, ``variant``,
    ``legal_moves()``, ``play()``, ``encode()`` and ``outcome()``.
    """

    game: ClassVar[Game]
    players: int
    variant: str | None

    # --- contract -------------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        """The seat of the player to move, 0-based; None once the game is over."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won, empty until the game is over; several = a shared win; all seats = a draw."""
        raise NotImplementedError

    @property
    def scores(self) -> tuple[float, ...]:
        """One number per seat, as the rules count them."""
        raise NotImplementedError

    def legal_moves(self) -> list[str]:
        raise NotImplementedError

    def play(self, move: str) -> State:
        raise NotImplementedError

    def encode(self) -> str:
        raise NotImplementedError

    # --- extras with defaults ---------------------------------------------------------------------------
    def describe(self, move: str) -> str:
        """A few words on what ``move`` does, for autocomplete ('collects G, may continue'), in English. May be ''."""
        return str(self.describe_phrase(move))

    def describe_phrase(self, move: str) -> Phrase:
        """``describe`` as data (the bot composes it in the reader's language); ``NOTHING`` for an illegal move."""
        return NOTHING

    def canonical(self, move: str) -> str:
        """The canonical form of ``move`` (what the bot stores and shows); raises IllegalMove like play().

        The default finds the listed move that plays to the same position; engines may do better.
        """
        legal = self.legal_moves()
        if move in legal:
            return move
        want = normalise(move)
        for m in legal:
            if normalise(m) == want:
                return m
        code = self.play(move).encode()  # raises IllegalMove for a move the rules forbid
        for m in legal:
            if self.play(m).encode() == code:
                return m
        raise IllegalMove(f"{move!r} is not a legal move here.")

    def pending(self) -> str:
        """When the player to move is inside a *forced* continuation: what they must do next ('move again').

        '' when a new turn starts or the continuation is optional (the bot then plays ``end`` itself).
        """
        return str(self.pending_phrase())

    def pending_phrase(self) -> Phrase:
        """``pending`` as data."""
        return NOTHING

    def turn_record(self, moves: list[str]) -> str:
        """The game-record line for ``moves`` played from this state ('F5-H4-C3-E2 — collected 3× green').

        Called on the state *before* the turn. Default: the moves joined by commas, without ``end``.
        """
        return ", ".join(m for m in moves if m != "end")

    def turn_record_phrase(self, moves: list[str]) -> Phrase:
        """``turn_record`` as data: notation stays as it is, the words are the phrase's (a game whose record has
        words overrides this, and ``turn_record`` as its English). Default: ``turn_record``, all notation."""
        return Phrase(_literal(self.turn_record(moves)))

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it runs); ``outcome_text`` makes the sentence a player reads."""
        raise NotImplementedError

    def text_board(self) -> str:
        """A plain-text picture of the position for the terminal mode, in English."""
        return str(self.text_board_phrase())

    def text_board_phrase(self) -> Phrase:
        """``text_board`` as data: its lines of words are phrases, the seats named by ``seat_names``."""
        return Phrase("{code}", {"code": self.encode()})

    def position_key(self) -> str:
        """The position as play sees it: two states with the same key have the same board, mover and legal
        turns, whatever else their codes hold. Default: the code (``decode`` already reads every spelling of a
        position into one state); a game overrides it where a field changes no board, mover or legal turn."""
        return self.encode()


class Game:
    """A registered game: metadata plus ``new`` and ``decode``."""

    key: str = ""
    title: str = ""
    player_counts: tuple[int, ...] = (2,)
    variants: tuple[str, ...] = ()
    # Extras used by the bot ---------------------------------------------------------------------------------
    variant_option: str = "variant"   # the slash-command option name that picks a variant
    variant_labels: dict[str, str] = {}   # variant -> what a player reads ('Hex board (37 cells)')
    teams: dict[int, tuple[tuple[int, ...], ...]] = {}  # player count -> seats per team (Spinca's 4 players)
    termination_kinds: type[Termination] = Termination
    """The game's ``Termination`` subclass: every way the rules end its games (the turn cap is ``CapTermination``)."""
    terminations: dict[str, str] = {}
    """Every member of ``termination_kinds`` (by its value; and ``TURN_CAP_TERMINATION`` when the game words its
    cap) -> the English sentence that explains it, with ``{role}`` and ``{fact}`` fields."""
    fact_words: tuple[str, ...] = ()
    """The English words a termination's facts can hold ('red', 'checkers'), translated with the sentence: a
    fact made of them (one, or several joined by ', ') is passed through ``outcome_text``'s ``translate``."""
    turn_cap: int | None = None
    """The bot's draw cap in whole turns (a turn is all the moves of one player), or None. The engine does not
    apply it: the match service counts turns from the move log and calls ``turn_cap_outcome`` at the cap."""
    history_in_state: bool = False
    """True when playing on from a decoded code can differ from playing on from the replayed state, because
    repetition rules count positions the code does not hold."""
    turn_reach: int | None = None
    """For a game whose whole turn can reach too many positions to list them (``turn_positions`` gives up): the
    most fields of a position key (``key_fields``) that one whole turn changes, so a key that near another is
    treated as within one turn of it. None: every game turn is listed."""

    def new(self, players: int = 2, seed: int | None = None, variant: str | None = None) -> State:
        raise NotImplementedError

    def decode(self, code: str) -> State:
        raise NotImplementedError

    # --- extras with defaults ------------------------------------------------------------------------------
    def seat_names(self, players: int) -> tuple[str, ...]:
        """What each seat is called in the rules ('White', 'South'); default 'Player 1'…"""
        return tuple(f"Player {i + 1}" for i in range(players))

    def split_turn(self, text: str) -> list[str]:
        """Split what a player typed into the atomic moves of one submission. Default: one move."""
        text = text.strip()
        return [text] if text else []

    def move_steps(self, move: str) -> tuple[str, ...]:
        """``move`` cut into the steps a player picks one after another (``engines.steps``); joined, they give
        ``move`` back. Default: a step is a run of letters and digits with the separators before it
        (``1b1-1c2 2a1`` -> ``1b1``, ``-1c2``, `` 2a1``). No legal move's steps may be a proper prefix of another's.
        """
        return tuple(_STEP.findall(move))

    def step_cells(self, move: str, index: int) -> tuple[str, ...]:
        """The cells (as the notation names them) that step ``index`` of ``move`` involves, for marking them on a
        board. Default: each letter followed by digits in the step (``>f3`` -> ``f3``, ``E4`` -> ``E4``)."""
        return tuple(_CELL.findall(self.move_steps(move)[index]))

    def turn_suggestions(self, state: State, typed: str, limit: int = 25) -> list[tuple[str, str]]:
        """Autocomplete: (value, label) pairs of submissions that start with what was typed, labelled in English
        (``suggestion_phrases`` has the labels as data)."""
        return [(value, str(label)) for value, label in self.suggestion_phrases(state, typed, limit)]

    def suggestion_phrases(self, state: State, typed: str, limit: int = 25) -> list[tuple[str, Phrase]]:
        """``turn_suggestions`` with each label a phrase.

        Default: the single legal moves whose text starts with ``typed`` (case and spacing ignored), each
        labelled with ``describe_phrase``. Games whose turns chain several moves override this.
        """
        want = normalise(typed)
        out: list[tuple[str, Phrase]] = []
        for move in state.legal_moves():
            if normalise(move).startswith(want):
                out.append((move, labelled(move, state.describe_phrase(move))))
                if len(out) >= limit:
                    break
        return out


_STEP = re.compile(r"[^A-Za-z0-9]*[A-Za-z0-9]+|[^A-Za-z0-9]+$")
_CELL = re.compile(r"[A-Za-z]\d+")


def turn_positions(state: State, limit: int) -> set[str] | None:
    """The ``position_key`` of ``state`` and of every position its mover's whole turn passes through or ends in
    (between the moves of a multi-move turn, and after each legal whole turn); None once there are more than
    ``limit`` of them. Positions reached by different move orders are counted once."""
    seat = state.to_move
    keys = {state.position_key()}
    seen = {state.encode()}
    stack = [state]
    while stack:
        current = stack.pop()
        if current.is_over or current.to_move != seat:
            continue                   # the turn is over here: the next player's moves are not this turn
        for move in current.legal_moves():
            after = current.play(move)
            code = after.encode()
            if code in seen:
                continue
            seen.add(code)
            keys.add(after.position_key())
            if len(seen) > limit:
                return None
            stack.append(after)
    return keys


_KEY_FIELDS = re.compile(r"[ ,/]")


def key_fields(key: str) -> list[str]:
    """A position key cut at spaces, commas and slashes: the fields ``key_distance`` compares."""
    return _KEY_FIELDS.split(key)


def key_distance(a: str, b: str) -> int | None:
    """How many fields of two position keys differ, or None when they do not have the same fields (another
    variant or player count: not comparable)."""
    fa, fb = key_fields(a), key_fields(b)
    if len(fa) != len(fb):
        return None
    return sum(x != y for x, y in zip(fa, fb, strict=True))


def normalise(text: str) -> str:
    """Lower-case and collapse whitespace, for prefix matching of typed moves."""
    return re.sub(r"\s+", " ", text.strip().lower())


def rank_seats(state: State, winners: Sequence[int], among: Sequence[int] | None = None) -> tuple[int, ...]:
    """Rank per seat: the winners share the first rank, then the others by score (higher is better), ties
    sharing a rank. A draw (every seat a winner) ranks every seat first, whatever the scores: the rules
    decided it, and a rating must count it as a draw. Seats outside ``among`` (default: every seat) get
    rank 0, for the caller to place.
    """
    seats = list(range(state.players)) if among is None else list(among)
    scores = state.scores
    key = {s: (True, 0.0) if s in winners else (False, scores[s]) for s in seats}
    ordered = sorted(set(key.values()), reverse=True)
    return tuple(ordered.index(key[s]) + 1 if s in key else 0 for s in range(state.players))


def outcome_text(game: Game, outcome: Outcome, names: Sequence[str],
                 translate: Callable[[str], str] | None = None) -> str:
    """The sentence that explains ``outcome``: the game's template with each role's seat replaced by
    ``names[seat]`` (display names, Discord mentions, seat names...) and each fact written as it is.

    ``translate`` (a catalog lookup: English text -> the reader's language) translates the template and the
    facts made of ``game.fact_words``; the names are the caller's, already in the reader's language.
    The one place where end-of-game texts are composed.
    """
    template = game.terminations[outcome.termination]
    if translate is None:
        return fill_template(template, outcome, names)
    return fill_template(translate(template), translate_facts(game, outcome, translate), names)


def outcome_phrase(game: Game, outcome: Outcome, names: Sequence[str]) -> Phrase:
    """``outcome_text`` as a phrase: the game's template, each role a phrase of ``names[seat]`` (seat names, so
    the bot translates them or puts the players' names in), each word fact (``fact_words``) a phrase."""
    def fact(value: str | int) -> object:
        if isinstance(value, str) and value and all(w in game.fact_words for w in value.split(", ")):
            return joined([Phrase(w) for w in value.split(", ")])
        return value

    args: dict[str, object] = {k: fact(v) for k, v in outcome.facts.items()}
    args.update((role, Phrase(names[seat])) for role, seat in outcome.roles.items())
    return Phrase(game.terminations[outcome.termination], args)


def translate_facts(game: Game, outcome: Outcome, translate: Callable[[str], str]) -> Outcome:
    """``outcome`` with each fact made of ``game.fact_words`` (one word, or several joined by ', ') translated."""
    def word_fact(value: str | int) -> bool:
        return isinstance(value, str) and bool(value) and all(w in game.fact_words for w in value.split(", "))

    facts = {k: ", ".join(translate(w) for w in str(v).split(", ")) if word_fact(v) else v
             for k, v in outcome.facts.items()}
    return replace(outcome, facts=facts)


def fill_template(template: str, outcome: Outcome, names: Sequence[str]) -> str:
    """``template`` with each ``{role}`` replaced by ``names[seat]`` and each ``{fact}`` by its value (for a
    termination the engine does not know: a resignation, a time-out, the match service's cap)."""
    values: dict[str, object] = dict(outcome.facts)
    values.update((role, names[seat]) for role, seat in outcome.roles.items())
    return template.format_map(values)


TURN_CAP_TERMINATION = "turn_cap"
"""The termination of a game the match service ended at ``Game.turn_cap`` (its template has a ``{turns}`` fact)."""


class CapTermination(Termination):
    """The end no engine decides: the match service's draw at a game's ``turn_cap`` (a game may word it in its
    ``terminations``; the bot has a sentence for every game)."""

    TURN_CAP = TURN_CAP_TERMINATION


def turn_cap_outcome(state: State) -> Outcome:
    """The draw of a game stopped at its game's ``turn_cap``: every seat shares the result."""
    cap = state.game.turn_cap
    if cap is None:
        raise ValueError(f"{state.game.title} has no turn cap.")
    seats = tuple(range(state.players))
    return Outcome(CapTermination.TURN_CAP, seats, rank_seats(state, seats), facts={"turns": cap})
