"""Leagues: a recurring series of editions, each played in divisions (round robins) by rating, with promotion and
relegation between editions (AbstractPlay's automated tournaments, with divisions that move)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime, timedelta

from bot.tournaments.model import Entrant

DIVISION_SIZE = 10              # at most this many players in a division (AbstractPlay's rule)
MIN_ENTRANTS = 4                # an edition starts with at least this many entrants
MIN_DIVISION = 4                # a league keeps its number of divisions while each can hold this many
PROMOTED = 2                    # the top of each division but the first moves up this many
RELEGATED = 2                   # the bottom of each division but the last moves down this many
UNSEEN_DROP = timedelta(days=30)   # who timed out and was unseen this long is left out of the next edition


def split(order: Sequence[int], divisions: int = 1) -> list[list[int]]:
    """``order`` (best first) cut into ``divisions`` — more when one would hold more than DIVISION_SIZE, fewer
    when one would hold fewer than MIN_DIVISION — of sizes differing by one at most, the larger on top."""
    if not order:
        return []
    count = max(-(-len(order) // DIVISION_SIZE), min(divisions, len(order) // MIN_DIVISION))
    base, extra = divmod(len(order), count)
    out, at = [], 0
    for i in range(count):
        size = base + (i < extra)
        out.append(list(order[at:at + size]))
        at += size
    return out


def first_edition(entrants: Sequence[Entrant]) -> list[list[int]]:
    """The divisions of a first edition: by rating (high first), then id."""
    if len(entrants) < MIN_ENTRANTS:
        raise ValueError(f"a league starts with {MIN_ENTRANTS} entrants or more, not {len(entrants)}")
    return split([e.id for e in sorted(entrants, key=lambda e: (-e.rating, e.id))])


def dropped(timed_out: Collection[int], last_seen: Mapping[int, datetime], now: datetime) -> set[int]:
    """Who is left out of the next edition: timed out in this one and unseen for UNSEEN_DROP."""
    return {p for p in timed_out if p not in last_seen or now - last_seen[p] >= UNSEEN_DROP}


def next_edition(finished: Sequence[Sequence[int]], returning: Collection[int], newcomers: Sequence[Entrant],
                 ratings: Mapping[int, float]) -> list[list[int]]:
    """The divisions of the next edition.

    ``finished``: the last edition's divisions, each in its final standings order (best first). ``returning``:
    who of them plays again (dropped players and those who left are not in it). The top PROMOTED of each
    division move up and the bottom RELEGATED down, then newcomers join by rating (before the first returning
    player rated lower than them) and the order is cut again into as many divisions (``split``).
    """
    last = len(finished) - 1
    moved: list[list[int]] = [[] for _ in finished]
    for i, division in enumerate(finished):
        up = list(division[:PROMOTED]) if i > 0 else []
        down = list(division[-RELEGATED:]) if i < last and len(division) > PROMOTED else []
        stay = [p for p in division if p not in up and p not in down]
        moved[i] += stay
        if up:
            moved[i - 1] += up             # the promoted go to the bottom of the division above
        if down:
            moved[i + 1][:0] = down        # the relegated to the top of the one below
    order = [p for division in moved for p in division if p in returning]
    for e in sorted(newcomers, key=lambda e: (-e.rating, e.id)):
        at = next((i for i, p in enumerate(order) if ratings[p] < e.rating), len(order))
        order.insert(at, e.id)
    if len(order) < MIN_ENTRANTS:
        raise ValueError(f"a league edition needs {MIN_ENTRANTS} entrants or more, not {len(order)}")
    return split(order, len(finished))
