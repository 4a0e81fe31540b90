"""Run the bot (``python -m bot``), play in the terminal (``python -m bot play tintas``), or move its database
(``python -m bot migrate-db --from <url> --to <url>``)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import multiprocessing
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import Config, ConfigError, load_config
from bot.i18n import LANGUAGES

if TYPE_CHECKING:
    from bot.discord.client import GameBot
    from bot.web.server import WebServer

log = logging.getLogger("bot")

NO_TOKEN = """\
No Discord token found.
  Set DISCORD_TOKEN in the environment or in a .env file (copy .env.example to .env and fill it in);
  the README explains how to create the Discord application and get its token.
  To try a game without Discord, play in the terminal:  make play GAME=tintas
"""


def main(argv: list[str] | None = None) -> int:
    from engines import GAMES

    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the Discord bot (the default)")
    play = sub.add_parser("play", help="play a match in the terminal, two local seats")
    play.add_argument("game", choices=sorted(GAMES))
    play.add_argument("--players", type=int, default=None, help="number of players (default: the fewest)")
    play.add_argument("--variant", default=None, help="variant (default: the game's default)")
    play.add_argument("--seed", type=int, default=None, help="fix the random set-up")
    play.add_argument("--out", default="out", help="folder for the board images (default: out/)")
    play.add_argument("--database", default=None, help="SQLite file (default: a temporary one)")
    play.add_argument("--bots", type=int, default=0, help="seats the bot plays (default: none)")
    play.add_argument("--level", type=int, default=3, choices=range(1, 6), help="the bot's level, 1-5")
    play.add_argument("--language", default=None, choices=LANGUAGES,
                      help="the language of every word (default: from LANG, else English)")
    rebuild = sub.add_parser("rebuild-ratings", help="recompute every rating from the stored match log")
    rebuild.add_argument("--guild", type=int, default=None, help="only this server (default: all)")
    compact = sub.add_parser("compact-db", help="archive the move logs of ended matches now (see bot/archiver.py)")
    compact.add_argument("--batch", type=int, default=None, help="matches per transaction batch (default: 100)")
    move = sub.add_parser("migrate-db", help="copy every match, move, rating and setting to an empty database"
                          " (SQLite <-> PostgreSQL) and verify the copy; stop the bot first")
    move.add_argument("--from", dest="source", required=True, help="the database to copy (URL or SQLite file)")
    move.add_argument("--to", dest="target", required=True, help="the empty database to fill (URL or SQLite file)")
    args = parser.parse_args(argv)

    try:
        config = load_config()
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    if args.command == "play":
        from bot.terminal import play_in_terminal
        return asyncio.run(play_in_terminal(args.game, players=args.players, variant=args.variant,
                                            seed=args.seed, out_dir=args.out, database=args.database,
                                            bots=args.bots, level=args.level, language=args.language))
    if args.command == "migrate-db":
        from bot.migrate_db import run
        return asyncio.run(run(args.source, args.target))
    if args.command == "rebuild-ratings":
        return asyncio.run(rebuild_ratings(config.database_path, args.guild))
    if args.command == "compact-db":
        return asyncio.run(compact_db(config.database_path, batch=args.batch))
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 1
    return run_bot(config, config.token)


BAD_TOKEN = ("Discord refused the token in DISCORD_TOKEN: it is mistyped or was reset. Copy a new one from the"
             " Developer Portal (your application, Bot, Reset Token) into .env.")


def run_bot(config: Config, token: str) -> int:
    """Connect to Discord and play until stopped; a refused token is one clear line and exit status 2."""
    from discord import LoginFailure

    from bot.discord.client import make_bot
    bot = make_bot(config)
    freeze_start_up_heap()
    try:
        return asyncio.run(serve(bot, config, lambda: bot.start(token)))
    except LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 2


def freeze_start_up_heap() -> None:
    """Put the objects made so far (the modules, registries and tables: they live as long as the process) out of
    the garbage collector's walks. A full collection falls due at any allocation — in the middle of reading a
    record, say — and holds every thread meanwhile; walking the start-up heap of the bot's imports (about 60,000
    objects) made each one cost 30 ms on the shared 2-core machine, the frozen heap about nothing."""
    gc.collect()
    gc.freeze()


# ---- the bot's lifecycle: health endpoint, signals, clean stop ----

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)   # docker stop, Ctrl+C: the same clean shutdown
CHILD_GRACE = 3.0      # seconds the render and AI workers get to exit after their pools close; then terminated


async def end_children(grace: float = CHILD_GRACE) -> None:
    """Let the worker processes exit, and end those that do not in time (one still starting, say), so the
    process stops well within Docker's 10 seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    while multiprocessing.active_children() and loop.time() < deadline:
        await asyncio.sleep(0.05)
    for child in multiprocessing.active_children():
        log.warning("worker process %s did not exit; terminating it", child.pid)
        child.terminate()


