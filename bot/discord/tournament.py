"""/tournament: create, join, withdraw, bye, start, cancel, forbid, standings, list and export.

Each handler acknowledges first, reads its options, makes one service call and lets the dispatcher post what it
announced (the card, a round's pairings, standings). Creating takes one command: its options carry the game with
its variant and table size, the format, rounds, time, rating, the start and the entrants' limits; everything left
out has a stated default (the service checks every value).
"""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime, timedelta

import discord
from discord import app_commands

from bot.discord.cards import jump_url
from bot.discord.interaction import MAX_EMBED_TEXT, acknowledged, app, finish, info_embed, person
from bot.discord.tournament_card import deliver, format_label, game_label, standings_reply
from bot.i18n import N_, T, _, speaking
from bot.model import BadInput, shown
from bot.services.challenges import TIME_CHOICES_DAYS
from bot.services.tournament_views import TournamentSettings, TournamentSummary
from bot.tournaments import leagues
from bot.tournaments.model import Format, Schedule
from engines import GAMES

MAX_NAME = 80                  # characters of a tournament's name
MAX_CHOICES = 25               # Discord's limit for an autocomplete's list
MAX_CHOICE_TEXT = 100
MAX_START_DAYS = 60            # the furthest a start time may be
DEFAULT_DAYS_PER_MOVE = 3
LISTED = 15                    # tournaments /tournament list shows
TRF_FILE = "tournament-{id}.trf"
WHEN_FULL = "full"
START_SUGGESTIONS = (("full", N_("when full (or started by hand)")), ("1h", N_("in 1 hour")),
                     ("1d", N_("in 1 day")), ("3d", N_("in 3 days")), ("7d", N_("in 7 days")))
RELATIVE = re.compile(r"(?:in\s+)?(\d{1,4})\s*(h|hours?|d|days?)", re.IGNORECASE)
FORMAT_CHOICES = [app_commands.Choice(name="Round robin", value=Format.ROUND_ROBIN.value),
                  app_commands.Choice(name="Double round robin (seats swapped)", value=Format.DOUBLE_ROUND_ROBIN.value),
                  app_commands.Choice(name="Swiss", value=Format.SWISS.value),
                  app_commands.Choice(name="League (divisions by rating, every game at once)",
                                      value=Format.LEAGUE.value)]
REPEAT_CHOICES = [app_commands.Choice(name="Weekly", value=7), app_commands.Choice(name="Every two weeks", value=14),
                  app_commands.Choice(name="Monthly", value=30)]
SCHEDULE_CHOICES = [app_commands.Choice(name="Round by round", value=Schedule.ROUND_BY_ROUND.value),
                    app_commands.Choice(name="All games at once (round robins)", value=Schedule.ALL_AT_ONCE.value)]
DAYS_CHOICES = [app_commands.Choice(name=f"{d} day{'s' if d > 1 else ''} per move", value=d)
                for d in TIME_CHOICES_DAYS]


def game_options() -> list[tuple[str, str | None, int, str]]:
    """(game, variant, table size, label) for every way a tournament can be played: each game's variants, and
    its larger tables (pods of 3 and 4: Rincala, Spinca)."""
    out = []
    for game in GAMES.values():
        for variant in game.variants or (None,):
            for size in game.player_counts:
                label = game.title
                if variant is not None:
                    label += f": {game.variant_labels.get(variant, variant)}"
                if size > 2:
                    label += f", tables of {size}" + (" (teams)" if size in game.teams else "")
                out.append((game.key, variant, size, label))
    return out


def option_value(game: str, variant: str | None, size: int) -> str:
    return game + (f":{variant}" if variant is not None else "") + (f"@{size}" if size > 2 else "")


GAME_CHOICES = [app_commands.Choice(name=label, value=option_value(g, v, n))
                for g, v, n, label in game_options()][:MAX_CHOICES]


def parse_game(value: object) -> tuple[str, str | None, int]:
    """The game option's value read back: (game, variant, table size); a forged one is refused."""
    for g, v, n, _label in game_options():
        if value == option_value(g, v, n):
            return g, v, n
    raise BadInput(T("{value} is not one of the games on the list; pick one from it. Nothing was created.",
                     value=shown(value)))


