"""Slash commands, built from the game registry: one group per game, the same handlers for all.

Handlers stay thin: parse the options, call the match service, answer (deferring before slow work).
A game's options come from its metadata: more opponents when it allows more players, a partner when it
has teams, a variant choice when it has variants.
"""

from __future__ import annotations

import inspect
import logging

import discord
from discord import app_commands

from bot import community, messages, notify
from bot.replies import jump_url, mention, tell
from bot.service import AI_LEVELS, TIME_CHOICES_DAYS, Match, ServiceError, ai_people
from bot.views import person, resign_view, send_challenge_card
from engines import GAMES, Game

log = logging.getLogger(__name__)

MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100
MAX_EMBED_TEXT = 4096
DEFAULT_LEVEL = 3
LEVEL_CHOICES = [app_commands.Choice(name=f"level {n}" + {1: " (gentle)", 5: " (my best)"}.get(n, ""), value=n)
                 for n in AI_LEVELS]
TIME_RULES = (
    "A timed match gives each player the chosen days per move; you are reminded when 80 % of your time is "
    "used. Run out of time and you lose: with two players your opponent wins; with three or four you rank "
    "last (with your team) and the others are ranked by the current standing as these rules count it. A "
    "player who never made a first move gets the match aborted, unrated. Casual matches have no clock "
    "and are unrated. Unanswered challenges expire after a day.")
TIME_CHOICES = [app_commands.Choice(name=f"{d} day{'s' if d > 1 else ''} per move", value=d)
                for d in TIME_CHOICES_DAYS] + [app_commands.Choice(name="none: casual, unrated", value=0)]


def _match_id(raw: str | None) -> int | None:
    """The match option's value: an id chosen from autocomplete, or typed as '12' or '#12'."""
    if raw is None or not raw.strip():
        return None
    text = raw.strip().lstrip("#")
    if not text.isdigit():
        raise ServiceError(f"{raw!r} is not a match — choose one from the list.")
    return int(text)


def _with_signature(func, params: list[inspect.Parameter]):
    """Give a handler the options a game needs: discord.py reads them from the signature."""
    func.__signature__ = inspect.Signature(
        [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                           annotation=discord.Interaction), *params])
    return func


def _option(name: str, annotation, default=inspect.Parameter.empty) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


