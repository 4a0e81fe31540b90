"""The Spinca board as players read it: legible on a phone, in words, whole, colour-blind safe, and the same
size and bytes every time. Each defect players reported has a probe here that the renderer before the fast
path (revision c630da8) fails."""

import io
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.i18n import board_texts
from engines import GAMES
from engines.base import outcome_text
from engines.spinca import GROUPS, parse_turn
from render import board_png, texts
from render import spinca as R
from render.common import BACKGROUND, INK, MAX_PNG_BYTES, WINNER, font, luminance

GAME = GAMES["spinca"]
ROOT = Path(__file__).resolve().parents[2]
P71 = "2 WBB./BW../..../..../W../.../.../../.. 1 1c1"
# §7.4: the temple that ties 17-17 on faces; White wins on the inner pyramid
TIE_74 = "2 BWWB/WWBB/WBWB/WWBB/BWB/WWB/WBB/WW/WB 2 -"
LONG = "Maximilian Alexander von Hohenberg-Schwarzenstein"


def image(state, **kw) -> Image.Image:
    data = board_png(state, **kw)
    assert data.startswith(b"\x89PNG") and len(data) <= MAX_PNG_BYTES
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def close(a, b, tol=12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def play(players: int, turns: int, seed: int):
    rng = random.Random(seed)
    s = prev = GAME.new(players)
    move = None
    for _ in range(turns):
        prev, move = s, rng.choice(s.legal_moves())
        s = s.play(move)
    return s, prev, move


def ink_height(img: Image.Image, box: tuple[int, int, int, int], fill, tol: int = 90) -> int:
    """Rows of ``box`` holding a pixel far from ``fill``: the height of the text drawn on that fill."""
    x0, y0, x1, y1 = box
    rows = [y for y in range(y0, y1) if any(sum(abs(a - b) for a, b in zip(img.getpixel((x, y)), fill,
                                                                            strict=True)) > tol
                                            for x in range(x0, x1))]
    return rows[-1] - rows[0] + 1 if rows else 0


# --- Size, bytes, determinism --------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_is_phone_sized_small_and_one_height_per_player_count(players):
    """Width 800-1000, PNG <= 150 KB, over seeded random positions of every player count (start, middle, end,
    with and without the last turn); the height is the same all game long (a replay's frames share a size)."""
    rng = random.Random(players)
    heights = set()
    for turns in (0, rng.randrange(1, 10), rng.randrange(10, 20), rng.randrange(20, 29), 29):
        s, prev, move = play(players, turns, seed=rng.randrange(1 << 30))
        kw = {"last_turn": [move], "previous": prev} if move else {}
        img = image(s, names=[f"Player {i + 1}" for i in range(players)], **kw)
        assert 800 <= img.width <= 1000
        heights.add(img.height)
    assert heights == {R.height(players)}


def test_identical_input_gives_identical_bytes_whatever_was_drawn_before():
    s, prev, move = play(3, 17, seed=4)
    first = board_png(s, last_turn=[move], names=["Ann", "Bob", "Cy"], previous=prev)
    for seed in range(3):          # other boards fill the caches in between
        t, p, m = play(seed + 2, 20 + seed, seed=seed)
        board_png(t, last_turn=[m], names=["Zoë", "Łukasz", "Ana", "Bo"][: seed + 2], previous=p)
    assert board_png(GAME.decode(s.encode()), last_turn=[move], names=["Ann", "Bob", "Cy"],
                     previous=GAME.decode(prev.encode())) == first


def test_identical_bytes_in_a_fresh_process_with_another_hash_seed():
    """No dependence on set/dict order, caches or time: a new interpreter (other hash seed) draws the same."""
    s, prev, move = play(4, 21, seed=8)
    here = board_png(s, last_turn=[move], names=[LONG, "Bob", "Cy", "Di"], previous=prev)
    code = (
        "import sys; from engines import GAMES; from render import board_png; G = GAMES['spinca']; "
        f"s, p = G.decode({s.encode()!r}), G.decode({prev.encode()!r}); "
        f"sys.stdout.buffer.write(board_png(s, last_turn=[{move!r}], names=[{LONG!r}, 'Bob', 'Cy', 'Di'], "
        "previous=p))")
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, check=True)
    assert out.stdout == here


