"""Two-player Swiss rounds, paired by the FIDE Dutch system of ``caissify-pairings`` (Apache-2.0).

Why that library: it is cross-checked against bbpPairings (FIDE-endorsed) with no discrepancy, and it ships the
pairings checker and TRF16 reader this package is tested against (tests/bot/tournaments/test_swiss_checker.py).
``pairing-core`` (MIT, no dependencies) pairs 256 players in a tenth of a second, but its Dutch kernels raised
"no legal pairing" or ran out of steps in rounds 6-7 of ordinary 20-player, 9-round events, and an event here
must run to its end by itself. The Dutch engine's cost is its matching (networkx, pure Python): the service runs
it off the event loop (bench/bench_tournament.py prints the time).

The engine is fed exactly what a TRF16 file of the event says (``history``), so a checker reading our TRF export
re-pairs every round the same way: the player numbers are starting numbers (STARTING_ORDER), colours count only
games played over the board, a forfeit lets the two meet again (as in bbpPairings), and every bye floats down.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice, permutations
from typing import Any

from caissify_pairings.engines.dutch import DutchEngine

from bot.tournaments.model import Entrant, Table, TableKind

INITIAL_COLOUR = "white"        # FIDE C.04.3 E: the colour the top seed gets in round 1 (TRF readers assume it)
MAX_BYES = 1                    # the pairing's bye (1 point) never goes twice to one player while others lack one
# Starting numbers: entrants in the order they joined the event (round), then by rating, then by id — a late entrant
# never renumbers the players before them, so the rounds paired earlier stay what a TRF reader re-derives.
STARTING_ORDER = "joined round, rating (high first), id"

ROUND_ONE_TRANSPOSITIONS = 100_000     # orders of the lower half tried in round 1 to keep forbidden pairs apart

_BYE_CODES = {TableKind.BYE: "U", TableKind.HALF_BYE: "H", TableKind.LATE: "H", TableKind.ABSENT: "Z"}
_PLAYED = ("1", "0", "=")


@dataclass(frozen=True)
class Entry:
    """One round of one player as TRF16 records it: ``result`` is a TRF code, None while the game runs."""

    opponent: int | None        # a starting number
    colour: str | None          # "w" or "b" for games
    result: str | None


def starting_numbers(entrants: Sequence[Entrant]) -> dict[int, int]:
    """Entrant id → starting number (STARTING_ORDER)."""
    ordered = sorted(entrants, key=lambda e: (e.joined_round, -trf_rating(e), e.id))
    return {e.id: n for n, e in enumerate(ordered, start=1)}


def trf_rating(entrant: Entrant) -> int:
    """The rating as TRF16 holds it (four digits), which is also what the pairing engine sees."""
    return max(0, min(9999, round(entrant.rating)))


def _game_code(table: Table, seat: int) -> str | None:
    if table.ranks is None:
        return None
    mine, theirs = table.ranks[seat], table.ranks[1 - seat]
    if table.forfeit:
        return "+" if mine < theirs else "-"
    return "1" if mine < theirs else "=" if mine == theirs else "0"


def history(entrants: Sequence[Entrant], tables: Sequence[Table]) -> dict[int, dict[int, Entry]]:
    """Starting number → round → Entry, for two-player events."""
    sn = starting_numbers(entrants)
    out: dict[int, dict[int, Entry]] = {n: {} for n in sn.values()}
    for t in tables:
        if t.kind is TableKind.GAME:
            if len(t.seats) != 2:
                raise ValueError("a Swiss seats two players per game")
            for seat, colour in ((0, "w"), (1, "b")):
                out[sn[t.seats[seat]]][t.round] = Entry(sn[t.seats[1 - seat]], colour, _game_code(t, seat))
        else:
            out[sn[t.seats[0]]][t.round] = Entry(None, None, _BYE_CODES[t.kind])
    return out


def _scores_after(entries: Mapping[int, Entry], rounds: int) -> list[float]:
    """A player's score after each round 0..rounds."""
    values = {"1": 1.0, "+": 1.0, "=": 0.5, "U": 1.0, "H": 0.5}
    out = [0.0]
    for r in range(1, rounds + 1):
        e = entries.get(r)
        out.append(out[-1] + (values.get(e.result or "", 0.0) if e else 0.0))
    return out


