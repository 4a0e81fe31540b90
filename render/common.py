"""Shared drawing pieces: fonts, the palette, and deterministic PNG encoding."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageFont

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
    """Encode without metadata; quantise to a palette when that keeps the file small (<= 150 KB)."""
    buf = io.BytesIO()
    image = image.convert("RGB")
    image.save(buf, format="PNG", optimize=True)
    data = buf.getvalue()
    if len(data) > MAX_PNG_BYTES:
        buf = io.BytesIO()
        image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
            buf, format="PNG", optimize=True)
        data = buf.getvalue()
    return data
