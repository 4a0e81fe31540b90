"""People's names in any script: render.common's name_length / fit_name / draw_name and the fonts behind them."""

from __future__ import annotations

import hashlib
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw

from render import common
from render.common import FONT_DIR, draw_name, fit_name, font, name_length

MISSING = "\U000f0000"          # a private-use character no shipped font has: drawn as DejaVu's box
WHITE = (255, 255, 255)


def drawn(text: str, size: int = 32, *, bold: bool = False, anchor: str = "la",
          xy: tuple[float, float] = (20, 20), canvas: tuple[int, int] = (560, 90)) -> Image.Image:
    """``text`` drawn by ``draw_name`` in white on black, as a grey-scale image."""
    image = Image.new("RGB", canvas)
    draw_name(ImageDraw.Draw(image), xy, text, size, bold=bold, fill=WHITE, anchor=anchor)
    return image.convert("L")


def dejavu(text: str, size: int = 32, *, bold: bool = False, anchor: str = "la",
           xy: tuple[float, float] = (20, 20), canvas: tuple[int, int] = (560, 90)) -> Image.Image:
    """``text`` drawn as before names had fallback fonts: DejaVu alone, through ``draw.text``."""
    image = Image.new("RGB", canvas)
    ImageDraw.Draw(image).text(xy, text, font=font(size, bold), fill=WHITE, anchor=anchor)
    return image.convert("L")


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def glyph(image: Image.Image) -> bytes:
    """The ink of an image, cropped to its box: equal for equal glyphs wherever they were drawn."""
    box = image.getbbox()
    assert box is not None, "nothing was drawn"
    return image.crop(box).tobytes()


# --- The fallback fonts draw what DejaVu lacks -------------------------------------------------------------

@pytest.mark.parametrize(("first", "second"), [
    ("山", "田"),            # CJK ideographs (Japanese / Chinese)
    ("臺", "灣"),            # traditional hanzi (Big5 level 1)
    ("김", "준"),            # Hangul syllables
    ("ひ", "カ"),            # kana
    ("😀", "🎲"),            # emoji (DejaVu has 😀, but emoji take the emoji font first)
    ("🫠", "🦩"),            # newer emoji (Unicode 13-14)
    ("ก", "ช"),              # Thai
    ("र", "ह"),              # Devanagari
])
@pytest.mark.parametrize("bold", [False, True])
def test_characters_dejavu_lacks_draw_real_glyphs_not_boxes(first: str, second: str, bold: bool) -> None:
    box = glyph(drawn(MISSING, bold=bold))
    a, b = glyph(drawn(first, bold=bold)), glyph(drawn(second, bold=bold))
    assert a != box and b != box
    assert a != b                                          # two boxes would be the same picture
    if not (common._has("DejaVuSans.ttf", ord(first)) or common._has("DejaVuSans.ttf", ord(second))):
        # without fallback they really were two identical boxes
        assert glyph(dejavu(first, bold=bold)) == glyph(dejavu(second, bold=bold))


def test_a_character_no_font_has_is_dejavus_box() -> None:
    assert same(drawn(MISSING), dejavu(MISSING))
    assert same(drawn(f"Ann{MISSING}"), dejavu(f"Ann{MISSING}"))


def test_bold_names_use_the_bold_cjk_face() -> None:
    assert glyph(drawn("山田", bold=True)) != glyph(drawn("山田"))
    files = {file for file, _ in common._name_runs("山田", True)}
    assert files == {"NotoSansCJKjp-Bold.subset.otf"}


def test_mixed_name_draws_every_part() -> None:
    name = "Ann 😀 山田"
    runs = common._name_runs(name, False)
    assert "".join(chars for _, chars in runs) == name
    assert [file for file, _ in runs] == ["DejaVuSans.ttf", "NotoEmoji-Regular.subset.ttf", "DejaVuSans.ttf",
                                          "NotoSansCJKjp-Regular.subset.otf"]
    image = drawn(name)
    # every part has ink where it is laid out: 'Ann ', the emoji, the space, the two ideographs
    x = 20.0
    for file, chars in runs:
        width = common._name_font(file, 32).getlength(chars)
        if chars.strip():
            part = image.crop((int(x), 0, int(x + width) + 1, image.height))
            assert part.getbbox() is not None, chars
        x += width
    # and the parts are not boxes
    box = glyph(drawn(MISSING))
    for part in ("😀", "山", "田"):
        assert glyph(drawn(part)) != box


