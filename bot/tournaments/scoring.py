"""Points, tiebreaks and the standings table, from the tables of an event (exact fractions, no floats).

Scoring (every rule a constant here):

* A table of n players is n - 1 duels at once: against each opponent a player scores 1 for a better rank, ½ for
  the same rank and 0 for a worse one, and the table is worth the mean of those duels. A two-player game is
  thus win 1, draw ½, loss 0; a pod of four pays 1, ⅔, ⅓, 0 for places 1 to 4 and a pod of three 1, ½, 0 —
  placement points on the same 0..1 scale as a game, so a pod round weighs what a two-player round does, and a
  shared place is paid as the duels it contains (two players sharing 1st of four score ⅚ each).
* Team games (Spinca with four: seats 1 and 3 against 2 and 4) are duels between the teams: teammates are not
  opponents, so the winning team's players score 1 and the losers 0.
* Byes: BYE_POINTS for the pairing's bye, REQUESTED_BYE_POINTS for a bye asked for, LATE_JOIN_POINTS for each
  round played before a late entrant joined (lichess Swiss's rule).

Tiebreaks, in TIEBREAKS order: Sonneborn–Berger (each duel's score times that opponent's points, averaged over a
table's opponents — the usual sum for two-player games), Buchholz cut-1 (the mean of a table's opponents' points,
summed over the games played, less the lowest), direct encounter
(duel points against the players still tied), games won, rating. Unplayed rounds (byes, forfeits, absences) add
nothing to Sonneborn–Berger, Buchholz or wins — the simplest rule, and it never rewards a forfeit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.tournaments.model import Entrant, Settings, Table, TableKind

BYE_POINTS = Fraction(1)
REQUESTED_BYE_POINTS = Fraction(1, 2)
LATE_JOIN_POINTS = Fraction(1, 2)
ABSENT_POINTS = Fraction(0)
TIEBREAKS = ("sonneborn_berger", "buchholz_cut1", "direct_encounter", "wins", "rating")

# A round robin player who withdraws having finished fewer than this share of their games has all their games
# annulled (as if they had never entered); from this share on, their remaining games are lost by forfeit.
ANNUL_BELOW_SHARE = Fraction(1, 2)

# A game unfinished at the round deadline: the side that used less thinking time ranks higher (it was the other
# side that kept the game from ending), equal time is a draw. Teams add their players' times.
ADJUDICATION_RULE = "less time used ranks higher; equal time is a draw"

_UNPLAYED_POINTS = {TableKind.BYE: BYE_POINTS, TableKind.HALF_BYE: REQUESTED_BYE_POINTS,
                    TableKind.LATE: LATE_JOIN_POINTS, TableKind.ABSENT: ABSENT_POINTS}


def _unit_rank(table: Table, seat: int) -> int:
    """The rank a seat plays for: its team's (the best of its members') or its own."""
    assert table.ranks is not None
    for team in table.teams:
        if seat in team:
            return min(table.ranks[s] for s in team)
    return table.ranks[seat]


def _opponent_seats(table: Table, seat: int) -> list[int]:
    team = next((t for t in table.teams if seat in t), (seat,))
    return [s for s in range(len(table.seats)) if s not in team]


def duels(table: Table) -> dict[tuple[int, int], Fraction]:
    """(player, opponent) → the player's duel score (1, ½, 0) at a finished game table."""
    out: dict[tuple[int, int], Fraction] = {}
    if table.kind is not TableKind.GAME or table.ranks is None:
        return out
    for seat, player in enumerate(table.seats):
        mine = _unit_rank(table, seat)
        for other in _opponent_seats(table, seat):
            theirs = _unit_rank(table, other)
            out[(player, table.seats[other])] = Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs \
                else Fraction(0)
    return out


def table_points(table: Table) -> dict[int, Fraction]:
    """Each player's points from one finished table (nothing for a game still running)."""
    if table.kind is not TableKind.GAME:
        return {table.seats[0]: _UNPLAYED_POINTS[table.kind]}
    if table.ranks is None:
        return {}
    scores: dict[int, list[Fraction]] = defaultdict(list)
    for (player, _), score in duels(table).items():
        scores[player].append(score)
    return {player: sum(s, Fraction(0)) / len(s) for player, s in scores.items()}


def points(tables: Iterable[Table]) -> dict[int, Fraction]:
    """Everyone's points over ``tables``."""
    total: dict[int, Fraction] = defaultdict(Fraction)
    for table in tables:
        for player, p in table_points(table).items():
            total[player] += p
    return dict(total)


@dataclass(frozen=True)
class StandingRow:
    rank: int                   # shared when every criterion is equal
    entrant: int
    points: Fraction
    sonneborn_berger: Fraction
    buchholz_cut1: Fraction
    direct_encounter: Fraction
    wins: int
    rating: float
    games: int                  # games finished over the board


def _won(table: Table, seat: int) -> bool:
    mine = _unit_rank(table, seat)
    return all(_unit_rank(table, o) > mine for o in _opponent_seats(table, seat))


