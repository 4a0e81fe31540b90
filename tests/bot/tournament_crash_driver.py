"""A process that runs a tournament through the real services and dispatcher and kills itself (SIGKILL) at a
round's boundary (tests/bot/test_tournament_crash.py).

    python -m tests.bot.tournament_crash_driver DB JOURNAL SCENARIO run       # set up, act, die at the point
    python -m tests.bot.tournament_crash_driver DB JOURNAL SCENARIO recover   # a restart: deliver, report

Posts go to a journal file (``tests.bot.crash_driver.Journal``: one JSON line per post, deduplicated by the row's
nonce as Discord's ``enforce_nonce`` does); the pairing is the real worker (``TournamentPairer``).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from bot.ai_player import AIPlayer
from bot.dispatcher import Dispatcher, Routes
from bot.model import Person
from bot.services import Services
from bot.services.announce import KINDS, Handlers
from bot.services.tournament_views import TournamentSettings
from bot.store import Database
from bot.store.tournaments import TournamentStore
from bot.tournament_pairer import TournamentPairer
from bot.tournaments.model import Format
from tests.bot.crash_driver import Journal, die

GUILD, CHANNEL = 1, 10
PEOPLE = [Person(21 + i, f"P{i + 1}") for i in range(4)]
SCENARIOS = ("last_result_committed", "pairing_inside_transaction", "pairing_after_commit")


class TournamentJournal(Journal):
    def __init__(self, path: Path, ai: AIPlayer, workers: Handlers):
        super().__init__(path, ai)
        self.workers = workers

    @property
    def handlers(self) -> Handlers:
        return {cls: self.post for cls in KINDS.values() if cls not in self.workers}


async def run(services: Services, dispatcher: Dispatcher, scenario: str) -> None:
    settings = TournamentSettings(game="tintas", format=Format.SWISS, rounds=2, max_entrants=4)
    view = await services.tournaments.create(settings, guild_id=GUILD, channel_id=CHANNEL, creator=PEOPLE[0],
                                             manager=True, name="Crash cup")
    for p in PEOPLE:
        await services.tournaments.join(view.id, p, guild_id=GUILD)
    await dispatcher.deliver_pending()               # round 1 paired and posted
    view = await services.tournaments.read(view.id)
    first, second = (t for t in view.rounds[0].tables)
    await services.play.resign(first.match_id, first.seats[1], guild_id=GUILD)   # type: ignore[arg-type]
    await dispatcher.deliver_pending()
    if scenario == "last_result_committed":
        services.events.announcements.subscribe(lambda _id: die())   # after the last result's commit
    elif scenario == "pairing_inside_transaction":
        async def write_then_die(self, tx, tournament_id, tables):
            die()
        TournamentStore.add_tables = write_then_die  # type: ignore[method-assign]
    else:
        real = services.tournaments._after

        def committed_then_die(deadline):
            real(deadline)
            die()
        services.tournaments._after = committed_then_die  # type: ignore[method-assign]
    await services.play.resign(second.match_id, second.seats[1], guild_id=GUILD)   # type: ignore[arg-type]
    await dispatcher.deliver_pending()               # the worker pairs round 2


async def recover(services: Services, journal: Journal, dispatcher: Dispatcher) -> dict:
    await dispatcher.release_dead_claims()
    for _ in range(10):
        if not await dispatcher.deliver_pending():
            break
    (view,) = [await services.tournaments.read(s.id) for s in await services.tournaments.of_server(GUILD)]
    matches = await services.db.fetchall("SELECT id, tournament_round, status FROM matches ORDER BY id")
    outbox = await services.db.fetchall("SELECT id, kind, result FROM outbox ORDER BY id")
    return {"journal": journal.lines(), "pending": [r.id for r in await services.outbox.pending()],
            "outbox": [list(r) for r in outbox], "matches": [list(r) for r in matches],
            "current_round": view.current_round,
            "rounds": [[list(t.seats) for t in r.tables] for r in view.rounds]}


async def main(db_path: str, journal_path: str, scenario: str, phase: str) -> int:
    db = await Database.open(db_path)
    services = Services(db)
    ai = AIPlayer(services)
    workers = {**ai.workers, **TournamentPairer(services).workers}
    journal = TournamentJournal(Path(journal_path), ai, workers)
    dispatcher = Dispatcher(services, Routes(journal, workers=workers))
    try:
        if phase == "run":
            await run(services, dispatcher, scenario)
            print("the crash point was never reached", file=sys.stderr)
            return 3
        print(json.dumps(await recover(services, journal, dispatcher)))
        return 0
    finally:
        await db.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(*sys.argv[1:5])))
