"""A process that drives the real services and dispatcher and kills itself (SIGKILL) at a chosen point.

    python -m tests.bot.crash_driver DB JOURNAL SCENARIO run       # set up, then act and die at the point
    python -m tests.bot.crash_driver DB JOURNAL SCENARIO recover   # a restart: deliver what is pending, report

Announcements go to a journal file instead of Discord, one JSON line per post, each keyed by its outbox row's
nonce; a repeated nonce is answered without a second line, as Discord does for ``enforce_nonce``. The journal
is a front end like Discord's (``Routes``); the bot's turns are played by the dispatcher's worker, the real
``AIPlayer`` (in a thread). ``recover`` prints a JSON summary on its last line.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
from pathlib import Path

from bot.ai_player import AIPlayer
from bot.dispatcher import Delivered, Dispatcher, Routes
from bot.model import Person
from bot.services import Services
from bot.services.announce import KINDS, BotTurn, Handler, Handlers, Outgoing, Reply
from bot.services.play import play_turn
from bot.store import Database
from bot.store.matches import MatchStore
from bot.store.ratings import RatingStore

GUILD, CHANNEL = 1, 10
ANN, BOB = Person(11, "Ann"), Person(12, "Bob")
SCENARIOS = ("move_after_commit", "move_after_post", "bot_thinking", "resign_inside_transaction",
             "resign_after_commit", "bot_challenge_inside_transaction", "bot_challenge_after_commit",
             "finishing_move_inside_transaction", "move_held")
HOLDING = ".holding"    # move_held: beside the journal once the move's rows are claimed (then it waits to be killed)


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


class Journal:
    """Where posts go: an append-only file, deduplicated by nonce like Discord's enforce_nonce."""
    name = "the journal"

    def __init__(self, path: Path, ai: AIPlayer):
        self.path = path
        self.ai = ai
        self.die_after_post = False
        self.hold = False       # claim, then wait (holding the claim, renewing it) instead of posting

    def lines(self) -> list[dict]:
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text().splitlines() if line.strip()]

    @property
    def handlers(self) -> Handlers:
        return {cls: self.post for cls in KINDS.values() if cls is not BotTurn}

    async def perform(self, outgoing: Outgoing, handler: Handler) -> Delivered:
        return await handler(outgoing)

    async def post(self, outgoing: Outgoing) -> Delivered:
        if self.hold:
            self.path.with_suffix(HOLDING).write_text(str(outgoing.row_id))
            await asyncio.Event().wait()
        nonce = f"ob{outgoing.row_id}"
        if any(line["nonce"] == nonce for line in self.lines()):
            return Delivered("sent")            # the post was made before a crash: Discord returns it again
        notice = outgoing.notice
        entry = {"nonce": nonce, "row": outgoing.row_id, "kind": notice.kind, "match": outgoing.match_id,
                 "event": getattr(notice, "event", None), "ply": getattr(notice, "ply", None)}
        with self.path.open("a") as f:
            f.write(json.dumps(entry) + "\n")
            f.flush()
            os.fsync(f.fileno())
        if self.die_after_post:
            die()
        return Delivered("sent")


async def started_match(services: Services, *, days: int = 3):
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=days)
    return await services.challenges.accept(match.id, BOB, guild_id=GUILD)