def least_entrants(chosen: Format, table_size: int) -> int:
    """The fewest entrants by default: one table, or a league's least (leagues.MIN_ENTRANTS)."""
    return leagues.MIN_ENTRANTS if chosen is Format.LEAGUE else max(2, table_size)


def parse_start(text: str | None, now: datetime) -> str | None:
    """The start option: 'full' (or nothing) starts it when full; '3d', 'in 12 hours' from now; a date and time
    in UTC ('2026-12-01 18:00'). None for 'when full', else the ISO time."""
    raw = (text or "").strip()
    if not raw or raw.lower() in (WHEN_FULL, "when full"):
        return None
    found = RELATIVE.fullmatch(raw)
    if found:
        amount = int(found[1])
        moment = now + (timedelta(hours=amount) if found[2].lower().startswith("h") else timedelta(days=amount))
    else:
        try:
            moment = datetime.fromisoformat(raw.replace(" ", "T", 1))
        except ValueError:
            raise BadInput(T("{value} is not a start time: write it like 2026-12-01 18:00 (UTC) or 3d, or choose "
                             "“when full”. Nothing was created.", value=shown(raw))) from None
        moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    if moment <= now:
        raise BadInput(T("The start time {value} has passed. Nothing was created.", value=shown(raw)))
    if moment > now + timedelta(days=MAX_START_DAYS):
        raise BadInput(T("A tournament starts within {days} days, not at {value}. Nothing was created.",
                         days=MAX_START_DAYS, value=shown(raw)))
    return moment.astimezone(UTC).isoformat()


def parse_tournament_id(raw: str | None) -> int:
    """The tournament option: an id chosen from the list, or typed as '12' or '#12'."""
    text = (raw or "").strip().removeprefix("#").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise BadInput(T("{value} is not a tournament number — choose one from the list, or type it like #12.",
                         value=shown(raw)))
    return int(text)


def _manager(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions and interaction.permissions.manage_guild)


tournament_group = app_commands.Group(name="tournament", description="Tournaments of this server: create, join, "
                                      "standings", guild_only=True)


@tournament_group.command(name="create", description="Create a tournament (managers, or anyone where the server "
                                                     "allows it)")
@app_commands.describe(
    name="The tournament's name", game="The game (with its variant and table size)", format="How it is paired",
    rounds="Rounds (Swiss and tables of 3 or 4; round robins have one per opponent)",
    days="Days per move in every game (default 3)", rated="Whether its games count for ratings (default yes)",
    start="When it starts: when full (default), in 3d, or a UTC time like 2026-12-01 18:00",
    min_players="The fewest entrants it starts with (default and least: one table, or 4 for a league)",
    max_players="The most entrants it takes (default 16)",
    schedule="Round by round (default), or every game at once (round robins)",
    round_days="Days a round may last before its unfinished games are decided (default: no limit)",
    repeat="Leagues: a new edition (promotion and relegation) this long after one ends (default: once)")
@app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, schedule=SCHEDULE_CHOICES)
@app_commands.choices(days=DAYS_CHOICES, repeat=REPEAT_CHOICES)
async def create(interaction: discord.Interaction, name: str, game: str, format: str, rounds: int | None = None,
                 days: int | None = None, rated: bool | None = None, start: str | None = None,
                 min_players: int | None = None, max_players: int | None = None, schedule: str | None = None,
                 round_days: int | None = None, repeat: int | None = None) -> None:
    bot = app(interaction)
    async with acknowledged(interaction):
        title = " ".join(name.split())
        if not title or len(title) > MAX_NAME:
            raise BadInput(T("A tournament's name has 1 to {most} characters. Nothing was created.", most=MAX_NAME))
        key, variant, size = parse_game(game)
        try:
            chosen_format, chosen_schedule = Format(format), Schedule(schedule or Schedule.ROUND_BY_ROUND.value)
        except ValueError:
            raise BadInput(T("Choose the format and the schedule from their lists. Nothing was created.")) from None
        settings = TournamentSettings(
            game=key, format=chosen_format, variant=variant, table_size=size, rounds=rounds,
            schedule=chosen_schedule, days_per_move=DEFAULT_DAYS_PER_MOVE if days is None else days,
            rated=True if rated is None else rated, start_at=parse_start(start, bot.services.clock()),
            min_entrants=least_entrants(chosen_format, size) if min_players is None else min_players,
            max_entrants=16 if max_players is None else max_players, round_days=round_days, repeat_days=repeat)
        view = await bot.services.tournaments.create(
            settings, guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0,
            creator=person(interaction.user), manager=_manager(interaction), name=title)
        await deliver(interaction, view.id)
        created = _("Tournament #{id} created.").format(id=view.id)
        await finish(interaction, await _posted(interaction, view.id, created))