def standings(entrants: Sequence[Entrant], tables: Sequence[Table]) -> list[StandingRow]:
    """The ordered standings table: points, then TIEBREAKS."""
    score = points(tables)
    sb: dict[int, Fraction] = defaultdict(Fraction)
    buchholz_parts: dict[int, list[Fraction]] = defaultdict(list)
    wins: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    for table in tables:
        if table.kind is not TableKind.GAME or table.ranks is None or table.forfeit:
            continue
        d = duels(table)
        for seat, player in enumerate(table.seats):
            opponents = [table.seats[o] for o in _opponent_seats(table, seat)]
            sb[player] += sum((d[(player, o)] * score.get(o, Fraction(0)) for o in opponents), Fraction(0)) \
                / len(opponents)
            buchholz_parts[player].append(sum((score.get(o, Fraction(0)) for o in opponents), Fraction(0))
                                          / len(opponents))
            wins[player] += _won(table, seat)
            played[player] += 1
    cut1 = {e.id: sum(sorted(buchholz_parts[e.id])[1:], Fraction(0)) for e in entrants}

    def before_direct(e: Entrant) -> tuple[Fraction, Fraction, Fraction]:
        return score.get(e.id, Fraction(0)), sb[e.id], cut1[e.id]

    groups: dict[tuple[Fraction, Fraction, Fraction], list[int]] = defaultdict(list)
    for e in entrants:
        groups[before_direct(e)].append(e.id)
    all_duels = [d for t in tables for d in duels(t).items()]
    direct: dict[int, Fraction] = defaultdict(Fraction)
    for members in groups.values():
        if len(members) > 1:
            inside = set(members)
            for (player, opponent), s in all_duels:
                if player in inside and opponent in inside:
                    direct[player] += s

    def key(e: Entrant) -> tuple[Fraction, Fraction, Fraction, Fraction, int, float]:
        return (*before_direct(e), direct[e.id], wins[e.id], e.rating)

    ordered = sorted(entrants, key=lambda e: (tuple(-k for k in key(e)), e.id))
    rows: list[StandingRow] = []
    for i, e in enumerate(ordered):
        rank = rows[-1].rank if rows and key(ordered[i - 1]) == key(e) else i + 1
        rows.append(StandingRow(rank, e.id, score.get(e.id, Fraction(0)), sb[e.id], cut1[e.id], direct[e.id],
                                wins[e.id], e.rating, played[e.id]))
    return rows


def forfeited(table: Table, loser: int) -> Table:
    """``table`` lost by ``loser`` (and their team) without play: every other side shares first place."""
    loser_seat = table.seats.index(loser)
    team = next((t for t in table.teams if loser_seat in t), (loser_seat,))
    return table.finish(tuple(2 if s in team else 1 for s in range(len(table.seats))), forfeit=True)


def withdraw(settings: Settings, tables: Sequence[Table], entrant: int, scheduled_games: int) -> list[Table]:
    """The event's tables after ``entrant`` withdraws (ANNUL_BELOW_SHARE for round robins).

    ``scheduled_games``: how many games the entrant had to play in all (a round robin's n - 1 per leg); the
    service pairs any later round-robin game of theirs as a forfeit too.
    """
    mine = [t for t in tables if entrant in t.seats and t.kind is TableKind.GAME]
    finished = sum(1 for t in mine if t.ranks is not None and not t.forfeit)
    if settings.is_round_robin and Fraction(finished, max(scheduled_games, 1)) < ANNUL_BELOW_SHARE:
        return [t for t in tables if not (entrant in t.seats and t.kind is TableKind.GAME)]
    return [forfeited(t, entrant) if t in mine and t.ranks is None else t for t in tables]


def adjudicate(table: Table, time_used: Mapping[int, float]) -> Table:
    """An unfinished game at the round deadline, ended by ADJUDICATION_RULE (``time_used``: seconds per player)."""
    units = list(table.teams) or [(s,) for s in range(len(table.seats))]
    used = {u: sum(time_used.get(table.seats[s], 0.0) for s in u) for u in units}
    ranks = [0] * len(table.seats)
    for unit, seconds in used.items():
        rank = 1 + sum(1 for other in used.values() if other < seconds)
        for s in unit:
            ranks[s] = rank
    return table.finish(tuple(ranks), adjudicated=True)


_GLYPHS = {Fraction(0): "", Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾", Fraction(1, 3): "⅓",
           Fraction(2, 3): "⅔", Fraction(1, 6): "⅙", Fraction(5, 6): "⅚"}


def figure(value: Fraction) -> str:
    """A score as players read it: 3½, ⅔, 0, 12¼ (two decimals where no glyph exists)."""
    whole, part = divmod(value, 1)
    if part in _GLYPHS:
        return f"{whole}{_GLYPHS[part]}" if whole or not part else _GLYPHS[part]
    return f"{float(value):.2f}"


def crosstable(order: Sequence[int], tables: Iterable[Table]) -> tuple[tuple[str, ...], ...]:
    """For a round robin's standings ``order``: each player's duel scores against each other, by round, as
    ``figure`` writes them ("1 ½" after two legs), "" where they have not met yet."""
    cells: dict[tuple[int, int], list[tuple[int, Fraction]]] = defaultdict(list)
    for table in tables:
        for (player, opponent), score in duels(table).items():
            cells[(player, opponent)].append((table.round, score))
    return tuple(tuple(" ".join(figure(s) or "0" for _, s in sorted(cells[(p, q)])) for q in order) for p in order)
