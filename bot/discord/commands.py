"""Slash commands, built from the game registry: one group per game, the same handlers for all.

Handlers stay thin: acknowledge (``acknowledged``), parse the options, call a service, let the dispatcher
post what the change announced. A game's options come from its metadata: more opponents when it allows more
players, a partner when it has teams, a variant choice when it has variants.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot import gametexts, wording
from bot.discord.cards import jump_url, resign_view, timestamp
from bot.discord.interaction import MAX_EMBED_TEXT, acknowledged, app, finish, info_embed, person
from bot.discord.records import add_analysis_commands
from bot.discord.views import ChallengeToSelect
from bot.i18n import N_, SOURCE_LANGUAGE, T, _, speaking
from bot.model import AI_LEVELS, Match, NotAllowed, ServiceError, ai_people, shown_name
from bot.registry import check_games
from bot.services.challenges import TIME_CHOICES_DAYS
from bot.services.play import MAX_SUBMISSION, quote
from bot.services.queries import parse_match_id
from engines import GAMES, Game, State
from engines.steps import typed_options

log = logging.getLogger(__name__)

MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100
DEFAULT_LEVEL = 3
LEVEL_CHOICES = [app_commands.Choice(name=f"level {n}" + {1: " (gentle)", 5: " (my best)"}.get(n, ""), value=n)
                 for n in AI_LEVELS]
TIME_RULES = N_(
    "A timed match gives each player the chosen days per move; you are reminded when 80 % of your time is "
    "used. Run out of time and you lose: with two players your opponent wins; with three or four you rank "
    "last (with your team) and the others are ranked by the current standing as these rules count it. A "
    "player who never made a first move gets the match aborted, unrated. Casual matches have no clock "
    "and are unrated. Unanswered challenges expire after a day.")
TIME_CHOICES = [app_commands.Choice(name=f"{d} day{'s' if d > 1 else ''} per move", value=d)
                for d in TIME_CHOICES_DAYS] + [app_commands.Choice(name="none: casual, unrated", value=0)]


def _with_signature(func: Callable[..., Awaitable[None]], params: list[inspect.Parameter]) -> None:
    """Give a handler the options a game needs: discord.py reads them from the signature."""
    func.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                           annotation=discord.Interaction), *params])


def _option(name: str, annotation: Any, default: Any = inspect.Parameter.empty) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


def build_game_group(game: Game) -> app_commands.Group:
    summary = gametexts.summary(game.key, SOURCE_LANGUAGE)    # English: the translator localises the description
    group = app_commands.Group(name=game.key, description=wording.shorten(f"Play {game.title}: {summary}", 100),
                               guild_only=True)
    _add_challenge(group, game)
    _add_vs_bot(group, game)

    @group.command(name="move", description=f"Play your {game.title} turn (autocomplete lists legal turns)")
    @app_commands.describe(move="Your whole turn, as the autocomplete shows it",
                           match="Which match, if you play several here")
    async def move(interaction: discord.Interaction, move: str, match: str | None = None) -> None:
        bot = app(interaction)
        async with acknowledged(interaction):
            if len(move) > MAX_SUBMISSION:
                raise NotAllowed(T("That is {count} characters — no turn is that long ({move}). "
                                   "The autocomplete lists the legal ones.", count=f"{len(move):,}", move=quote(move)))
            found = await _find(interaction, game, match, prefer_my_turn=True)
            await bot.services.play.submit_turn(found, interaction.user.id, move, guild_id=interaction.guild_id or 0,
                                                told=[bot.poster.reply_row(interaction, "board", _("✅ Move played."))])
            await bot.dispatcher.deliver_pending(found.id)

    @group.command(name="board", description=f"Show the current board of your {game.title} match again")
    @app_commands.describe(match="Which match: one of yours here, or any match of the server by number (#12)")
    async def board(interaction: discord.Interaction, match: str | None = None) -> None:
        async with acknowledged(interaction):
            found = await _find(interaction, game, match, watch=True)
            if found.participant(interaction.user.id) is None:   # a spectator: shown privately, nobody pinged
                await app(interaction).poster.show_board(interaction, found)
            else:
                await app(interaction).poster.repost_board(interaction, found)

    @group.command(name="resign", description=f"Resign your {game.title} match (asks for confirmation)")
    @app_commands.describe(match="Which match, if you play several here")
    async def resign(interaction: discord.Interaction, match: str | None = None) -> None:
        async with acknowledged(interaction):
            found = await _find(interaction, game, match)
            await finish(interaction, _("Resign {game} match #{id} ({players})? This cannot be undone.").format(
                game=game.title, id=found.id, players=" vs ".join(found.names)), view=resign_view(found))

    @group.command(name="draw", description=f"Offer a draw in your {game.title} match (on your turn)")
    @app_commands.describe(match="Which match, if you play several here")
    async def draw(interaction: discord.Interaction, match: str | None = None) -> None:
        bot = app(interaction)
        async with acknowledged(interaction):
            found = await _find(interaction, game, match)
            await bot.services.draws.offer(found.id, interaction.user.id, guild_id=interaction.guild_id or 0)
            await finish(interaction, _("🤝 Draw offered; the others answer with the buttons."))
            await bot.dispatcher.deliver_pending(found.id)

    @group.command(name="takeback", description=wording.TAKEBACK_COMMAND.format(title=game.title))
    @app_commands.describe(match="Which match, if you play several here")
    async def takeback(interaction: discord.Interaction, match: str | None = None) -> None:
        bot = app(interaction)
        async with acknowledged(interaction):
            found = await _find(interaction, game, match)
            done = await bot.services.takebacks.request(found.id, interaction.user.id,
                                                        guild_id=interaction.guild_id or 0)
            await finish(interaction, _(wording.TAKEBACK_ASKED) if done.ply == found.ply
                         else _(wording.TAKEBACK_DONE_AT_ONCE))
            await bot.dispatcher.deliver_pending(found.id)

    @group.command(name="rules", description=f"The rules of {game.title} exactly as played here")
    async def rules(interaction: discord.Interaction) -> None:
        with speaking(interaction.locale):    # the rules and their framing in the reader's language
            messages = rules_messages(game)
        await interaction.response.send_message(embeds=messages[0], ephemeral=True)
        for embeds in messages[1:]:     # rules longer than one message continue in more (nothing is cut)
            await interaction.followup.send(embeds=embeds, ephemeral=True)

    move.autocomplete("move")(_move_autocomplete(game))
    move.autocomplete("match")(_match_autocomplete(game))
    board.autocomplete("match")(_match_autocomplete(game, watch=True))
    resign.autocomplete("match")(_match_autocomplete(game))
    draw.autocomplete("match")(_match_autocomplete(game))
    takeback.autocomplete("match")(_match_autocomplete(game))
    add_analysis_commands(group, game, _find, _match_autocomplete(game))
    return group


MAX_EMBEDS_TEXT = 6000     # Discord's limit for all the embeds of one message together


def rules_messages(game: Game) -> list[list[discord.Embed]]:
    """The rules as embeds of at most 4,096 characters each, grouped into messages of at most 6,000."""
    pages = wording.paragraphs(gametexts.rules(game.key), MAX_EMBED_TEXT)
    embeds = [discord.Embed(title=_("{game} — rules").format(game=game.title)
                            + (f" ({i + 1}/{len(pages)})" if len(pages) > 1 else ""),
                            description=page, colour=discord.Colour.blurple()) for i, page in enumerate(pages)]
    embeds.append(discord.Embed(title=_("Time limits on this bot"), description=_(TIME_RULES),
                                colour=discord.Colour.blurple()))
    messages: list[list[discord.Embed]] = [[]]
    for embed in embeds:
        if messages[-1] and (sum(len(e) for e in messages[-1]) + len(embed) > MAX_EMBEDS_TEXT
                             or len(messages[-1]) == 10):
            messages.append([])
        messages[-1].append(embed)
    return messages


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

    async def vs_bot(interaction: discord.Interaction, **options: Any) -> None:
        bot = app(interaction)
        async with acknowledged(interaction):
            match = await bot.services.challenges.challenge_bot(
                game.key, guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0,
                player=person(interaction.user), level=options["level"], bots=options.get("bots") or 1,
                variant=options.get(game.variant_option),
                parent_channel_id=getattr(interaction.channel, "parent_id", None),
                reply=bot.poster.reply_row(interaction, "board", _("The match begins!")))
            await bot.dispatcher.deliver_pending(match.id)

    _add_generated(group, "vs-bot", f"Play {game.title} against me, the bot (unrated)", vs_bot, params,
                   descriptions, choices)


def _add_challenge(group: app_commands.Group, game: Game) -> None:
    most = max(game.player_counts)
    params = [_option("opponent", discord.User | None, None)]
    descriptions = {"opponent": "Who you challenge (leave it out for an open challenge anyone here can join)"}
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
    if len(game.player_counts) > 1:   # the table's size: seats beyond those named are open to anyone
        params.append(_option("players", int | None, None))
        descriptions["players"] = "How many play, you included; seats nobody is named for are open to anyone"
        choices["players"] = [app_commands.Choice(name=f"{n} players", value=n) for n in game.player_counts]
    _add_variant_option(game, params, descriptions, choices)

    async def challenge(interaction: discord.Interaction, **options: Any) -> None:
        bot = app(interaction)
        named = [options.get("opponent")] + [options.get(f"opponent{i}") for i in range(2, most)]
        opponents = [o for o in named if o is not None]
        partner = options.get("partner")
        me = interaction.client.user
        mine = [o for o in opponents if me is not None and o.id == me.id]
        guild_id, channel_id = interaction.guild_id or 0, interaction.channel_id or 0
        parent_id = getattr(interaction.channel, "parent_id", None)
        async with acknowledged(interaction):
            _check_members([*opponents, *([partner] if partner else [])], me)
            _check_can_see(opponents, me)
            people = [person(o) for o in opponents if o not in mine]
            if mine:   # challenging the bot itself: it takes that seat (or several, named once each)
                people += ai_people(options.get("level") or DEFAULT_LEVEL, len(mine))
            players = options.get("players")
            if mine and not people[:-len(mine)] and players in (None, len(mine) + 1):
                match = await bot.services.challenges.challenge_bot(
                    game.key, player=person(interaction.user), level=options.get("level") or DEFAULT_LEVEL,
                    bots=len(mine), variant=options.get(game.variant_option),
                    reply=bot.poster.reply_row(interaction, "board", _("The match begins!")), guild_id=guild_id,
                    channel_id=channel_id, parent_channel_id=parent_id)
            else:
                match = await bot.services.challenges.challenge(
                    game.key, challenger=person(interaction.user), opponents=people,
                    variant=options.get(game.variant_option), partner=person(partner) if partner else None,
                    days_per_move=options.get("time"), players=players,
                    reply=bot.poster.reply_row(interaction, "card", _(wording.OPEN_POSTED) if (
                        players or 2) > len(people) + 1 else _("Challenge sent.")), guild_id=guild_id,
                    channel_id=channel_id, parent_channel_id=parent_id)
            await bot.dispatcher.deliver_pending(match.id)

    _add_generated(group, "challenge", f"Challenge someone to {game.title}", challenge, params, descriptions,
                   choices)


def _check_members(users: list[discord.User | discord.Member], me: discord.ClientUser | None) -> None:
    """Only members of the server play in it: Discord resolves a member to a ``Member``, anyone else (a user
    who left, or an id sent by a modified client) to a plain ``User``. Refused before anything is posted."""
    for user in users:
        if not isinstance(user, discord.Member) and not (me is not None and user.id == me.id):
            raise NotAllowed(T("{player} is not a member of this server, so they cannot play here. Challenge "
                               "members of this server.", player=user.display_name))


def _check_can_see(opponents: list[discord.User | discord.Member], me: discord.ClientUser | None) -> None:
    """A challenge posted where a challenged member cannot read it would never be seen: say so instead."""
    for o in opponents:
        if me is not None and o.id == me.id:
            continue
        seen = getattr(o, "resolved_permissions", None)
        if seen is not None and not seen.view_channel:
            raise NotAllowed(T("{player} cannot see this channel, so they would never see the challenge. "
                               "Challenge them in a channel they can read.", player=o.display_name))


def _add_variant_option(game: Game, params: list, descriptions: dict, choices: dict) -> None:
    """The game's variant choice (Roocala's `variant`, Quincala's `sizes`), when it has variants."""
    if len(game.variants) < 2:
        return
    default = game.variant_labels.get(game.variants[0], game.variants[0])
    params.append(_option(game.variant_option, str | None, None))
    descriptions[game.variant_option] = f"Which {game.title} (default: {default})"
    choices[game.variant_option] = [app_commands.Choice(name=game.variant_labels.get(v, v), value=v)
                                    for v in game.variants]


