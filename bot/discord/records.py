"""Game records and analysis on Discord: ``/match record``, ``/<game> analyze`` and ``/<game> hint``.

All three answer privately; the position to analyse comes from ``services.analysis``, which refuses any near a
rated match in progress (``services.fairplay``). The format
lives in ``bot.records``; the search runs in the AI pool (``AIPlayer.best_turns``), the board in the render pool;
the interaction is acknowledged before any of it.
"""

from __future__ import annotations

import asyncio
import io
import zlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot import records, wording
from bot.discord.cards import BOARD_FILE
from bot.discord.interaction import COLOUR_ACTIVE, COLOUR_DONE, MAX_EMBED_TEXT, acknowledged, app
from bot.i18n import T, _, current
from bot.model import BadInput, Match, NotAllowed
from bot.services.play import quote
from bot.services.queries import parse_match_id
from engines import Game, State, outcome_text

MAX_TURN_OPTION = 100_000  # the largest turn: a player may ask for
SOURCE_NAME = 40           # characters of an attachment's file name quoted in the analysis title

Finder = Callable[..., Awaitable[Match]]


@app_commands.command(name="record", description="The whole game of a match in this server as a text record")
@app_commands.describe(match="The match number (#12), running or finished")
async def record_command(interaction: discord.Interaction, match: str) -> None:
    """Anyone in the server may export any started match of it (as anyone may look at its board), privately."""
    bot = app(interaction)
    async with acknowledged(interaction):
        match_id = parse_match_id(match)
        if match_id is None:
            raise BadInput(T(wording.RECORD_NEEDS_MATCH))
        found, frames = await bot.services.queries.turns(match_id, guild_id=interaction.guild_id or 0)
        site = f"{bot.user.name} (Discord)" if bot.user else "Discord"
        text = records.write(records.from_match(found, frames, site=site))
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename=wording.RECORD_FILE.format(match_id=found.id))
        content = _(wording.RECORD_EXPORTED).format(caption=wording.board_caption(found), game=found.row.game)
        page = await bot.page_url(found)
        if page is not None:
            content += "\n" + _("In a browser: {url}").format(url=page)
        await interaction.edit_original_response(content=content, attachments=[file])


def add_analysis_commands(group: app_commands.Group, game: Game, find: Finder,
                          match_autocomplete: Callable[..., Any]) -> None:
    """``analyze`` and ``hint`` in a game's group (``find`` is the commands' way to the match a command means)."""

    @group.command(name="analyze", description=f"The bot's best turns in a {game.title} position (private; "
                   "none near a rated match in progress)")
    @app_commands.describe(code="A position code (every analysis and record shows them)",
                           record="A record file from /match record", turn="With a record: the position after "
                           "this turn (0 = the start; default the last)")
    async def analyze(interaction: discord.Interaction, code: str | None = None,
                      record: discord.Attachment | None = None,
                      turn: app_commands.Range[int, 0, MAX_TURN_OPTION] | None = None) -> None:
        async with acknowledged(interaction):
            app(interaction).services.submissions.take(interaction.user.id)   # before any work
            analyses = app(interaction).services.analysis
            names: Sequence[str] | None = None
            if code is not None and record is not None:
                raise BadInput(T(wording.ANALYZE_BOTH))
            if code is not None:
                if turn is not None:
                    raise BadInput(T(wording.ANALYZE_TURN_NEEDS_RECORD))
                position = await analyses.of_code(game, code)
                where = _(wording.ANALYSIS_WHERE_CODE)
            elif record is not None:
                rec = await read_record(record)
                position = await analyses.of_record(game, rec, turn)
                names = [person or seat for person, seat in zip(rec.people, rec.seats, strict=True)]
                where = _(wording.ANALYSIS_WHERE_RECORD).format(
                    turn=len(rec.turns) if turn is None else turn, source=quote(record.filename[:SOURCE_NAME]))
            else:
                raise BadInput(T(wording.ANALYZE_NEEDS_INPUT))
            state = position.state
            text = await analysis(interaction, game, state, names, seed=zlib.crc32(state.encode().encode()))
            await show(interaction, _(wording.ANALYSIS_TITLE).format(game=game.title, where=where), text, state,
                       position.previous, list(position.last_turn), names)

    @group.command(name="hint", description=f"The bot's best turns for you (casual {game.title} matches only)")
    @app_commands.describe(match="Which match, if you play several here")
    async def hint(interaction: discord.Interaction, match: str | None = None) -> None:
        bot = app(interaction)
        async with acknowledged(interaction):
            bot.services.submissions.take(interaction.user.id)                # before any work
            found = await find(interaction, game, match, prefer_my_turn=True)
            bot.services.hints.check(found, interaction.user.id, guild_id=interaction.guild_id or 0)
            state = found.position
            text = await analysis(interaction, game, state, found.names, seed=found.row.seed ^ found.ply,
                                  match_id=found.id)
            await bot.services.hints.record(found, interaction.user.id)
            await show(interaction, _(wording.HINT_TITLE).format(game=game.title, match_id=found.id), text, state,
                       found.previous, found.last_turn, found.names)
            await bot.dispatcher.deliver_pending(found.id)

    hint.autocomplete("match")(match_autocomplete)