async def _posted(interaction: discord.Interaction, tournament_id: int, text: str) -> str:
    """``text`` with a link to the tournament's card once it is posted."""
    view = await app(interaction).services.tournaments.view(tournament_id, guild_id=interaction.guild_id or 0)
    if view.card_message_id:
        link = jump_url(view.guild_id, view.channel_id, view.card_message_id)
        return f"{text}\n" + _("The card: {link}").format(link=link)
    return text


@tournament_group.command(name="join", description="Enter a tournament of this server")
@app_commands.describe(tournament="Which tournament")
async def join(interaction: discord.Interaction, tournament: str) -> None:
    async with acknowledged(interaction):
        if not interaction.permissions.view_channel:
            raise BadInput(T("You cannot see this channel, so you could not follow the tournament here."))
        view = await app(interaction).services.tournaments.join(parse_tournament_id(tournament),
                                                                person(interaction.user),
                                                                guild_id=interaction.guild_id or 0)
        await deliver(interaction, view.id)
        await finish(interaction, _("You are in {name}.").format(name=view.name))


@tournament_group.command(name="withdraw", description="Leave a tournament (your running game is lost)")
@app_commands.describe(tournament="Which tournament")
async def withdraw(interaction: discord.Interaction, tournament: str) -> None:
    async with acknowledged(interaction):
        view = await app(interaction).services.tournaments.withdraw(parse_tournament_id(tournament),
                                                                    interaction.user.id,
                                                                    guild_id=interaction.guild_id or 0)
        await deliver(interaction, view.id)
        await finish(interaction, _("You withdrew from {name}.").format(name=view.name))


@tournament_group.command(name="bye", description="Sit out a Swiss round not yet paired, for half a point")
@app_commands.describe(tournament="Which tournament", round="Which round (default: the next one)")
async def bye(interaction: discord.Interaction, tournament: str, round: int | None = None) -> None:
    async with acknowledged(interaction):
        view = await app(interaction).services.tournaments.request_half_bye(
            parse_tournament_id(tournament), interaction.user.id, guild_id=interaction.guild_id or 0, round_no=round)
        await deliver(interaction, view.id)
        mine = view.entrant(interaction.user.id)
        rounds = ", ".join(str(r) for r in mine.half_byes) if mine else "?"
        await finish(interaction, _("Half-point byes in {name}: round {rounds}.").format(name=view.name,
                                                                                        rounds=rounds))


@tournament_group.command(name="start", description="Start a tournament now (its organiser or a manager)")
@app_commands.describe(tournament="Which tournament")
async def start(interaction: discord.Interaction, tournament: str) -> None:
    async with acknowledged(interaction):
        view = await app(interaction).services.tournaments.start(parse_tournament_id(tournament), interaction.user.id,
                                                                 guild_id=interaction.guild_id or 0,
                                                                 manager=_manager(interaction))
        await deliver(interaction, view.id)
        await finish(interaction, _("{name} has started.").format(name=view.name))


@tournament_group.command(name="cancel", description="Cancel a tournament (its organiser or a manager)")
@app_commands.describe(tournament="Which tournament")
async def cancel(interaction: discord.Interaction, tournament: str) -> None:
    async with acknowledged(interaction):
        view = await app(interaction).services.tournaments.cancel(parse_tournament_id(tournament),
                                                                  interaction.user.id,
                                                                  guild_id=interaction.guild_id or 0,
                                                                  manager=_manager(interaction))
        await deliver(interaction, view.id)
        await finish(interaction, _("{name} was cancelled.").format(name=view.name))


@tournament_group.command(name="forbid", description="Never pair two entrants of a Swiss (its organiser or a "
                                                     "manager)")
@app_commands.describe(tournament="Which tournament", player="One of the two", other="The other one")
async def forbid(interaction: discord.Interaction, tournament: str, player: discord.User,
                 other: discord.User) -> None:
    async with acknowledged(interaction):
        view = await app(interaction).services.tournaments.forbid_pair(
            parse_tournament_id(tournament), player.id, other.id, user_id=interaction.user.id,
            guild_id=interaction.guild_id or 0, manager=_manager(interaction))
        await finish(interaction, _("{first} and {second} will never be paired in {name}.").format(
            first=player.display_name, second=other.display_name, name=view.name))


