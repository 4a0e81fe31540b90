"""Random two-player Swiss events played through bot.tournaments (seeded): draws, forfeits, requested ½-point
byes, late entrants and withdrawals, for the checker test and bench/bench_tournament.py."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.tournaments import swiss
from bot.tournaments.model import Entrant, Table, TableKind
from bot.tournaments.scoring import forfeited

DRAW_RATE = 0.25
FORFEIT_RATE = 0.03
HALF_BYE_RATE = 0.04
LATE_RATE = 0.1
WITHDRAW_RATE = 0.03


def play(table: Table, rng: random.Random, ratings: dict[int, float]) -> Table:
    """A finished ``table``: Elo odds for the first seat, DRAW_RATE draws, FORFEIT_RATE forfeits."""
    if table.kind is not TableKind.GAME:
        return table
    if rng.random() < FORFEIT_RATE:
        return forfeited(table, rng.choice(table.seats))
    a, b = (ratings[p] for p in table.seats)
    expected = 1 / (1 + 10 ** ((b - a) / 400))
    x = rng.random()
    if x < DRAW_RATE:
        return table.finish((1, 1))
    return table.finish((1, 2) if rng.random() < expected else (2, 1))


def swiss_event(seed: int, players: int, rounds: int) -> tuple[list[Entrant], list[Table]]:
    """A whole Swiss event: its entrants (as they ended) and every table."""
    rng = random.Random(seed)
    entrants = [Entrant(i, rng.randint(1000, 2200), joined_round=1 if rng.random() > LATE_RATE
                        else rng.randint(2, max(2, rounds))) for i in range(1, players + 1)]
    ratings = {e.id: e.rating for e in entrants}
    tables: list[Table] = [t for e in entrants for t in swiss.late_tables(e)]
    for r in range(1, rounds + 1):
        for i, e in enumerate(entrants):
            if e.plays(r) and r > 1 and rng.random() < WITHDRAW_RATE:
                entrants[i] = replace(e, withdrawn_round=r)
        half = {e.id for e in entrants if e.plays(r) and rng.random() < HALF_BYE_RATE}
        tables += [play(t, rng, ratings) for t in swiss.pair_round(entrants, tables, r, rounds, half_byes=half)]
    return entrants, tables
