"""The tournament pairing worker: pairs a round off the event loop when the round before it ended.

Discord-free: it is the dispatcher's worker for the ``TournamentPairing`` announcement (``workers``), beside every
front end, like the bot's turns (``bot.ai_player.AIPlayer.workers``). A Swiss round of a big field takes seconds
of CPU (bench/bench_tournament.py), so the pairing runs in a thread; the round is committed by the service in one
transaction guarded by the tournament's current round, so two processes (or a retry after a crash) pair it once.
"""

from __future__ import annotations

from bot.services import Services
from bot.services.announce import Delivered, Handlers, Outgoing, TournamentPairing


class TournamentPairer:
    def __init__(self, services: Services):
        self.services = services

    @property
    def workers(self) -> Handlers:
        """The announcements this does for the dispatcher, whatever the front end."""
        return {TournamentPairing: self.pair}

    async def pair(self, outgoing: Outgoing[TournamentPairing]) -> Delivered:
        """Pair the round the row announces; the round's transaction marks the row (``completes``)."""
        assert outgoing.tournament_id is not None
        paired = await self.services.tournaments.pair_round(outgoing.tournament_id, outgoing.notice.round,
                                                            completes=outgoing.row_id)
        return Delivered("paired" if paired else "skipped: paired already")