def test_the_palette_holds_every_key_colour_exactly():
    colours = R.palette(GAME.new(2)).getpalette() or []
    entries = {tuple(colours[i:i + 3]) for i in range(0, len(colours), 3)}
    for colour in (*R.FILL.values(), R.LOCK_FILL, R.PLACED_RING, R.SLIDE_INK, R.TUMBLE_FILL, WINNER,
                   R.GRID_FILL, R.HOLE_FILL, R.PANEL_FILL):
        assert colour in entries, colour


# --- Text a player must read --------------------------------------------------------------------------------

def test_all_text_is_at_least_24_px():
    s, prev, move = play(3, 29, seed=5)
    texts = R.layout(s, [move], ["Ann", "Bob", "Cy"], prev).texts
    texts += R.layout(*play(4, 11, seed=6)[:1], names=None).texts
    assert R.TEXT >= 24 and all(t.size >= 24 for t in texts)


def test_from_above_letters_are_legible():
    """Defect: the "From above" letters were 17 px (≈5 px on a phone). Now 24 px: ink at least 16 px tall."""
    s = GAME.decode("3 WWWW/WWWW/WWWW/WWWW/WWW/WWW/WWW/RB/.. 1 -")
    img = image(s)
    for cell, colour in (("3a1", "R"), ("3b1", "B")):
        x, y = map(round, R.above_centre(cell))
        h = round(R.ABOVE_U * 0.3)
        assert ink_height(img, (x - h, y - h, x + h, y + h), R.FILL[colour]) >= 16, cell


def test_face_and_marble_letters_are_legible():
    """Defect: the face letters were 15 px and the exploded marbles' colour letters 15 px. Now 24 px."""
    s = GAME.decode(P71)
    img = image(s)
    for slot, cell in enumerate(s.face_cells("S")):
        colour = s.colour_at(cell)
        if colour:
            x, y = map(round, R.face_centre("S", slot, s.players))
            h = round(R.FACE_D * 0.3)
            assert ink_height(img, (x - h, y - h, x + h, y + h), R.FILL[colour]) >= 16, cell
    for cell in ("1a1", "1b1", "2a1"):        # the colour letter, below the cell name
        x, y = map(round, R.cell_centre(cell))
        box = (x - 12, y + 2, x + 12, y + round(0.85 * R.RADIUS))
        assert ink_height(img, box, R.FILL[s.colour_at(cell)]) >= 16, cell


def test_from_above_says_which_marbles_carry_letters():
    assert " ".join(R.ABOVE_CAPTION.split("\n")) == "Letters only on uncovered marbles"


def test_faces_say_groups_and_points_in_words():
    """Defect: `W: [2, 2] → 2` was cryptic. The §7.4 face table, as a player reads it."""
    plan = R.layout(GAME.decode(TIE_74), names=["Ann", "Bob"])
    assert [t.text for t in plan.by_role("face")] == [
        "one group of 5 → 5 points", "groups of 2 and 2 → 2 points",     # S
        "one group of 1 → 1 point", "one group of 8 → 8 points",         # E
        "one group of 4 → 4 points", "one group of 5 → 5 points",        # N
        "one group of 7 → 7 points", "one group of 2 → 2 points",        # W
    ]
    # each line starts with its colour's marble, letter and all, level with the line
    assert [(c, y) for c, (_, y) in plan.face_icons] == [(c, t.xy[1]) for c, t in zip("WB" * 4, plan.by_role("face"),
                                                                                       strict=True)]
    assert R.face_line((), 0) == "no marble → 0 points"
    assert R.face_line((1, 3), 1) == "groups of 1 and 3 → 1 point"
    assert R.face_line((1, 1, 3), 1) == "groups 1, 1, 3 → 1 point"       # terser when long


