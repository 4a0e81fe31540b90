"""FIDE TRF16 export of a two-player event, for audit: any TRF reader (a pairings checker) can replay it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from caissify_pairings.trf import write_trf

from bot.tournaments.model import Entrant, Table
from bot.tournaments.scoring import standings
from bot.tournaments.swiss import history, starting_numbers, trf_rating

SYSTEM_SWISS = "Individual: Swiss-System"
SYSTEM_ROUND_ROBIN = "Individual: Round-Robin"
NAME_WIDTH = 33                 # TRF16's name field


def export(title: str, entrants: Sequence[Entrant], names: Mapping[int, str], tables: Sequence[Table],
           rounds: int, *, system: str = SYSTEM_SWISS) -> str:
    """The event as TRF16 text: one 001 line per entrant by starting number, with points and rank."""
    if any(len(t.seats) > 2 for t in tables):
        raise ValueError("TRF16 holds two-player games only")
    sn = starting_numbers(entrants)
    rows = {row.entrant: row for row in standings(entrants, tables)}
    past = history(entrants, tables)
    players = [{
        "starting_number": sn[e.id],
        "name": _plain(names.get(e.id, str(e.id))),
        "rating": trf_rating(e),
        "score": float(rows[e.id].points),
        "rank": rows[e.id].rank,
        "results": {r: {"opponent": x.opponent, "color": x.colour, "result": x.result}
                    for r, x in past[sn[e.id]].items()},
    } for e in entrants]
    return write_trf({"name": _plain(title), "system": system, "total_rounds": rounds}, players, rounds)


def _plain(text: str) -> str:
    """One line of at most NAME_WIDTH characters (TRF is fixed-width; a newline would break the file)."""
    return " ".join(text.split())[:NAME_WIDTH]
