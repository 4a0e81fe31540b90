"""A tournament's standings as words and figures, the one source of the Discord image, its description and the
web page's table: the words translated in the language of the moment, the figures written as players read them
(``scoring.figure``: 2½, ⅔). Discord-free, so both front ends use it.

The sheet shows points, Sonneborn–Berger, Buchholz cut-1 and wins (SHOWN_TIEBREAKS); direct encounter and rating
only order players still tied, so they are not columns. A round robin's crosstable goes beside the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_, _
from bot.services.tournament_views import StandingView
from bot.tournaments.scoring import figure
from render.standings import Row, Sheet

MAX_ALT_TEXT = 1024          # Discord's limit for an attachment's description
SHOWN_TIEBREAKS = (N_("SB"), N_("BH-1"), N_("Wins"))   # Sonneborn–Berger, Buchholz cut-1, games won
TIEBREAK_NOTE = N_("Tiebreaks: Sonneborn–Berger (SB), Buchholz cut-1 (BH-1), direct encounter, wins, rating.")


def sheet(title: str, rows: Sequence[StandingView], crosstable: tuple[tuple[str, ...], ...] | None = None) -> Sheet:
    """The standings ``rows`` (in order) as a sheet titled ``title``; a withdrawn entrant's name in brackets."""
    headers = (_("#"), _("Player"), _("Points"), *(_(t) for t in SHOWN_TIEBREAKS))
    return Sheet(title, headers, tuple(
        Row(str(r.rank), f"({r.name})" if r.withdrawn else r.name, figure(r.points) or "0",
            (figure(r.sonneborn_berger) or "0", figure(r.buchholz_cut1) or "0", str(r.wins)))
        for r in rows), crosstable)


def alt_text(title: str, rows: Sequence[StandingView]) -> str:
    """The standings in words, for screen readers (the image's description) and for a post the image left."""
    lines = [title] + [_("{rank}. {name}: {points} points").format(rank=r.rank, name=r.name,
                                                                      points=figure(r.points) or "0") for r in rows]
    text = "\n".join(lines)
    return text if len(text) <= MAX_ALT_TEXT else text[:MAX_ALT_TEXT - 1] + "…"