def test_face_lines_fit_beside_their_triangles():
    for players, seed in ((3, 1), (3, 2), (2, 3), (4, 4)):
        s, _, _ = play(players, 29, seed)
        for t in R.layout(s).by_role("face"):
            x0, _, x1, _ = t.box()
            assert x0 >= R.FACE_X0 + 4 * R.FACE_D and x1 <= R.WIDTH - R.MARGIN + 2, t.text
            assert "…" not in t.text


@pytest.mark.parametrize("players, seat_tag", [(4, " (White A)"), (2, " (White)"), (3, " (White)")])
def test_a_long_name_is_shortened_and_keeps_its_seat_tag(players, seat_tag):
    """Defect: a long name pushed out the team tag. The name is shortened; the tag and stats stay whole."""
    s = GAME.new(players)
    names = [LONG] + [f"P{i}" for i in range(1, players)]
    plan = R.layout(s, names=names)

    def row0(role):
        found, = [t for t in plan.by_role(role) if t.xy[1] == R.row_centre(0, s.players)]
        return found
    name, tag, stats = row0("row-name"), row0("row-tag"), row0("row-stats")
    assert name.text.endswith("…") and LONG.startswith(name.text[:-1])
    assert tag.text == seat_tag and name.box()[2] <= tag.box()[0] + 2 and tag.box()[2] < stats.box()[0]
    left = {2: 15, 3: 10, 4: 8}[players]
    assert stats.text == f"{left} left ·" + (" team" if players == 4 else "") + " 0 points"
    status = plan.by_role("status")[0]
    assert status.text.endswith(seat_tag + " to move") and status.box()[2] <= R.WIDTH - R.MARGIN
    # ...and the tag is drawn where the layout says: ink in its box
    img = image(s, names=names)
    x0, y0, x1, y1 = tag.box()
    assert any(luminance(img.getpixel((x, y))) < 0.2 for x in range(x0, x1) for y in range(y0, y1))


# --- The end of the game --------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, names", [
    (TIE_74, ["Ann", "Bob"]),
    (TIE_74, [LONG, LONG + " II"]),
    ("3 BRRW/BBWW/RBBW/RRWW/RRW/BBW/RBW/BW/RB 3 -", [LONG, LONG + " II", LONG + " III"]),
    (None, [LONG + " I", LONG + " II", LONG + " III", LONG + " IV"]),          # two teams of two
])
def test_a_finished_game_shows_the_winner_badge_and_the_whole_end_sentence(code, names):
    s = GAME.decode(code) if code else play(4, 29, seed=3)[0]
    plan = R.layout(s, names=names)
    # the sentence, whole, on at most two lines of the panel; only names may be shortened: every word of the
    # game's template is there, in order
    assert 1 <= len(plan.end_lines) <= 2 and " ".join(plan.end_lines) == plan.end_sentence
    if names[0] == "Ann":
        assert plan.end_sentence == outcome_text(GAME, s.outcome(), names)
    marks = [f"\0{i}\0" for i in range(s.players)]
    at = 0
    for fragment in outcome_text(GAME, s.outcome(), marks).split("\0"):
        if fragment.strip() and not fragment.isdigit():
            at = plan.end_sentence.index(fragment.strip(), at)
    assert plan.end_sentence.endswith(".")
    for t in plan.by_role("end"):
        x0, y0, x1, y1 = t.box()
        assert R.MARGIN < x0 and x1 <= R.WIDTH - R.MARGIN and R.panel_top(s.players) < y0 and y1 <= R.height(s.players)
    # the winners wear the winner badge (a gold star), the others do not
    img = image(s, names=names)
    for seat in range(s.players):
        star = (round(R.STATUS_X + 0.6 * R.BADGE_SIZE), round(R.row_centre(seat, s.players)))
        assert close(img.getpixel(star), WINNER, 30) == (seat in s.winners), seat
    assert [round(y) for _, y in plan.badges] == [round(R.row_centre(w, s.players)) for w in s.winners]


def test_a_team_win_badges_both_partners():
    s, _, _ = play(4, 29, seed=3)
    plan = R.layout(s, names=["Ann", "Bob", "Cy", "Di"])
    assert len(plan.badges) == 2 == len(s.winners)
    assert " and " in plan.by_role("status")[0].text and plan.by_role("status")[0].text.endswith(" win")