async def run(services: Services, journal: Journal, dispatcher: Dispatcher, scenario: str) -> None:
    reply = None
    if scenario.startswith("bot_challenge"):
        if scenario == "bot_challenge_inside_transaction":
            async def start_then_die(self, tx, match_id, start, *, now):   # the challenge row is written
                die()
            MatchStore.start = start_then_die  # type: ignore[method-assign]
        else:
            services.events.announcements.subscribe(lambda _id: die())
        await services.challenges.challenge_bot("tintas", guild_id=GUILD, channel_id=CHANNEL, player=ANN, level=1)
        return
    if scenario == "bot_thinking":
        match = await services.challenges.challenge_bot("tintas", guild_id=GUILD, channel_id=CHANNEL, player=ANN,
                                                        level=1)
        await dispatcher.deliver_pending()
        match = await services.queries.get(match.id)

        async def think_then_die(match):
            die()
        journal.ai.choose = think_then_die  # type: ignore[method-assign]
        await services.play.submit_turn(match, ANN.user_id, match.position.legal_moves()[0], guild_id=GUILD)
        await dispatcher.deliver_pending()
        return
    match = await started_match(services)
    await dispatcher.deliver_pending()
    match = await services.queries.get(match.id)
    mover = match.to_move_user
    assert mover is not None
    if scenario == "finishing_move_inside_transaction":
        await play_to_the_finishing_turn_and_die_rating_it(services, match)
        return
    if scenario.startswith("resign"):
        if scenario == "resign_inside_transaction":
            real_apply = RatingStore.apply

            async def rate_then_die(self, tx, row, seats):
                await real_apply(self, tx, row, seats)
                die()
            RatingStore.apply = rate_then_die  # type: ignore[method-assign]
        else:
            services.events.announcements.subscribe(lambda _id: die())
        await services.play.resign(match.id, ANN.user_id, guild_id=GUILD)
        return
    if scenario == "move_after_commit":
        services.events.announcements.subscribe(lambda _id: die())
    elif scenario == "move_held":       # the test kills it while it holds the move's rows
        journal.hold = True
    else:
        journal.die_after_post = True
    reply = Reply("token", 1, "✅ Move played.", expires_at="9999-01-01T00:00:00+00:00")
    await services.play.submit_turn(match, mover.user_id, match.position.legal_moves()[0], guild_id=GUILD,
                                    told=[reply])
    await dispatcher.deliver_pending()


async def play_to_the_finishing_turn_and_die_rating_it(services: Services, match) -> None:
    """Random legal turns until one would end the game; that one is submitted, and the process dies once it
    is rated (inside the move's transaction, if rating is part of it)."""
    rng = random.Random(1)
    while True:
        mover = match.to_move_user
        seat = match.seat_of(mover.user_id)
        options = [value for value, _ in match.game.turn_suggestions(match.position, "", 40)]
        finishing = [v for v in options if play_turn(match.position, seat, v)[1][-1].is_over]
        if finishing:
            async def rate_then_die(self, tx, row, seats, real_apply=RatingStore.apply):
                await real_apply(self, tx, row, seats)
                die()
            RatingStore.apply = rate_then_die  # type: ignore[method-assign]
            await services.play.submit_turn(match, mover.user_id, finishing[0], guild_id=GUILD)
            return
        match = (await services.play.submit_turn(match, mover.user_id, rng.choice(options), guild_id=GUILD)).match


async def recover(services: Services, journal: Journal, dispatcher: Dispatcher) -> dict:
    await dispatcher.release_dead_claims()
    for _ in range(20):      # a bot turn leads to a board, which may lead to another bot turn
        if not await dispatcher.deliver_pending():
            break
    rows = await services.db.fetchall("SELECT id, status, ply FROM matches ORDER BY id")
    ratings = await services.db.fetchall("SELECT match_id, COUNT(*) FROM rating_changes GROUP BY match_id")
    pending = await services.outbox.pending()
    outbox = await services.db.fetchall("SELECT id, kind, result FROM outbox ORDER BY id")
    return {"journal": journal.lines(), "matches": [list(r) for r in rows], "ratings": [list(r) for r in ratings],
            "pending": [r.id for r in pending], "outbox": [list(r) for r in outbox]}


async def main(db_path: str, journal_path: str, scenario: str, phase: str) -> int:
    db = await Database.open(db_path)
    services = Services(db)
    ai = AIPlayer(services)
    journal = Journal(Path(journal_path), ai)
    dispatcher = Dispatcher(services, Routes(journal, workers=ai.workers))
    try:
        if phase == "run":
            await run(services, journal, dispatcher, scenario)
            print("the crash point was never reached", file=sys.stderr)
            return 3
        print(json.dumps(await recover(services, journal, dispatcher)))
        return 0
    finally:
        await db.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(*sys.argv[1:5])))
