"""A match page's weight and its time to the first board, for a 60-turn and a 400-turn match; and a tournament
page's (a finished round robin of --entrants, its standings image drawn on request).

    python bench/bench_page.py [--turns 60 400] [--game quincala] [--steps 20] [--entrants 8]

Plays each match through the services into a throw-away SQLite database (seeded random turns that avoid ending
the game while another turn exists; a game that still ends sooner prints the turns it reached; then resigned),
turns its server's pages on and serves it with a fresh web server (empty caches) and one warmed render worker.
Then, as a browser would on a first visit: the HTML, the CSS, the script, the page's data and the board it shows
first; prints the bytes of each and the seconds until the board has arrived. Then ``--steps`` other plies'
boards, each drawn on request (nothing cached): median and worst seconds per step.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.ai_player import AIPlayer  # noqa: E402
from bot.dispatcher import Dispatcher, Routes  # noqa: E402
from bot.i18n import board_texts  # noqa: E402
from bot.model import Person  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.services.announce import KINDS, Delivered, Handler, Handlers, Outgoing  # noqa: E402
from bot.services.pages import TOURNAMENT_KIND, Pages  # noqa: E402
from bot.services.settings import SettingsRequest  # noqa: E402
from bot.services.tournament_views import TournamentSettings  # noqa: E402
from bot.store import Database  # noqa: E402
from bot.tournament_pairer import TournamentPairer  # noqa: E402
from bot.tournaments.model import Format  # noqa: E402
from bot.web.server import WebServer  # noqa: E402
from render.pool import RenderPool  # noqa: E402

GUILD, CHANNEL = 1, 2
ANN, BOB = Person(11, "Ann"), Person(12, "Bob")


async def play(services: Services, game: str, turns: int, seed: int = 3) -> tuple[int, int]:
    """A match of ``turns`` whole turns (fewer if the game insists on ending), then resigned: (id, turns)."""
    rng = random.Random(seed)
    match = await services.challenges.challenge(game, guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=None)
    match = await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    played = 0
    while played < turns and match.status == "active":
        match = await services.queries.get(match.id)
        state, seat, moves = match.position, match.position.to_move, []
        while not state.is_over and state.to_move == seat:
            legal = state.legal_moves()
            going = [m for m in legal if not state.play(m).is_over]
            move = rng.choice(going or legal)
            moves.append(move)
            state = state.play(move)
        match = (await services.play.submit_turn(match, match.to_move_user.user_id, moves, guild_id=GUILD)).match
        played += 1
    if match.status == "active":
        await services.play.resign(match.id, BOB.user_id, guild_id=GUILD)
    return match.id, played


async def get(port: int, path: str) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n".encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _sep, body = raw.partition(b"\r\n\r\n")
    assert head.split()[1] == b"200", (path, head)
    return body


async def measure(services: Services, renders: RenderPool, match_id: int, turns: int, steps: int) -> None:
    token = await Pages(services.ctx, services.queries).token(match_id, GUILD)
    server = WebServer(lambda: services, lambda: renders, public_url="https://example.org", port=0, host="127.0.0.1")
    port = await server.start()
    try:
        base = f"/m/{token}"
        start = time.perf_counter()
        sizes = {"html": len(await get(port, base)), "css": len(await get(port, "/static/page.css")),
                 "js": len(await get(port, "/static/page.js"))}
        data = json.loads(await get(port, f"{base}/data.json"))
        sizes["data"] = len(json.dumps(data))
        last = len(data["turns"]) - 1
        sizes["first board"] = len(await get(port, f"{base}/board/{last}.png"))
        first = time.perf_counter() - start
        step_times = []
        for ply in random.Random(1).sample(range(last), min(steps, last)):
            t = time.perf_counter()
            await get(port, f"{base}/board/{ply}.png")
            step_times.append(time.perf_counter() - t)
        weight = sum(sizes.values())
        print(f"{turns:4d} turns: page weight {weight / 1024:6.1f} KB ("
              + ", ".join(f"{k} {v / 1024:.1f}" for k, v in sizes.items())
              + f") · first board after {first:.3f} s · a step (board drawn on request) median "
              f"{statistics.median(step_times):.3f} s, worst {max(step_times):.3f} s over {len(step_times)} plies")
    finally:
        await server.stop()


class Silent:
    """A front end that delivers every announcement by doing nothing (the pairing worker still pairs)."""
    name = "the bench"

    def __init__(self, services: Services):
        workers: Handlers = {**AIPlayer(services).workers, **TournamentPairer(services).workers}
        self.handlers: Handlers = {cls: self.nothing for cls in KINDS.values() if cls not in workers}
        self.dispatcher = Dispatcher(services, Routes(self, workers=workers), owner="bench")

    async def perform(self, outgoing: Outgoing, handler: Handler) -> Delivered:
        return await handler(outgoing)

    async def nothing(self, outgoing: Outgoing) -> Delivered:
        return Delivered()

    async def settle(self) -> None:
        while await self.dispatcher.deliver_pending():
            pass


async def tournament(services: Services, renders: RenderPool, entrants: int) -> None:
    """A round robin of ``entrants`` played to its end (the first seat resigns every game), then its page."""
    front = Silent(services)
    view = await services.tournaments.create(TournamentSettings(game="tintas", format=Format.ROUND_ROBIN,
                                                                max_entrants=entrants),
                                             guild_id=GUILD, channel_id=CHANNEL, creator=ANN, manager=True,
                                             name="Bench cup")
    for i in range(entrants):
        await services.tournaments.join(view.id, Person(100 + i, f"Player {i + 1}"), guild_id=GUILD)
    await front.settle()
    while (view := await services.tournaments.read(view.id)).status == "running":
        for table in (t for r in view.rounds for t in r.tables if t.match_id is not None and t.ranks is None):
            await services.play.resign(table.match_id, table.seats[0], guild_id=GUILD)
        await front.settle()
    token = await Pages(services.ctx, services.queries).token(view.id, GUILD, TOURNAMENT_KIND)
    server = WebServer(lambda: services, lambda: renders, public_url="https://example.org", port=0, host="127.0.0.1")
    port = await server.start()
    try:
        base = f"/t/{token}"
        start = time.perf_counter()
        sizes = {"html": len(await get(port, base)), "css": len(await get(port, "/static/tournament.css")),
                 "js": len(await get(port, "/static/tournament.js")),
                 "standings image": len(await get(port, f"{base}/standings.png"))}
        first = time.perf_counter() - start
        print(f"tournament of {entrants} ({len(view.rounds)} rounds): page weight {sum(sizes.values()) / 1024:6.1f} "
              "KB (" + ", ".join(f"{k} {v / 1024:.1f}" for k, v in sizes.items())
              + f") · standings image after {first:.3f} s")
    finally:
        await server.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, nargs="+", default=[60, 400])
    parser.add_argument("--game", default="quincala")   # the game whose random matches reach 400 turns
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--entrants", type=int, default=8)
    args = parser.parse_args()
    renders = await asyncio.to_thread(RenderPool, 1, board_texts())
    await renders.ready()
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.sqlite3")
        try:
            services = Services(db)
            await services.settings_service.change(GUILD, 0, SettingsRequest(pages="link"), admin=True)
            for turns in args.turns:
                match_id, played = await play(services, args.game, turns)
                await renders.board((await services.queries.get(match_id)).position)    # a warm worker
                await measure(services, renders, match_id, played, args.steps)
            await tournament(services, renders, args.entrants)
        finally:
            await db.close()
            renders.close()


if __name__ == "__main__":
    asyncio.run(main())