@tournament_group.command(name="standings", description="A tournament's standings (and crosstable) as an image")
@app_commands.describe(tournament="Which tournament")
async def standings(interaction: discord.Interaction, tournament: str) -> None:
    async with acknowledged(interaction):
        view = await app(interaction).services.tournaments.view(parse_tournament_id(tournament),
                                                                guild_id=interaction.guild_id or 0)
        await standings_reply(interaction, view)


@tournament_group.command(name="list", description="This server's open and running tournaments")
async def list_command(interaction: discord.Interaction) -> None:
    async with acknowledged(interaction):
        found = await app(interaction).services.tournaments.of_server(interaction.guild_id or 0,
                                                                      statuses=("open", "running", "finished"),
                                                                      limit=LISTED)
        lines = [summary_line(s) for s in found]
        text = "\n".join(lines) or _("No tournaments here yet. A manager starts one with /tournament create.")
        await finish(interaction, embed=info_embed(text[:MAX_EMBED_TEXT]))


STATUS_WORDS = {"open": N_("open for entries"), "running": N_("round {round} of {rounds}"),
                "finished": N_("finished"), "cancelled": N_("cancelled")}


def summary_line(s: TournamentSummary) -> str:
    state = _(STATUS_WORDS.get(s.status, s.status)).format(round=s.current_round, rounds=s.total_rounds)
    settings = TournamentSettings(game=s.game, format=s.format, variant=s.variant)
    return _("**{name}** (#{id}) · {game} · {format} · {entrants}/{most} entrants · {state}").format(
        name=s.name, id=s.id, game=game_label(settings), format=format_label(settings), entrants=s.entrants,
        most=s.max_entrants, state=state)


@tournament_group.command(name="export", description="A two-player tournament as a FIDE TRF file, for audit")
@app_commands.describe(tournament="Which tournament")
async def export(interaction: discord.Interaction, tournament: str) -> None:
    async with acknowledged(interaction):
        tournament_id = parse_tournament_id(tournament)
        text = await app(interaction).services.tournaments.trf(tournament_id, guild_id=interaction.guild_id or 0)
        await interaction.edit_original_response(
            content=_("Tournament #{id} in FIDE's TRF16 format.").format(id=tournament_id),
            attachments=[discord.File(io.BytesIO(text.encode()), filename=TRF_FILE.format(id=tournament_id))])


async def tournament_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The server's tournaments, open and running first, matching what was typed (name or number)."""
    typed = current.strip().lstrip("#").lower()[:MAX_CHOICE_TEXT]
    with speaking(interaction.locale):
        try:
            found = await app(interaction).services.tournaments.of_server(
                interaction.guild_id or 0, statuses=("open", "running", "finished"), limit=MAX_CHOICES * 2)
        except Exception:   # noqa: BLE001 - the database is away: an empty list, the command then says why
            return []
        out = []
        for s in found:
            label = f"{s.name} (#{s.id}) — " + _(STATUS_WORDS.get(s.status, s.status)).format(
                round=s.current_round, rounds=s.total_rounds)
            if typed in label.lower():
                out.append(app_commands.Choice(name=label[:MAX_CHOICE_TEXT], value=str(s.id)))
        return out[:MAX_CHOICES]


async def start_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The start option's suggestions; what was typed is offered first when it is not one of them."""
    with speaking(interaction.locale):
        out = [app_commands.Choice(name=_(label), value=value) for value, label in START_SUGGESTIONS]
    typed = current.strip()[:MAX_CHOICE_TEXT]
    if typed and all(typed != c.value for c in out):
        out.insert(0, app_commands.Choice(name=typed, value=typed))
    return out


CHOOSING_A_TOURNAMENT: list[app_commands.Command] = [join, withdraw, bye, start, cancel, forbid, standings, export]
for _command in CHOOSING_A_TOURNAMENT:
    _command.autocomplete("tournament")(tournament_autocomplete)
create.autocomplete("start")(start_autocomplete)


def register(tree: app_commands.CommandTree) -> None:
    tree.add_command(tournament_group)