@pytest.mark.parametrize("anchor", ["la", "lt", "lm", "ls", "lb", "ld"])
def test_latin_part_of_a_mixed_name_sits_where_dejavu_puts_it(anchor: str) -> None:
    # the runs share DejaVu's baseline whatever the anchor: 'Ann ' is drawn on the same pixels as before
    xy = (20.0, 45.0)
    cut = int(20 + font(32).getlength("Ann "))
    mixed = drawn("Ann 山田", anchor=anchor, xy=xy).crop((0, 0, cut, 90))
    plain = dejavu("Ann", anchor=anchor, xy=xy).crop((0, 0, cut, 90))
    if anchor[1] in "tb":            # top and bottom follow the ink, which the CJK glyphs change
        assert glyph(mixed) == glyph(plain)
    else:
        assert same(mixed, plain)


@pytest.mark.parametrize("anchor", ["ma", "mm", "ms", "ra", "rm", "rs"])
def test_centred_and_right_anchors_place_the_whole_mixed_name(anchor: str) -> None:
    name = "Ann 😀 山田"
    xy = (280.0, 45.0)
    width = name_length(name, 32)
    box = drawn(name, anchor=anchor, xy=xy).getbbox()
    assert box is not None
    left = xy[0] - (width / 2 if anchor[0] == "m" else width)
    assert left - 1 <= box[0] and box[2] <= left + width + 1
    ref = dejavu("Ann", anchor="l" + anchor[1], xy=(left, xy[1])).getbbox()      # same vertical placement
    assert ref is not None and box[3] >= ref[3] - 1 and box[1] <= ref[1] + 1


def test_drawing_is_deterministic() -> None:
    name = "Zoë 😀🎲 山田 김 สม"
    first = drawn(name, bold=True).tobytes()
    common._name_runs.cache_clear()
    common._name_layout.cache_clear()
    assert drawn(name, bold=True).tobytes() == first


# --- Widths ---------------------------------------------------------------------------------------------

def test_name_length_grows_with_the_text() -> None:
    name = "Ann 😀 山田 김 ก 👨‍👩‍👧 🇯🇵"
    # (cut between clusters: half an emoji ZWJ sequence is drawn wider than the whole, which is one glyph)
    widths = [name_length(name[:i], 24) for i in range(len(name) + 1) if cluster_end(name, i)]
    assert widths[0] == 0
    assert all(b >= a for a, b in zip(widths, widths[1:], strict=False))
    assert name_length("山田", 24) > name_length("山", 24) > 0
    assert name_length("😀😀", 24) > name_length("😀", 24) > 0


@pytest.mark.parametrize("name", ["Ann 😀 山田", "山田太郎", "😀🎲👍🏽❤️🇯🇵1️⃣👨‍👩‍👧", "김민준 (KR)",
                                  "สมชาย ใจดี", "राहुल शर्मा", "ひらがな カタカナ", "Zoë Ørsted"])
@pytest.mark.parametrize("bold", [False, True])
def test_ink_stays_within_the_measured_width(name: str, bold: bool) -> None:
    width = name_length(name, 28, bold=bold)
    box = drawn(name, 28, bold=bold, anchor="ls", xy=(20, 60)).getbbox()
    assert box is not None
    assert 20 - 2 <= box[0] and box[2] <= 20 + width + 2, (box, width)
    assert box[2] - box[0] >= width * 0.6                  # and it is the name, not a sliver of it


# --- Shortening ----------------------------------------------------------------------------------------

def cluster_end(text: str, i: int) -> bool:
    """Whether ``text[:i]`` ends between clusters: not before a mark, variation selector, skin tone or tag,
    not on either side of a zero-width joiner, not between the two regional indicators of a flag."""
    if i in (0, len(text)):
        return True
    nxt, prev = text[i], text[i - 1]
    if "\u200d" in (prev, nxt) or unicodedata.category(nxt) in ("Mn", "Me", "Mc"):
        return False
    if "\ufe00" <= nxt <= "\ufe0f" or "\U0001f3fb" <= nxt <= "\U0001f3ff" or "\U000e0020" <= nxt <= "\U000e007f":
        return False
    flags = 0
    while i - flags > 0 and "\U0001f1e6" <= text[i - flags - 1] <= "\U0001f1ff":
        flags += 1
    return flags % 2 == 0


TRICKY = ["👨‍👩‍👧‍👦 family", "🇯🇵🇰🇷🇨🇳🇹🇼", "👍🏽👍🏿👋🏻", "1️⃣2️⃣#️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scotland", "e\u0301e\u0301e\u0301 accents",
          "山田太郎の長い名前です", "김민준김민준김민준", "Ann 😀 山田 and a long tail", "สมชายใจดีมาก", "राहुल शर्मा जी",
          "❤️❤️❤️❤️", "Zoë with a very long display name indeed, much too long"]


