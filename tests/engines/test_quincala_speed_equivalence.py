"""Quincala's hot-path shortcuts agree with the general code they bypass.

``play`` looks canonical move strings up in ``Geometry.actions`` instead of cleaning and parsing them,
``_generate`` lists ready-made placement strings, and the releasing phase scans only the black dots
``_mixed_after_leg`` names, and a move hands its position those dots; ``encode`` looks each dot's tower text
up in a cache, and ``play`` of the move ``canonical`` has just checked reuses the position it reached. Each
shortcut is checked here against the slow path it replaces.
"""

from __future__ import annotations

import random

import pytest

import engines.quincala as q
from engines import GAMES
from engines.base import IllegalMove

G = GAMES["quincala"]


def _random_states(variant: str, seed: int, plies: int = 120) -> list[q.QuincalaState]:
    rng = random.Random(seed)
    st = G.new(2, variant=variant)
    out = [st]
    for _ in range(plies):
        if st.is_over:
            break
        st = st.play(rng.choice(st.legal_moves()))
        out.append(st)
    return out


def _outcome(st: q.QuincalaState, move: str):
    try:
        nxt, events = st.play_traced(move)
    except IllegalMove as e:
        return str(e)
    return nxt.encode(), nxt.result, nxt.started, events


@pytest.mark.parametrize("variant", ["5", "4", "3"])
def test_canonical_moves_play_as_their_other_spellings(variant):
    rng = random.Random(int(variant))
    for st in _random_states(variant, seed=7 * int(variant)):
        legal = st.legal_moves()
        assert legal == sorted(set(legal))
        for move in rng.sample(legal, min(4, len(legal))):
            assert st.geo.actions[move] == st._parse(move)  # the table says what the parser says
            # upper case and spaces are not in the table: the slow path must give the same result
            assert _outcome(st, move) == _outcome(st, f" {move.upper()} ")
        g = st.geo
        for _ in range(3):  # canonical-looking strings that are mostly illegal here
            a, b = rng.choice(g.dots), rng.choice(g.dots)
            for move in (f"{g.names[a]}-{g.names[b]}", f"{rng.choice('wb')}{rng.randint(1, g.k)}@{g.names[a]}"):
                assert _outcome(st, move) == _outcome(st, move.upper())


@pytest.mark.parametrize("variant", ["5", "3"])
def test_mixed_after_leg_matches_a_full_scan(variant):
    rng = random.Random(11)
    full = G.new(2, variant=variant).geo.full
    for st in _random_states(variant, seed=3)[::5]:
        g = st.geo
        for _ in range(20):
            a, b = rng.sample(g.dots, 2)
            cells = list(st.cells)
            for d in (a, b):  # any change on a and b, including mixed towers
                cells[d] = rng.randint(0, full) | rng.randint(0, full) << q.SH
            want = sorted(d for d in g.black if cells[d] & q.LOW and cells[d] >> q.SH)
            assert sorted(st._mixed_after_leg(a, b, tuple(cells))) == want
        assert list(st._mixed_black()) == [d for d in g.black if st.cells[d] in g.mixed]


@pytest.mark.parametrize("variant", ["5", "4", "3"])
def test_mixed_black_dots_handed_on_are_a_full_scan(variant):
    """A turn's end, a placement, a home flush and a further leg give the next position its mixed black dots
    (``_mixed``) instead of a scan: each must be what a fresh scan of the new position finds."""
    handed = 0
    for seed in range(8):
        for st in _random_states(variant, seed=200 + seed, plies=400):
            if st._mixed is None:
                continue
            fresh = q.QuincalaState(st.geo, st.variant, st.cells, st.stash, st.mover, st.phase, st.immune,
                                    st.gained, st.passes, st.result)
            assert st._mixed == fresh._mixed_black()
            handed += 1 if st._mixed else 0
    assert handed > 100      # positions with mixed towers were handed on, not only empty ones


def test_pass_when_every_tower_is_mixed():
    """No black dot holds only the mover's pieces: the only move is ``pass``; two passes draw."""
    start = G.new(2, variant="3")
    fields = start.encode().split()
    towers = ["w1b2", "w2b3", "b1w3"] * 4
    dots = [towers[i] if i < len(towers) else "." for i in range(start.geo.n)]
    fields[1] = ",".join(dots)
    st = G.decode(" ".join(fields))
    assert st.legal_moves() == ["pass"]
    with pytest.raises(IllegalMove):
        st.play("a1-a3")
    nxt = st.play("PASS")  # the slow path
    assert nxt.encode() == st.play("pass").encode()
    assert nxt.legal_moves() == ["pass"]
    assert nxt.play("pass").result == 2


def _reference_code(st: q.QuincalaState) -> str:
    """The position code as the plain field-by-field writer (before the cache) built it."""
    g = st.geo
    fields = [str(g.k), ",".join(q._tower_text(c) for c in st.cells)]
    for i in range(4):
        colour = (i // 2) if i % 2 == 0 else 1 - i // 2
        fields.append("".join(q.piece_name(colour, s) for s in st.stash[i]) or "-")
    fields.append(q.COLOURS[st.mover])
    ph = st.phase
    fields.append("place" if ph == q.PLACE else "placed" if ph == q.PLACED else f"leg@{g.names[ph]}")
    fields.append(",".join(f"{g.names[d]}:{s}" for d, s in st.immune) or "-")
    fields.append((",".join(f"{g.names[d]}:{s}" for d, s in st.gained) or "-") + f"/{st.passes}")
    return " ".join(fields)


@pytest.mark.parametrize("variant", ["5", "4", "3"])
def test_encode_is_the_plain_writers_code(variant):
    seen = 0
    for seed in range(12):
        for st in _random_states(variant, seed=100 + seed, plies=400):
            code = st.encode()
            assert code == _reference_code(st)
            assert G.decode(code).encode() == code
            seen += 1
    assert seen > 1000


def test_encode_tower_table_holds_what_the_writer_writes_for_every_cell_of_every_board():
    k = max(board.sizes for board in q.BOARDS.values())
    cells = {w | b << q.SH for w in range(1 << k) for b in range(1 << k)}
    assert all(q._TOWER_TABLE[c] == q._tower_text(c) for c in cells)
    assert all(text is None for c, text in enumerate(q._TOWER_TABLE) if c not in cells)
    assert q._TOWER_TABLE[0] == "." and q._TOWER_TABLE[1 | 1 << q.SH] == "w1b1"
    assert q._TOWER_TABLE[0b11111 | 0b10100 << q.SH] == "w1w2w3b3w4w5b5"


@pytest.mark.parametrize("variant", ["5", "3"])
def test_play_after_canonical_is_the_position_the_move_reaches(variant):
    rng = random.Random(5)
    for st in _random_states(variant, seed=9, plies=200):
        if st.is_over:
            break
        legal = st.legal_moves()
        for move in rng.sample(legal, min(3, len(legal))):
            fresh = G.decode(st.encode())               # the same position, never asked ``canonical``
            canon = st.canonical(f" {move.upper()} ")
            assert canon == move
            after = st.play(canon)
            assert after.encode() == fresh.play(move).encode() and after.result == fresh.play(move).result
            assert after.started == fresh.play(move).started
        other = rng.choice(legal)                      # another move than the kept one is played afresh
        assert st.play(other).encode() == G.decode(st.encode()).play(other).encode()


def test_canonical_of_every_table_move_is_itself():
    for variant in ("5", "4", "3"):
        g = G.new(2, variant=variant).geo
        for move in g.actions:
            assert q._canonical_text(move) == move
            assert q._canonical_text(move.upper().replace("-", " – ")) == move