def _engine_player(number: int, rating: int, entries: Mapping[int, Entry], scores: Mapping[int, list[float]],
                   round_no: int) -> dict[str, object]:
    """The Dutch engine's view of one player before ``round_no`` (its documented caller contract)."""
    colours: list[str] = []
    floats: list[str] = []
    byes = forfeit_wins = 0
    for r in range(1, round_no):
        e = entries.get(r)
        if e is None:
            continue
        if e.opponent is None:
            byes += 1
            floats.append("down")
        elif e.result in _PLAYED:
            colours.append("white" if e.colour == "w" else "black")
            mine, theirs = scores[number][r - 1], scores[e.opponent][r - 1]
            floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
        else:
            forfeit_wins += e.result == "+"
            floats.append("down" if e.result == "+" else "none")
    return {"id": number, "name": "", "score": scores[number][round_no - 1], "rating": rating,
            "starting_number": number, "title": "", "color_hist": colours, "float_history": floats,
            "bye_count": byes, "forfeit_win_count": forfeit_wins}


class _Dutch(DutchEngine):
    """The library's Dutch engine, whose round 1 (a plain top-half against bottom-half split that reads no
    earlier pairing) also keeps forbidden pairs apart: the lower half is transposed, in FIDE's order, until no
    pair is forbidden. Without forbidden pairs the first order is the library's own split."""

    def _generate_first_round_pairings(self, eligible: list[Any]) -> list[tuple[Any, Any]]:
        half = len(eligible) // 2
        top, bottom = eligible[:half], eligible[half:]
        for order in islice(permutations(bottom), ROUND_ONE_TRANSPOSITIONS):
            pairs = list(zip(top, order, strict=False))
            if all(b.id not in a.opponents for a, b in pairs):
                return pairs
        raise ValueError("no round-1 pairing keeps the forbidden pairs apart")


def pair_round(entrants: Sequence[Entrant], tables: Sequence[Table], round_no: int, total_rounds: int, *,
               forbidden: Collection[frozenset[int]] = (), half_byes: Collection[int] = ()) -> list[Table]:
    """The tables of Swiss round ``round_no``: its games, the pairing's bye and the requested ½-point byes.

    ``tables``: every table of the earlier rounds (LATE tables of late entrants included). ``forbidden``: pairs
    of entrant ids never to be paired (an admin option). Nobody meets an opponent they played over the board.
    """
    if any(t.round >= round_no and t.kind is not TableKind.LATE for t in tables):
        raise ValueError(f"round {round_no} is already paired")
    playing = [e for e in entrants if e.plays(round_no)]
    resting = [e for e in playing if e.id in half_byes]
    pairable = [e for e in playing if e.id not in half_byes]
    sn = starting_numbers(entrants)
    by_number = {sn[e.id]: e for e in entrants}
    past = history(entrants, tables)
    scores = {n: _scores_after(past[n], round_no - 1) for n in past}
    players = [_engine_player(sn[e.id], trf_rating(e), past[sn[e.id]], scores, round_no) for e in pairable]
    met = {(min(n, e.opponent), max(n, e.opponent)) for n, entries in past.items() for e in entries.values()
           if e.opponent is not None and e.result in _PLAYED}
    met |= {(min(a, b), max(a, b)) for a, b in ((sn[x], sn[y]) for x, y in (tuple(p) for p in forbidden))}
    out = [Table(round_no, (e.id,), kind=TableKind.HALF_BYE) for e in resting]
    if len(players) < 2:
        return out + [Table(round_no, (e.id,), kind=TableKind.BYE) for e in pairable]
    engine = _Dutch(players=players, previous_pairings=met, round_number=round_no, total_rounds=total_rounds,
                         max_byes_per_player=MAX_BYES, initial_color=INITIAL_COLOUR)
    for p in engine.generate_pairings():
        white, black = by_number[p["white_id"]].id, p.get("black_id")
        if black is None or p.get("bye"):
            out.append(Table(round_no, (white,), kind=TableKind.BYE))
        else:
            out.append(Table(round_no, (white, by_number[black].id)))
    return out


def late_tables(entrant: Entrant) -> list[Table]:
    """The ½-point rounds of a late entrant (LATE_JOIN_POINTS each), from round 1 to the one before they join."""
    return [Table(r, (entrant.id,), kind=TableKind.LATE) for r in range(1, entrant.joined_round)]

