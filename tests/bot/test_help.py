"""/help through the command tree: one private screen listing every registered game and how to start, with a
button per game that answers privately with its quick start and a start position as a PNG."""

from __future__ import annotations

import pytest

from bot import gametexts
from bot.i18n import LANGUAGES
from engines import GAMES

MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_TOTAL = 6000
PNG = b"\x89PNG\r\n\x1a\n"


def private_answer(out):
    found = [s for s in out if s.ephemeral and s.kind in ("edit_original", "followup", "response") and s.embeds]
    assert found, [s.kind for s in out]
    return found[-1]


def embed_size(e: dict) -> int:
    return sum(len(e.get(k) or "") for k in ("title", "description")) + len((e.get("footer") or {}).get("text", ""))


async def test_help_lists_every_game_and_how_to_start_with_a_button_per_game(fake, people):
    screen = private_answer(await fake.slash(people[0], "help"))
    text = screen.text()
    for game in GAMES.values():
        assert f"**{game.title}**" in text and gametexts.summary(game.key, "en") in text
        assert screen.button(f"help:{game.key}")["label"] == game.title
    assert "challenge" in text and "vs-bot" in text and "/matches" in text and "/settings" in text
    assert len(screen.components) == len(GAMES)
    assert all(embed_size(e) <= MAX_EMBED_TOTAL for e in screen.embeds)


async def test_each_game_button_answers_privately_with_its_quick_start_and_a_board(fake, people):
    screen = private_answer(await fake.slash(people[0], "help"))
    for game in GAMES.values():
        out = await fake.click(people[1], f"help:{game.key}", message=screen)
        answer = private_answer(out)
        embed = answer.embeds[0]
        assert game.title in embed["title"] and embed["description"]
        assert len(embed["description"]) <= MAX_EMBED_DESCRIPTION and embed_size(embed) <= MAX_EMBED_TOTAL
        assert gametexts.quick_start(game.key, "en")[:60] in embed["description"]
        assert f"/{game.key} rules" in answer.text()
        pngs = [data for name, data in answer.files if name.endswith(".png")]
        assert len(pngs) == 1 and pngs[0].startswith(PNG)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_game_has_a_quick_start_on_typing_a_turn(language):
    for game in GAMES.values():
        text = gametexts.quick_start(game.key, language)
        assert 100 < len(text) < 1500 and "`" in text, game.key     # says what to type, in a line or two
