"""Round robins by FIDE Berger tables (Handbook C.05): single, or double with the seats swapped in the second leg."""

from __future__ import annotations

from collections.abc import Sequence

from caissify_pairings.engines.round_robin import berger_round

from bot.tournaments.model import Entrant, Table, TableKind

# With an odd count, the player a Berger round pairs with the phantom sits out: everyone sits out once per leg,
# so the round counts for nothing (an ABSENT table, no points) rather than a point that everyone gets anyway.
ODD_ONE_OUT = TableKind.ABSENT


def seeding(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Berger numbers 1..n: by rating (high first), then id."""
    return sorted(entrants, key=lambda e: (-e.rating, e.id))


def schedule(entrants: Sequence[Entrant], *, double: bool = False) -> list[list[Table]]:
    """Every round's tables; the second leg repeats the first with every game's seats swapped."""
    if len(entrants) < 2:
        raise ValueError("a round robin needs two entrants or more")
    seeds = [e.id for e in seeding(entrants)]
    n = len(seeds) + len(seeds) % 2           # an odd count gets a phantom, numbered n
    rounds: list[list[Table]] = []
    for r in range(1, n):
        tables = []
        for white, black in berger_round(n, r):
            if max(white, black) > len(seeds):
                tables.append(Table(r, (seeds[min(white, black) - 1],), kind=ODD_ONE_OUT))
            else:
                tables.append(Table(r, (seeds[white - 1], seeds[black - 1])))
        rounds.append(tables)
    if double:
        legs = len(rounds)
        rounds += [[Table(t.round + legs, tuple(reversed(t.seats)), kind=t.kind) for t in tables] for tables in rounds]
    return rounds
