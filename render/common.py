"""Shared drawing pieces: fonts, the palette, and deterministic PNG encoding."""

from __future__ import annotations

import io
import math
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from render.texts import tr

FONT_DIR = Path(__file__).parent / "fonts"
MAX_PNG_BYTES = 150_000

# Discord-neutral background that reads on both light and dark themes.
BACKGROUND = (246, 242, 232)
INK = (34, 34, 38)
MUTED = (110, 110, 118)
HIGHLIGHT = (230, 60, 40)


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans shipped in render/fonts (licence beside it), so every machine draws the same glyphs."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def to_png(image: Image.Image) -> bytes:
    """Encode as a 256-colour palette PNG without metadata: same bytes for the same image.

    Boards are flat colours plus anti-aliased edges, so a median-cut palette without dithering keeps them
    crisp at about half the size of full colour, and encodes ~3x faster than an optimised RGB PNG
    (measured on a Tintas board: 57 ms and 67 KB against 177 ms and 148 KB). Full colour is the fallback
    for the rare image the palette would not shrink.
    """
    rgb = image.convert("RGB")
    palette = rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    palette.save(buf, format="PNG", compress_level=7)
    data = buf.getvalue()
    if len(data) > MAX_PNG_BYTES:
        buf = io.BytesIO()
        rgb.save(buf, format="PNG", optimize=True)
        data = min(data, buf.getvalue(), key=len)
    return data


# --- Drawing primitives shared by the renderers ------------------------------------------------------------
# All take an ``ImageDraw.ImageDraw`` and plain pixel coordinates, draw nothing random, and iterate only over
# sequences, so the same call always paints the same pixels.

Point = tuple[float, float]
RGB = tuple[int, int, int]


def luminance(rgb: RGB) -> float:
    """Relative luminance (WCAG) of an sRGB colour, 0 (black) .. 1 (white)."""
    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ink(fill: RGB, dark: RGB = INK, light: RGB = (255, 255, 255)) -> RGB:
    """Whichever of ``dark`` / ``light`` contrasts more with ``fill`` (for text drawn on a coloured shape)."""
    lf = luminance(fill)
    ld, ll = luminance(dark), luminance(light)
    c_dark = (max(lf, ld) + 0.05) / (min(lf, ld) + 0.05)
    c_light = (max(lf, ll) + 0.05) / (min(lf, ll) + 0.05)
    return dark if c_dark >= c_light else light


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b`` (0 gives ``a``)."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def text_centred(draw: ImageDraw.ImageDraw, xy: Point, text: str, size: int, *, bold: bool = False,
                 fill: RGB = INK, stroke: int = 0, stroke_fill: RGB | None = None,
                 anchor: str = "mm") -> None:
    """Text whose anchor (default: the middle of the ink box) sits on ``xy``, optionally with a halo."""
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor,
              stroke_width=stroke, stroke_fill=stroke_fill)


