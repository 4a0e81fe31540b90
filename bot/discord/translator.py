"""Command names, options, descriptions and choices in the user's language, from the same message catalog.

discord.py hands every string of the command tree to the translator when it syncs (and every choice name when
it answers an autocomplete); the English string is the message id. Names are looked up in their own contexts
(``command name``, ``option name``): a name obeys Discord's rules (lowercase, no spaces, 32 characters), a
sentence with the same letters does not.
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import SOURCE_LANGUAGE, catalog, language_of

COMMAND_NAME, OPTION_NAME = "command name", "option name"
_CONTEXTS = {Where.command_name: COMMAND_NAME, Where.group_name: COMMAND_NAME, Where.parameter_name: OPTION_NAME}


class CatalogTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = language_of(locale)
        if language == SOURCE_LANGUAGE:
            return None
        translations, message = catalog(language), string.message
        where = _CONTEXTS.get(context.location)
        text = translations.pgettext(where, message) if where else translations.gettext(message)
        return None if text == message else text     # untranslated: Discord shows the English
