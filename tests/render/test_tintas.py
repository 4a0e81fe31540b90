"""The Tintas board image: a valid, small, deterministic PNG whose pixels show the position."""

from __future__ import annotations

import io
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from engines import GAMES
from engines.base import outcome_text
from render import board_png, tintas
from render.common import INK, MAX_PNG_BYTES, WINNER, font, luminance, name_length
from render.tintas import (
    ARROW_SHIFT,
    ARROW_SHIFT_VERTICAL,
    EMPTY_FILL,
    FILL,
    LABEL_DY,
    LABEL_INK,
    MARGIN,
    PIECE_RADIUS,
    WIDTH,
    cell_centre,
    draw,
    end_sentence,
    header_lines,
    panel_box,
    parse,
    piece_centre,
)

GAME = GAMES["tintas"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def play_turns(seed: int):
    """A deterministic random game, turn by turn: yields (state before, moves of the turn, state after)."""
    rng = random.Random(seed)
    state = GAME.new(seed=seed)
    while not state.is_over:
        before, turn = state, []
        while True:
            moves = state.legal_moves()
            move = rng.choice(moves)
            if turn and "end" in moves and len(moves) > 1 and rng.random() < 0.7:
                move = rng.choice([m for m in moves if m != "end"])   # prefer chaining, for longer paths
            turn.append(move)
            state = state.play(move)
            if state.is_over or state.to_move != before.to_move or move == "end":
                break
        yield before, turn, state


def mid_game():
    """A position after a turn that collected 2 or more pieces, with the state before it."""
    for seed in range(1, 50):
        for i, (before, turn, after) in enumerate(play_turns(seed)):
            cells = [m for m in turn if m != "end"]
            if i >= 6 and len(cells) >= 2 and not after.is_over:
                return before, turn, after
    raise AssertionError("no mid-game turn with a chain found")


def finished():
    *_, (before, turn, after) = play_turns(11)
    return before, turn, after


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def picture(state, last_turn=None, names=None, previous=None) -> Image.Image:
    """The image before PNG encoding: the pixel checks skip the encoder."""
    return draw(state, list(last_turn or ()), names, previous)


def near(a, b, tol=18) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def sample_points(label: str):
    """Two points inside a piece's disc but off its centred letter (left of it and below it)."""
    x, y = piece_centre(label)
    return [(round(x - 0.68 * PIECE_RADIUS), round(y)), (round(x), round(y + 0.78 * PIECE_RADIUS))]


@pytest.fixture(scope="module")
def positions():
    opening = GAME.new(seed=3)
    before, turn, after = mid_game()
    fb, ft, fa = finished()
    return {"opening": (None, [], opening), "mid": (before, turn, after), "finished": (fb, ft, fa)}


@pytest.mark.parametrize("which", ["opening", "mid", "finished"])
def test_valid_png_within_limits(positions, which):
    before, turn, state = positions[which]
    png = board_png(state, last_turn=turn, previous=before, names=["Ann", "Bob"])
    assert png.startswith(PNG_SIGNATURE)
    assert len(png) <= MAX_PNG_BYTES
    image = decode(png)
    assert 800 <= image.width <= 1000
    assert image.height > image.width // 2


def test_identical_bytes_for_identical_input(positions):
    before, turn, state = positions["mid"]
    a = board_png(state, last_turn=turn, previous=before, names=["Ann", "Bob"])
    again = GAME.decode(state.encode())
    b = board_png(again, last_turn=list(turn), previous=GAME.decode(before.encode()), names=("Ann", "Bob"))
    assert a == b


@pytest.mark.parametrize("which", ["opening", "mid"])
def test_piece_colours_at_cell_centres(positions, which):
    _, _, state = positions[which]
    # the opening's PNG is mapped onto the game's fixed palette: colours must survive it exactly
    image = decode(board_png(state)) if which == "opening" else picture(state)
    cells, pawn, *_ = parse(state.encode())
    for label, letter in cells.items():
        if letter == "." or label == pawn:
            continue
        for point in sample_points(label):
            pixel = image.getpixel(point)
            nearest = min(FILL, key=lambda c: sum((p - q) ** 2 for p, q in zip(pixel, FILL[c], strict=True)))
            assert nearest == letter, (label, letter, pixel)
            assert near(pixel, FILL[letter]), (label, letter, pixel)


def test_empty_cells_and_pawn(positions):
    _, _, state = positions["mid"]
    image = picture(state)
    cells, pawn, *_ = parse(state.encode())
    empty = [label for label, letter in cells.items() if letter == "." and label != pawn]
    assert empty
    for label in empty:
        for point in sample_points(label):
            assert near(image.getpixel(point), EMPTY_FILL), label
    assert pawn is not None
    x, y = piece_centre(pawn)
    pixel = image.getpixel((round(x), round(y)))
    assert not near(pixel, EMPTY_FILL, 60) and sum(pixel) < 200, pixel   # the dark pawn


def test_last_turn_marks_emptied_cells(positions):
    before, turn, state = positions["mid"]
    plain = picture(state)
    marked = picture(state, last_turn=turn, previous=before)
    cells, pawn, *_ = parse(state.encode())
    collected = [m for m in turn if m != "end"]
    assert len(collected) >= 2
    for label in collected:
        assert cells[label] == "."
        if label == pawn:
            continue
        point = sample_points(label)[0]
        assert plain.getpixel(point) != marked.getpixel(point), label
    # without the previous state the cells are still marked (a plain dashed ring)
    unknown = picture(state, last_turn=turn)
    assert unknown.tobytes() != plain.tobytes()


def test_names_and_turn_change_the_image(positions):
    _, _, state = positions["mid"]
    default = picture(state).tobytes()
    named = picture(state, names=["Ann", "Bob"]).tobytes()
    assert default != named
    assert picture(state, names=["Ann", "Bob"]).tobytes() == named
    long_name = picture(state, names=["Ann", "Zoë with a very long display name indeed, much too long"])
    assert long_name.tobytes() != named


def test_chain_and_finished_render(positions):
    _, _, state = positions["finished"]
    assert state.is_over
    assert picture(state, names=["Ann", "Bob"]).size[0] <= 1000
    # a position inside a chain: the header says who continues with which colour
    for before, turn, _after in play_turns(5):
        s = before
        for move in turn[:-1]:
            s = s.play(move)
            if s.encode().split()[5] != "-" and not s.is_over:
                assert picture(s).tobytes() != picture(before).tobytes()
                return
    pytest.skip("no chain position in this game")


# --- The fast renderer: size, determinism, end of game, names, and the defects players reported ------------

def random_positions(count: int, seed: int = 7):
    """Seeded random positions (every stage of the game, finished ones included), each with the turn that
    led to it and the position before that turn, like the bot passes them."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        turns = list(play_turns(rng.randrange(1 << 20)))
        before, turn, after = turns[rng.randrange(len(turns))] if rng.random() < 0.8 else turns[-1]
        out.append((before, turn, after))
    return out


def test_random_positions_fit_the_limits_and_are_deterministic():
    for before, turn, state in random_positions(10):
        names = ["Ann", "Bob"]
        png = board_png(state, last_turn=turn, previous=before, names=names)
        assert len(png) <= MAX_PNG_BYTES
        image = decode(png)
        assert 880 <= image.width <= 1000, image.size
        assert image.height <= (1.32 if state.is_over else 1.2) * image.width, image.size
        again = board_png(GAME.decode(state.encode()), last_turn=list(turn),
                          previous=GAME.decode(before.encode()), names=list(names))
        assert again == png


def test_identical_bytes_in_another_process(positions):
    """No hash order, time or randomness: a fresh interpreter (another hash seed) gives the same bytes."""
    before, turn, state = positions["finished"]
    here = board_png(state, last_turn=turn, previous=before, names=["Ann", "Zoë"])
    script = (
        "import sys; from engines import GAMES; from render import board_png; g = GAMES['tintas']; "
        f"s = g.decode({state.encode()!r}); p = g.decode({before.encode()!r}); "
        f"sys.stdout.buffer.write(board_png(s, last_turn={list(turn)!r}, previous=p, names=['Ann', 'Zoë']))"
    )
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONHASHSEED="12345")
    there = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True,
                           check=True).stdout
    assert there == here


def ink_box(image: Image.Image, box, colour, tol=40):
    """The bounding box (x0, y0, x1, y1) of the pixels near ``colour`` inside ``box``, or None."""
    crop = image.crop(box)
    px = crop.load()
    hits = [(x, y) for y in range(crop.height) for x in range(crop.width) if near(px[x, y], colour, tol)]
    if not hits:
        return None
    xs, ys = [h[0] for h in hits], [h[1] for h in hits]
    return box[0] + min(xs), box[1] + min(ys), box[0] + max(xs) + 1, box[1] + max(ys) + 1


def test_defect_labels_legible_on_a_phone(positions):
    """Defect: the image was 960×1365 and the cell labels ~8 px on a phone. A phone shows the image ~400 px
    wide: each label's letters must be at least 8.5 px tall there, and the image not much taller than
    wide."""
    _, _, state = positions["mid"]
    image = picture(state)
    assert 880 <= image.width <= 1000
    assert image.height <= 1.2 * image.width, image.size
    for label in ("A1", "D7", "E4", "F1", "I2", "H5"):
        x, y = cell_centre(label)
        y += LABEL_DY
        found = ink_box(image, (round(x - 32), round(y - 18), round(x + 32), round(y + 18)), LABEL_INK)
        assert found is not None, label
        height = found[3] - found[1]
        assert height * 400 / image.width >= 8.5, (label, height)


def last_mover_position():
    """A mid-game turn and the seat that played it (a different seat moves next)."""
    before, turn, after = mid_game()
    assert before.to_move != after.to_move
    return before, turn, after, before.to_move


def test_defect_last_turn_names_its_player():
    """Defect: the last turn did not say who played it. The line under the status names that player."""
    before, turn, state, seat = last_mover_position()
    names = ["Ann", "Bob"]
    _, note = header_lines(state, turn, names, before)
    text = "".join(t for t, _ in note)
    assert names[seat] in text and names[1 - seat] not in text
    assert [t for t, is_name in note if is_name] == [names[seat]]
    # in pixels: renaming the last turn's player changes the line under the status (y 55..92) ...
    other = list(names)
    other[seat] = "Zebedee Quartermain"
    band = (0, 55, WIDTH, 92)
    a = picture(state, turn, names, before).crop(band)
    b = picture(state, turn, other, before).crop(band)
    assert a.tobytes() != b.tobytes()
    # ... and renaming the other player does not (that line is about the last turn only)
    other = list(names)
    other[1 - seat] = "Zebedee Quartermain"
    c = picture(state, turn, other, before).crop(band)
    assert a.tobytes() == c.tobytes()


def test_long_names_shorten_the_name_never_the_status():
    before, turn, state, seat = last_mover_position()
    long_names = ["Zoë with a very long display name indeed, much too long" * 2,
                  "Bartholomew the Second of Somewhere Far Away" * 2]
    status, note = header_lines(state, turn, long_names, before)
    assert status[-1] == (" to move", False)
    assert note[0] == ("Last turn by ", False) and note[-1][0].startswith(": ")
    for parts, size, bold in ((status, 30, True), (note, 24, False)):
        names = [t for t, is_name in parts if is_name]
        assert len(names) == 1 and names[0].endswith("…")
        width = sum(name_length(t, size, bold=bold) if is_name else font(size, bold).getlength(t)
                    for t, is_name in parts)
        assert width <= WIDTH - 20


def test_names_are_drawn_through_draw_name_and_fit_name(monkeypatch):
    """Every name goes through common.draw_name (font fallback for emoji and CJK lives there)."""
    drawn: list[str] = []
    fitted: list[str] = []
    real_draw, real_fit = tintas.draw_name, tintas.fit_name

    def spy_draw(d, xy, text, size, **kw):
        drawn.append(text)
        real_draw(d, xy, text, size, **kw)

    def spy_fit(text, size, max_width, **kw):
        fitted.append(text)
        return real_fit(text, size, max_width, **kw)
    monkeypatch.setattr(tintas, "draw_name", spy_draw)
    monkeypatch.setattr(tintas, "fit_name", spy_fit)
    tintas._name_sprite.cache_clear()                     # names are cached per process: start afresh
    tintas._fit.cache_clear()
    before, turn, state = finished()
    names = ["Quillon Unseen-Before", "Ximena 初めて 🎲"]        # new names: nothing cached
    picture(state, turn, names, before)
    for name in names:
        assert name in fitted
        assert any(name in text for text in drawn), (name, drawn)


def test_finished_game_shows_winner_badge_and_whole_end_sentence(positions):
    before, turn, state = positions["finished"]
    outcome = state.outcome()
    assert outcome is not None and len(state.winners) == 1
    winner = state.winners[0]
    names = ["Ann", "Bob"]
    lines = end_sentence(state, names)
    assert " ".join(lines) == outcome_text(GAME, outcome, names)           # whole, names unshortened
    assert 1 <= len(lines) <= 3
    image = picture(state, turn, names, before)
    # the winner badge (common.winner_badge's gold star) in the winner's panel, not in the other one
    for seat in (0, 1):
        found = ink_box(image, panel_box(seat), WINNER, tol=14)
        assert (found is not None) == (seat == winner), seat
    # every line of the sentence is drawn: ink in its band of the card under the panels, none after it
    top = panel_box(0)[3] + 10
    for i in range(len(lines)):
        band = (MARGIN + 10, top + 8 + i * 32, WIDTH - MARGIN - 10, top + 8 + (i + 1) * 32)
        assert ink_box(image, band, INK, tol=30) is not None, i
    assert image.height <= top + (len(lines) + 1) * 32 + 20


def test_end_sentence_is_whole_with_any_names():
    """The longest end sentence (4+ in several colours) with very long names: names shortened, every other
    word kept, at most three lines, each within the card."""
    for seed in range(1, 60):
        *_, (_, _, state) = play_turns(seed)
        outcome = state.outcome()
        if outcome is not None and outcome.termination == "four_colours":
            break
    else:
        pytest.skip("no four-colour win found")
    names = ["Zoë with a very long display name indeed, much too long", "Bartholomew " * 6]
    lines = end_sentence(state, names)
    assert 2 <= len(lines) <= 3
    for line in lines:
        assert name_length(line, 24) <= WIDTH - 2 * MARGIN - 24
    text = " ".join(lines)
    template = GAME.terminations[outcome.termination]
    for word in template.format_map({**outcome.facts, "winner": "", "loser": ""}).split():
        assert word in text, word
    assert not text.endswith("…") and text.endswith(".")


def test_highlights_carried_by_luminance(positions):
    """Colour-blind safe: the path arrows and the ghost rings of collected pieces are near-black (with a
    white casing), the pawn is dark on a white rim, the active panel has a thick dark outline."""
    before, turn, state = positions["mid"]
    image = picture(state, turn, ["Ann", "Bob"], before)
    collected = [m for m in turn if m != "end"]
    first = collected[0]
    cx, cy = piece_centre(first)
    angle = math.radians(-82)                  # inside the first dash of the dashed ring
    ring = image.getpixel((round(cx + (PIECE_RADIUS - 2) * math.cos(angle)),
                           round(cy + (PIECE_RADIUS - 2) * math.sin(angle))))
    assert luminance(ring) < 0.05, ring
    # the middle of the arrow between the first two collected pieces (shifted to its right)
    (xa, ya), (xb, yb) = piece_centre(collected[0]), piece_centre(collected[1])
    length = math.hypot(xb - xa, yb - ya)
    shifts = [ARROW_SHIFT, ARROW_SHIFT_VERTICAL]
    mids = [((xa + xb) / 2 - (yb - ya) / length * s, (ya + yb) / 2 + (xb - xa) / length * s) for s in shifts]
    assert any(luminance(image.getpixel((round(x), round(y)))) < 0.05 for x, y in mids)
    mover = state.to_move
    x0, y0, _, _ = panel_box(mover)
    assert luminance(image.getpixel((x0 + 3, y0 + 60))) < 0.05
    x0, y0, _, _ = panel_box(1 - mover)
    assert luminance(image.getpixel((x0 + 3, y0 + 60))) > 0.3


def test_fixed_palette_keeps_every_flat_colour():
    pal = tintas.palette()
    assert pal.mode == "P"
    entries = pal.getpalette() or []
    colours = {tuple(entries[i:i + 3]) for i in range(0, len(entries), 3)}
    for colour in (*FILL.values(), *tintas.GHOST.values(), EMPTY_FILL, WINNER, INK, tintas.GOLD):
        assert colour in colours, colour
    assert tintas.palette() is pal                             # built once


def test_on_the_board_corner_fits_beside_the_board_and_above_the_panels(positions):
    """The pieces left per colour sit in the board's empty lower-right corner: clear of the hexes (right of
    G1 and I1, below H1's column letter) and of the panels, and each count is drawn."""
    _, _, state = positions["mid"]
    image = picture(state)
    g1_right = cell_centre("G1")[0] + tintas.HEX + 3
    h1_letter = cell_centre("H1")[1] + tintas.HEX_H / 2 + 30
    for i in range(7):
        x, y = tintas.legend_centre(i)
        assert x - 21 > g1_right and y - 20 > h1_letter + 24, i
        assert y + 20 < panel_box(0)[1] - 4 and x + 21 + 30 < WIDTH, i
        assert ink_box(image, (round(x + 21), round(y - 12), round(x + 40), round(y + 12)), INK, 60), i


def test_the_pawn_keeps_clear_of_its_cells_label():
    """The pawn touched the F7 label: on every cell, its ink stays at least 2 px from the label's ink and halo."""
    from engines.tintas import LABELS
    from render import tintas as rt
    from render.common import font as board_font
    pawn = rt._pawn_sprite().getchannel("A").point(lambda a: 255 if a > 24 else 0)
    for label in LABELS:
        layer = Image.new("L", (rt.WIDTH, 1400), 0)
        px, py = rt.pawn_centre(label)
        layer.paste(pawn, (round(px - pawn.width / 2), round(py - pawn.height / 2)))
        lx, ly = rt.label_centre(label)
        x0, y0, x1, y1 = board_font(rt.LABEL_SIZE, True).getbbox(label, anchor="mm")
        near = 3 + 2                                     # the label's halo, and 2 px clear of it
        box = (round(lx + x0 - near), round(ly + y0 - near), round(lx + x1 + near), round(ly + y1 + near))
        assert layer.crop(box).getbbox() is None, label