def fit_text(text: str, size: int, max_width: float, *, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so it is at most ``max_width`` pixels wide in ``font(size)``."""
    f = font(size, bold)
    if f.getlength(text) <= max_width:
        return text
    while text and f.getlength(text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def rounded_panel(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], *, fill: RGB | None,
                  outline: RGB | None = None, width: int = 1, radius: int = 12) -> None:
    """A rounded rectangle ``box = (x0, y0, x1, y1)``: panels, badges and counters."""
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def disc(draw: ImageDraw.ImageDraw, centre: Point, radius: float, *, fill: RGB | None,
         outline: RGB | None = None, width: int = 1) -> None:
    """A circle given by centre and radius."""
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline, width=width)


def dashed_circle(draw: ImageDraw.ImageDraw, centre: Point, radius: float, *, fill: RGB, width: int,
                  dashes: int = 12, duty: float = 0.55) -> None:
    """A dashed ring: ``dashes`` arcs, each covering ``duty`` of its share of the circle."""
    x, y = centre
    box = (x - radius, y - radius, x + radius, y + radius)
    step = 360 / dashes
    for i in range(dashes):
        start = i * step - 90
        draw.arc(box, start, start + step * duty, fill=fill, width=width)


def arrow(draw: ImageDraw.ImageDraw, start: Point, end: Point, *, fill: RGB, width: int,
          head: float | None = None, casing: RGB | None = None, casing_width: int = 0,
          trim_start: float = 0.0, trim_end: float = 0.0) -> None:
    """A straight arrow from ``start`` to ``end`` with a filled triangular head at ``end``.

    ``trim_start`` / ``trim_end`` pull the ends in by that many pixels (to stop short of a piece);
    ``casing`` draws a halo ``casing_width`` pixels wider around shaft and head so the arrow reads on any
    background. ``head`` is the head length (default 3.2 x ``width``).
    """
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    if length <= trim_start + trim_end + 1:
        return
    ux, uy = dx / length, dy / length
    x0, y0 = x0 + ux * trim_start, y0 + uy * trim_start
    x1, y1 = x1 - ux * trim_end, y1 - uy * trim_end
    head = head if head is not None else 3.2 * width
    half = head * 0.6
    bx, by = x1 - ux * head, y1 - uy * head          # base of the head
    tri = [(x1, y1), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)]
    layers = [(casing, width + 2 * casing_width, casing_width)] if casing and casing_width else []
    layers.append((fill, width, 0))
    for colour, w, grow in layers:
        draw.line([(x0, y0), (bx + ux * 1, by + uy * 1)], fill=colour, width=round(w))
        disc(draw, (x0, y0), w / 2, fill=colour)
        if grow:
            g = grow * 1.6
            big = [(x1 + ux * g, y1 + uy * g),
                   (bx - uy * (half + g) - ux * grow, by + ux * (half + g) - uy * grow),
                   (bx + uy * (half + g) - ux * grow, by - ux * (half + g) - uy * grow)]
            draw.polygon(big, fill=colour)
        else:
            draw.polygon(tri, fill=colour)


def star(draw: ImageDraw.ImageDraw, centre: Point, radius: float, *, fill: RGB, outline: RGB | None = None,
         width: int = 1, points: int = 5, inner: float = 0.45) -> None:
    """A regular star pointing up (``inner`` is the inner radius as a fraction of ``radius``)."""
    x, y = centre
    pts = []
    for i in range(2 * points):
        r = radius if i % 2 == 0 else radius * inner
        a = math.pi * i / points - math.pi / 2
        pts.append((x + r * math.cos(a), y + r * math.sin(a)))
    draw.polygon(pts, fill=fill, outline=outline, width=width)


def hex_corners(centre: Point, size: float, *, flat_top: bool = True) -> list[Point]:
    """The six corners of a regular hexagon of centre-to-corner ``size`` (flat top: corners at 0°, 60°…)."""
    x, y = centre
    offset = 0.0 if flat_top else 30.0
    angles = [math.radians(60 * i + offset) for i in range(6)]
    return [(x + size * math.cos(a), y + size * math.sin(a)) for a in angles]


def piece(draw: ImageDraw.ImageDraw, centre: Point, radius: float, fill: RGB, letter: str, *,
          outline: RGB = INK, width: int = 2, letter_size: int | None = None) -> None:
    """A colour-blind-safe piece: a disc in ``fill`` with a dark rim and its ``letter`` in a contrasting ink.

    The letter carries the colour for players who cannot tell the fills apart; the rim keeps light fills
    (white, yellow) visible on light backgrounds.
    """
    disc(draw, centre, radius, fill=fill, outline=outline, width=width)
    if letter:
        text_centred(draw, centre, letter, letter_size or round(radius * 0.95), bold=True,
                     fill=contrast_ink(fill))


def supersampled(width: int, height: int, scale: int, background: RGB = BACKGROUND) -> Image.Image:
    """A blank canvas ``scale`` times larger; draw on it, then ``downsample`` it for smooth edges."""
    return Image.new("RGB", (width * scale, height * scale), background)


def downsample(image: Image.Image, scale: int) -> Image.Image:
    """Shrink a ``supersampled`` canvas back to its target size.

    A box filter (each output pixel the mean of a ``scale`` x ``scale`` block): smooth edges without the
    ringing of Lanczos, so flat areas keep their exact colour and the PNG stays small.
    """
    if scale == 1:
        return image
    return image.reduce(scale)


SUPERSAMPLE = 2   # boards are drawn at twice their size, then downsampled: smooth edges, exact flat colours


def z(v: float) -> float:
    """A length in final-image pixels, scaled to the supersampled canvas."""
    return v * SUPERSAMPLE


def zp(p: tuple[float, float]) -> tuple[float, float]:
    return p[0] * SUPERSAMPLE, p[1] * SUPERSAMPLE


def zi(v: float) -> int:
    return round(v * SUPERSAMPLE)


# --- The fast path: cached layers, sprites, a fixed palette ------------------------------------------------
# A board is a cached static layer (drawn once per game and variant, supersampled then reduced), pieces and
# badges pasted as cached sprites (each drawn once, supersampled), and text drawn at final size. The PNG
# maps the image onto the game's fixed palette (built once from a sample board) instead of running a
# median cut per board: a few milliseconds instead of tens, and the same bytes for the same input.

PNG_LEVEL = 3            # zlib level: beyond it the boards shrink little and encode much slower


def sprite(draw_at: Callable[[ImageDraw.ImageDraw, float], None], size: tuple[int, int], *,
           scale: int = 4) -> Image.Image:
    """An RGBA sprite ``size`` pixels large, drawn by ``draw_at(draw, scale)`` on a canvas ``scale`` times
    larger (coordinates multiplied by ``scale``) and reduced: smooth edges, a transparent background.

    Cache the result (``functools.lru_cache`` on the function that builds it): sprites are drawn once.
    """
    w, h = size
    canvas = Image.new("RGBA", (w * scale, h * scale), (0, 0, 0, 0))
    draw_at(ImageDraw.Draw(canvas), scale)
    return canvas.resize(size, Image.Resampling.BOX)


def paste(base: Image.Image, image: Image.Image, centre: Point) -> None:
    """Paste an RGBA sprite onto ``base`` with its centre on ``centre`` (rounded to whole pixels)."""
    x = round(centre[0] - image.width / 2)
    y = round(centre[1] - image.height / 2)
    if base.mode == "RGBA":
        base.alpha_composite(image, (x, y))
    elif base.mode == "RGB" and image.mode == "RGBA":
        base.im.paste(image.im, (x, y, x + image.width, y + image.height), image.im)   # as base.paste(image, .., image)
    else:
        base.paste(image, (x, y), image)


def put(base: Image.Image, tile: Image.Image, xy: tuple[int, int]) -> None:
    """``base.paste(tile, xy)`` for a tile of ``base``'s mode, without the checks of Pillow's Python wrapper:
    the same pixels, a few microseconds less per paste (boards paste a hundred or two tiles).

    ``base`` must be an image of our own (``Image.new``, ``copy``), not one sharing a buffer.
    """
    if tile.mode != base.mode:
        base.paste(tile, xy)
        return
    x, y = xy
    base.im.paste(tile.im, (x, y, x + tile.width, y + tile.height))


def build_palette(*samples: Image.Image, colours: int = 256) -> Image.Image:
    """A fixed palette (a 'P' image) covering the colours of ``samples``: a median cut, done once per game."""
    width = max(s.width for s in samples)
    sheet = Image.new("RGB", (width, sum(s.height for s in samples)), BACKGROUND)
    y = 0
    for s in samples:
        sheet.paste(s.convert("RGB"), (0, y))
        y += s.height
    return sheet.quantize(colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


PALETTE_DIR = Path(__file__).parent / "palettes"


@lru_cache(maxsize=8)
def stored_palette(game: str) -> Image.Image:
    """The fixed palette of ``game`` as a 'P' image, read from ``render/palettes/<game>.pal`` (its RGB entries).

    Each renderer's ``sampled_palette()`` builds it by a median cut over sample boards, which draws a dozen
    boards and fills every cache they touch: seconds and tens of MB in each render process at its first
    board. ``tools/palettes.py`` stores the result once; a test checks that the stored palette is still the
    one the samples give, so boards are the same bytes as with the built one.
    """
    palette = Image.new("P", (1, 1))
    palette.putpalette((PALETTE_DIR / f"{game}.pal").read_bytes())
    return palette


def palette_png(image: Image.Image, palette: Image.Image) -> bytes:
    """Encode ``image`` mapped onto the fixed ``palette`` (no dithering) as a PNG without metadata."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")      # (converting RGB to RGB copies it)
    mapped = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    mapped.save(buf, format="PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


def wrap_text(text: str, size: int, max_width: float, *, bold: bool = False, lines: int = 2) -> list[str]:
    """``text`` broken at spaces into at most ``lines`` lines of at most ``max_width`` pixels; only the last
    line is shortened with an ellipsis, and only if the text does not fit in ``lines`` lines at all."""
    f = font(size, bold)
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and f.getlength(f"{line} {words[0]}") <= max_width:
            line = f"{line} {words.pop(0)}"
        out.append(line)
    if words:
        out[-1] = fit_text(f"{out[-1]} {' '.join(words)}", size, max_width, bold=bold)
    return [fit_text(line, size, max_width, bold=bold) for line in out]


WINNER = (214, 158, 24)     # the one winner marker of every game: a gold star badge with 'WINNER'
WINNER_LABEL = "WINNER"     # its word (translated: render.texts)
TEXTS = (WINNER_LABEL,)


def colour_letter(template: str) -> str:
    """The letter pieces of a colour carry, in the render language: what follows the last ': ' of
    ``tr(template)`` (a template such as 'letter on yellow pieces: Y', so a translation chooses letters that
    read in its language: 'Buchstabe auf gelben Steinen: Ge')."""
    return tr(template).rpartition(": ")[2].strip() or template.rpartition(": ")[2]


def letter_fit(text: str, size: int) -> int:
    """The font size of a piece's colour letter ``text`` at ``size`` for one letter: two letters a little
    smaller (``TWO_LETTER_SCALE``), so they stay inside the piece."""
    return size if len(text) < 2 else round(size * TWO_LETTER_SCALE)


TWO_LETTER_SCALE = 0.8      # a colour letter of two characters (German 'Ge', 'Gn') against one


def winner_label() -> str:
    """The winner badge's word in the render language."""
    return tr(WINNER_LABEL)


def winner_badge(draw: ImageDraw.ImageDraw, xy: Point, *, size: int = 18, label: str | None = None) -> None:
    """The winner marker every game uses, its left edge at ``xy`` (vertically centred there): a gold star
    and a bold label (``WINNER_LABEL`` in the render language unless given), readable in grey-scale (shape and
    word, not only colour)."""
    x, y = xy
    label = winner_label() if label is None else label
    star(draw, (x + size * 0.6, y), size * 0.6, fill=WINNER, outline=INK, width=1)
    draw.text((x + size * 1.4, y), label, font=font(round(size * 0.8), True), fill=INK, anchor="lm")


# --- People's names: any script, any emoji ------------------------------------------------------------------
# Names come from Discord and may hold emoji, CJK or other scripts the board font lacks. Every renderer draws
# names through these three functions, so one place decides which font draws which character.
#
# Each character is drawn with the first font of a fallback chain that has it: DejaVu Sans (the board font,
# so a name of letters it has is drawn exactly as before), then Noto Sans CJK JP, Noto Emoji (monochrome
# outlines, drawn in the text colour at any size), Noto Sans Thai, Devanagari, Bengali, Tamil, Gujarati,
# Sinhala, Myanmar, Khmer and Ethiopic, and Noto Sans (Latin with every combining mark), all subsets
# shipped in render/fonts (tools/subset_fonts.py made them and documents their sources and repertoires), and
# last the other DejaVu weight. Emoji (pictographs of U+1F000-1FAFF, anything with VS-16) try Noto Emoji
# first, so DejaVu's few smileys do not mix styles with the rest. Which font has which character is read from
# render/fonts/coverage.json (the fonts' cmaps, written by the same tool), so the runtime needs no font
# library beyond Pillow. A character no font has is drawn as DejaVu's missing-glyph box.
#
# A name is cut into clusters (a character with its combining marks, variation selectors, skin-tone
# modifiers, tags and ZWJ-joined partners; a pair of regional indicators) so that an emoji sequence or an
# accented letter stays in one font; neighbouring clusters of one font form a run, drawn in one call so the
# font's shaping (kerning, Indic conjuncts, emoji ligatures) applies within it. Runs sit on one baseline, side
# by side, in logical order (no reordering of right-to-left text across runs). Cutting a name is cached.

_DEJAVU = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
_EMOJI = "NotoEmoji-Regular.subset.ttf"
_NAME_FALLBACKS = (                       # (regular, bold), after DejaVu Sans
    ("NotoSansCJKjp-Regular.subset.otf", "NotoSansCJKjp-Bold.subset.otf"),
    (_EMOJI, _EMOJI),                     # one weight: its strokes read the same beside regular and bold
    ("NotoSansThai-Regular.subset.ttf", "NotoSansThai-Bold.subset.ttf"),
    ("NotoSansDevanagari-Regular.subset.ttf", "NotoSansDevanagari-Bold.subset.ttf"),
    *((f"NotoSans{script}-Regular.subset.ttf", f"NotoSans{script}-Bold.subset.ttf")
      for script in ("Bengali", "Tamil", "Gujarati", "Sinhala", "Myanmar", "Khmer", "Ethiopic")),
    ("NotoSans-Regular.marks.subset.ttf", "NotoSans-Bold.marks.subset.ttf"),   # letters with marks DejaVu lacks
)


def _name_chain(bold: bool) -> tuple[str, ...]:
    """The font files a name is drawn with, in order of preference."""
    return (_DEJAVU[bold], *(pair[bold] for pair in _NAME_FALLBACKS), _DEJAVU[not bold])


@lru_cache(maxsize=1)
def _coverage_table() -> dict[str, str]:
    import json
    table = json.loads((FONT_DIR / "coverage.json").read_text(encoding="utf-8"))
    return {name: entry["bitmap"] for name, entry in table.items() if not name.startswith("_")}


@lru_cache(maxsize=16)
def _coverage(file: str) -> bytes:
    """Which code points ``file`` has: bit ``c % 8`` of byte ``c // 8`` is set for code point ``c``."""
    import base64
    import zlib
    return zlib.decompress(base64.b64decode(_coverage_table()[file]))


def _has(file: str, cp: int) -> bool:
    bits = _coverage(file)
    return cp >> 3 < len(bits) and bool(bits[cp >> 3] >> (cp & 7) & 1)


def _ignorable(cp: int) -> bool:
    """Default-ignorable code points (variation selectors, joiners, bidi controls, tags...): invisible, so
    a font that lacks one may simply leave it out."""
    return (cp == 0x00AD or cp == 0x034F or cp == 0x061C or 0x115F <= cp <= 0x1160 or 0x17B4 <= cp <= 0x17B5
            or 0x180B <= cp <= 0x180F or 0x200B <= cp <= 0x200F or 0x202A <= cp <= 0x202E
            or 0x2060 <= cp <= 0x206F or cp == 0x3164 or 0xFE00 <= cp <= 0xFE0F or cp == 0xFEFF
            or cp == 0xFFA0 or 0x1BCA0 <= cp <= 0x1BCA3 or 0x1D173 <= cp <= 0x1D17A or 0xE0000 <= cp <= 0xE0FFF)


def _extends(ch: str) -> bool:
    """Whether ``ch`` belongs to the cluster before it (marks, variation selectors, skin tones, tags)."""
    import unicodedata
    cp = ord(ch)
    return (unicodedata.category(ch) in ("Mn", "Me", "Mc") or 0xFE00 <= cp <= 0xFE0F or 0x1F3FB <= cp <= 0x1F3FF
            or 0xE0020 <= cp <= 0xE007F or 0xE0100 <= cp <= 0xE01EF)


def _clusters(text: str) -> list[str]:
    """``text`` cut where a font may change: never inside a character with its marks, an emoji sequence
    (modifiers, variation selectors, tags, ZWJ) or a flag (a pair of regional indicators)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        j = i + 1
        if 0x1F1E6 <= ord(text[i]) <= 0x1F1FF and j < n and 0x1F1E6 <= ord(text[j]) <= 0x1F1FF:
            j += 1
        while j < n:
            if text[j] == "\u200d":                 # a zero-width joiner takes the character after it along
                j += 2
            elif _extends(text[j]):
                j += 1
            else:
                break
        j = min(j, n)
        out.append(text[i:j])
        i = j
    return out


def _emoji_presented(cps: list[int]) -> bool:
    """Whether a cluster asks to look like an emoji: a pictograph of the emoji planes (U+1F000-1FAFF, all
    shown as emoji by default) or any character followed by VARIATION SELECTOR-16, unless VS-15 asks for
    text. Those prefer the emoji font even where DejaVu has a glyph (its smileys, ❤ in ❤️), so every emoji of
    a name has one style; ☺ or ❤ alone stay DejaVu's, as text."""
    return 0xFE0E not in cps and (0x1F000 <= cps[0] <= 0x1FAFF or 0xFE0F in cps)


@lru_cache(maxsize=4096)
def _name_runs(text: str, bold: bool) -> tuple[tuple[str, str], ...]:
    """``text`` as runs of ``(font file, characters)``, each run drawn by its font, in order."""
    text_chain = _name_chain(bold)
    emoji_chain = (_EMOJI, *(f for f in text_chain if f != _EMOJI))
    pieces: list[tuple[str, str]] = []
    for cluster in _clusters(text):
        cps = [ord(c) for c in cluster]
        chain = emoji_chain if _emoji_presented(cps) else text_chain
        needed = [cp for cp in cps if not _ignorable(cp)]
        file = next((f for f in chain if all(_has(f, cp) for cp in needed)), None)
        if file is not None:             # one font has the whole cluster; it leaves out invisibles it lacks
            kept = "".join(c for c, cp in zip(cluster, cps, strict=True) if _has(file, cp) or not _ignorable(cp))
            pieces.append((file, kept))
            continue
        for c, cp in zip(cluster, cps, strict=True):    # else character by character; DejaVu's box at worst
            owner = next((f for f in chain if _has(f, cp)), None)
            if owner is not None or not _ignorable(cp):
                pieces.append((owner or chain[0], c))
    runs: list[tuple[str, str]] = []
    for file, chars in pieces:
        if not chars:
            continue
        if runs and runs[-1][0] == file:
            runs[-1] = (file, runs[-1][1] + chars)
        else:
            runs.append((file, chars))
    return tuple(runs)


@lru_cache(maxsize=64)
def _name_font(file: str, size: int) -> ImageFont.FreeTypeFont:
    """A font of the chain at ``size`` pixels; the board font is ``font()`` itself."""
    if file in _DEJAVU:
        return font(size, file == _DEJAVU[True])
    return ImageFont.truetype(str(FONT_DIR / file), size)


_Placed = tuple[str, ImageFont.FreeTypeFont, str, float, bool]   # font file, font, characters, x offset, RTL


@lru_cache(maxsize=1)
def _raqm() -> bool:
    """Whether Pillow lays text out with libraqm (bidi, Arabic shaping); it needs the system's FriBiDi."""
    from PIL import features
    return bool(features.check("raqm"))


def _advance(f: ImageFont.FreeTypeFont, chars: str, rtl: bool) -> float:
    if rtl and _raqm():
        return float(f.getlength(chars, direction="rtl"))
    return float(f.getlength(chars))


@lru_cache(maxsize=4096)
def _name_layout(text: str, size: int, bold: bool) -> tuple[tuple[_Placed, ...], float]:
    """The runs of ``text`` placed from x = 0 in visual order (see ``bidi_runs``), and the total advance
    width. A right-to-left run's font runs are placed from right to left."""
    placed = []
    x = 0.0
    for chars_of_run, rtl in bidi_runs(text):
        font_runs = _name_runs(chars_of_run, bold)
        for file, chars in reversed(font_runs) if rtl else font_runs:
            f = _name_font(file, size)
            placed.append((file, f, chars, x, rtl))
            x += _advance(f, chars, rtl)
    return tuple(placed), x


def name_length(text: str, size: int, *, bold: bool = False) -> float:
    """The width in pixels of a person's name drawn by ``draw_name``."""
    return _name_layout(text, size, bold)[1]


def fit_name(text: str, size: int, max_width: float, *, bold: bool = False) -> str:
    """A name shortened with an ellipsis to at most ``max_width`` pixels as ``draw_name`` draws it: cut
    between clusters (never inside an emoji sequence or a letter with its marks); ``""`` if not even the
    ellipsis fits."""
    if name_length(text, size, bold=bold) <= max_width:
        return text
    if len(text) > 1 and text[0] == FSI and text[-1] == PDI:     # an isolated name stays closed when cut
        inner = _fit_name(text[1:-1], size, max_width, bold)
        return isolate(inner) if inner else ""
    return _fit_name(text, size, max_width, bold)


@lru_cache(maxsize=4096)
def _fit_name(text: str, size: int, max_width: float, bold: bool) -> str:
    clusters = _clusters(text)

    def shortened(k: int) -> str:
        return "".join(clusters[:k]).rstrip() + "…"

    lo, hi = 0, len(clusters) - 1        # the longest prefix that fits, by bisection (widths grow with k)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if name_length(shortened(mid), size, bold=bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    while lo > 0 and name_length(shortened(lo), size, bold=bold) > max_width:
        lo -= 1                          # (a negative kern could break the order; stay safe)
    short = shortened(lo)
    return short if name_length(short, size, bold=bold) <= max_width else ""


def draw_name(draw: ImageDraw.ImageDraw, xy: Point, text: str, size: int, *, bold: bool = False,
              fill: RGB = INK, anchor: str = "la") -> None:
    """Draw a person's name (or any text holding one) with ``anchor`` on ``xy`` as ``draw.text`` would.

    A name DejaVu Sans draws whole is drawn exactly as ``draw.text`` with ``font(size, bold)`` draws it.
    Otherwise the runs are laid side by side: the horizontal anchor uses the total advance width, the
    vertical one DejaVu's metrics ('a', 'm', 's', 'd') or the ink of all runs ('t', 'b').
    """
    runs, width = _name_layout(text, size, bold)
    if len(runs) == 1 and runs[0][0] == _DEJAVU[bold] and not runs[0][4]:
        draw.text(xy, runs[0][2], font=font(size, bold), fill=fill, anchor=anchor)
    elif runs:
        _draw_runs(draw, xy, runs, width, font(size, bold), fill, anchor or "la")


def _draw_runs(draw: ImageDraw.ImageDraw, xy: Point, runs: tuple[_Placed, ...], width: float,
               board: ImageFont.FreeTypeFont, fill: RGB, anchor: str) -> None:
    """Runs side by side on one baseline, placed as Pillow places one text: the anchor's offset in whole
    pixels, from the advance width across, and down from the board font's metrics or the runs' ink."""
    across, down = anchor[0], anchor[1]
    advance = round(width * 64)                     # Pillow's pen position, in 1/64 pixel

    def pixel(v: int) -> int:                       # FreeType's rounding of 26.6 values to whole pixels
        return (v + 32) >> 6

    x_anchor = {"m": pixel(advance // 2), "r": pixel(advance)}.get(across, 0)
    if down in "tb":
        boxes = [f.getbbox(chars, anchor="ls", direction="rtl" if rtl and _raqm() else None)
                 for _, f, chars, _, rtl in runs]
        y_anchor = -min(0, *(b[1] for b in boxes)) if down == "t" else -max(0, *(b[3] for b in boxes))
    else:
        y_anchor = _baseline_drop(board, down)
    left, baseline = xy[0] - x_anchor, xy[1] + y_anchor
    for _, f, chars, dx, rtl in runs:
        if not rtl:
            draw.text((left + dx, baseline), chars, font=f, fill=fill, anchor="ls", direction="ltr"
                      if _raqm() else None)
        elif _raqm():
            draw.text((left + dx, baseline), chars, font=f, fill=fill, anchor="ls", direction="rtl")
        else:                                       # no raqm: reversed by hand, unshaped
            draw.text((left + dx, baseline), chars[::-1].translate(_MIRRORED), font=f, fill=fill, anchor="ls")


@lru_cache(maxsize=256)
def _baseline_drop(board: ImageFont.FreeTypeFont, down: str) -> int:
    """How far below an anchor point of vertical kind ``down`` ('a', 'm', 's', 'd') Pillow puts the baseline."""
    return int(board.getbbox("x", anchor="l" + down)[1] - board.getbbox("x", anchor="ls")[1])


# --- Right-to-left names: a sentence stays left to right ----------------------------------------------------
# Pillow (with libraqm) would give a whole text the direction of its first strong letter, so a sentence that
# starts with an Arabic name turned right to left and its words swapped sides. ``draw_name`` instead resolves
# the directions itself: the line is a left-to-right paragraph, a name between FIRST STRONG ISOLATE (U+2068)
# and POP DIRECTIONAL ISOLATE (U+2069) is laid out on its own (``isolate``; ``player_names`` wraps every name
# that way), and each run of one direction is drawn by its fonts with that direction, so raqm shapes and
# joins Arabic and keeps a right-to-left name in its own order. This is the Unicode bidirectional algorithm
# for what names hold (strong letters, numbers, neutrals, marks, isolates), without explicit embeddings or
# overrides, which are treated as neutrals.

FSI, PDI = "\u2068", "\u2069"
_OPENERS = ("\u2066", "\u2067", "\u2068")      # LRI, RLI, FSI
_MIRRORED = str.maketrans("()[]{}<>«»", ")(][}{><»«")


def bare(name: str) -> str:
    """``name`` without the isolate marks ``isolate`` put round it (to compare it with a seat's name)."""
    return name.removeprefix(FSI).removesuffix(PDI)


def isolate(name: str) -> str:
    """``name`` as an isolate: it cannot change the direction of the sentence it is put in, nor move it."""
    return f"{FSI}{name}{PDI}"


def _strong(ch: str) -> str:
    """'L', 'R' or '' (not strong) for one character."""
    kind = unicodedata.bidirectional(ch)
    return "L" if kind == "L" else "R" if kind in ("R", "AL") else ""


def has_rtl(text: str) -> bool:
    """Whether ``text`` holds a right-to-left letter or an Arabic number (then ``draw_name`` reorders it)."""
    return any(unicodedata.bidirectional(c) in ("R", "AL", "AN") for c in text)


def _first_strong(text: str, start: int) -> str:
    depth = 0
    for ch in text[start:]:
        if ch in _OPENERS:
            depth += 1
        elif ch == PDI:
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (kind := _strong(ch)):
            return kind
    return "L"


def _resolve(text: str, start: int, level: int, levels: list[int]) -> int:
    """Give ``levels`` for ``text`` from ``start`` at embedding ``level`` up to the PDI closing it (or the end);
    return the index after it. Isolates inside are resolved recursively; their marks count as neutrals here."""
    own = "R" if level % 2 else "L"
    seq: list[int] = []              # the indices of this level's sequence
    kinds: list[str] = []            # their resolved kinds: 'L', 'R', 'EN', 'AN' or 'N'
    last_strong, arabic = own, False
    i = start
    while i < len(text):
        ch = text[i]
        if ch == PDI and start > 0:
            break
        seq.append(i)
        if ch in _OPENERS:
            kinds.append("N")
            inner = level + 1 + (level % 2 if _first_strong(text, i + 1) == "R" else 1 - level % 2)
            levels[i] = level
            i = _resolve(text, i + 1, inner, levels)
            if i < len(text):        # the PDI belongs to this level
                seq.append(i)
                kinds.append("N")
            i += 1
            continue
        kind = unicodedata.bidirectional(ch)
        if kind == "NSM":
            kind = kinds[-1] if kinds and kinds[-1] != "N" else "N" if kinds else own
        elif kind in ("L", "R", "AL"):
            arabic = kind == "AL"
            kind = last_strong = "L" if kind == "L" else "R"
        elif kind == "EN":
            kind = "AN" if arabic else "L" if last_strong == "L" else "EN"
        elif kind != "AN":
            kind = "N"
        kinds.append(kind)
        i += 1
    # neutrals between two of one direction take it (numbers count as R), others the level's own
    strong = ["R" if k in ("EN", "AN") else k for k in kinds]
    j = 0
    while j < len(kinds):
        if kinds[j] != "N":
            j += 1
            continue
        end = j
        while end < len(kinds) and kinds[end] == "N":
            end += 1
        before = strong[j - 1] if j else own
        after = strong[end] if end < len(kinds) else own
        for k in range(j, end):
            kinds[k] = before if before == after else own
        j = end
    for index, kind in zip(seq, kinds, strict=True):
        if level % 2 == 0:
            levels[index] = level + {"L": 0, "R": 1}.get(kind, 2)
        else:
            levels[index] = level + (0 if kind == "R" else 1)
    return i


def _unopened(text: str) -> int:
    """How many PDIs of ``text`` close an isolate opened before it (on the line before)."""
    depth = missing = 0
    for ch in text:
        if ch in _OPENERS:
            depth += 1
        elif ch == PDI:
            if depth:
                depth -= 1
            else:
                missing += 1
    return missing


@lru_cache(maxsize=4096)
def bidi_runs(text: str) -> tuple[tuple[str, bool], ...]:
    """``text`` as runs of one direction in visual order, left to right: ``(characters in logical order,
    right to left?)``. The paragraph is left to right; isolates (U+2066-2069) are resolved on their own."""
    if not has_rtl(text):
        return ((text, False),) if text else ()
    text = FSI * _unopened(text) + text        # the end of a name a line break cut off is still isolated
    levels = [0] * len(text)
    _resolve(text, 0, 0, levels)
    order = list(range(len(text)))
    for high in range(max(levels), 0, -1):          # rule L2: reverse every stretch at this level or above
        k = 0
        while k < len(order):
            if levels[order[k]] < high:
                k += 1
                continue
            end = k
            while end < len(order) and levels[order[end]] >= high:
                end += 1
            order[k:end] = reversed(order[k:end])
            k = end
    runs: list[list[int]] = []
    for index in order:
        rtl = levels[index] % 2 == 1
        if runs and levels[runs[-1][-1]] == levels[index] and runs[-1][-1] + (-1 if rtl else 1) == index:
            runs[-1].append(index)
        else:
            runs.append([index])
    return tuple(("".join(text[k] for k in sorted(run)), levels[run[0]] % 2 == 1) for run in runs)


# --- Where names enter the renderers -------------------------------------------------------------------------
# ``player_names`` is the one door: ``board_png`` and ``replay_gif`` pass every display name through it before
# a renderer sees it. A character no shipped font has is replaced by its compatibility form (NFKC: 𝓐 → A,
# Ⓐ → A), and the enclosed letters NFKC keeps (🅐 negative circled, 🅰 negative squared) by their capital, so
# a styled name reads instead of drawing boxes; a name with nothing visible left becomes the seat's name; and
# every name is an isolate, so it cannot reorder the sentence around it.

_LETTER_BLOCKS = (0x1F150, 0x1F170)          # NEGATIVE CIRCLED / NEGATIVE SQUARED CAPITAL LETTER A .. Z
_BLANKS = frozenset("\u2800\u3000\u115f\u1160\u3164\uffa0")   # drawn as nothing though not format characters


def _drawable(cp: int) -> bool:
    return any(_has(f, cp) for f in _coverage_table())


def _enclosed_letter(cp: int) -> str | None:
    for first in _LETTER_BLOCKS:
        if first <= cp < first + 26:
            return chr(ord("A") + cp - first)
    return None


def plain_name(name: str) -> str:
    """``name`` with every character no shipped font draws replaced by one that reads the same, if any:
    its NFKC form, or the capital of an enclosed letter (unless VS-16 asks for the emoji, as in 🅰️)."""
    out = []
    for i, ch in enumerate(name):
        cp = ord(ch)
        emoji = name[i + 1:i + 2] == "\ufe0f"
        letter = None if emoji else _enclosed_letter(cp)
        if letter is not None:
            out.append(letter)
        elif _drawable(cp) or _ignorable(cp):
            out.append(ch)
        else:
            compat = unicodedata.normalize("NFKC", ch)
            out.append(compat if compat != ch and all(_drawable(ord(c)) for c in compat) else ch)
    return "".join(out)


def visible(text: str) -> bool:
    """Whether ``text`` draws anything: a character that is not a space, a control, a format character,
    default-ignorable or a blank filler."""
    return any(not _ignorable(ord(c)) and c not in _BLANKS and unicodedata.category(c)[0] not in "ZC"
               for c in text)


def player_names(names: Sequence[str] | None, seats: Sequence[str]) -> list[str] | None:
    """The names a renderer draws, by seat: each made drawable (``plain_name``), ``seats[i]`` (already
    translated) where nothing visible is left, and isolated (``isolate``). None stays None."""
    if names is None:
        return None
    out = []
    for i, name in enumerate(names):
        shown = plain_name(str(name)).strip()
        if not visible(shown):
            shown = seats[i] if i < len(seats) else ""
        out.append(isolate(shown))
    return out
