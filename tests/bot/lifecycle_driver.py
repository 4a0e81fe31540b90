"""The bot's real lifecycle (``bot.__main__.serve``) in a process of its own, without Discord's gateway.

    python -m tests.bot.lifecycle_driver DB JOURNAL      # env: HEALTH_PORT

The real ``make_bot`` bot sets up as in production (database, render and AI worker processes, scheduler,
dispatcher, health endpoint), but ``connect`` stands in for the gateway: it runs the set-up, plays a human
move against the bot (so the dispatcher has a bot turn to play in the AI pool), prints ``READY`` and stays
"connected" until the bot is closed — by SIGTERM, as ``docker stop`` sends it. Posts go to a journal file.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path

from bot.__main__ import serve
from bot.config import load_config
from bot.discord.client import make_bot
from bot.model import Person
from bot.services.announce import Delivered, Handler, Outgoing

GUILD, CHANNEL = 1, 10
ANN = Person(11, "Ann")


async def main(db_path: str, journal_path: str, port: str) -> int:
    config = load_config(env_file=None, environ={"DATABASE_PATH": db_path, "HEALTH_PORT": port})
    logging.basicConfig(level=config.log_level, format="%(levelname)s %(name)s: %(message)s")
    bot = make_bot(config, sync_commands=False, render_processes=1)   # the AI pool as in production
    journal = Path(journal_path)

    async def perform(outgoing: Outgoing, handler: Handler) -> Delivered:   # a journal line instead of a post
        with journal.open("a") as f:
            f.write(json.dumps({"row": outgoing.row_id, "kind": outgoing.notice.kind, "match": outgoing.match_id})
                    + "\n")
        return Delivered("sent")

    bot.poster.perform = perform  # type: ignore[method-assign]   # the bot's turns: the dispatcher's AI worker
    gateway = asyncio.Event()
    bot.readiness.add("discord", lambda: gateway.is_set() and not bot.stopping)

    async def connect() -> None:
        await bot.setup_hook()
        services = bot.services
        match = await services.challenges.challenge_bot("tintas", guild_id=GUILD, channel_id=CHANNEL, player=ANN,
                                                        level=1)
        while True:     # Ann moves once; if the bot opens, the dispatcher plays its turn first
            match = await services.queries.get(match.id)
            if match.ai_to_move is None:
                await services.play.submit_turn(match, ANN.user_id, match.position.legal_moves()[0], guild_id=GUILD)
                break
            await asyncio.sleep(0.05)
        await bot.renders.ready()         # as a bot that has run a while: its worker processes are up
        if bot.ai.pool is not None:
            await bot.ai.pool.ready()
        gateway.set()
        print("READY", flush=True)
        while not bot.is_closed():        # as bot.start returns once the bot is closed
            await asyncio.sleep(0.05)

    return await serve(bot, config, connect)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(*sys.argv[1:4])))