async def read_record(attachment: discord.Attachment) -> records.GameRecord:
    """The attached record, read and replayed in a thread (never on the event loop)."""
    if attachment.size > records.MAX_RECORD_BYTES:   # refused unread
        raise BadInput(T(wording.RECORD_TOO_LARGE, size=attachment.size, limit=records.MAX_RECORD_BYTES))
    try:
        data = await attachment.read()
    except discord.HTTPException:
        raise BadInput(T(wording.RECORD_DOWNLOAD_FAILED)) from None
    return await asyncio.to_thread(records.parse_bytes, data)   # the replay takes milliseconds per turn: off the loop


async def analysis(interaction: discord.Interaction, game: Game, state: State, names: Sequence[str] | None, *,
                   seed: int, match_id: int | None = None) -> str:
    """The analysis text: the best turns with their evaluations, or who won a finished game."""
    labels = list(names) if names else [_(seat) for seat in game.seat_names(state.players)]
    if state.is_over:
        outcome = state.outcome()
        why = outcome_text(game, outcome, labels, _) if outcome is not None else ""
        text = wording.analysis_over_text([labels[s] for s in state.winners], state.players, why)
    else:
        try:
            turns = await app(interaction).ai.best_turns(state, seed=seed & 0x7FFFFFFF, match_id=match_id)
        except TimeoutError:
            raise NotAllowed(T(wording.ANALYZE_BUSY)) from None
        seat = state.to_move
        assert seat is not None
        text = wording.analysis_text(labels[seat], [(records.notation(t.moves), t.value, t.final) for t in turns])
    code = _(wording.ANALYSIS_CODE).format(code=state.encode())
    return f"{text}\n{code}"


async def show(interaction: discord.Interaction, title: str, text: str, state: State, previous: State | None,
               last_turn: list[str], names: Sequence[str] | None) -> None:
    """The analysis with the board, drawn in the render pool, as the private answer."""
    png = await app(interaction).renders.board(state, last_turn=last_turn, names=names, previous=previous,
                                               language=current())
    embed = discord.Embed(title=title[:256], description=text[:MAX_EMBED_TEXT],
                          colour=COLOUR_DONE if state.is_over else COLOUR_ACTIVE)
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    file = discord.File(io.BytesIO(png), filename=BOARD_FILE, description=title[:1000])
    await interaction.edit_original_response(embed=embed, attachments=[file])


def register(match_group: app_commands.Group) -> None:
    match_group.add_command(record_command, override=True)   # one module-level group, added to every bot's tree