@pytest.mark.parametrize("name", TRICKY)
@pytest.mark.parametrize("bold", [False, True])
def test_fit_name_cuts_between_clusters_and_fits(name: str, bold: bool) -> None:
    full = name_length(name, 22, bold=bold)
    for max_width in [0, 5, 12, 20, 33, 50, 80, 120, full - 1, full, full + 10]:
        short = fit_name(name, 22, max_width, bold=bold)
        assert name_length(short, 22, bold=bold) <= max_width
        if short == name:
            continue
        if short:
            assert short.endswith("…")
            body = short[:-1]
            assert name.startswith(body) and cluster_end(name, len(body)), (name, short)
        drawn(short, 22, bold=bold)                         # and it draws


@settings(max_examples=60, deadline=None, derandomize=True)
@given(parts=st.lists(st.sampled_from(["A", "z", " ", "é", "e\u0301", "山", "김", "ひ", "😀", "🎲", "👍🏽", "❤️",
                                       "\u200d", "\ufe0f", "🇯", "🇵", "\U000e0067", "ก่", "र्", MISSING,
                                       "\u202e", "\u200b"]), max_size=14),
       max_width=st.floats(min_value=0, max_value=300))
def test_fit_name_never_raises_and_always_fits(parts: list[str], max_width: float) -> None:
    name = "".join(parts)
    short = fit_name(name, 20, max_width)
    assert name_length(short, 20) <= max_width
    assert short == name or short == "" or short.endswith("…")
    drawn(short, 20)
    drawn(name, 20, anchor="mm", xy=(280, 45))


# --- Names DejaVu has are drawn exactly as before --------------------------------------------------------

ASCII = ["Ann", "Bob", "Quillon Unseen-Before", "x_X gamer 42 (AFK)", "Zoë Ørsted", "Иван Петров", "محمد",
         "ἈΘΗΝᾶ", "Mary-Jane O'Neil, Jr.", "☺ ♥ ✓ ★", "gy Ty"]


@pytest.mark.parametrize("name", ASCII)
@pytest.mark.parametrize(("size", "bold"), [(14, False), (18, True), (22, False), (26, True), (28, True)])
def test_names_dejavu_has_draw_exactly_as_before(name: str, size: int, bold: bool) -> None:
    for anchor, xy in [("la", (10, 10)), ("ls", (10.5, 50.25)), ("lm", (12.3, 44.7)), ("mm", (280, 45)),
                       ("rs", (540.6, 60)), ("lt", (10, 10)), ("lb", (10, 70)), ("ma", (280.5, 5)), ("ld", (9, 70))]:
        assert same(drawn(name, size, bold=bold, anchor=anchor, xy=xy),
                    dejavu(name, size, bold=bold, anchor=anchor, xy=xy)), (name, anchor)
    assert name_length(name, size, bold=bold) == font(size, bold).getlength(name)
    for max_width in (30.0, 80.0, 150.0):
        assert fit_name(name, size, max_width, bold=bold) == common.fit_text(name, size, max_width, bold=bold)


# --- The shipped fonts ----------------------------------------------------------------------------------

def test_every_font_of_the_chain_is_shipped_with_a_licence() -> None:
    chain = set(common._name_chain(False)) | set(common._name_chain(True))
    for file in chain:
        assert (FONT_DIR / file).is_file(), file
    licences = {p.name for p in FONT_DIR.glob("LICENSE-*.txt")}
    assert {"LICENSE-DejaVu.txt", "LICENSE-NotoSansCJK.txt", "LICENSE-NotoEmoji.txt",
            "LICENSE-NotoSans-Thai-Devanagari.txt", "LICENSE-NotoSans-Scripts.txt"} <= licences
    for name in licences - {"LICENSE-DejaVu.txt"}:
        assert "SIL OPEN FONT LICENSE" in (FONT_DIR / name).read_text(encoding="utf-8").upper()
    total = sum((FONT_DIR / f).stat().st_size for f in chain - set(common._DEJAVU))
    assert total < 8_000_000                                 # the fallback fonts stay small (7.1 MB with 16 scripts)


def test_coverage_table_matches_the_font_files() -> None:
    """coverage.json is what the runtime trusts: its hashes must be those of the committed fonts, and (where
    fontTools is installed, as with the dev extra) its code points those of the fonts' cmaps."""
    import json
    table = json.loads((FONT_DIR / "coverage.json").read_text(encoding="utf-8"))
    fonts = sorted(p for p in FONT_DIR.iterdir() if p.suffix in (".ttf", ".otf"))
    assert {p.name for p in fonts} == {name for name in table if not name.startswith("_")}
    for path in fonts:
        assert table[path.name]["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest(), path.name
    from fontTools import ttLib as ttlib  # a dev dependency (pyproject), as tools/subset_fonts.py needs it
    for path in fonts:
        bits = common._coverage(path.name)
        have = {i * 8 + b for i, byte in enumerate(bits) if byte for b in range(8) if byte >> b & 1}
        cmap = ttlib.TTFont(str(path), lazy=True).getBestCmap()
        assert have == {cp for cp, name in cmap.items() if name != ".notdef"}, path.name
