"""The whole game as an animation: one frame per turn with that turn highlighted, a pause on the end.

Frames are the game's own boards (its cached layers and sprites), scaled once to their final width, given a
counter strip ("Turn 12 of 60") at the bottom, mapped onto the game's fixed palette so every frame shares one
colour table, and encoded as an animated GIF, which Discord plays inline.

Every replay fits a byte budget (a server's attachment limit), whatever the game's length:

- a frame stores only what changed since the one before (unchanged pixels are transparent, so a frame of
  one moved piece costs a few hundred bytes, not the whole board);
- a game of more than ``MAX_FRAMES`` turns shows every k-th turn (always the start and the end) and says so
  on each frame; a replay still over the budget shows every 2k-th turn, and so on, then a narrower frame;
- a long game plays faster (``PLAY_MS`` in all), never faster than ``MIN_FRAME_MS`` a frame.

Every choice follows from the input, so the same game gives the same bytes.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageChops, ImageDraw

from engines import GAMES, State
from render import shown_names
from render.common import BACKGROUND, INK, MUTED, fit_text, font
from render.games import RENDERERS, Renderer
from render.texts import speaking, tr

FRAME_MS = 900          # each turn
FIRST_MS = 1200         # the starting position
LAST_MS = 4000          # the final position: a short pause before it loops
MIN_FRAME_MS = 300      # a long game plays faster, but never faster than this a turn
PLAY_MS = 80_000        # a long game's turns play in about this long (before its pause on the end)
FRAME_WIDTH = 640
MIN_WIDTH = 160         # the narrowest frame a small budget may make (then the budget is refused)
MAX_FRAMES = 100        # turns shown at most: a longer game shows every k-th turn (and says so on each frame)
DEFAULT_BUDGET = 10 * 1024 * 1024   # bytes: the attachment limit of a Discord server without boosts
STRIP = 28              # height of the counter strip at FRAME_WIDTH (scaled with the frame)
STRIP_TEXT = 16         # its text size at FRAME_WIDTH

START = "Start"
TURN_OF = "Turn {turn} of {turns}"
SAMPLED = "one frame every {step} turns"
TEXTS = (START, TURN_OF, SAMPLED)

Frame = tuple[State, State | None, Sequence[str]]   # (position after the turn, before it, the turn's moves)


def replay_gif(game: str, frames: Sequence[Frame], names: Sequence[str] | None = None,
               language: str = "en", *, budget: int = DEFAULT_BUDGET) -> bytes:
    """An animated GIF of ``frames`` (the first is the starting position, with no moves), its words in
    ``language``, at most ``budget`` bytes. ValueError without frames, or if not even the start and the end
    fit the budget at ``MIN_WIDTH``."""
    if not frames:
        raise ValueError("a replay needs at least the starting position")
    with speaking(language):      # the names drawn as on boards (render.shown_names), cleaned once
        names = shown_names(frames[0][0], names)
    turns = len(frames) - 1
    step, width = first_step(turns), FRAME_WIDTH
    drawn: dict[int, Image.Image] = {}
    while True:
        shown = sampled(turns, step)
        gif = encode(compose(game, frames, names, language, shown, step, width, drawn), durations(len(shown)))
        if len(gif) <= budget:
            return gif
        if len(shown) > 2:      # fewer frames: at least halve them, more when far over the budget
            step *= 2 ** max(1, int(math.log2(len(gif) / budget)))
        elif width // 2 >= MIN_WIDTH:
            width, step = width // 2, first_step(turns)
            drawn.clear()
        else:
            raise ValueError(f"a replay of {turns} turns does not fit in {budget:,} bytes")


def first_step(turns: int) -> int:
    """Show every turn up to ``MAX_FRAMES`` turns, else every k-th."""
    return max(1, math.ceil(turns / MAX_FRAMES))


def sampled(turns: int, step: int) -> list[int]:
    """The turns shown: every ``step``-th from the start, and always the last."""
    return [*range(0, turns, step), turns]


def durations(count: int) -> list[int]:
    """Milliseconds per frame: a pause on the start and the end; a long game's turns faster."""
    if count == 1:
        return [LAST_MS]
    middle = count - 2
    each = FRAME_MS if middle == 0 else max(MIN_FRAME_MS, min(FRAME_MS, PLAY_MS // middle // 10 * 10))
    return [FIRST_MS] + [each] * middle + [LAST_MS]


def compose(game: str, frames: Sequence[Frame], names: Sequence[str] | None, language: str, shown: list[int],
            step: int, width: int, drawn: dict[int, Image.Image]) -> list[Image.Image]:
    """The frames of ``shown`` as palette images of one size: each board (drawn once at ``width`` and mapped
    onto the game's palette, kept in ``drawn``) at the top, the counter strip at the bottom. Only palette
    images are kept, a third of the memory of the drawn boards."""
    renderer = RENDERERS[GAMES[game].key]
    turns = len(frames) - 1
    with speaking(language):
        palette = renderer.palette(frames[0][0])      # the one colour table of every frame
        for i in shown:
            if i not in drawn:
                drawn[i] = _mapped(_board(renderer, frames[i], names, width), palette)
        boards = [drawn[i] for i in shown]
        height = max(b.height for b in boards)        # a board that grows (an end card) keeps all its lines
        strip = round(STRIP * width / FRAME_WIDTH)
        blank = _mapped(Image.new("RGB", (width, height + strip), BACKGROUND), palette)
        frames_out = []
        for i, board in zip(shown, boards, strict=True):
            frame = blank.copy()
            frame.paste(board, (0, 0))
            frame.paste(_mapped(_counter(width, strip, i, turns, step), palette), (0, height))
            frames_out.append(frame)
    return frames_out


def _mapped(image: Image.Image, palette: Image.Image) -> Image.Image:
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _board(renderer: Renderer, frame: Frame, names: Sequence[str] | None, width: int) -> Image.Image:
    state, previous, moves = frame
    image = renderer.draw(state, list(moves), list(names) if names else None, previous).convert("RGB")
    if image.width > width:         # scaled once, straight to the final width
        image = image.resize((width, round(image.height * width / image.width)), Image.Resampling.BOX)
    return image


def _counter(width: int, height: int, turn: int, turns: int, step: int) -> Image.Image:
    """The strip under a board: 'Turn 12 of 60' on the left, how a long game is sampled on the right."""
    strip = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(strip)
    size = max(9, round(STRIP_TEXT * width / FRAME_WIDTH))
    middle, margin = height / 2, size // 2
    left = tr(START) if turn == 0 else tr(TURN_OF).format(turn=turn, turns=turns)
    draw.text((margin, middle), left, font=font(size, True), fill=INK, anchor="lm")
    if step > 1:
        room = width - 3 * margin - font(size, True).getlength(left)
        note = fit_text(tr(SAMPLED).format(step=step), size, room)
        draw.text((width - margin, middle), note, font=font(size), fill=MUTED, anchor="rm")
    return strip


def encode(images: list[Image.Image], durations_ms: list[int]) -> bytes:
    """An animated GIF of palette images that share one palette, each frame after the first storing only the
    pixels that changed (the others transparent: a colour index no frame uses)."""
    images, clear = _free_index(images)
    stored = [images[0]]
    for before, image in zip(images, images[1:], strict=False):
        changed = ImageChops.subtract_modulo(image, before)      # palette indices: zero where unchanged
        unchanged = changed.point([255, *(0,) * 255], "1")
        delta = image.copy()
        delta.paste(clear, mask=unchanged)
        stored.append(delta)
    buf = io.BytesIO()
    stored[0].save(buf, format="GIF", save_all=True, append_images=stored[1:], duration=durations_ms, loop=0,
                   optimize=False, disposal=1, transparency=clear)
    return buf.getvalue()


def _free_index(images: list[Image.Image]) -> tuple[list[Image.Image], int]:
    """A palette index no frame uses (the last such); when every one is used, the closer of the two nearest
    colours is merged into the other, freeing its index."""
    flat = images[0].getpalette() or []
    colours = [tuple(flat[i:i + 3]) for i in range(0, len(flat) - 2, 3)]     # within the palette's own length
    counts = [sum(c) for c in zip(*(i.histogram() for i in images), strict=True)]
    unused = [i for i in range(len(colours)) if counts[i] == 0]
    if unused:
        return images, unused[-1]
    _d, keep, merged = min((sum((a - b) ** 2 for a, b in zip(colours[i], colours[j], strict=True)), i, j)
                           for i in range(len(colours)) for j in range(i + 1, len(colours)))
    table = list(range(256))
    table[merged] = keep
    return [image.point(table) for image in images], merged
