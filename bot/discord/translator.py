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


def translatable_descriptions(tree: app_commands.CommandTree) -> None:
    """Make every option description and choice name reach the translator: discord.py keeps a description or a
    choice name given as a plain string (``@describe(x="…")``, ``Choice(name="…")``) out of translation, so each
    becomes a ``locale_str`` with the same text."""
    def walk(command: app_commands.Command | app_commands.Group | app_commands.ContextMenu) -> None:
        if isinstance(command, app_commands.Group):
            for sub in command.commands:
                walk(sub)
        elif isinstance(command, app_commands.Command):
            for param in command._params.values():     # the documented Parameter view is read-only
                if not isinstance(param.description, app_commands.locale_str):
                    param.description = app_commands.locale_str(str(param.description))
                if param.choices:       # discord.py's MISSING (no choices) is falsy
                    param.choices = [translatable(choice) for choice in param.choices]
    for command in tree.get_commands():
        walk(command)


def translatable(choice: app_commands.Choice) -> app_commands.Choice:
    """A choice whose name the translator sees (the English name is the message id)."""
    if isinstance(choice._locale_name, app_commands.locale_str):    # marked already
        return choice
    return app_commands.Choice(name=app_commands.locale_str(choice.name), value=choice.value)