def _add_generated(group: app_commands.Group, name: str, description: str,
                   callback: Callable[..., Awaitable[None]], params: list, descriptions: dict, choices: dict) -> None:
    """A subcommand whose options were built from the game's metadata."""
    _with_signature(callback, params)
    command: app_commands.Command = app_commands.Command(
        name=name, description=description, callback=callback)  # type: ignore[arg-type]  # options set above
    app_commands.describe(**descriptions)(command)
    if choices:
        app_commands.choices(**choices)(command)
    group.add_command(command)


async def _find(interaction: discord.Interaction, game: Game, match: str | None, *,
                prefer_my_turn: bool = False, watch: bool = False) -> Match:
    return await app(interaction).services.queries.find_match(
        game.key, interaction.user.id, guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0,
        match_id=parse_match_id(match), prefer_my_turn=prefer_my_turn, watch=watch)


def _move_autocomplete(game: Game):
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        with speaking(interaction.locale):
            return await _complete_move(interaction, game, current)
    return complete


async def _complete_move(interaction: discord.Interaction, game: Game, current: str) -> list[app_commands.Choice[str]]:
    current = current[:MAX_SUBMISSION]
    try:
        chosen = parse_match_id(getattr(interaction.namespace, "match", None))
        found = await _find(interaction, game, str(chosen) if chosen else None, prefer_my_turn=True)
    except ServiceError as exc:
        return [_note(str(exc), current)]
    except Exception as exc:         # the database is away: say so, rather than Discord's "Loading options failed"
        return [_out_of_reach(exc, current)]
    who = found.to_move_user
    if who is None or who.user_id != interaction.user.id:
        waiting = _("Not your turn — {player} is to move.").format(player=who.name) if who \
            else _("This match is over.")
        return [_note(waiting, current)]
    suggestions = [(value, wording.words(label))
                   for value, label in game.suggestion_phrases(found.position, current, MAX_CHOICES + 1)]
    if not suggestions:
        return [_note(_("No legal turn starts with {typed}.").format(typed=quote(current)), current)]
    if len(suggestions) > MAX_CHOICES:
        return _narrowing(found.position, current, suggestions)
    return [app_commands.Choice(name=label[:MAX_CHOICE_TEXT], value=value[:MAX_CHOICE_TEXT])
            for value, label in suggestions]