# --- Colour-blind safety ---------------------------------------------------------------------------------------
# Machado, Oliveira & Fernandes (2009), severity 1, applied in linear RGB.
CVD = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def simulate(rgb, matrix):
    def lin(c):
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    def enc(v):
        v = min(1.0, max(0.0, v))
        return round(255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055))
    linear = [lin(c) for c in rgb]
    return tuple(enc(sum(m * c for m, c in zip(row, linear, strict=True))) for row in matrix)


def contrast(a, b) -> float:
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@pytest.mark.parametrize("vision", list(CVD))
def test_highlights_read_by_luminance_under_colour_blindness(vision):
    m = CVD[vision]
    s = GAME.decode(P71)
    t = s.play("1b1-1c2 2a1")
    img = image(t, last_turn=["1b1-1c2 2a1"], previous=s, names=["Ann", "Bob"])

    def px(xy):
        return simulate(img.getpixel((round(xy[0]), round(xy[1]))), m)
    # the placed ring: a gold band between ink rings (light between darks), whatever the hue looks like
    x, y = R.cell_centre("2a1")
    band, outer = px((x - R.RADIUS - 2.5, y)), px((x - R.RADIUS - 7, y))
    assert contrast(band, outer) >= 3 and contrast(outer, simulate(R.GRID_FILL, m)) >= 3
    # the slide arrow: a dark core in a light casing (across its shaft, just before the head)
    (xa, ya), (xb, yb) = R.slide_arrow_ends("1b1", "1c2", "tumbled")
    length = math.hypot(xb - xa, yb - ya)
    mx, my = xb - (xb - xa) * (R.SLIDE_HEAD + 4) / length, yb - (yb - ya) * (R.SLIDE_HEAD + 4) / length
    nx, ny = (yb - ya) / length, (xa - xb) / length
    casing = max((px((mx + d * nx, my + d * ny)) for d in range(2, 7)), key=luminance)
    assert contrast(px((mx, my)), casing) >= 3
    # the lock: an ink "+" on a gold disc; the tumble: a white "↓" on a blue disc
    assert contrast(simulate(R.LOCK_FILL, m), simulate(R.INK, m)) >= 3
    assert contrast(simulate(R.TUMBLE_FILL, m), (255, 255, 255)) >= 3
    # the player to move: a box with an ink outline
    top = round(R.row_centre(t.to_move, s.players) - (R.ROW_H - 2) / 2)
    outline = min((px((R.WIDTH / 2, top + d)) for d in range(4)), key=luminance)
    assert contrast(outline, simulate(R.PANEL_FILL, m)) >= 3
    # the marbles stay apart by lightness too (their letters carry them in any case)
    lum = sorted(luminance(simulate(c, m)) for c in R.FILL.values())
    assert lum[2] - lum[1] > 0.3 and lum[1] - lum[0] > 0.02


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_face_blocks_do_not_touch(players):
    """With three colours a face block holds its title and three lines: the last line's ink must stay clear of
    the next block's title (they touched), by at least FACE_GAP_MIN pixels; each triangle stays in its block."""
    state = GAME.new(players=players, seed=3)
    faces = [t for t in R.layout(state).texts if t.role == "face"]
    colours = len(state.colours)
    assert len(faces) == 4 * colours
    for i, face in enumerate(R.FACE_NAMES[1:]):
        last_line = faces[colours * i + colours - 1]
        title_top = R.face_line_centre(face, players, 0) + font(R.FACE_TEXT, True).getbbox("South face",
                                                                                         anchor="lm")[1]
        ink_bottom = last_line.xy[1] + font(R.FACE_TEXT).getbbox("one group of 1 → 1 point", anchor="lm")[3]
        assert title_top - ink_bottom >= FACE_GAP_MIN, face
    for face in R.FACE_NAMES:
        top, bottom = R.face_top(face, players), R.face_top(face, players) + R.face_block(players)
        assert top <= R.face_centre(face, 8, players)[1] - R.FACE_D / 2
        assert R.face_centre(face, 0, players)[1] + R.FACE_D / 2 <= bottom