def build_game_group(game: Game) -> app_commands.Group:
    group = app_commands.Group(name=game.key, description=f"Play {game.title}: {game.summary}"[:100],
                               guild_only=True)
    _add_challenge(group, game)
    _add_vs_bot(group, game)

    @group.command(name="move", description=f"Play your {game.title} turn (autocomplete lists legal turns)")
    @app_commands.describe(move="Your whole turn, as the autocomplete shows it",
                           match="Which match, if you play several here")
    async def move(interaction: discord.Interaction, move: str, match: str | None = None) -> None:
        try:
            found = await _find(interaction, game, match, prefer_my_turn=True)
            result = await interaction.client.service.submit_turn(
                found.id, interaction.user.id, move, guild_id=interaction.guild_id)
        except ServiceError as exc:
            await tell(interaction, str(exc))
            return
        await interaction.response.defer(thinking=True)
        m = result.match
        text = messages.turn_text(result, mention)
        nxt = messages.to_move_text(m, mention, pending=result.pending)
        await notify.post_board(interaction.client, m, f"{text}\n{nxt}", notify.followup(interaction))

    @group.command(name="board", description=f"Show the current board of your {game.title} match again")
    @app_commands.describe(match="Which match, if you play several here")
    async def board(interaction: discord.Interaction, match: str | None = None) -> None:
        try:
            found = await _find(interaction, game, match)
        except ServiceError as exc:
            await tell(interaction, str(exc))
            return
        await interaction.response.defer(thinking=True)
        await notify.post_board(interaction.client, found, messages.to_move_text(found, mention),
                                notify.followup(interaction))

    @group.command(name="resign", description=f"Resign your {game.title} match (asks for confirmation)")
    @app_commands.describe(match="Which match, if you play several here")
    async def resign(interaction: discord.Interaction, match: str | None = None) -> None:
        try:
            found = await _find(interaction, game, match)
        except ServiceError as exc:
            await tell(interaction, str(exc))
            return
        await interaction.response.send_message(
            f"Resign {game.title} match #{found.id} ({' vs '.join(found.names)})? This cannot be undone.",
            view=resign_view(found), ephemeral=True)

    @group.command(name="rules", description=f"The rules of {game.title} exactly as played here")
    async def rules(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title=f"{game.title} — rules", description=game.rules_text[:MAX_EMBED_TEXT],
                              colour=discord.Colour.blurple())
        embed.add_field(name="Time limits on this bot", value=TIME_RULES, inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    move.autocomplete("move")(_move_autocomplete(game))
    for command in (move, board, resign):
        command.autocomplete("match")(_match_autocomplete(game))
    return group


async def _start_against_bot(interaction: discord.Interaction, match: Match) -> None:
    await interaction.response.defer(thinking=True)
    text = f"The match begins!\n{messages.seat_line(match, mention)}\n{messages.to_move_text(match, mention)}"
    await notify.post_board(interaction.client, match, text, notify.followup(interaction))


def _add_vs_bot(group: app_commands.Group, game: Game) -> None:
    most = max(game.player_counts)
    params = [_option("level", int)]
    descriptions = {"level": "How strong I play: 1 (gentle) to 5 (my best)"}
    choices: dict[str, list] = {"level": LEVEL_CHOICES}
    if most > 2:
        params.append(_option("bots", int | None, None))
        descriptions["bots"] = "How many seats I fill (default 1): one human can play a full table"
        choices["bots"] = [app_commands.Choice(name=f"{n - 1} bot{'s' if n > 2 else ''} ({n} players)", value=n - 1)
                           for n in game.player_counts]
    _add_variant_option(game, params, descriptions, choices)

    async def vs_bot(interaction: discord.Interaction, **options) -> None:
        try:
            match = await interaction.client.service.challenge_bot(
                game.key, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                player=person(interaction.user), level=options["level"], bots=options.get("bots") or 1,
                variant=options.get(game.variant_option),
                parent_channel_id=getattr(interaction.channel, "parent_id", None))
        except ServiceError as exc:
            await tell(interaction, str(exc))
            return
        await _start_against_bot(interaction, match)

    _add_generated(group, "vs-bot", f"Play {game.title} against me, the bot (unrated)", vs_bot, params,
                   descriptions, choices)


def _add_challenge(group: app_commands.Group, game: Game) -> None:
    most = max(game.player_counts)
    params = [_option("opponent", discord.User)]
    descriptions = {"opponent": "Who you challenge"}
    for i in range(2, most):
        params.append(_option(f"opponent{i}", discord.User | None, None))
        descriptions[f"opponent{i}"] = f"Another player ({game.title} allows {'/'.join(map(str, game.player_counts))})"
    if game.teams:
        params.append(_option("partner", discord.User | None, None))
        descriptions["partner"] = "Your team-mate, one of the players you challenge (team games)"
    params.append(_option("level", int | None, None))
    descriptions["level"] = "When you challenge me, the bot: how strong I play (1-5, default 3)"
    params.append(_option("time", int | None, None))
    descriptions["time"] = "Days per move (default: the server's choice); none = casual and unrated"
    choices = {"time": TIME_CHOICES, "level": LEVEL_CHOICES}
    _add_variant_option(game, params, descriptions, choices)

    async def challenge(interaction: discord.Interaction, **options) -> None:
        opponents = [options["opponent"]] + [options.get(f"opponent{i}") for i in range(2, most)]
        opponents = [o for o in opponents if o is not None]
        partner = options.get("partner")
        channel = interaction.channel
        me = interaction.client.user
        mine = [o for o in opponents if me is not None and o.id == me.id]
        people = [person(o) for o in opponents if not mine or o.id != me.id]
        if mine:   # challenging the bot itself: it takes that seat (or several, named once each)
            people += ai_people(options.get("level") or DEFAULT_LEVEL, len(mine))
        try:
            if mine and not people[:-len(mine)]:
                match = await interaction.client.service.challenge_bot(
                    game.key, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                    player=person(interaction.user), level=options.get("level") or DEFAULT_LEVEL,
                    bots=len(mine), variant=options.get(game.variant_option),
                    parent_channel_id=getattr(channel, "parent_id", None))
                await _start_against_bot(interaction, match)
                return
            match = await interaction.client.service.challenge(
                game.key, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                challenger=person(interaction.user), opponents=people,
                variant=options.get(game.variant_option), partner=person(partner) if partner else None,
                days_per_move=options.get("time"), parent_channel_id=getattr(channel, "parent_id", None))
        except ServiceError as exc:
            await tell(interaction, str(exc))
            return
        await send_challenge_card(interaction, match)

    _add_generated(group, "challenge", f"Challenge someone to {game.title}", challenge, params, descriptions,
                   choices)


def _add_variant_option(game: Game, params: list, descriptions: dict, choices: dict) -> None:
    """The game's variant choice (Roocala's `variant`, Quincala's `sizes`), when it has variants."""
    if len(game.variants) < 2:
        return
    default = game.variant_labels.get(game.variants[0], game.variants[0])
    params.append(_option(game.variant_option, str | None, None))
    descriptions[game.variant_option] = f"Which {game.title} (default: {default})"
    choices[game.variant_option] = [app_commands.Choice(name=game.variant_labels.get(v, v), value=v)
                                    for v in game.variants]


def _add_generated(group: app_commands.Group, name: str, description: str, callback, params: list,
                   descriptions: dict, choices: dict) -> None:
    """A subcommand whose options were built from the game's metadata."""
    _with_signature(callback, params)
    command = app_commands.Command(name=name, description=description, callback=callback)
    app_commands.describe(**descriptions)(command)
    if choices:
        app_commands.choices(**choices)(command)
    group.add_command(command)


async def _find(interaction: discord.Interaction, game: Game, match: str | None, *,
                prefer_my_turn: bool = False) -> Match:
    return await interaction.client.service.find_match(
        game.key, interaction.user.id, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
        match_id=_match_id(match), prefer_my_turn=prefer_my_turn)


def _move_autocomplete(game: Game):
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            chosen = _match_id(getattr(interaction.namespace, "match", None))
            found = await _find(interaction, game, str(chosen) if chosen else None, prefer_my_turn=True)
        except ServiceError as exc:
            return [_note(str(exc), current)]
        who = found.to_move_user
        if who is None or who.user_id != interaction.user.id:
            waiting = f"Not your turn — {who.name} is to move." if who else "This match is over."
            return [_note(waiting, current)]
        suggestions = game.turn_suggestions(found.state, current, MAX_CHOICES)
        if not suggestions:
            return [_note(f"No legal turn starts with {current!r}.", current)]
        return [app_commands.Choice(name=label[:MAX_CHOICE_TEXT], value=value[:MAX_CHOICE_TEXT])
                for value, label in suggestions[:MAX_CHOICES]]
    return complete


def _note(text: str, current: str) -> app_commands.Choice[str]:
    """A choice that only informs (choosing it submits what was typed, which then gets a clear error)."""
    return app_commands.Choice(name=text[:MAX_CHOICE_TEXT], value=(current or "?")[:MAX_CHOICE_TEXT])


def _match_autocomplete(game: Game):
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        service = interaction.client.service
        mine = await service.matches_of(interaction.user.id, guild_id=interaction.guild_id, game=game.key,
                                        channel_id=interaction.channel_id, replay=False)
        out = []
        for m in mine:
            others = [p.name for p in m.seated if p.user_id != interaction.user.id]
            who = m.to_move_user
            turn = "your turn" if who and who.user_id == interaction.user.id else f"{who.name} to move"
            label = f"vs {', '.join(others)} — {turn} (#{m.id})"
            if current.strip().lstrip("#") in label.lower() or current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:MAX_CHOICE_TEXT], value=str(m.id)))
        return out[:MAX_CHOICES]
    return complete


