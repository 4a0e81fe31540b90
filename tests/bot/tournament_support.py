"""Driving tournaments through the service and the real dispatcher (a front end that only records)."""

from __future__ import annotations

from typing import Any

from bot.ai_player import AIPlayer
from bot.dispatcher import Dispatcher, Routes
from bot.model import Person
from bot.services import Services
from bot.services.announce import KINDS, Delivered, Handler, Handlers, Outgoing
from bot.services.tournament_views import TournamentSettings, TournamentView
from bot.tournament_pairer import PROCESS_FROM, TournamentPairer
from bot.tournaments.model import Format

GUILD = 1000
CHANNEL = 2000
PLAYERS = [Person(100 + i, f"P{i}") for i in range(1, 13)]


class Recorder:
    """A front end that delivers every kind by noting it: (kind, tournament id, match id, notice)."""
    name = "the recorder"

    def __init__(self, services: Services, *, process_from: int = PROCESS_FROM):
        self.seen: list[tuple[str, int | None, int, Any]] = []
        pairer = TournamentPairer(services, process_from=process_from)
        workers: Handlers = {**AIPlayer(services).workers, **pairer.workers}
        self._handlers: Handlers = {cls: self.note for cls in KINDS.values() if cls not in workers}
        self.dispatcher = Dispatcher(services, Routes(self, workers=workers), owner="recorder")

    @property
    def handlers(self) -> Handlers:
        return self._handlers

    async def perform(self, outgoing: Outgoing[Any], handler: Handler) -> Delivered:
        return await handler(outgoing)

    async def note(self, outgoing: Outgoing[Any]) -> Delivered:
        self.seen.append((outgoing.notice.kind, outgoing.tournament_id, outgoing.match_id, outgoing.notice))
        return Delivered()

    def kinds(self, tournament_id: int) -> list[str]:
        return [k for k, t, _m, _n in self.seen if t == tournament_id]

    async def settle(self) -> None:
        """Deliver (and pair) until nothing is due."""
        while await self.dispatcher.deliver_pending():
            pass


async def create(services: Services, fmt: Format = Format.ROUND_ROBIN, *, game: str = "tintas", **options: Any
                 ) -> TournamentView:
    settings = TournamentSettings(game=game, format=fmt, **options)
    return await services.tournaments.create(settings, guild_id=GUILD, channel_id=CHANNEL, creator=PLAYERS[0],
                                             manager=True, name="Autumn cup")


async def entered(services: Services, tournament_id: int, count: int) -> list[Person]:
    people = PLAYERS[:count]
    for p in people:
        await services.tournaments.join(tournament_id, p, guild_id=GUILD)
    return people


async def running_matches(services: Services, tournament_id: int) -> list[int]:
    view = await services.tournaments.read(tournament_id)
    return [t.match_id for r in view.rounds for t in r.tables if t.match_id is not None and t.ranks is None]


async def resign(services: Services, match_id: int, loser: int) -> None:
    await services.play.resign(match_id, loser, guild_id=GUILD)


async def draw(services: Services, match_id: int) -> None:
    """Both players agree to a draw (the draw service's own path)."""
    match = await services.queries.get(match_id)
    to_move = match.row.to_move
    offerer = next(p.user_id for p in match.seated if p.seat == to_move)
    match = await services.draws.offer(match_id, offerer, guild_id=GUILD)
    for p in match.seated:
        if p.user_id != offerer:
            await services.draws.answer(match_id, p.user_id, guild_id=GUILD, ply=match.ply, accept=True)


async def play_round(services: Services, tournament_id: int, decide: Any) -> None:
    """Finish every running game of the tournament: ``decide(seats)`` gives the loser's user id, or None for a
    draw."""
    for match_id in await running_matches(services, tournament_id):
        match = await services.queries.get(match_id)
        loser = decide(tuple(p.user_id for p in sorted(match.seated, key=lambda p: p.seat or 0)))
        if loser is None:
            await draw(services, match_id)
        else:
            await resign(services, match_id, loser)
