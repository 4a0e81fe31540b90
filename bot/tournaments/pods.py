"""Pods: rounds of three- and four-player tables (Rincala, Spinca), our own pairing.

Each round, in this order of importance:
1. as many players seated as tables of POD_SMALLEST[size]..size allow, the rest sitting out with the pairing's
   bye (fewest byes so far first, then the lowest score, then the lowest rating);
2. the fewest meetings again: two players share a table again only when no grouping avoids it (every player
   meets every other at most once per cycle where the numbers allow), found by a branch-and-bound search that
   weighs at most POD_SEARCH_WORK tables and keeps its best grouping past that; each table is sought among the
   POD_WINDOW players next in points order, and among all the players left only when every table there repeats
   a meeting (so fields of up to POD_WINDOW players are searched exactly);
3. players of similar points together (the Swiss idea): the least sum of each table's spread of points;
4. seats rotated: at each table the seating that repeats the fewest seats each player already had at tables of
   that size (seat 1 moves first), among all seatings.
Team games (Spinca with four) keep their teams by seat (``teams``), so partners rotate with the seats.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations, permutations

from bot.tournaments.model import Entrant, Table, TableKind
from bot.tournaments.scoring import points

POD_SMALLEST = {3: 3, 4: 3}     # table size of the event → the smallest table it forms (never a duel)
REPEAT_COST = 10_000            # one meeting again outweighs any spread of points
POD_SEARCH_WORK = 50_000        # tables weighed per round by the grouping search (exact below it)
POD_WINDOW = 12                 # a table is first sought among the next players of this many in points order

Teams = Mapping[int, tuple[tuple[int, ...], ...]]     # players at a table → seats per team (engines' GAME.teams)


def table_sizes(players: int, size: int) -> list[int]:
    """The table sizes of a round, largest first: the most players seated, then the most full tables."""
    smallest = POD_SMALLEST[size]
    best: tuple[int, int, list[int]] = (-1, -1, [])
    for full in range(players // size + 1):
        short = (players - full * size) // smallest if smallest < size else 0
        seated = full * size + short * smallest
        if (seated, full) > best[:2]:
            best = (seated, full, [size] * full + [smallest] * short)
    return best[2]


def _met(tables: Sequence[Table]) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for t in tables:
        if t.kind is TableKind.GAME:
            met.update(frozenset(pair) for pair in combinations(t.seats, 2))
    return met


def _seat_counts(tables: Sequence[Table]) -> dict[tuple[int, int], Counter[int]]:
    """(player, table size) → how often they sat in each seat."""
    counts: dict[tuple[int, int], Counter[int]] = defaultdict(Counter)
    for t in tables:
        if t.kind is TableKind.GAME:
            for seat, player in enumerate(t.seats):
                counts[(player, len(t.seats))][seat] += 1
    return counts


def repeats(group: Sequence[int], met: Mapping[frozenset[int], int]) -> int:
    """How many earlier meetings a table of ``group`` repeats."""
    return sum(met.get(frozenset(pair), 0) for pair in combinations(group, 2))


def group(players: Sequence[int], sizes: Sequence[int], met: Mapping[frozenset[int], int],
          score: Mapping[int, Fraction]) -> list[tuple[int, ...]]:
    """The tables (as sets of players, in ``players`` order) of least cost: repeats first, then spread."""
    best: list[object] = [None, []]
    work = 0

    def cost(table: tuple[int, ...]) -> Fraction:
        spread = max(score[p] for p in table) - min(score[p] for p in table)
        return REPEAT_COST * repeats(table, met) + spread

    def options(head: int, rest: tuple[int, ...], size: int) -> list[tuple[Fraction, tuple[int, ...]]]:
        nonlocal work
        near = [(cost((head, *c)), c) for c in combinations(rest[:POD_WINDOW - 1], size - 1)]
        if len(rest) >= POD_WINDOW and min(o[0] for o in near) >= REPEAT_COST:
            near = [(cost((head, *c)), c) for c in combinations(rest, size - 1)]
        work += len(near)
        return sorted(near, key=lambda o: o[0])

    def search(left: tuple[int, ...], at: int, so_far: Fraction, chosen: list[tuple[int, ...]]) -> None:
        if best[0] is not None and (so_far >= best[0] or work > POD_SEARCH_WORK):  # type: ignore[operator]
            return
        if at == len(sizes):
            best[0], best[1] = so_far, list(chosen)
            return
        head, rest = left[0], left[1:]
        for c_cost, partners in options(head, rest, sizes[at]):
            table = (head, *partners)
            chosen.append(table)
            search(tuple(p for p in rest if p not in partners), at + 1, so_far + c_cost, chosen)
            chosen.pop()

    search(tuple(players), 0, Fraction(0), [])
    return best[1]  # type: ignore[return-value]


def seating(table: Sequence[int], counts: Mapping[tuple[int, int], Counter[int]],
            teams: tuple[tuple[int, ...], ...] = (), partnered: Mapping[frozenset[int], int] | None = None
            ) -> tuple[int, ...]:
    """The order of ``table``'s players repeating the fewest seats they had, then (team games) the fewest
    partnerships (ties: the first such order)."""
    size = len(table)

    def cost(order: tuple[int, ...]) -> tuple[int, int]:
        seats = sum(counts.get((p, size), Counter())[s] for s, p in enumerate(order))
        partners = sum((partnered or {}).get(frozenset(order[s] for s in team), 0) for team in teams)
        return seats, partners

    return min(permutations(table), key=cost)


def _partnered(tables: Sequence[Table]) -> Counter[frozenset[int]]:
    return Counter(frozenset(t.seats[s] for s in team) for t in tables if t.kind is TableKind.GAME
                   for team in t.teams)


def pair_pods(entrants: Sequence[Entrant], tables: Sequence[Table], round_no: int, size: int, *,
              teams: Teams | None = None) -> list[Table]:
    """The tables of pod round ``round_no`` (``tables``: all earlier rounds)."""
    if size not in POD_SMALLEST:
        raise ValueError(f"pods seat 3 or 4 players, not {size}")
    if any(t.round >= round_no for t in tables):
        raise ValueError(f"round {round_no} is already paired")
    score = points(tables)
    playing = [e for e in entrants if e.plays(round_no)]
    for e in playing:
        score.setdefault(e.id, Fraction(0))
    sizes = table_sizes(len(playing), size)
    byes = Counter(t.seats[0] for t in tables if t.kind is TableKind.BYE)
    sitting_out = sorted(playing, key=lambda e: (byes[e.id], score[e.id], e.rating, -e.id))[:len(playing) - sum(sizes)]
    seated = sorted((e for e in playing if e not in sitting_out), key=lambda e: (-score[e.id], -e.rating, e.id))
    counts, partnered = _seat_counts(tables), _partnered(tables)
    out = []
    for members in group([e.id for e in seated], sizes, _met(tables), score):
        sides = (teams or {}).get(len(members), ())
        out.append(Table(round_no, seating(members, counts, sides, partnered), teams=sides))
    return out + [Table(round_no, (e.id,), kind=TableKind.BYE) for e in sitting_out]
