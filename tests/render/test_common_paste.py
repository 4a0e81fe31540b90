"""The fast pastes of render.common paint exactly the pixels Pillow's own ``paste`` paints."""

from __future__ import annotations

import random

from PIL import Image

from render.common import paste, put


def _noise(mode: str, size: tuple[int, int], rng: random.Random) -> Image.Image:
    bands = len(mode)
    return Image.frombytes(mode, size, bytes(rng.randrange(256) for _ in range(size[0] * size[1] * bands)))


def test_put_paints_what_paste_paints():
    rng = random.Random(3)
    for _ in range(20):
        base = _noise("RGB", (60, 50), rng)
        tile = _noise("RGB", (rng.randrange(1, 30), rng.randrange(1, 30)), rng)
        xy = (rng.randrange(0, 60 - tile.width + 1), rng.randrange(0, 50 - tile.height + 1))
        ours, pillows = base.copy(), base.copy()
        put(ours, tile, xy)
        pillows.paste(tile, xy)
        assert ours.tobytes() == pillows.tobytes()
        assert ours.tobytes() != base.tobytes() or tile.tobytes() == base.crop((*xy, xy[0] + tile.width,
                                                                                xy[1] + tile.height)).tobytes()


def test_a_sprite_pasted_on_a_board_blends_as_pillow_blends_it():
    rng = random.Random(4)
    for _ in range(20):
        base = _noise("RGB", (60, 50), rng)
        sprite = _noise("RGBA", (rng.randrange(2, 30), rng.randrange(2, 30)), rng)
        centre = (rng.uniform(15, 45), rng.uniform(15, 35))
        ours, pillows = base.copy(), base.copy()
        paste(ours, sprite, centre)
        x, y = round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)
        pillows.paste(sprite, (x, y), sprite)
        assert ours.tobytes() == pillows.tobytes()
        assert ours.tobytes() != base.tobytes()
