"""Play a match in the terminal through the same match service and storage as Discord.

Local seats take turns at one keyboard; moves are typed as on Discord. Each board is written as a PNG
whose path is printed, next to the engine's text board.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from bot import messages
from bot.ai_player import AIPlayer
from bot.service import MatchService, Person, ServiceError, ai_people
from bot.store import Database
from engines import GAMES
from render import board_png

TERMINAL_GUILD = 0      # the terminal is its own "server"
TERMINAL_CHANNEL = 0
HELP = "Type a move (or a whole turn), 'moves' to list the legal ones, 'resign', or 'quit'."


async def play_in_terminal(game_key: str, *, players: int | None = None, variant: str | None = None,
                           seed: int | None = None, out_dir: str = "out", database: str | None = None,
                           bots: int = 0, level: int = 3,
                           read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> int:
    """Local seats at one keyboard; ``bots`` of the seats are played by the bot at ``level``."""
    game = GAMES[game_key]
    players = players or max(min(game.player_counts), bots + 1)
    if players not in game.player_counts:
        write(f"{game.title} is played by {' or '.join(map(str, game.player_counts))} players.")
        return 2
    if variant is not None and variant not in game.variants:
        write(f"{game.title} variants: {', '.join(game.variants) or 'none'}.")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(database or Path(tmp) / "terminal.sqlite3")
        try:
            seeds = random.Random(seed) if seed is not None else None
            service = MatchService(db, seed_source=seeds)
            return await _play(service, game_key, players, variant, Path(out_dir), read, write, bots, level)
        finally:
            await db.close()


async def _play(service: MatchService, game_key: str, players: int, variant: str | None, out: Path,
                read: Callable[[str], str], write: Callable[[str], None], bots: int, level: int) -> int:
    game = GAMES[game_key]
    humans = [Person(i + 1, f"Player {i + 1}") for i in range(players - bots)]
    people = humans + ai_people(level, bots) if bots else humans
    teams = game.teams.get(players)
    partner = people[teams[0][1]] if teams else None
    place = {"guild_id": TERMINAL_GUILD, "channel_id": TERMINAL_CHANNEL}
    match = await service.challenge(game_key, **place, challenger=people[0], opponents=people[1:],
                                    variant=variant, partner=partner, days_per_move=0)
    for p in humans[1:]:
        match = await service.accept(match.id, p, guild_id=TERMINAL_GUILD)
    bot = AIPlayer(service)
    out.mkdir(parents=True, exist_ok=True)
    write(f"{game.title} — {game.summary}")
    write(messages.seat_line(match))
    write(HELP)
    text = "The match begins!"
    shown = None
    while True:
        if shown != (match.ply, match.status):   # a new position: draw it once
            shown = (match.ply, match.status)
            suffix = "-final" if match.status != "active" else ""
            path = out / f"{game_key}-{match.id}-{match.ply:03d}{suffix}.png"
            png = await asyncio.to_thread(board_png, match.state, last_turn=match.last_turn,
                                          names=match.names, previous=match.previous)
            path.write_bytes(png)
            write("")
            write(match.state.text_board())
            write(f"Board image: {path}")
        if text:
            write(text.replace("**", ""))  # the shared texts carry Discord's bold marks
        if match.status != "active":
            write(messages.result_text(match))
            return 0
        if match.ai_to_move is not None:
            write(f"{match.ai_to_move.name} is thinking…")
            async for result in bot.turns(match.id):
                match = result.match
                text = f"{messages.turn_text(result)}\n{messages.to_move_text(match, pending=result.pending)}"
                break   # draw this position before the bot (or a person) moves again
            continue
        who = match.to_move_user
        try:
            line = read(f"{who.name}> ").strip()
        except EOFError:
            write("")
            return 0
        if line.lower() in {"quit", "exit"}:
            return 0
        if line.lower() in {"moves", "help", "?"}:
            write(HELP)
            write("Legal: " + ", ".join(v for v, _ in game.turn_suggestions(match.state, "", 25)))
            text = ""
            continue
        try:
            if line.lower() == "resign":
                match = await service.resign(match.id, who.user_id, guild_id=TERMINAL_GUILD)
                text = ""
                continue
            result = await service.submit_turn(match.id, who.user_id, line, guild_id=TERMINAL_GUILD)
        except ServiceError as exc:
            write(f"Not played: {exc}")
            text = ""
            continue
        match = result.match
        text = f"{messages.turn_text(result)}\n{messages.to_move_text(match, pending=result.pending)}"


if __name__ == "__main__":  # pragma: no cover - convenience
    sys.exit(asyncio.run(play_in_terminal(sys.argv[1] if len(sys.argv) > 1 else "tintas")))