FACE_GAP_MIN = 4


def _ink_box(centre, text: str, dy: float, pad: int = 2) -> tuple[int, int, int, int]:
    x, y = centre
    x0, y0, x1, y1 = font(R.TEXT, True).getbbox(text, anchor="mm")
    return (round(x + x0) - pad, round(y + dy + y0) - pad, round(x + x1) + pad, round(y + dy + y1) + pad)


def test_the_lock_and_tumble_badges_leave_every_label_of_the_exploded_levels_clear():
    """The '+' of a locked marble sat on its cell's name ('1d2'): on every cell of the exploded levels the lock
    and tumble badges, where the board puts them, leave the ink boxes of every cell name and colour letter clear."""
    layer = Image.new("RGBA", (R.WIDTH, 1200), (0, 0, 0, 0))
    for cell in R.NAMES:
        for mirrored in (False, True):              # on the right, or on the left out of a slide arrow's way
            R.paste(layer, R._lock_badge(13), R.lock_badge_centre(cell, mirrored))
            R.paste(layer, R._tumble_badge(13), R.tumble_badge_centre(cell, mirrored))
    alpha = layer.getchannel("A").point(lambda a: 255 if a > 24 else 0)
    covered = [cell for cell in R.NAMES
               if alpha.crop(_ink_box(R.cell_centre(cell), cell, R.NAME_DY)).getbbox() is not None
               or alpha.crop(_ink_box(R.cell_centre(cell), "W", R.LETTER_DY)).getbbox() is not None]
    assert covered == []


# --- On a phone: the face table shown 400 px wide -----------------------------------------------------------
PHONE_WIDTH = 400           # how wide a phone shows a board inline
PHONE_GLYPH = 12            # the least height (px) there of a face line's glyphs, ascender top to descender foot
                            # (the 24 px lines measured 10-11 px)


def on_a_phone(img: Image.Image) -> tuple[Image.Image, float]:
    k = PHONE_WIDTH / img.width
    return img.resize((PHONE_WIDTH, round(img.height * k)), Image.Resampling.LANCZOS), k


def glyph_height(small: Image.Image, box: tuple[int, int, int, int]) -> int:
    """The rows of ``box`` holding a pixel nearer the text's ink than the background: its glyphs' height."""
    x0, y0, x1, y1 = box

    def inky(p) -> bool:
        return sum((a - b) ** 2 for a, b in zip(p, INK, strict=True)) < sum(
            (a - b) ** 2 for a, b in zip(p, BACKGROUND, strict=True))
    rows = [y for y in range(y0, y1) if any(inky(small.getpixel((x, y))) for x in range(x0, x1))]
    return rows[-1] - rows[0] + 1 if rows else 0


@pytest.fixture
def catalog():
    """The bot's own tables (its German catalog), as the render processes get them."""
    texts.install(board_texts())
    yield
    texts.install(None)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_face_table_reads_on_a_phone(catalog, players, language):
    """Defect: shown 400 px wide (a phone), the face table's text was about 10 px tall. Every face line's glyphs
    are now at least PHONE_GLYPH px tall there, whole (no '…'), beside their triangle and inside the board."""
    s, prev, move = play(players, 20, seed=40 + players)
    small, k = on_a_phone(image(s, last_turn=[move], previous=prev, names=["Ann", "Bob", "Cy", "Di"][:players],
                                language=language))
    with texts.speaking(language):
        lines = R.layout(s, [move], ["Ann", "Bob", "Cy", "Di"][:players], prev).by_role("face")
    assert len(lines) == 4 * len(s.colours)
    for line in lines:
        x0, y0, x1, y1 = line.box()
        assert "…" not in line.text and x0 >= R.FACE_X0 + 4 * R.FACE_D and x1 <= R.WIDTH - R.MARGIN, line.text
        small_box = (math.ceil(x0 * k), math.ceil(y0 * k), math.floor(x1 * k), math.floor(y1 * k))
        assert glyph_height(small, small_box) >= PHONE_GLYPH, (line.text, glyph_height(small, small_box))


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_face_line_fits_whole_in_its_column(catalog, language):
    """Any colour's groups on any face (every subset of its nine points), in words at FACE_TEXT px: whole (the
    tersest form at worst, never cut with '…') and within the column beside the triangles."""
    with texts.speaking(language):
        for groups in sorted(set(GROUPS)):
            line = R.face_line(groups, groups[0] if groups else 0)
            assert "…" not in line and R.text_width(line, R.FACE_TEXT) <= R.FACE_TEXT_W, line
            assert (language == "en") == line.startswith(("no ", "one ", "groups ")), line    # translated


