"""Translations: one message catalog per language, the language of the moment, and lazy messages. No Discord here.

The English text is the message id; ``bot/locale/<lang>/LC_MESSAGES/messages.po`` holds the translations (the
source of truth, edited by people and by ``make messages``). The .po files are compiled in memory with Babel when
a language is first used, so there are no compiled files that could fall out of step with them.

The language is carried by a context variable that the front end sets where it knows who reads the text
(``with speaking("de"): ...``): the user's Discord locale for private replies, the server's for channel posts.
So wording functions take no language parameter: ``_()`` translates into the language of the moment.

``T("It is not your turn — {who} is to move.", who=name)`` is a message kept untranslated until it is shown:
a service raises it inside a ``ServiceError`` before anyone knows who will read it; ``str()`` renders it in the
language of the moment (English by default, so logs and tests read English).
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from engines.base import Phrase

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "messages"
SOURCE_LANGUAGE = "en"            # the message ids are the English texts
LANGUAGES = ("en", "de")          # every language with a complete catalog

_language: ContextVar[str] = ContextVar("language", default=SOURCE_LANGUAGE)


def language_of(locale: object) -> str:
    """The catalog language for a Discord locale ('de', 'en-US', 'en-GB', a ``discord.Locale``…); English when
    there is no catalog for it."""
    code = str(getattr(locale, "value", locale) or "").lower().replace("_", "-")
    base = code.split("-")[0]
    return base if base in LANGUAGES else SOURCE_LANGUAGE


def current() -> str:
    """The language texts are composed in right now."""
    return _language.get()


@contextmanager
def speaking(locale: object) -> Iterator[str]:
    """Compose texts in ``locale``'s language inside the block (a Discord locale or a catalog language)."""
    token = _language.set(language_of(locale))
    try:
        yield _language.get()
    finally:
        _language.reset(token)


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """The translations of ``language``, compiled in memory from its .po file (English needs none)."""
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    with open(LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as f:
        po = read_po(f, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, po)      # fuzzy entries are left out, as msgfmt does
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def _(message: str) -> str:
    """``message`` in the language of the moment."""
    return catalog(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the language of the moment (German and English: n == 1)."""
    return catalog(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in a context (a command name is not the same word as a sentence with the same letters)."""
    return catalog(current()).pgettext(context, message)


def N_(message: str) -> str:
    """Marks a constant for extraction; it is translated where it is used (``_(CONSTANT)``)."""
    return message


class T:
    """A message to be rendered later, in the reader's language: ``T("{who} is to move.", who=name)``. Values
    that are ``T`` themselves are rendered in the same language."""

    __slots__ = ("message", "values")

    def __init__(self, message: str, /, **values: Any):
        self.message, self.values = message, values

    def template(self, translations: gettext.NullTranslations) -> str:
        return translations.gettext(self.message)

    def render(self, language: str | None = None) -> str:
        lang = language or current()
        values: Mapping[str, Any] = {k: v.render(lang) if isinstance(v, T) else v for k, v in self.values.items()}
        return self.template(catalog(lang)).format(**values)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class TN(T):
    """A lazy message with a plural: ``TN("{n} game", "{n} games", n)`` (``n`` is also a value)."""

    __slots__ = ("plural", "n")

    def __init__(self, singular: str, plural: str, n: int, /, **values: Any):
        super().__init__(singular, n=n, **values)
        self.plural, self.n = plural, n

    def template(self, translations: gettext.NullTranslations) -> str:
        return translations.ngettext(self.message, self.plural, self.n)


def compose(words: Phrase, names: Mapping[str, str] | None = None, language: str | None = None) -> str:
    """An engine's phrase in ``language`` (default: the language of the moment): its template and every nested
    one through the catalog, with people's names put in for the seat names in ``names`` ('Player 1' -> 'Ann').
    ``bot.wording.words`` is how front ends call it."""
    translations = catalog(language or current())
    seats = names or {}

    def translate(context: str, template: str) -> str:
        if template in seats:
            return seats[template]
        return translations.pgettext(context, template) if context else translations.gettext(template)
    return words.compose(translate)


class Said(T):
    """An engine's phrase (a refusal) as a lazy message: composed in the reader's language when shown, then
    passed through ``finish`` (rule codes stripped, a length cut)."""

    __slots__ = ("phrase", "finish")

    def __init__(self, words: Phrase, finish: Callable[[str], str] | None = None):
        super().__init__(words.template)
        self.phrase, self.finish = words, finish

    def render(self, language: str | None = None) -> str:
        text = compose(self.phrase, language=language)
        return self.finish(text) if self.finish else text


def board_texts() -> dict[str, dict[str, str]]:
    """The words drawn into board images (``render.texts.messages()``) translated into each catalog language,
    for the render processes (``RenderPool(texts=...)``)."""
    from render.texts import messages
    return {lang: {m: catalog(lang).gettext(m) for m in messages()} for lang in LANGUAGES if lang != SOURCE_LANGUAGE}


OR = N_("{a} or {b}")


class Either(T):
    """'2 or 3', '1, 2 or 3' in the reader's language (a choice of values inside a lazy message)."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[object]):
        super().__init__(OR)
        self.items = [str(i) for i in items]

    def render(self, language: str | None = None) -> str:
        if len(self.items) < 2:
            return "".join(self.items)
        return catalog(language or current()).gettext(OR).format(a=", ".join(self.items[:-1]),
                                                                           b=self.items[-1])
