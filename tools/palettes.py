"""Write each game's fixed board palette to render/palettes/<game>.pal (its RGB entries, raw bytes).

    python tools/palettes.py [--check]

Run it after changing a renderer's colours or sample boards: the bot reads these files instead of building
the palette from sample boards in every render process (``render.common.stored_palette``). ``--check``
exits 1 if a stored palette differs from the one the samples give now.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engines import GAMES  # noqa: E402
from render.common import PALETTE_DIR  # noqa: E402


def sampled(game: str) -> bytes:
    """The palette of ``game`` as its renderer builds it from sample boards, as raw RGB bytes."""
    module = importlib.import_module(f"render.{game}")
    return bytes(module.sampled_palette().getpalette() or [])


def main() -> int:
    check = "--check" in sys.argv[1:]
    stale = []
    for game in GAMES:
        data, path = sampled(game), PALETTE_DIR / f"{game}.pal"
        if path.exists() and path.read_bytes() == data:
            continue
        stale.append(game)
        if not check:
            PALETTE_DIR.mkdir(exist_ok=True)
            path.write_bytes(data)
    if stale:
        print(("stale: " if check else "written: ") + ", ".join(stale))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
