"""The Quincala board image: a valid, small, deterministic PNG whose pixels mean something."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from engines import GAMES
from render import board_png
from render import quincala as rq
from render.common import MAX_PNG_BYTES, WINNER

GAME = GAMES["quincala"]
FILES = "abcdefghij"
DOTS = [f"{f}{r}" for r in range(1, 11) for f in FILES]


def position(board: dict[str, str], mover: str = "w", immune: str = "-", passes: int = 0,
             trays: tuple[str, str, str, str] = ("-", "-", "-", "-")) -> str:
    """A full 5-size code: the pieces a test does not place stand as towers on a1-d1 / j10-g10. ``trays``:
    White's hand and ledge, Black's hand and ledge, as in the code."""
    counts = {f"{c}{s}": 4 for c in "wb" for s in range(1, 6)}
    cells = {d: p.split() for d, p in board.items()}
    for ps in [*cells.values(), *[[t[i:i + 2] for i in range(0, len(t), 2)] for t in trays if t != "-"]]:
        for p in ps:
            counts[p] -= 1
    for c, spots in (("w", ["a1", "b1", "c1", "d1"]), ("b", ["j10", "i10", "h10", "g10"])):
        for spot in spots:
            tower = [f"{c}{s}" for s in range(1, 6) if counts[f"{c}{s}"] > 0]
            for p in tower:
                counts[p] -= 1
            if tower:
                cells[spot] = tower
    dots = ["".join(sorted(cells[d], key=lambda p: int(p[1]))) if d in cells else "." for d in DOTS]
    return " ".join(["5", ",".join(dots), *trays, mover, "place", immune, f"-/{passes}"])


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def close(a, b, tol=30) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def white_wins():
    """White completes its tower on its own quincala dot f5 (the mover wins: Black is 'to move' after)."""
    prev = GAME.decode(position({"f5": "w1 w2 w3 w4", "f4": "w5", "e5": "b1 b2"}))
    return prev, ["f4-f5"], prev.play("f4-f5")


def black_wins():
    """Spec example 3: White's c4-c5 releases b4, which completes Black's tower on e5 (the non-mover wins)."""
    prev = GAME.decode(position({"e5": "b1 b2 b3 b5", "f6": "w1 w2 w3 w4", "c5": "b4", "c4": "w5",
                                 "a5": "w2 w4", "c6": "b5"}))
    return prev, ["c4-c5"], prev.play("c4-c5")


class Said:
    """Every text the renderer draws (names and fixed text) with where, rebuilt into lines by baseline."""

    def __init__(self, monkeypatch):
        self.parts: list[tuple[float, float, str]] = []
        label, name = rq._label, rq._name

        def spy_label(img, x, baseline, text, size, **k):
            self.parts.append((round(baseline), x - (rq._length(text, size, k.get("bold", False)) / 2
                                                     if k.get("align") == "m" else 0), text))
            label(img, x, baseline, text, size, **k)

        def spy_name(img, x, baseline, text, size, **k):
            self.parts.append((round(baseline), x, text))
            name(img, x, baseline, text, size, **k)

        monkeypatch.setattr(rq, "_label", spy_label)
        monkeypatch.setattr(rq, "_name", spy_name)

    def lines(self) -> list[str]:
        rows: dict[int, list[tuple[float, str]]] = {}
        for y, x, text in self.parts:
            rows.setdefault(y, []).append((x, text))
        return ["".join(t for _, t in sorted(rows[y])) for y in sorted(rows)]


def random_positions(seed: int, per_variant: int):
    """Seeded random games of every variant, stopped at random points: (state before the turn, turn, after)."""
    rng = random.Random(seed)
    out = []
    for variant in GAME.variants:
        for _ in range(per_variant):
            state = GAME.new(variant=variant)
            before, turn, last = state, [], None
            for _ in range(rng.randrange(1, 120)):
                if state.is_over:
                    break
                if state.to_move != last:
                    before, turn, last = state, [], state.to_move
                move = rng.choice(state.legal_moves())
                state = state.play(move)
                turn.append(move)
            out.append((before, turn, state))
    return out


@pytest.mark.parametrize("variant", ["5", "4", "3"])
def test_valid_png_within_limits_and_deterministic(variant):
    s = GAME.new(variant=variant)
    t = s.play(s.legal_moves()[0])
    png = board_png(t, last_turn=[s.legal_moves()[0]], names=["Ann", "Bob"], previous=s)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) <= MAX_PNG_BYTES
    im = image(png)
    assert 800 <= im.width <= 1000
    assert png == board_png(t, last_turn=[s.legal_moves()[0]], names=["Ann", "Bob"], previous=s)
    assert board_png(GAME.new(variant=variant))[:8] == b"\x89PNG\r\n\x1a\n"


def test_identical_input_gives_identical_bytes_even_with_cold_caches():
    prev, moves, done = black_wins()
    first = [board_png(s, last_turn=m, names=["Ann", "Bob"], previous=p)
             for p, m, s in random_positions(5, 1) + [(prev, moves, done)]]
    for name in dir(rq):                     # every cached layer, sprite, text mask and the palette
        cache_clear = getattr(getattr(rq, name), "cache_clear", None)
        if cache_clear is not None:
            cache_clear()
    again = [board_png(s, last_turn=m, names=["Ann", "Bob"], previous=p)
             for p, m, s in random_positions(5, 1) + [(prev, moves, done)]]
    assert first == again


def test_identical_bytes_in_a_fresh_process_with_another_hash_seed():
    """No dependence on set/dict order or on what was drawn before: a new interpreter draws the same bytes."""
    prev, moves, done = black_wins()
    here = board_png(done, last_turn=moves, names=["Ann", "Bob"], previous=prev)
    code = ("import sys; from engines import GAMES; from render import board_png; G = GAMES['quincala']; "
            f"s, p = G.decode({done.encode()!r}), G.decode({prev.encode()!r}); "
            f"sys.stdout.buffer.write(board_png(s, last_turn={moves!r}, names=['Ann', 'Bob'], previous=p))")
    env = dict(os.environ, PYTHONHASHSEED="4242")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, check=True)
    assert out.stdout == here


def test_the_palette_holds_every_key_colour_exactly():
    colours = rq.palette(GAME.new()).getpalette() or []
    entries = {tuple(colours[i:i + 3]) for i in range(0, len(colours), 3)}
    for colour in (rq.BOARD_FILL, rq.WHITE_DOT, rq.WIN_TINT, rq.PLACE_WASH, rq.WHITE_PIECE, rq.BLACK_PIECE,
                   rq.LEG_INK, rq.LEG_CASE, rq.TRAVEL_INK, rq.STAR_FILL, WINNER):
        assert colour in entries, colour


def test_random_positions_of_every_variant_fit_width_and_size():
    seen = set()
    for before, turn, state in random_positions(11, 3):
        png = board_png(state, last_turn=turn, names=["Annabelle", "Bartholomew"], previous=before)
        im = image(png)
        assert 800 <= im.width <= 1000 and len(png) <= MAX_PNG_BYTES, (state.encode(), len(png))
        seen.add(state.variant)
    assert seen == set(GAME.variants)


def test_white_dots_placing_wash_and_winning_tint_follow_the_player_to_move():
    white_view = image(board_png(GAME.decode(position({}, mover="w"))))
    black_view = image(board_png(GAME.decode(position({}, mover="b"))))
    # White's winning dots are f5 and f6 (green for White), e5 and e6 plain white
    for dot in ("f5", "f6"):
        assert close(white_view.getpixel(tuple(map(round, rq.dot_centre(dot)))), rq.WIN_TINT)
        assert close(black_view.getpixel(tuple(map(round, rq.dot_centre(dot)))), rq.WHITE_DOT)
    for dot in ("e5", "e6"):
        assert close(white_view.getpixel(tuple(map(round, rq.dot_centre(dot)))), rq.WHITE_DOT)
        assert close(black_view.getpixel(tuple(map(round, rq.dot_centre(dot)))), rq.WIN_TINT)
    # the placing areas of the player to move are washed blue: a point between dots of ranks 2-3
    x, y = rq.dot_centre("g3")
    between = (round(x + rq.STEP_X / 2 - 14), round(y - rq.STEP_Y / 2 + 14))
    assert close(white_view.getpixel(between), rq.PLACE_WASH, 12)
    assert not close(black_view.getpixel(between), rq.PLACE_WASH, 12)
    x, y = rq.dot_centre("g8")
    between = (round(x + rq.STEP_X / 2 - 14), round(y - rq.STEP_Y / 2 + 14))
    assert close(black_view.getpixel(between), rq.PLACE_WASH, 12)
    assert not close(white_view.getpixel(between), rq.PLACE_WASH, 12)


def test_tower_bars_show_each_piece_colour_in_size_order():
    im = image(board_png(GAME.decode(position({"c5": "w1 b3 w5"}))))
    for i, (p, fill) in enumerate((("w1", rq.WHITE_PIECE), ("b3", rq.BLACK_PIECE), ("w5", rq.WHITE_PIECE))):
        x0, y0, x1, y1 = rq.bar_box("c5", i, 3, int(p[1]))
        # sample beside the numeral, inside the bar
        assert close(im.getpixel((round(x0 + 4), round((y0 + y1) / 2))), fill, 40), p
    # the largest piece's bar is the widest
    assert rq.bar_box("c5", 2, 3, 5)[2] - rq.bar_box("c5", 2, 3, 5)[0] > rq.bar_box("c5", 0, 3, 1)[2] - \
        rq.bar_box("c5", 0, 3, 1)[0]


def test_immune_piece_gets_a_star():
    plain = image(board_png(GAME.decode(position({"c4": "w3"}, mover="b"))))
    marked = image(board_png(GAME.decode(position({"c4": "w3"}, mover="b", immune="c4:3"))))
    spot = tuple(map(round, rq.star_centre("c4", 0, 1, 3)))
    assert close(marked.getpixel(spot), rq.STAR_FILL, 40)
    assert not close(plain.getpixel(spot), rq.STAR_FILL, 40)


def test_last_turn_draws_leg_and_travel_arrows():
    prev = GAME.decode(position({"d3": "w1 w3 w4", "d6": "b3", "b7": "b1"}))
    moves = ["d3-d6", "d6-b6", "b6-b7"]
    s = prev
    for m in moves:
        s = s.play(m)
    with_turn = image(board_png(s, last_turn=moves, previous=prev))
    without = image(board_png(s))
    x, y = rq.dot_centre("d4")          # the first leg d3-d6 passes over d4
    assert close(with_turn.getpixel((round(x), round(y + rq.STEP_Y / 2))), rq.LEG_INK, 40)
    assert not close(without.getpixel((round(x), round(y + rq.STEP_Y / 2))), rq.LEG_INK, 40)
    # the knocked b1 travels b7 -> e5: somewhere on that line is the travel colour
    (ax, ay), (bx, by) = rq.dot_centre("b7"), rq.dot_centre("e5")
    hits = sum(close(with_turn.getpixel((round(ax + (bx - ax) * t / 40), round(ay + (by - ay) * t / 40))),
                     rq.TRAVEL_INK, 40) for t in range(8, 30))
    assert hits >= 5
    # the same image without ``previous`` still shows the legs (from the move strings)
    legs_only = image(board_png(s, last_turn=moves))
    assert close(legs_only.getpixel((round(x), round(y + rq.STEP_Y / 2))), rq.LEG_INK, 40)


def test_finished_game_renders():
    prev, moves, s = black_wins()
    png = board_png(s, last_turn=moves, names=["Ann", "Bob"], previous=prev)
    assert len(png) <= MAX_PNG_BYTES and image(png).width == rq.WIDTH


def test_a_finished_game_states_its_outcome_with_the_players_names(monkeypatch):
    prev, moves, s = black_wins()
    said = Said(monkeypatch)
    rq.draw(s, moves, ["Ann", "Bob"], prev)
    lines = said.lines()
    assert lines[0] == "Bob wins with a complete tower on Ann's home dot e5."     # the sentence heads the board
    assert lines[1].startswith("Last turn: c4-c5 · ")


def test_a_finished_game_shows_the_winner_badge_in_the_winners_tray_only():
    prev, moves, s = black_wins()
    im = image(board_png(s, last_turn=moves, names=["Ann", "Bob"], previous=prev))
    for seat, expected in ((1, True), (0, False)):
        bx, by = rq.winner_badge_xy(seat)
        star = (bx + round(rq.BADGE_SIZE * 0.6), by)          # the middle of common.winner_badge's star
        assert close(im.getpixel(star), WINNER, 40) is expected, seat
    # a game still running has no badge at all
    running = image(board_png(prev, names=["Ann", "Bob"]))
    for seat in (0, 1):
        bx, by = rq.winner_badge_xy(seat)
        assert not close(running.getpixel((bx + round(rq.BADGE_SIZE * 0.6), by)), WINNER, 40)


def test_the_end_sentence_is_whole_even_with_very_long_names(monkeypatch):
    prev, moves, s = black_wins()
    names = ["Annabelle Maximiliana von Hohenzollern-Sigmaringen", "Bartholomew Fitzgerald-Smythe the Third"]
    said = Said(monkeypatch)
    rq.draw(s, moves, names, prev)
    lines = said.lines()
    sentence = rq.end_sentence(s, names)
    assert 1 <= len(sentence) <= 2
    for line in sentence:
        assert line in lines
        assert rq._name_length(line, rq.TEXT_SIZE, True) <= rq.WIDTH - 32
    text = " ".join(sentence)
    # only the names may be shortened: the sentence around them is complete, and nothing else is cut
    assert " wins with a complete tower on " in text and text.endswith("'s home dot e5.")
    winner, owner = text.split(" wins with a complete tower on ")
    assert names[1].startswith(winner.rstrip("…")) and names[0].startswith(owner[:-len("'s home dot e5.")].rstrip("…"))
    # with ordinary names the sentence is exactly outcome_text's
    from engines.base import outcome_text
    assert " ".join(rq.end_sentence(s, ["Ann", "Bob"])) == outcome_text(GAME, s.outcome(), ["Ann", "Bob"])


def test_a_long_name_is_shortened_never_its_status(monkeypatch):
    state = GAME.decode(position({}, mover="w"))
    long = "Wolfeschlegelsteinhausenbergerdorff Hubert Blaine"
    said = Said(monkeypatch)
    rq.draw(state, [], [long, "Bob"], None)
    lines = said.lines()
    status = next(line for line in lines if line.endswith(" (White) to move"))
    assert status.startswith(long[:5]) and "…" in status
    tray = next(line for line in lines if line.endswith(" (White) · to move"))
    assert "…" in tray


def test_a_draw_names_no_winner_and_says_why(monkeypatch):
    state = GAME.decode(position({}, mover="w", passes=2))
    assert state.is_over and state.winners == (0, 1)
    said = Said(monkeypatch)
    im = rq.draw(state, [], ["Ann", "Bob"], None)
    lines = said.lines()
    sentence = rq.end_sentence(state, ["Ann", "Bob"])
    assert " ".join(sentence) == "Both players passed in succession, so the game is a draw."
    assert lines[:len(sentence)] == sentence
    for seat in (0, 1):
        bx, by = rq.winner_badge_xy(seat)
        assert not close(im.getpixel((bx + round(rq.BADGE_SIZE * 0.6), by)), WINNER, 40)


def test_trays_list_hand_and_ledge_pieces_with_counts(monkeypatch):
    state = GAME.decode(position({"c8": "b2 b4"}, mover="w", trays=("w1w1w5", "b2", "-", "-")))
    assert state.hand(0) == ["w1", "w1", "w5"] and state.ledge(0) == ["b2"]
    said = Said(monkeypatch)
    im = rq.draw(state, [], ["Ann", "Bob"], None)
    lines = said.lines()
    y = rq.tray_row(0)
    row = next(line for line in lines if line.startswith("Ann (White) · to move"))
    assert "hand" in row and "×2" in row and "ledge" in row    # two w1 in the hand: one chip and its count
    assert not any(line.startswith("Bob (Black)") and "hand" in line for line in lines)   # Black's are empty
    # White's hand shows white chips, its ledge a black one (the row's right part)
    right = [im.getpixel((x, y)) for x in range(rq.WIDTH // 2, rq.WIDTH - rq.TRAY_MARGIN)]
    assert sum(close(c, rq.WHITE_PIECE, 6) for c in right) > 20
    assert sum(close(c, rq.BLACK_PIECE, 20) for c in right) > 10


def test_a_full_tray_keeps_the_name_and_the_status(monkeypatch):
    trays = ("w1w1w2w2w3w3w4w4w5w5", "b1b1b2b2b3b3b4b4b5b5", "-", "-")
    state = GAME.decode(position({}, mover="w", trays=trays))
    said = Said(monkeypatch)
    rq.draw(state, [], ["Annabelle", "Bob"], None)
    row = next(line for line in said.lines() if " (White) · to move" in line)
    assert row.startswith("Anna") and "hand" in row and "ledge" in row
    assert rq._runs_width([(row, False, False)], rq.TEXT_SIZE) < rq.WIDTH - 2 * rq.TRAY_MARGIN


def test_what_the_mover_owes_is_drawn_from_the_engines_instruction_in_the_post_language():
    """The board's note is the engine's instruction (template and facts) translated, never its English parsed."""
    from engines.quincala import INSTRUCTIONS
    from render.texts import install, speaking
    owing = GAME.decode(position({"e5": "b1 b3"}, trays=("w5", "b2", "-", "-")))   # Example 4: place first
    states, seen = [owing, owing.play("w5@c2"), owing.play("w5@c2").play("b2@j4")], set()
    rng = random.Random(3)
    while not states[-1].is_over and len(states) < 300:
        states.append(states[-1].play(rng.choice(states[-1].legal_moves())))
    table = {template: "«" + template.upper().replace("{PIECES}", "{pieces}").replace("{MOVE}", "{move}") + "»"
             for template in INSTRUCTIONS}
    install({"de": table})
    try:
        for state in states:
            found = state.instruction()
            with speaking("de"):
                note = rq.pending_note(state)
            if found is None:
                assert note == "" and state.pending() == ""
                continue
            template, facts = found
            seen.add(template)
            assert state.pending() == template.format_map(facts)
            assert note == table[template].format_map(facts)
    finally:
        install(None)
    assert seen >= {INSTRUCTIONS[0], INSTRUCTIONS[1]}