def _narrowing(state: State, current: str, suggestions: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """More turns start with what was typed than a list shows: the next step's options (engines.steps), a group
    reading 'e… (12 moves)', after the whole moves already typed; where the steps do not apply (a lenient form,
    a move typed to its end that others continue), the first turns and a note that says how to see the rest.
    Never a silent cut."""
    found = typed_options(state, current)
    if found is None:
        more = _note(_("More turns start like this: type more of your turn to see them."), current)
        return [app_commands.Choice(name=label[:MAX_CHOICE_TEXT], value=value[:MAX_CHOICE_TEXT])
                for value, label in suggestions[:MAX_CHOICES - 1]] + [more]
    out = []
    for option in found.options:
        value = found.head + option.text
        if option.complete:
            note = wording.words(found.state.describe_phrase(option.text))
            name = f"{value} — {note}" if note else value
        else:
            name = wording.step_group(value, option.count)
        out.append(app_commands.Choice(name=name[:MAX_CHOICE_TEXT], value=value[:MAX_CHOICE_TEXT]))
    return out


def _note(text: str, current: str) -> app_commands.Choice[str]:
    """A choice that only informs (choosing it submits what was typed, which then gets a clear error)."""
    return app_commands.Choice(name=text[:MAX_CHOICE_TEXT], value=(current or "?")[:MAX_CHOICE_TEXT])


def _out_of_reach(exc: Exception, current: str) -> app_commands.Choice[str]:
    """The one choice an autocomplete offers when the matches cannot be read (the database is away)."""
    log.warning("autocomplete could not read the matches (%s)", type(exc).__name__)
    return _note(_("Your matches cannot be read just now; try again in a moment."), current)


def _match_autocomplete(game: Game, *, watch: bool = False):
    """The match option's list: the caller's matches of the game in this channel; with ``watch`` (a read-only
    command) then every running match of the game in the server, which anyone may look at."""
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        queries = app(interaction).services.queries
        guild_id, user_id = interaction.guild_id or 0, interaction.user.id
        try:
            matches = await queries.matches_of(user_id, guild_id=guild_id, game=game.key,
                                               channel_id=interaction.channel_id)
            if watch:
                listed = {m.id for m in matches}
                matches += [m for m in await queries.running(guild_id, game=game.key) if m.id not in listed]
        except Exception as exc:     # the database is away
            with speaking(interaction.locale):
                return [_out_of_reach(exc, current)]
        typed = current.strip().lstrip("#").lower()[:MAX_CHOICE_TEXT]
        out = []
        with speaking(interaction.locale):
            for m in matches:
                label = _match_label(m, user_id)
                if typed in label.lower():
                    out.append(app_commands.Choice(name=label[:MAX_CHOICE_TEXT], value=str(m.id)))
        return out[:MAX_CHOICES]
    return complete


def _match_label(m: Match, user_id: int) -> str:
    """'vs Bob — your turn (#12)' for the caller's own match, 'Ann vs Bob — Ann to move (#12)' for another's."""
    who = m.to_move_user
    turn = _("your turn") if who and who.user_id == user_id \
        else _("{player} to move").format(player=shown_name(who) if who else "?")
    if m.participant(user_id) is None:
        return _("{players} — {turn} (#{id})").format(players=wording.sides(m), turn=turn, id=m.id)
    others = [shown_name(p) for p in m.seated if p.user_id != user_id]
    return _("vs {players} — {turn} (#{id})").format(players=", ".join(others), turn=turn, id=m.id)


async def _server_match_autocomplete(interaction: discord.Interaction,
                                     current: str) -> list[app_commands.Choice[str]]:
    """Any running match of the server, of every game (for /replay and /match record, which anyone may use)."""
    try:
        running = await app(interaction).services.queries.running(interaction.guild_id or 0)
    except Exception as exc:     # the database is away
        with speaking(interaction.locale):
            return [_out_of_reach(exc, current)]
    typed = current.strip().lstrip("#").lower()[:MAX_CHOICE_TEXT]
    with speaking(interaction.locale):
        labels = [(wording.board_caption(m), m.id) for m in running]
    return [app_commands.Choice(name=label[:MAX_CHOICE_TEXT], value=str(match_id))
            for label, match_id in labels if typed in label.lower()][:MAX_CHOICES]


@app_commands.command(name="matches", description="Active matches and open challenges in this server, across games")
@app_commands.describe(user="Whose matches (default: yours); anyone may look at anyone's")
@app_commands.guild_only()
async def matches_command(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    who_asks = user or interaction.user
    own = who_asks.id == interaction.user.id
    async with acknowledged(interaction):
        mine = await app(interaction).services.queries.matches_of(
            who_asks.id, guild_id=interaction.guild_id or 0, statuses=("active", "challenge"))
        open_here = [m for m in await app(interaction).services.queries.open_seats(interaction.guild_id or 0)
                     if own and m.participant(who_asks.id) is None]
        if not mine and not open_here:
            text = _("You have no active matches or open challenges here. Start one with /<game> challenge.") \
                if own \
                else _("{player} has no active matches or open challenges here.").format(player=who_asks.display_name)
            await finish(interaction, embed=info_embed(text))
            return
        lines = []
        away = await app(interaction).services.away.until(
            interaction.guild_id or 0, [w.user_id for m in mine if (w := m.to_move_user) and not w.is_ai])
        for m in mine:
            others = ", ".join(p.name for p in sorted(m.participants, key=lambda p: p.invited_order)
                               if p.user_id != who_asks.id)
            variant = f" ({m.variant_label})" if m.variant_label else ""
            if m.status == "challenge" and m.row.open_seats:
                state = _(wording.OPEN_MATCHES_STATE).format(seats=wording.open_seats_count(m.row.open_seats))
                link_id = m.row.card_message_id
            elif m.status == "challenge":
                state = _("open challenge")
                link_id = m.row.card_message_id
            else:
                who = m.to_move_user
                if who and who.user_id == who_asks.id:
                    state = _("**your turn**") if own else _("**{player}'s turn**").format(
                        player=who_asks.display_name)
                else:
                    state = _("{player} to move").format(player=who.name if who else "?")
                if who and who.user_id in away:
                    state = _(wording.AWAY_MATCHES_NOTE).format(state=state, until=timestamp(away[who.user_id], "D"))
                link_id = m.row.board_message_id
            label = _("challenge") if m.status == "challenge" else _("board")
            link = f" · [{label}]({jump_url(m.row.guild_id, m.row.channel_id, link_id)})" if link_id else ""
            mark = "▶️" if "**" in state else "•"
            others = others or _(wording.OPEN_ANYONE)
            lines.append(_("{mark} **{game}**{variant} #{id} vs {others} — {state}{link}").format(
                mark=mark, game=m.game.title, variant=variant, id=m.id, others=others, state=state, link=link))
        if open_here:
            lines += ["", _(wording.OPEN_MATCHES_HEADER)] + [_open_line(m) for m in open_here]
        title = _("Your matches") if own else _("{player}'s matches").format(
            player=wording.shorten(who_asks.display_name, 64))
        embed = discord.Embed(title=title, description="\n".join(lines)[:MAX_EMBED_TEXT],
                              colour=discord.Colour.blurple())
        await finish(interaction, embed=embed)


def _open_line(m: Match) -> str:
    """An open challenge of the server others may join, with a link to its card."""
    link = m.row.card_message_id
    return _(wording.OPEN_MATCHES_LINE).format(
        game=m.game.title, variant=f" ({m.variant_label})" if m.variant_label else "", id=m.id,
        challenger=m.challenger.name, seats=wording.open_seats_count(m.row.open_seats),
        link=f" · [{_('challenge')}]({jump_url(m.row.guild_id, m.row.channel_id, link)})" if link else "")


@app_commands.command(name="replay", description="The whole game of a match in this server, as an animation")
@app_commands.describe(match="The match number (#12), running or finished")
@app_commands.guild_only()
async def replay_command(interaction: discord.Interaction, match: str) -> None:
    bot = app(interaction)
    async with acknowledged(interaction):
        match_id = parse_match_id(match)
        if match_id is None:
            raise NotAllowed(T("Name the match to replay, like #12."))
        await bot.poster.replay_reply(interaction, match_id)


replay_command.autocomplete("match")(_server_match_autocomplete)


@app_commands.context_menu(name="Challenge to…")
@app_commands.guild_only()
async def challenge_to_menu(interaction: discord.Interaction, member: discord.Member) -> None:
    """Right-click a member → Apps → "Challenge to…": a private menu of every game; picking one challenges them."""
    async with acknowledged(interaction):
        _check_members([member], interaction.client.user)
        _check_can_see([member], interaction.client.user)
        view = discord.ui.View(timeout=None)
        view.add_item(ChallengeToSelect(member.id))
        await finish(interaction, _(wording.CHALLENGE_TO_PICK).format(name=member.display_name), view=view)


def register_commands(tree: app_commands.CommandTree) -> None:
    """Every command; the game registry is checked first (a missing renderer or a clashing key fails here)."""
    from bot.discord import admin, guide, records, standings, tournament
    guide.register(tree)
    records.register(admin.match_group)
    records.record_command.autocomplete("match")(_server_match_autocomplete)
    tree.add_command(matches_command)
    tree.add_command(replay_command)
    tree.add_command(challenge_to_menu)
    standings.register(tree)
    tournament.register(tree)
    admin.register(tree)
    check_games(GAMES, taken=[c.name for c in tree.get_commands()])
    for game in GAMES.values():
        tree.add_command(build_game_group(game))
    from bot.discord.translator import translatable_descriptions
    translatable_descriptions(tree)     # last: every command above, whoever added it, is translated


