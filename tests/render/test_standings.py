"""The standings image (render/standings.py): same sheet, same bytes; no text crosses a column, for 10 and 32
entrants with long and hard names (a probe of the drawn pixels at every column boundary)."""

from __future__ import annotations

import pytest

from render import standings
from render.standings import CROSS_PAD, Row, Sheet
from tests.render.test_hard_names import hard_names

HEADERS = ("#", "Name", "Punkte", "SB", "BH-1", "DV", "Siege")
LONG = "Wolfeschlegelsteinhausenbergerdorff Maximilian-Alexander von und zu Ober-Unterwaldhausen"


def _sheet(n: int, *, crosstable: bool = True) -> Sheet:
    names = [LONG, "W" * 60, *hard_names()]
    rows = tuple(Row(str(i + 1), names[i % len(names)], f"{30 - i}½", (f"{200 - i}¾", f"{150 - i}", "1½", "12"))
                 for i in range(n))
    cells = tuple(tuple("" if i == j else ("1 ½" if (i + j) % 3 else "0 0") for j in range(n)) for i in range(n))
    return Sheet("Herbstturnier 2026 — Spinca, Schweizer System", HEADERS, rows, cells if crosstable else None)


def test_the_same_sheet_draws_the_same_bytes_and_another_sheet_other_bytes():
    sheet = _sheet(10)
    assert standings.standings_png(sheet) == standings.standings_png(_sheet(10))
    other = Sheet(sheet.title, sheet.headers, (Row("1", "Ana", "1", sheet.rows[0].tiebreaks), *sheet.rows[1:]),
                  sheet.crosstable)
    assert standings.standings_png(other) != standings.standings_png(sheet)


def _ink(pixel: tuple[int, int, int]) -> bool:
    return max(pixel) < 170


@pytest.mark.parametrize("n", [10, 32])
@pytest.mark.parametrize("crosstable", [True, False])
def test_no_text_crosses_a_column_boundary(n, crosstable):
    sheet = _sheet(n, crosstable=crosstable)
    columns = standings.layout(sheet)
    assert all(a.x + a.width <= b.x for a, b in zip(columns, columns[1:], strict=False))
    image = standings.draw(sheet).convert("RGB")
    top = standings.MARGIN + standings.TITLE_SIZE + 14
    for column in columns[:-1]:
        edge = column.x + column.width
        for x in range(edge - CROSS_PAD // 2, edge + CROSS_PAD // 2 + 1):
            for y in range(top + 2, image.height - standings.MARGIN):
                assert not _ink(image.getpixel((x, y))), (column, x, y)
    assert image.width < 3000


def test_a_name_that_draws_nothing_shows_its_rank_instead():
    sheet = Sheet("Cup", HEADERS[:3], (Row("1", "\u200b\u200b", "2"), Row("2", "Ana", "1")))
    assert standings.draw(sheet).size == standings.draw(Sheet("Cup", HEADERS[:3], (Row("1", "1", "2"),
                                                                                   Row("2", "Ana", "1")))).size


def test_a_sheet_whose_rows_do_not_match_its_headers_is_refused():
    with pytest.raises(ValueError, match="2 tiebreaks"):
        Sheet("Cup", ("#", "Name", "Points", "SB", "BH"), (Row("1", "Ana", "1", ("1",)),))
    with pytest.raises(ValueError, match="crosstable"):
        Sheet("Cup", HEADERS[:3], (Row("1", "Ana", "1"),), (("", "1"),))


def test_a_title_wider_than_the_table_widens_the_image_up_to_its_limit():
    rows = (Row("1", "Ann", "1", ("0", "0", "1", "0")),)
    narrow = standings.draw(Sheet("A", HEADERS, rows))
    table_right = standings.layout(Sheet("A", HEADERS, rows))[-1]
    assert narrow.width == table_right.x + table_right.width + standings.MARGIN
    title = "Herbstturnier 2026 — Tabelle, Runde 2 von 7"
    wide = standings.draw(Sheet(title, HEADERS, rows))
    assert wide.width > narrow.width
    assert wide.width >= standings.MARGIN * 2 + standings.name_length(title, standings.TITLE_SIZE, bold=True)
    endless = standings.draw(Sheet(title * 10, HEADERS, rows))
    assert endless.width == standings.TITLE_WIDTH + standings.MARGIN
