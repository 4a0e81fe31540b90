"""The words drawn into board images, in the language of the post they go with. No bot import here.

Each renderer declares the texts it draws as module-level English templates with named placeholders and lists
them in its ``TEXTS`` tuple; ``messages()`` collects them all (the bot's ``tools/messages.py`` adds them to its
catalog). The renderers draw ``tr(TEMPLATE)``: the template in the render language of the moment, looked up in a
table (English template → translation) that the bot hands to the render process at start (``install``), built
from its own catalog. English needs no table; a template a table lacks is drawn in English.

The language is a context variable (``speaking``), set by ``board_png`` and ``replay_gif`` around one drawing,
so threads (``RenderPool(0)``) and worker processes alike draw each image in its own language.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache

ENGLISH = "en"              # the templates' own language

_language: ContextVar[str] = ContextVar("render_language", default=ENGLISH)
_tables: dict[str, dict[str, str]] = {}
_drawn: list[set[tuple[str, str]]] = []     # test hook: the (language, msgid) pairs looked up, while recording


def install(texts: Mapping[str, Mapping[str, str]] | None) -> None:
    """Make ``texts`` ({language: {English template: translation}}) the tables of this process."""
    _tables.clear()
    for language, table in (texts or {}).items():
        _tables[language] = {k: v for k, v in table.items() if v}


def language() -> str:
    """The language images are drawn in right now."""
    return _language.get()


@contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Draw texts in ``language`` inside the block (English when None or without a table)."""
    token = _language.set(language or ENGLISH)
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def tr(message: str) -> str:
    """``message`` (an English template of some renderer's ``TEXTS``) in the render language of the moment."""
    lang = _language.get()
    if _drawn:
        _drawn[-1].add((lang, message))
    if lang == ENGLISH:
        return message
    table = _tables.get(lang)
    return table.get(message, message) if table else message


def split(message: str, placeholder: str = "name") -> tuple[str, str]:
    """``tr(message)`` cut at ``{placeholder}``: the text before and after it (a name drawn with its own fonts
    goes between). Other placeholders stay in both halves, for ``.format``."""
    before, _, after = tr(message).partition("{" + placeholder + "}")
    return before, after


@contextmanager
def recording() -> Iterator[set[tuple[str, str]]]:
    """Test hook: collects the (language, template) pairs ``tr`` looks up inside the block."""
    seen: set[tuple[str, str]] = set()
    _drawn.append(seen)
    try:
        yield seen
    finally:
        _drawn.remove(seen)


@cache
def messages() -> tuple[str, ...]:
    """Every template the renderers draw (each module's ``TEXTS``: the shared ones, each game's renderer in
    ``render.games.RENDERERS``, the replay's), then the engines' texts the boards draw (every game's seat names
    for all its player counts, end sentences and their fact words), once each."""
    # imported here, not at the top: every renderer imports this module
    from engines import GAMES
    from render import common, replay
    from render.games import RENDERERS
    out: dict[str, None] = {}
    for texts in (common.TEXTS, *(renderer.TEXTS for renderer in RENDERERS.values()), replay.TEXTS):
        out.update(dict.fromkeys(texts))
    for game in GAMES.values():
        out.update(dict.fromkeys(seat for n in game.player_counts for seat in game.seat_names(n)))
        out.update(dict.fromkeys(game.terminations.values()))
        out.update(dict.fromkeys(game.fact_words))
    return tuple(out)

