"""Rincala board image: limits, determinism, and pixels that mean something."""

import io
import random

import pytest
from PIL import Image

from engines import GAMES
from engines.base import outcome_text
from render import board_png
from render import rincala as rr
from render.common import HIGHLIGHT, INK, MAX_PNG_BYTES, WINNER, contrast_ink, font, luminance
from render.rincala import (
    HOLLOW_FILL,
    PIECE_EDGE,
    PIECE_FILL,
    SOWING_COLOURS,
    TOP,
    WIDTH,
    hollow_box,
    piece_box,
    track_heights,
    waypoint,
)

GAME = GAMES["rincala"]
B64 = "WRG/RY/-/YG/GWR/YW/RY/GWY -/- 1 turn"
B65 = "RGYWRGYW/RGYWRGY/WRGYWRGY/W/-/-/-/- -/-/- 1 turn"
LONG = "Bartholomew Montgomery-Fitzwilliam the Third of Somewhere Far Away"


def image(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("RGB")


def played_game(players: int, seed: int):
    """A random game to its end; returns (final state, its last turn's moves, the state before that turn)."""
    rng = random.Random(seed)
    state, before, turn = GAME.new(players=players, seed=seed), None, []
    while not state.is_over:
        if state.phase != "again":
            before, turn = state, []
        move = rng.choice(state.legal_moves())
        turn.append(move)
        state = state.play(move)
    return state, turn, before


def random_positions(count: int, seed: int):
    """Seeded positions of both player counts, part-way through random games, with their last turn."""
    rng = random.Random(seed)
    for i in range(count):
        players = (2, 3)[i % 2]
        state = GAME.new(players=players, seed=rng.randrange(1 << 30))
        before, turn = state, []
        for _ in range(rng.randrange(1, 80)):
            if state.is_over:
                break
            if state.phase != "again":
                before, turn = state, []
            move = rng.choice(state.legal_moves())
            turn.append(move)
            state = state.play(move)
        yield state, turn, before, [f"Player {p + 1}" for p in range(players)]


def cases():
    s64 = GAME.decode(B64)
    s65 = GAME.decode(B65)
    end3, turn3, before3 = played_game(3, 5)
    yield "opening", GAME.new(players=2, seed=1), [], None, None
    yield "move again", s64.play("A ccw"), ["A ccw"], s64, ["Ann", "Bob"]
    yield "lapping", s65.play("A cw"), ["A cw"], s65, ["A" * 40, "B", "C"]
    yield "three players over", end3, turn3, before3, None


@pytest.mark.parametrize("name, state, turn, previous, names", list(cases()))
def test_png_limits(name, state, turn, previous, names):
    png = board_png(state, last_turn=turn, previous=previous, names=names)
    img = image(png)
    assert img.width == WIDTH and 800 <= img.width <= 1000
    assert img.height < 1500
    assert len(png) <= MAX_PNG_BYTES


def test_same_input_same_bytes():
    s64 = GAME.decode(B64)
    after = s64.play("A cw")
    one = board_png(after, last_turn=["A cw"], previous=s64, names=["Ann", "Bob"])
    two = board_png(GAME.decode(after.encode()), last_turn=["A cw"], previous=GAME.decode(B64), names=["Ann", "Bob"])
    assert one == two


def test_random_positions_of_both_player_counts_fit_the_limits_and_repeat_exactly():
    sample = list(random_positions(10, seed=11))
    first = [board_png(s, last_turn=t, previous=p, names=n) for s, t, p, n in sample]
    for png in first:
        img = image(png)
        assert 800 <= img.width <= 1000 and img.height < 1500
        assert len(png) <= MAX_PNG_BYTES
    # the same input gives the same bytes, whatever was drawn (and cached) in between
    for png, (state, turn, previous, names) in reversed(list(zip(first, sample, strict=True))):
        again = board_png(GAME.decode(state.encode()), last_turn=list(turn),
                          previous=GAME.decode(previous.encode()), names=list(names))
        assert again == png


def test_pieces_are_drawn_bottom_to_top_in_their_colours():
    state = GAME.decode(B64)
    img = image(board_png(state))
    for hollow, stack in enumerate(state.board):
        for slot, colour in enumerate(stack):
            x0, y0, x1, y1 = piece_box(hollow, slot)
            assert img.getpixel((x0 + 6, (y0 + y1) // 2)) == PIECE_FILL[colour], (hollow, slot)
        if len(stack) < 8:                       # above the stack: the empty hollow
            x0, y0, x1, y1 = piece_box(hollow, len(stack))
            assert img.getpixel((x0 + 6, (y0 + y1) // 2)) not in PIECE_FILL.values()


def test_full_stacks_are_marked():
    before = GAME.decode(B65)
    state = before.play("A cw")
    img = image(board_png(state))
    for hollow, stack in enumerate(state.board):
        x0, y0, x1, y1 = hollow_box(hollow)
        edge = img.getpixel((x0 + 2, (y0 + y1) // 2))
        assert (edge == INK) is (len(stack) == 8), hollow


def test_last_sowing_shows_its_start_and_drops():
    before = GAME.decode(B64)
    state = before.play("A cw")                  # W onto B, R into empty C, G onto D (collected)
    sowings = rr.replay(before, ["A cw"])
    (h,), = track_heights(sowings)
    img = image(board_png(state, last_turn=["A cw"], previous=before))
    for hollow, colour in zip((1, 2, 3), "WRG", strict=True):   # a disc in the dropped colour (above its letter)
        x, y = waypoint(hollow, h)
        assert img.getpixel((round(x), round(y) - 10)) == PIECE_FILL[colour], hollow
    x, y = waypoint(0, h)
    assert img.getpixel((round(x), round(y) - 10)) == SOWING_COLOURS[0]  # the numbered start disc
    # the collected green is a ghost on top of D's stack: a paler green, not a piece colour
    x0, y0, x1, y1 = piece_box(3, len(state.board[3]))
    ghost = img.getpixel(((x0 + x1) // 2 - 20, (y0 + y1) // 2))
    assert ghost not in PIECE_FILL.values() and ghost[1] > ghost[0]
    # without the previous state the path is not drawn
    plain = image(board_png(state, last_turn=["A cw"]))
    x, y = waypoint(1, h)
    assert plain.getpixel((round(x), round(y) - 10)) != PIECE_FILL["W"]


def status_has_highlight(img: Image.Image) -> bool:
    bar = img.crop((0, 0, WIDTH, TOP))
    return any(colour == HIGHLIGHT for _, colour in bar.getcolors(1 << 20))


def test_must_move_again_is_shown():
    before = GAME.decode(B64)
    assert status_has_highlight(image(board_png(before.play("A ccw"), last_turn=["A ccw"], previous=before)))
    assert not status_has_highlight(image(board_png(before.play("A cw"), last_turn=["A cw"], previous=before)))


def test_moves_that_do_not_fit_the_previous_state_draw_no_path():
    state = GAME.decode(B64)
    png = board_png(state, last_turn=["E cw"], previous=GAME.decode(B65))   # E is empty there
    assert image(png).width == WIDTH


# --- the defects players found ------------------------------------------------------------------------------

def ink_box(img: Image.Image, box: tuple[int, int, int, int], ink, tolerance: int = 60):
    """The bounding box (in ``box``) of the pixels within ``tolerance`` of ``ink``."""
    crop = img.crop(box)
    pixels = crop.load()
    hits = [(x, y) for y in range(crop.height) for x in range(crop.width)
            if sum(abs(a - b) for a, b in zip(pixels[x, y], ink, strict=True)) <= tolerance]
    if not hits:
        return None
    xs, ys = [x for x, _ in hits], [y for _, y in hits]
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


def test_piece_letters_are_large_and_smooth():
    """Letters were ~6 px on a phone (14 px in the image) and hard edged: now 24 px bold, anti-aliased."""
    state = GAME.decode(B64)                      # A holds W (bottom), R, G; the red piece has a white letter
    img = image(board_png(state))
    box = piece_box(0, 1)
    letter = ink_box(img, box, (255, 255, 255), tolerance=30)
    assert letter is not None
    assert letter[3] - letter[1] >= 16              # cap height of a 24 px bold letter (was 10)
    assert letter[2] - letter[0] >= 12
    # smooth edges: shades between the red fill and the white letter
    colours = {c for _, c in img.crop(box).getcolors(4096)}
    between = [c for c in colours if PIECE_FILL["R"][1] + 20 < c[1] < 235 and c[0] > 200]
    assert len(between) >= 3


def test_a_long_name_is_shortened_and_the_status_kept():
    before = GAME.decode(B64)
    state = before.play("A ccw")                  # Ann must move again
    runs, _ = rr.status(state, [LONG, "Bob"])
    texts = [text for text, _, _ in runs]
    assert texts[0].endswith("…") and texts[0] != LONG
    assert texts[1:] == [" to move", "  — must move again"]
    width = sum(font(rr.STATUS_SIZE, True).getlength(t) for t in texts)
    assert width <= WIDTH - 2 * rr.MARGIN
    # in the image: the highlighted "must move again" ends inside the image, past the middle
    img = image(board_png(state, last_turn=["A ccw"], previous=before, names=[LONG, "Bob"]))
    red = ink_box(img, (0, 0, WIDTH, TOP), HIGHLIGHT, tolerance=0)
    assert red is not None and WIDTH / 2 < red[2] <= WIDTH - rr.MARGIN + 2


def test_finished_game_marks_the_winners_and_shows_the_whole_end_sentence():
    state, turn, before = played_game(3, 5)
    names = [LONG, "Bob " * 20, "Cy"]
    img = image(board_png(state, last_turn=turn, previous=before, names=names))
    sub = rr.end_lines(state, names)
    sentence = outcome_text(GAME, state.outcome(), names)
    assert 1 <= len(sub) <= 2 and " ".join(sub) == " ".join(sentence.split())
    assert all(font(rr.TEXT_SIZE).getlength(line) <= WIDTH - 2 * rr.MARGIN for line in sub)
    _, sub_runs = rr.status(state, names)
    assert sub_runs == sub
    top = rr.panel_top(len(sub))
    for seat in range(3):                          # the gold star of the winner badge, in winners' rows only
        row = (0, top + rr.ROW_H * seat, WIDTH, top + rr.ROW_H * (seat + 1))
        assert (ink_box(img, row, WINNER, tolerance=0) is not None) is (seat in state.winners), seat
    # the sentence's lines are drawn between the ring and the players
    for i in range(len(sub)):
        line = (0, rr.FOOT_TOP + rr.LINE_H * i, WIDTH, rr.FOOT_TOP + rr.LINE_H * (i + 1))
        assert ink_box(img, line, INK, tolerance=30) is not None


def test_every_end_sentence_fits_two_lines():
    state, _, _ = played_game(2, 3)
    for termination in GAME.terminations:
        outcome = type(state.outcome())(termination, state.winners, state.outcome().ranks)
        sentence = outcome_text(GAME, outcome, ["Ann", "Bob"])
        lines = rr.wrap_text(sentence, rr.TEXT_SIZE, WIDTH - 2 * rr.MARGIN)
        assert len(lines) <= 2 and " ".join(lines) == sentence


def test_tracks_are_dark_cased_for_colour_blind_players():
    """A track reads by its dark casing (luminance), not only its hue: dark pixels on both sides of it."""
    before = GAME.decode(B64)
    state = before.play("A cw")
    (h,), = track_heights(rr.replay(before, ["A cw"]))
    img = image(board_png(state, last_turn=["A cw"], previous=before))
    x = round(rr.CX + rr.SIDE_X / 4)               # a quarter of the way from A to B on the top straight
    y = rr.CY - h
    assert img.getpixel((x, y)) == SOWING_COLOURS[0]
    assert img.getpixel((x, y - 5)) == INK and img.getpixel((x, y + 4)) == INK
    assert luminance(img.getpixel((x, y - 9))) > 0.5        # the board around it is light


def test_the_fixed_palette_keeps_the_colours_that_matter_exact():
    strip = Image.new("RGB", (len(rr.EXACT), 1))
    for i, colour in enumerate(rr.EXACT):
        strip.putpixel((i, 0), colour)
    mapped = strip.quantize(palette=rr.palette(GAME.new()), dither=Image.Dither.NONE).convert("RGB")
    assert [mapped.getpixel((i, 0)) for i in range(len(rr.EXACT))] == rr.EXACT


def test_the_full_legend_shows_only_when_a_hollow_is_full():
    """'FULL / 8 pieces: jumped' explains a mark: on a board without a full hollow it only puzzles."""
    def inked(state) -> int:
        crop = image(board_png(state, names=["Ann", "Bob"])).crop(rr.full_legend_box())
        data = crop.tobytes()
        return sum(1 for i in range(0, len(data), 3) if luminance(tuple(data[i:i + 3])) < 0.1)

    full = GAME.decode("-/W/GWRYRGRY/GYG/WY/-/G/- RGYYWW/RRW 2 turn")
    assert any(len(stack) >= 8 for stack in full.board)
    assert inked(full) >= 150
    assert inked(GAME.new(players=2, seed=1)) == 0


# --- on a phone: the board shown 400 px wide --------------------------------------------------------------
PHONE_WIDTH = 400           # how wide a phone shows a board inline
PHONE_LETTER = 10           # the least height (px) of a piece's letter there (was 8 with 26 px pieces)
PHONE_RESAMPLING = Image.Resampling.LANCZOS


def on_a_phone(img: Image.Image) -> tuple[Image.Image, float]:
    k = PHONE_WIDTH / img.width
    return img.resize((PHONE_WIDTH, round(img.height * k)), PHONE_RESAMPLING), k


def nearest(pixel, colours) -> tuple[int, int, int]:
    return min(colours, key=lambda c: sum((a - b) ** 2 for a, b in zip(pixel, c, strict=True)))


def letter_rows(small: Image.Image, box, fill) -> tuple[int, int]:
    """The rows (top, bottom + 1) of the letter's ink inside a piece's scaled ``box``: pixels nearer the
    letter's colour than the piece's."""
    x0, y0, x1, y1 = box
    ink = contrast_ink(fill)
    rows = [y for y in range(y0 + 1, y1 - 1) for x in range(x0 + 2, x1 - 2)
            if nearest(small.getpixel((x, y)), (ink, fill)) == ink]
    assert rows, box
    return min(rows), max(rows) + 1


def fill_rows(small: Image.Image, x0: int, y0: int, y1: int, fill) -> list[int]:
    """The rows in ``y0..y1`` where the left strip of a piece (no letter there) is mostly ``fill``."""
    colours = (HOLLOW_FILL, PIECE_EDGE, INK, *PIECE_FILL.values())
    return [y for y in range(y0, y1)
            if sum(nearest(small.getpixel((x, y)), colours) == fill for x in range(x0 + 1, x0 + 5)) >= 3]


def test_pieces_read_on_a_phone_and_keep_clear_of_each_other_and_the_label():
    """At 400 px wide every piece's letter is at least PHONE_LETTER px tall and inside its own piece; the
    pieces of a stack (full hollows, colours alternating) do not run into each other or the hollow's letter."""
    state = GAME.decode(B65)                      # A and C hold 8 pieces, B 7, D 1: up to the label
    small, k = on_a_phone(image(board_png(state)))
    for hollow, stack in enumerate(state.board):
        if not stack:
            continue
        spans = []
        for slot, colour in enumerate(stack):
            x0, y0, x1, y1 = (round(v * k) for v in piece_box(hollow, slot))
            top, bottom = letter_rows(small, (x0, y0, x1, y1), PIECE_FILL[colour])
            assert bottom - top >= PHONE_LETTER, (hollow, slot, bottom - top)
            rows = fill_rows(small, x0, y0 - 6, y1 + 6, PIECE_FILL[colour])
            assert rows and min(rows) < top and max(rows) >= bottom, (hollow, slot)    # the letter inside it
            spans.append((min(rows), max(rows)))
        for (low_top, _), (_, high_bottom) in zip(spans, spans[1:], strict=False):   # slot i+1 sits above slot i
            assert high_bottom < low_top, (hollow, spans)
        hx0, hy0, hx1, _ = (round(v * k) for v in hollow_box(hollow))
        head = (hx0, hy0 + round(rr.CAP_PAD * k), hx1, hy0 + round((rr.CAP_PAD + rr.CAP_HEAD) * k))
        label = ink_box(small, head, INK, tolerance=90)
        assert label is not None, hollow
        assert head[1] + label[3] < spans[-1][0], (hollow, label, spans[-1])  # the top piece under the label
