"""Quincala's hot-path shortcuts agree with the general code they bypass.

``play`` looks canonical move strings up in ``Geometry.actions`` instead of cleaning and parsing them,
``_generate`` lists ready-made placement strings, and the releasing phase scans only the black dots
``_mixed_after_leg`` names. Each shortcut is checked here against the slow path it replaces.
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
