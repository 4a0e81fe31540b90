"""Rating maths per server and per game, with openskill's Plackett-Luce model. No storage here.

Why openskill: it is maintained, rates any number of players, teams and ties in one call (Tintas and
Roocala are two-player, Rincala has shared wins among two or three, Spinca has two-against-two), and its
numbers are reproducible, so a rebuild from the match log gives exactly the live ratings. The store
applies ratings in the order of ``rating_changes.seq``; a rebuild replays the finished rated matches in
that order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
PROVISIONAL_GAMES = 5          # fewer rated games than this: the rating is marked provisional ("?")
DISPLAY_SCALE = 60             # displayed rating = mu × 60: a newcomer shows 1500


def display(mu: float) -> int:
    return round(mu * DISPLAY_SCALE)


@dataclass(frozen=True)
class Rating:
    user_id: int
    game: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def shown(self) -> int:
        return display(self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def label(self) -> str:
        return f"{self.shown}{'?' if self.provisional else ''}"


def outcomes(players: int, winners: tuple[int, ...]) -> list[str]:
    """'win' / 'loss' / 'draw' per seat: everyone among the winners is a draw."""
    if len(winners) == players:
        return ["draw"] * players
    return ["win" if s in winners else "loss" for s in range(players)]


def rate(teams: Sequence[Sequence[int]], ranks: Sequence[int],
         current: Mapping[int, tuple[float, float] | None]) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) per seat. ``teams`` lists the seats of each side, ``ranks`` is per seat (1 = best),
    ``current`` is each seat's (mu, sigma), or None for a newcomer."""
    def rating(seat: int):
        now = current.get(seat)
        return MODEL.rating() if now is None else MODEL.rating(mu=now[0], sigma=now[1])

    rated = MODEL.rate([[rating(s) for s in team] for team in teams], ranks=[ranks[team[0]] for team in teams])
    return {seat: (after.mu, after.sigma)
            for team, new in zip(teams, rated, strict=True) for seat, after in zip(team, new, strict=True)}
