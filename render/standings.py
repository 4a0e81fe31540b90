"""The standings image of a tournament: a table (rank, name, points, tiebreaks) and, for round robins, a
crosstable beside it. Words come in already translated (``Sheet``): this module draws, it does not speak.

Columns are as wide as their widest cell (names at most NAME_WIDTH, shortened with an ellipsis by
``common.fit_name``), so no text crosses into the next column whatever the names; ``layout`` returns the columns
for the probe test. Same sheet, same bytes (``common.to_png``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    INK,
    MUTED,
    draw_name,
    fit_name,
    font,
    isolate,
    mix,
    name_length,
    plain_name,
    visible,
)

TEXT_SIZE = 15
TITLE_SIZE = 20
PAD = 10                        # inside each column, on both sides
CROSS_PAD = 5                   # inside each crosstable column: 64 entrants stay about 2,500 pixels wide
ROW_HEIGHT = 24
MARGIN = 16
NAME_WIDTH = 220                # the widest a name column gets
TITLE_WIDTH = 720               # the widest a title makes the image (a longer one is shortened with an ellipsis)
GAP = 18                        # between the standings and the crosstable
STRIPE = mix(BACKGROUND, INK, 0.06)
RULE = mix(BACKGROUND, INK, 0.35)
DIAGONAL = mix(BACKGROUND, INK, 0.18)
PNG_COLOURS = 64                # flat colours and anti-aliased text: 64 keep the text crisp
PNG_COMPRESSION = 6


@dataclass(frozen=True)
class Row:
    rank: str
    name: str
    points: str
    tiebreaks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sheet:
    """What to draw. ``headers``: rank, name, points and one per tiebreak, translated. ``crosstable``: for round
    robins, row i's cells against each entrant in row order (the diagonal is shaded, its text ignored)."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[Row, ...]
    crosstable: tuple[tuple[str, ...], ...] | None = None

    def __post_init__(self) -> None:
        if len(self.headers) < 3:
            raise ValueError("a standings sheet has rank, name and points headers at least")
        if any(len(r.tiebreaks) != len(self.headers) - 3 for r in self.rows):
            raise ValueError(f"each row needs {len(self.headers) - 3} tiebreaks, one per header after the points")
        if self.crosstable is not None and (len(self.crosstable) != len(self.rows)
                                            or any(len(c) != len(self.rows) for c in self.crosstable)):
            raise ValueError("the crosstable has a row and a column per standings row")


@dataclass(frozen=True)
class Column:
    x: int                      # left edge
    width: int
    align: str                  # "l" or "r" or "m"


def _width(text: str, bold: bool = False) -> int:
    return int(font(TEXT_SIZE, bold).getlength(text)) + 1


def _name(name: str, fallback: str) -> str:
    shown = plain_name(name).strip()
    return isolate(shown if visible(shown) else fallback)


def _names(sheet: Sheet) -> list[str]:
    return [fit_name(_name(r.name, r.rank), TEXT_SIZE, NAME_WIDTH) for r in sheet.rows]


def layout(sheet: Sheet, names: list[str] | None = None) -> list[Column]:
    """The columns, left to right: rank, name, points, tiebreaks, then one per crosstable entrant (``names``:
    the fitted names, when the caller has them already)."""
    names = _names(sheet) if names is None else names
    header_name = fit_name(sheet.headers[1], TEXT_SIZE, NAME_WIDTH, bold=True)
    cells: list[list[int]] = [
        [_width(sheet.headers[0], True), *(_width(r.rank) for r in sheet.rows)],
        [int(name_length(header_name, TEXT_SIZE, bold=True)) + 1, *(int(name_length(n, TEXT_SIZE)) + 1 for n in names)],
        [_width(sheet.headers[2], True), *(_width(r.points, True) for r in sheet.rows)],
    ]
    for i, header in enumerate(sheet.headers[3:]):
        cells.append([_width(header, True), *(_width(r.tiebreaks[i]) for r in sheet.rows)])
    aligns = ["r", "l", "r", *("r" for _ in sheet.headers[3:])]
    if sheet.crosstable is not None:
        for j in range(len(sheet.rows)):
            cells.append([_width(str(j + 1), True), *(_width(row[j]) for row in sheet.crosstable)])
            aligns.append("m")
    columns, x = [], MARGIN
    for k, (widths, align) in enumerate(zip(cells, aligns, strict=True)):
        if sheet.crosstable is not None and k == len(sheet.headers):
            x += GAP
        width = max(widths) + 2 * (CROSS_PAD if align == "m" else PAD)
        columns.append(Column(x, width, align))
        x += width
    return columns


