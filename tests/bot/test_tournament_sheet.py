"""The standings image of a tournament through the render pool: the words in the reader's language, the figures
as players read them, and the same bytes a worker process draws as render.standings does here."""

from __future__ import annotations

import asyncio

from bot.i18n import speaking
from bot.services.tournament_views import StandingView
from bot.standings_sheet import alt_text, sheet
from bot.tournaments import roundrobin
from bot.tournaments.model import Entrant, TableKind
from bot.tournaments.scoring import crosstable, standings
from render.pool import RenderPool
from render.standings import standings_png

NAMES = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}


def _finished_round_robin():
    """A 4-player round robin where the lower id wins every game but 2-3, a draw."""
    entrants = [Entrant(i, 1500) for i in NAMES]
    tables = []
    for round_tables in roundrobin.schedule(entrants):
        for t in round_tables:
            if t.kind is TableKind.GAME:
                a, b = t.seats
                t = t.finish((1, 1) if {a, b} == {2, 3} else (1, 2) if a < b else (2, 1))
            tables.append(t)
    rows = standings(entrants, tables)
    views = [StandingView(r.rank, r.entrant, NAMES[r.entrant], r.points, r.sonneborn_berger, r.buchholz_cut1,
                          r.direct_encounter, r.wins, r.rating, r.games) for r in rows]
    return views, crosstable([r.entrant for r in rows], tables)


def test_a_german_sheet_has_german_headers_and_the_hand_computed_figures():
    rows, cross = _finished_round_robin()
    with speaking("de"):
        drawn = sheet("Herbstturnier", rows, cross)
    assert drawn.headers == ("#", "Spieler", "Punkte", "SB", "BH-1", "Siege")
    # Ann 3, Bob 1½ (beat Dee, drew Cy), Cy 1½ (beat Dee, drew Bob), Dee 0
    assert [(r.rank, r.name, r.points) for r in drawn.rows] == [
        ("1", "Ann", "3"), ("2", "Bob", "1½"), ("2", "Cy", "1½"), ("4", "Dee", "0")]
    assert drawn.crosstable is not None and drawn.crosstable[0][1:] == ("1", "1", "1")


def test_the_alt_text_lists_every_player_with_their_points():
    rows, _ = _finished_round_robin()
    with speaking("de"):
        text = alt_text("Herbstturnier", rows)
    assert text.splitlines() == ["Herbstturnier", "1. Ann: 3 Punkte", "2. Bob: 1½ Punkte", "2. Cy: 1½ Punkte",
                                 "4. Dee: 0 Punkte"]


def test_a_worker_process_draws_the_bytes_drawn_here():
    rows, cross = _finished_round_robin()
    drawn = sheet("Autumn", rows, cross)

    async def in_the_pool() -> bytes:
        pool = RenderPool(1)
        try:
            return await pool.standings(drawn)
        finally:
            pool.close()
    assert asyncio.run(in_the_pool()) == standings_png(drawn)
