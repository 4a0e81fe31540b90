"""Everything the bot can post fits Discord's limits, with the longest names and every game's longest texts."""

from __future__ import annotations

import random

import discord
import pytest

from bot import gametexts, wording
from bot.discord.cards import board_embed, challenge_embed, mention
from bot.discord.commands import register_commands, rules_messages
from bot.i18n import LANGUAGES, speaking
from bot.model import MAX_NAME, Person
from engines import GAMES
from tests.conftest import CHANNEL, GUILD

LONG = ["Ä" * MAX_NAME, "界" * MAX_NAME, "😀" * MAX_NAME, "W" * MAX_NAME]


def fits(embed: discord.Embed) -> None:
    assert len(embed.title or "") <= 256 and len(embed.description or "") <= 4096
    assert all(len(f.name or "") <= 256 and len(f.value or "") <= 1024 for f in embed.fields)
    assert len(embed) <= 6000


async def finished_match(services, game_key: str, players: int, seed: int):
    game = GAMES[game_key]
    people = [Person(100 + i, LONG[i] + str(i)) for i in range(players)]
    teams = game.teams.get(players)
    match = await services.challenges.challenge(game_key, guild_id=GUILD, channel_id=CHANNEL + seed,
                                                challenger=people[0], opponents=people[1:], days_per_move=3,
                                                partner=people[teams[0][1]] if teams else None)
    for p in people[1:]:
        match = await services.challenges.accept(match.id, p, guild_id=GUILD)
    assert len(match.participants[0].name) == MAX_NAME
    rng = random.Random(seed)
    records = []
    while match.status == "active" and len(records) < 400:
        match = await services.queries.get(match.id)
        value, _ = rng.choice(game.turn_suggestions(match.position, "", 25))
        result = await services.play.submit_turn(match, match.to_move_user.user_id, value, guild_id=GUILD)
        records.append((result.seat, result.record, result.pending))
        match = result.match
    return await services.queries.get(match.id), records


@pytest.mark.parametrize("game_key", list(GAMES))
async def test_every_board_text_of_a_whole_game_fits(services, game_key):
    game = GAMES[game_key]
    match, records = await finished_match(services, game_key, max(game.player_counts), seed=len(game_key))
    longest = max(records, key=lambda r: len(r[1]))
    texts = [wording.start_text(match, mention), wording.result_text(match, mention),
             wording.played_text(match, longest[0], longest[1], mention) + "\n" + wording.result_text(match, mention),
             wording.seat_line(match, mention), wording.challenge_summary(match, mention)]
    for text in texts:
        fits(board_embed(match, text))
    fits(challenge_embed(match))
    assert len(wording.board_alt_text(match, match.position, list(longest[1].split()))) <= 1024
    assert len(wording.text_board(match)) <= 2000
    assert len(wording.reminder_text(match)) + 200 <= 2000
    assert len(wording.board_caption(match)) <= 256


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_key", list(GAMES))
def test_the_rules_are_never_cut(game_key, language):
    game = GAMES[game_key]
    with speaking(language):
        messages = rules_messages(game)
    for embeds in messages:
        assert len(embeds) <= 10 and sum(len(e) for e in embeds) <= 6000
        for embed in embeds:
            fits(embed)
    shown = "\n\n".join(e.description or "" for embeds in messages for e in embeds)
    rules = gametexts.rules(game_key, language)
    assert " ".join(rules.split()) in " ".join(shown.split())     # every word of the rules is there


def test_a_long_rules_text_is_split_at_paragraphs_not_cut():
    text = "\n\n".join(f"Rule {i}. " + "word " * 150 for i in range(30))
    pieces = wording.paragraphs(text, 4096)
    assert all(len(p) <= 4096 for p in pieces) and len(pieces) > 1
    assert " ".join("\n\n".join(pieces).split()) == " ".join(text.split())


def test_command_and_option_descriptions_fit_and_are_never_cut_mid_word():
    tree = discord.app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    register_commands(tree)
    seen = 0
    for command in tree.walk_commands():
        texts = [command.description]
        if isinstance(command, discord.app_commands.Command):
            texts += [p.description for p in command.parameters]
            texts += [c.name for p in command.parameters for c in p.choices]
        for text in texts:
            seen += 1
            assert 1 <= len(text) <= 100, text
            assert not text.endswith("…") or text[-2] != " " and text[:-1].rstrip() == text[:-1], text
    assert seen > 50
    assert wording.shorten("Mancala meets chess: chaining the same colour; whatever else", 40) == \
        "Mancala meets chess: chaining the same…"