def web_server(bot: GameBot, config: Config) -> WebServer | None:
    """The match pages' server when PUBLIC_URL and WEB_PORT are set (services and renders exist once set up)."""
    if not (config.web_enabled and config.public_url and config.web_port):
        return None
    from bot.web.server import WebServer
    return WebServer(lambda: bot.services, lambda: bot.renders, public_url=config.public_url, port=config.web_port)


async def serve(bot: GameBot, config: Config, connect: Callable[[], Awaitable[None]]) -> int:
    """Run the bot until it is closed: the health endpoint (HEALTH_PORT) serves meanwhile, and SIGTERM or
    SIGINT closes the Discord connection, the scheduler, the dispatcher, the pools and the database.

    ``connect`` is ``bot.start(token)`` (log in, set up, stay connected until closed); the tests pass one
    that sets up without a gateway.
    """
    from bot.health import HealthServer
    from bot.metrics import OutboxGauges

    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task] = []

    def stop(signum: int) -> None:
        if not stopping:
            log.info("%s: stopping", signal.Signals(signum).name)
            stopping.append(asyncio.create_task(bot.close()))

    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop, signum)

    async def backlog() -> None:     # fails (the values are marked stale) before start-up, while closing, in outages
        await OutboxGauges(bot.services.db, bot.services.clock).refresh()

    health = HealthServer(bot.readiness, port=config.health_port, before_scrape=backlog) if config.health_port \
        else None
    pages = web_server(bot, config)
    try:
        async with bot:
            if health is not None:
                try:
                    await health.start()
                except OSError as exc:    # a busy port must not keep the bot from playing (``make run``)
                    log.error("the health endpoint cannot listen on port %d (%s); running without it",
                              config.health_port, exc)
                    health = None
            if pages is not None:
                try:
                    await pages.start()
                except OSError as exc:    # as the health endpoint: the bot plays on without its pages
                    log.error("the match pages cannot listen on port %d (%s); running without them",
                              config.web_port, exc)
                    pages = None
            await connect()
    finally:
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)
        if stopping:
            await stopping[0]
        if health is not None:
            await health.stop()
        if pages is not None:
            await pages.stop()
        await end_children()
    log.info("stopped")
    return 0


async def rebuild_ratings(path: str | Path, guild: int | None) -> int:
    from bot.store import Database
    from bot.store.ratings import RatingStore

    db = await Database.open(path)
    try:
        ratings = RatingStore(db)
        before = await ratings.snapshot()
        count = await ratings.rebuild(guild)
        after = await ratings.snapshot()
    finally:
        await db.close()
    same = "unchanged" if before == after else "changed"
    print(f"Rebuilt ratings from {count} rated matches in {path}: {len(after)} ratings, {same}.")
    return 0


async def compact_db(path: str | Path, *, batch: int | None = None) -> int:
    """Archive every ended match that is due (the archiver's rules, all at once), printing the progress.
    Exit status 1 if some match's log does not reproduce its positions (those are left as they are)."""
    from bot.archiver import ARCHIVE_BATCH, Tally, archive_all
    from bot.services import Services
    from bot.store import Database

    def progress(total: Tally) -> None:
        print(f"archived {total.archived} matches so far ({len(total.failed)} not reproducible)", flush=True)

    db = await Database.open(path)
    try:
        total = await archive_all(Services(db), batch=batch or ARCHIVE_BATCH, progress=progress)
    finally:
        await db.close()
    print(f"Compacted {db.path}: {total.archived} matches archived.")
    if total.failed:
        print(f"NOT archived, their logs do not reproduce the stored positions: "
              f"{', '.join(f'#{m}' for m in total.failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
