"""The whole game as an animation: one frame per turn with that turn highlighted, a pause on the end.

Frames are the game's own boards (its cached layers and sprites), mapped onto the game's fixed palette so
every frame shares one colour table, and encoded as an animated GIF, which Discord plays inline. Frames are
scaled to ``FRAME_WIDTH``: a replay is watched at a glance, and a 60-turn game stays a few megabytes.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Sequence

from PIL import Image

from engines import GAMES, State
from render.common import BACKGROUND, build_palette
from render.texts import speaking

FRAME_MS = 900          # each turn
FIRST_MS = 1200         # the starting position
LAST_MS = 4000          # the final position: a short pause before it loops
FRAME_WIDTH = 640
MAX_FRAMES = 400        # longer games keep their first and last turns (and say so by the frame count)

Frame = tuple[State, State | None, Sequence[str]]   # (position after the turn, before it, the turn's moves)


def replay_gif(game: str, frames: Sequence[Frame], names: Sequence[str] | None = None,
               language: str = "en") -> bytes:
    """An animated GIF of ``frames`` (the first is the starting position, with no moves), its words in
    ``language``."""
    if not frames:
        raise ValueError("a replay needs at least the starting position")
    if len(frames) > MAX_FRAMES:
        frames = [*frames[: MAX_FRAMES // 2], *frames[-MAX_FRAMES // 2:]]
    module = importlib.import_module(f"render.{GAMES[game].key}")
    drawn = []
    for state, previous, moves in frames:
        with speaking(language):
            image = module.draw(state, list(moves), list(names) if names else None, previous).convert("RGB")
        if image.width > FRAME_WIDTH:
            image = image.resize((FRAME_WIDTH, round(image.height * FRAME_WIDTH / image.width)),
                                 Image.Resampling.BOX)
        drawn.append(image)
    # A GIF has one size: a board that grows (an end-of-game card) must not lose its last lines.
    size = (max(i.width for i in drawn), max(i.height for i in drawn))
    own = getattr(module, "palette", None)
    palette = own(frames[0][0]) if own is not None else build_palette(drawn[0])   # one colour table for all
    images = []
    for image in drawn:
        if image.size != size:
            canvas = Image.new("RGB", size, BACKGROUND)
            canvas.paste(image, (0, 0))
            image = canvas
        images.append(image.quantize(palette=palette, dither=Image.Dither.NONE))
    durations = [FIRST_MS] + [FRAME_MS] * (len(images) - 2) + [LAST_MS] if len(images) > 1 else [LAST_MS]
    buf = io.BytesIO()
    images[0].save(buf, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return buf.getvalue()
