"""Shared drawing pieces: fonts, the palette, and deterministic PNG encoding."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

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
    else:
        base.paste(image, (x, y), image)


def build_palette(*samples: Image.Image, colours: int = 256) -> Image.Image:
    """A fixed palette (a 'P' image) covering the colours of ``samples``: a median cut, done once per game."""
    width = max(s.width for s in samples)
    sheet = Image.new("RGB", (width, sum(s.height for s in samples)), BACKGROUND)
    y = 0
    for s in samples:
        sheet.paste(s.convert("RGB"), (0, y))
        y += s.height
    return sheet.quantize(colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def palette_png(image: Image.Image, palette: Image.Image) -> bytes:
    """Encode ``image`` mapped onto the fixed ``palette`` (no dithering) as a PNG without metadata."""
    mapped = image.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
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


def winner_badge(draw: ImageDraw.ImageDraw, xy: Point, *, size: int = 18, label: str = "WINNER") -> None:
    """The winner marker every game uses, its left edge at ``xy`` (vertically centred there): a gold star
    and a bold label, readable in grey-scale (shape and word, not only colour)."""
    x, y = xy
    star(draw, (x + size * 0.6, y), size * 0.6, fill=WINNER, outline=INK, width=1)
    draw.text((x + size * 1.4, y), label, font=font(round(size * 0.8), True), fill=INK, anchor="lm")


# --- People's names: any script, any emoji ------------------------------------------------------------------
# Names come from Discord and may hold emoji, CJK or other scripts the board font lacks. Every renderer draws
# names through these three functions, so one place decides which font draws which character.

def name_length(text: str, size: int, *, bold: bool = False) -> float:
    """The width in pixels of a person's name drawn by ``draw_name``."""
    return font(size, bold).getlength(text)


def fit_name(text: str, size: int, max_width: float, *, bold: bool = False) -> str:
    """A name shortened with an ellipsis to ``max_width`` pixels as ``draw_name`` draws it."""
    if name_length(text, size, bold=bold) <= max_width:
        return text
    while text and name_length(text + "…", size, bold=bold) > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def draw_name(draw: ImageDraw.ImageDraw, xy: Point, text: str, size: int, *, bold: bool = False,
              fill: RGB = INK, anchor: str = "la") -> None:
    """Draw a person's name (or any text holding one)."""
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)