def _place(column: Column) -> tuple[float, str]:
    if column.align == "l":
        return column.x + PAD, "lm"
    if column.align == "r":
        return column.x + column.width - PAD, "rm"
    # "m": a crosstable column, centred
    return column.x + column.width / 2, "mm"


def draw(sheet: Sheet) -> Image.Image:
    """The standings image."""
    names = _names(sheet)
    columns = layout(sheet, names)
    top = MARGIN + TITLE_SIZE + 14
    title_width = int(name_length(sheet.title, TITLE_SIZE, bold=True)) + 1
    width = max(columns[-1].x + columns[-1].width, min(MARGIN + title_width, TITLE_WIDTH)) + MARGIN
    height = top + ROW_HEIGHT * (len(sheet.rows) + 1) + MARGIN
    image = Image.new("RGB", (width, height), BACKGROUND)
    d = ImageDraw.Draw(image)
    draw_name(d, (MARGIN, MARGIN), fit_name(sheet.title, TITLE_SIZE, width - 2 * MARGIN, bold=True), TITLE_SIZE,
              bold=True)
    for i in range(1, len(sheet.rows) + 1, 2):
        bottom = top + ROW_HEIGHT * (i + 1)
        d.rectangle((MARGIN, bottom - ROW_HEIGHT, width - MARGIN, bottom), fill=STRIPE)
    d.line((MARGIN, top + ROW_HEIGHT, width - MARGIN, top + ROW_HEIGHT), fill=RULE, width=1)
    table = len(sheet.headers)
    headers = [*sheet.headers, *(str(j + 1) for j in range(len(sheet.rows) if sheet.crosstable is not None else 0))]
    for k, (column, text) in enumerate(zip(columns, headers, strict=True)):
        x, anchor = _place(column)
        shown = fit_name(text, TEXT_SIZE, column.width - 2 * PAD, bold=True) if k == 1 else text
        draw_name(d, (x, top + ROW_HEIGHT / 2), shown, TEXT_SIZE, bold=True, fill=MUTED if k >= table else INK,
                  anchor=anchor)
    for i, row in enumerate(sheet.rows):
        y = top + ROW_HEIGHT * (i + 1) + ROW_HEIGHT / 2
        texts = [row.rank, names[i], row.points, *row.tiebreaks]
        if sheet.crosstable is not None:
            texts += list(sheet.crosstable[i])
        for k, (column, text) in enumerate(zip(columns, texts, strict=True)):
            if k >= table and k - table == i:
                d.rectangle((column.x + 2, y - ROW_HEIGHT / 2 + 2, column.x + column.width - 2,
                             y + ROW_HEIGHT / 2 - 2), fill=DIAGONAL)
                continue
            x, anchor = _place(column)
            if k == 1:
                draw_name(d, (x, y), text, TEXT_SIZE, anchor=anchor)
            else:                   # figures: DejaVu draws every one of them
                d.text((x, y), text, font=font(TEXT_SIZE, k == 2), fill=INK, anchor=anchor)
    return image


def standings_png(sheet: Sheet) -> bytes:
    """The standings image as PNG bytes (the same bytes for the same sheet).

    A palette PNG like ``common.to_png``, without its full-colour retry for large images (a crosstable of 64 is
    over that size limit in any encoding, and the retry cost seconds) and by the fast octree quantizer (a third
    of median cut's time here; the image is a few flat colours and anti-aliased text). Figures: bench/
    bench_tournament.py.
    """
    palette = draw(sheet).quantize(colors=PNG_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    palette.save(buf, format="PNG", compress_level=PNG_COMPRESSION)
    return buf.getvalue()
