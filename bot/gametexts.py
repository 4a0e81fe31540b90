"""Each game's texts for players, per language: its rules, its quick start and its one-line summary.

They are presentation, so they live here rather than in the engines: ``bot/texts/<language>/<game>/`` holds
``rules.md`` (the rules as played here, interpretations included: ``/<game> rules``), ``quick_start.md`` (how
to read the board and type a turn: ``/help``) and ``summary.md`` (one line: the challenge card, ``/help``).
Markdown and move notation are the same in every language; only the words are translated. A language with no
folder falls back to English; a missing file in a language that has a folder is an error (the tests check that
every game has every text in every language). No Discord here.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from bot.i18n import SOURCE_LANGUAGE, current

TEXTS_DIR = Path(__file__).with_name("texts")
KINDS = ("rules", "quick_start", "summary")   # one file per kind: <kind>.md


def text_language(language: str) -> str:
    """``language`` when it has texts, else English."""
    return language if (TEXTS_DIR / language).is_dir() else SOURCE_LANGUAGE


@cache
def game_text(game_key: str, kind: str, language: str) -> str:
    """The text ``kind`` of the game ``game_key`` in ``language`` (English for a language with no texts)."""
    if kind not in KINDS:
        raise ValueError(f"unknown game text {kind!r}: one of {', '.join(KINDS)}")
    path = TEXTS_DIR / text_language(language) / game_key / f"{kind}.md"
    return path.read_text(encoding="utf-8").strip()


def missing(game_key: str, root: Path = TEXTS_DIR) -> list[str]:
    """The text files game ``game_key`` lacks (or has empty) under ``root``: every kind in English and in every
    language that has a folder there. The registry's start-up check names them."""
    folders = {d.name for d in root.iterdir() if d.is_dir()} if root.is_dir() else set()
    languages = sorted(folders | {SOURCE_LANGUAGE})
    paths = [root / language / game_key / f"{kind}.md" for language in languages for kind in KINDS]
    return [str(p.relative_to(root)) for p in paths
            if not p.is_file() or not p.read_text(encoding="utf-8").strip()]


def rules(game_key: str, language: str | None = None) -> str:
    """The rules as played here (markdown), in ``language`` (default: the language of the moment)."""
    return game_text(game_key, "rules", language or current())


def quick_start(game_key: str, language: str | None = None) -> str:
    """How to read the board and type a turn, in a few lines (markdown)."""
    return game_text(game_key, "quick_start", language or current())


def summary(game_key: str, language: str | None = None) -> str:
    """The game in one line."""
    return game_text(game_key, "summary", language or current())
