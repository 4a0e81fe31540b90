"""The engine contract (../shared/ENGINES.md) and the small extras the bot and renderers share.

Every game module defines one ``Game`` subclass instance and one ``State`` subclass. The contract names
are exact; the extras below (``describe``, ``turn_suggestions``, ``split_turn``...) have sensible defaults
so a new game only overrides what it needs.
"""

from __future__ import annotations

import re
from typing import ClassVar


class IllegalMove(ValueError):
    """A move the rules forbid; the message tells a player, in one sentence, which rule it breaks."""


class InvalidPosition(ValueError):
    """A position code that is malformed or physically impossible."""


class State:
    """One position. Immutable from the outside: ``play`` returns a new state.

    Subclasses provide ``to_move``, ``is_over``, ``winners``, ``scores``, ``players``, ``variant``,
    ``legal_moves()``, ``play()`` and ``encode()``.
    """

    game: ClassVar[Game]
    players: int
    variant: str | None

    # --- contract -------------------------------------------------------------------------------------
    to_move: int | None
    is_over: bool
    winners: tuple[int, ...]
    scores: tuple

    def legal_moves(self) -> list[str]:
        raise NotImplementedError

    def play(self, move: str) -> State:
        raise NotImplementedError

    def encode(self) -> str:
        raise NotImplementedError

    # --- extras with defaults ---------------------------------------------------------------------------
    def describe(self, move: str) -> str:
        """A few words on what ``move`` does, for autocomplete ('collects G, may continue'). May be ''."""
        return ""

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
        return ""

    def turn_record(self, moves: list[str]) -> str:
        """The game-record line for ``moves`` played from this state ('F5-H4-C3-E2 — collected 3× green').

        Called on the state *before* the turn. Default: the moves joined by commas, without ``end``.
        """
        return ", ".join(m for m in moves if m != "end")

    def end_reason(self) -> str:
        """Once over: why, in one sentence a player reads ('Ann holds all seven red pieces')."""
        return ""

    def text_board(self) -> str:
        """A plain-text picture of the position for the terminal mode."""
        return self.encode()


class Game:
    """A registered game: metadata plus ``new`` and ``decode``."""

    key: str = ""
    title: str = ""
    player_counts: tuple[int, ...] = (2,)
    variants: tuple[str, ...] = ()
    # Extras used by the bot ---------------------------------------------------------------------------------
    summary: str = ""                 # the rules in one line, for the challenge card
    rules_text: str = ""              # the rules as played here (markdown), interpretations included
    variant_option: str = "variant"   # the slash-command option name that picks a variant
    variant_labels: dict[str, str] = {}   # variant -> what a player reads ('Hex board (37 cells)')
    teams: dict[int, tuple[tuple[int, ...], ...]] = {}  # player count -> seats per team (Spinca's 4 players)

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

    def turn_suggestions(self, state: State, typed: str, limit: int = 25) -> list[tuple[str, str]]:
        """Autocomplete: (value, label) pairs of submissions that start with what was typed.

        Default: the single legal moves whose text starts with ``typed`` (case and spacing ignored), each
        labelled with ``describe``. Games whose turns chain several moves override this.
        """
        want = normalise(typed)
        out: list[tuple[str, str]] = []
        for move in state.legal_moves():
            if normalise(move).startswith(want):
                note = state.describe(move)
                out.append((move, f"{move} — {note}" if note else move))
                if len(out) >= limit:
                    break
        return out


def normalise(text: str) -> str:
    """Lower-case and collapse whitespace, for prefix matching of typed moves."""
    return re.sub(r"\s+", " ", text.strip().lower())