# --- The slide arrow stays off every cell's texts -------------------------------------------------------------

def _slides_of_random_games() -> dict[tuple[int, int, str], tuple]:
    """The first slide of each direction and each thing its source holds after the turn (a hole, the turn's
    placed marble, a tumbled marble) in seeded random games of 2, 3 and 4 players (slides preferred)."""
    found: dict[tuple[int, int, str], tuple] = {}
    for seed in range(60):
        rng = random.Random(seed)
        s = GAME.new(2 + seed % 3)
        while not s.is_over:
            moves = s.legal_moves()
            move = rng.choice([m for m in moves if "-" in m] or moves)
            prev, s = s, s.play(move)
            if "-" in move:
                src, dst, place = (R.NAMES[i] for i in parse_turn(move))
                kind = "hole" if s.colour_at(src) is None else "placed" if place == src else "tumbled"
                (xa, ya), (xb, yb) = R.cell_centre(src), R.cell_centre(dst)
                found.setdefault((round(xb - xa), round(ya - yb), kind), (s, prev, move, src, dst))
    return found


SLIDES = _slides_of_random_games()


def test_random_games_slide_every_way():
    assert len(SLIDES) == 8 * 3        # 8 directions, 3 kinds of source: every arrow below is probed


@pytest.mark.parametrize("key", sorted(SLIDES))
def test_the_slide_arrow_crosses_no_cell_s_name_or_letter(key):
    """The arrow ran over the names of its own cells ('1b2'), which were redrawn over it with a halo. Now no
    pixel of the arrow, where the board pastes it, lies in the ink box (2 px round it) of any cell's name or
    colour letter, its two cells' and every other; the board shows it there (its blue core), pointing from the
    source towards the target."""
    s, prev, move, src, dst = SLIDES[key]
    kind = key[2]
    arrow_, centre = R.slide_arrow(src, dst, kind)
    layer = Image.new("RGBA", (R.WIDTH, R.height(s.players)), (0, 0, 0, 0))
    R.paste(layer, arrow_, centre)
    alpha = layer.getchannel("A")
    touched = []
    for cell in R.NAMES:
        c = R.cell_centre(cell)
        boxes = ([_ink_box(c, cell, R.NAME_DY), _ink_box(c, R._letter(s.colour_at(cell)), R.LETTER_DY)]
                 if s.colour_at(cell) else [_ink_box(c, cell, 0)])
        touched += [cell for box in boxes if alpha.crop(box).getbbox() is not None]
    assert touched == [], (move, touched)
    # the board draws that arrow, whole: its opaque core shows SLIDE_INK on the board (no badge covers it)
    marked = R.draw(s, [move], None, prev)
    x0, y0, x1, y1 = alpha.getbbox()
    core = [xy for xy in ((x, y) for x in range(x0, x1) for y in range(y0, y1))
            if alpha.getpixel(xy) == 255 and close(layer.getpixel(xy)[:3], R.SLIDE_INK, 8)]
    hidden = [xy for xy in core if not close(marked.getpixel(xy), R.SLIDE_INK, 30)]
    assert len(core) >= 60 and hidden == [], (move, len(core), hidden[:5])
    # from the source towards the target: its tip nearer the target than its tail
    tail, tip = R.slide_arrow_ends(src, dst, kind)
    target = R.cell_centre(dst)
    assert math.dist(tip, target) < math.dist(tail, target) - 20 and math.dist(tail, tip) >= 34
