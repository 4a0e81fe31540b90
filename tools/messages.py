#!/usr/bin/env python3
"""Extract every text a player reads into the message catalog and update the translations (``make messages``).

Five sources, one template (``bot/locale/messages.pot``):

* the code under ``bot/``, with Babel's Python extractor and the marking functions of ``bot/i18n.py``
  (``_``, ``N_``, ``T``, ``TN``, ``ngettext``, ``pgettext``: ``KEYWORDS``);
* the slash-command tree as discord.py builds it (``register_commands``): command and option names (contexts
  ``command name`` / ``option name``), descriptions and choice names, and the context menus' names (context
  ``command name``), exactly the strings the translator gets;
* the games' one-line summaries, variant labels, seat names, end sentences (``terminations``) and the words their
  facts can hold (``fact_words``): engine data shown on cards, in captions and in results;
* the engines' phrases (``engines/``: the templates marked ``phrase``, ``mark`` and ``mark_in`` in
  ``engines.base``): moves' descriptions, refusals, turn records and text boards, composed by ``bot.wording``;
* the words drawn into the board images (``render.texts.messages()``: each renderer's ``TEXTS``).

Then every ``bot/locale/<lang>/LC_MESSAGES/messages.po`` is updated from the template (new ids added empty,
gone ones dropped), ready for a translator. Run from anywhere:

    python tools/messages.py            # write the template and update the .po files
    python tools/messages.py --check    # exit 1, listing the ids, if a language lacks a translation
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402

LOCALE_DIR = ROOT / "bot" / "locale"
TEMPLATE = LOCALE_DIR / "messages.pot"
COMMAND_NAME, OPTION_NAME = "command name", "option name"


# The marking functions of bot/i18n.py, in Babel's keyword form (index of the message argument; "c" = context).
KEYWORDS = {"_": None, "N_": None, "T": None, "TN": (1, 2), "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
# The engines' markers (engines/base.py): a phrase's template, a word kept in a table, a word with a context.
ENGINE_KEYWORDS = {"phrase": None, "mark": None, "mark_in": ((1, "c"), 2)}


def code_messages() -> list[tuple[str | tuple[str, str], str | None, str]]:
    """(message or (singular, plural), context, where) for every marked text in the bot's code."""
    out = []
    method_map = [("**.py", "python")]
    for filename, lineno, message, _comments, context in extract_from_dir(
            str(ROOT / "bot"), method_map, keywords=KEYWORDS, strip_comment_tags=True):
        out.append((message, context, f"bot/{filename}:{lineno}"))
    return out


def engine_phrases() -> list[tuple[str | tuple[str, str], str | None, str]]:
    """(template, context, where) for every phrase template and marked word in the engines."""
    out = []
    for filename, lineno, message, _comments, context in extract_from_dir(
            str(ROOT / "engines"), [("**.py", "python")], keywords=ENGINE_KEYWORDS, strip_comment_tags=True):
        out.append((message, context, f"engines/{filename}:{lineno}"))
    return out


def tree_messages() -> list[tuple[str, str | None, str]]:
    """(message, context, where) for every name, description and choice of the slash commands."""
    import discord
    from discord import app_commands

    from bot.discord.commands import register_commands
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    register_commands(tree)
    out: list[tuple[str, str | None, str]] = []

    def walk(command: app_commands.Command | app_commands.Group, where: str) -> None:
        here = f"{where}/{command.name}"
        out.append((command.name, COMMAND_NAME, here))
        out.append((command.description, None, here))
        if isinstance(command, app_commands.Group):
            for sub in command.commands:
                walk(sub, here)
            return
        for p in command.parameters:
            out.append((p.name, OPTION_NAME, f"{here} {p.name}"))
            out.append((p.description, None, f"{here} {p.name}"))
            for choice in p.choices:
                out.append((choice.name, None, f"{here} {p.name}"))

    for command in tree.get_commands():
        if isinstance(command, app_commands.Command | app_commands.Group):
            walk(command, "")
    for kind in (discord.AppCommandType.user, discord.AppCommandType.message):
        for menu in tree.get_commands(type=kind):     # context menus: a name only ("Challenge to…")
            out.append((menu.name, COMMAND_NAME, f"/{menu.name}"))
    return out


def game_messages() -> list[tuple[str, str | None, str]]:
    """The engines' texts a player reads, for every game of the registry and every player count."""
    from engines import GAMES
    out: list[tuple[str, str | None, str]] = []
    for game in GAMES.values():
        out += [(label, None, f"engines:{game.key}.variant_labels") for label in game.variant_labels.values()]
        out += [(seat, None, f"engines:{game.key}.seat_names") for n in game.player_counts
                for seat in game.seat_names(n)]
        out += [(template, None, f"engines:{game.key}.terminations") for template in game.terminations.values()]
        out += [(word, None, f"engines:{game.key}.fact_words") for word in game.fact_words]
    return out


def board_messages() -> list[tuple[str, str | None, str]]:
    """The words drawn into board images: every renderer's ``TEXTS`` (``render.texts.messages``)."""
    from render.texts import messages
    return [(m, None, "render.texts") for m in messages()]


def template() -> Catalog:
    """Every message id the bot can show, freshly collected."""
    pot = Catalog(project="boardgames-bot", domain="messages", charset="utf-8", fuzzy=False)
    for message, context, where in [*code_messages(), *tree_messages(), *game_messages(), *board_messages(),
                                    *engine_phrases()]:
        if not message:
            continue
        path, _, line = where.rpartition(":")
        pot.add(message, locations=[(path, int(line))] if line.isdigit() else [(where, None)], context=context,
                flags=("python-brace-format",) if "{" in str(message) else ())
    return pot


def translations() -> dict[str, Path]:
    return {p.parent.parent.name: p for p in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/messages.po"))}


def missing(pot: Catalog, po: Catalog) -> list[str]:
    """The ids of the template that ``po`` does not translate (absent, empty, or marked fuzzy)."""
    out = []
    for msg in pot:
        if not msg.id:
            continue
        have = po.get(msg.id, context=msg.context)
        strings = have.string if have is not None else ""
        texts = strings if isinstance(strings, tuple) else (strings,)
        if have is None or have.fuzzy or not all(texts):
            out.append(f"{msg.context + ': ' if msg.context else ''}{msg.id}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report missing translations")
    args = parser.parse_args()
    pot = template()
    failed = False
    for lang, path in translations().items():
        with open(path, "rb") as f:
            po = read_po(f, locale=lang)
        if not args.check:
            po.update(pot, update_header_comment=False, no_fuzzy_matching=True)
            with open(path, "wb") as f:
                write_po(f, po, width=120, sort_output=False, ignore_obsolete=True, omit_header=False)
        gaps = missing(pot, po)
        failed |= bool(gaps)
        print(f"{lang}: {len(pot) - len(gaps)}/{len(pot)} translated" + "".join(f"\n  missing: {g}" for g in gaps))
    if not args.check:
        with open(TEMPLATE, "wb") as f:
            write_po(f, pot, width=120, omit_header=False)
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    raise SystemExit(main())