@app_commands.command(name="matches", description="Your active matches in this server, across games")
@app_commands.guild_only()
async def matches_command(interaction: discord.Interaction) -> None:
    service = interaction.client.service
    mine = await service.matches_of(interaction.user.id, guild_id=interaction.guild_id,
                                    statuses=("active", "challenge"), replay=False)
    if not mine:
        await tell(interaction, "You have no active matches or open challenges here. "
                   "Start one with /<game> challenge.", error=False)
        return
    lines = []
    for m in mine:
        others = ", ".join(p.name for p in sorted(m.participants, key=lambda p: p.invited_order)
                           if p.user_id != interaction.user.id)
        variant = f" ({m.variant_label})" if m.variant_label else ""
        if m.status == "challenge":
            state = "open challenge"
            link_id = m.row.card_message_id
        else:
            who = m.to_move_user
            state = "**your turn**" if who and who.user_id == interaction.user.id else f"{who.name} to move"
            link_id = m.row.board_message_id
        link = f" · [board]({jump_url(m.row.guild_id, m.row.channel_id, link_id)})" if link_id else ""
        mark = "▶️" if "your turn" in state else "•"
        lines.append(f"{mark} **{m.game.title}**{variant} #{m.id} vs {others} — {state}{link}")
    embed = discord.Embed(title="Your matches", description="\n".join(lines)[:MAX_EMBED_TEXT],
                          colour=discord.Colour.blurple())
    await interaction.response.send_message(embed=embed, ephemeral=True)


def register_commands(tree: app_commands.CommandTree) -> None:
    for game in GAMES.values():
        tree.add_command(build_game_group(game))
    tree.add_command(matches_command)
    community.register(tree)
