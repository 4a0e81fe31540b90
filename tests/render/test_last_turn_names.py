"""Every last-turn line names the player who moved, in every game, and stays at game end (issue [16]).

Probes: the line's region of the board changes when only the mover's name changes (and not when only another
player's name does), and a finished game's board still shows the turn that ended it.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from engines import GAMES
from render import board_png
from render import quincala as rq
from render import rincala as ri
from render import roocala as rr
from render import spinca as rs
from render.common import bare

NAMES = ["Ann", "Bob", "Cy"]


def turns(key: str, players: int, seed: int, variant: str | None = None):
    """(after, before, moves) of every whole turn of a seeded random game, to its end."""
    game = GAMES[key]
    rng = random.Random(seed)
    state = game.new(players=players, seed=seed, variant=variant)
    out = []
    while not state.is_over and len(out) < 600:
        before, seat, moves = state, state.to_move, []
        while not state.is_over and state.to_move == seat:
            move = rng.choice(state.legal_moves())
            moves.append(move)
            state = state.play(move)
        out.append((state, before, moves))
    return out


def image(state, before, moves, names) -> Image.Image:
    return Image.open(io.BytesIO(board_png(state, last_turn=moves, names=names, previous=before))).convert("RGB")


def differs(a: Image.Image, b: Image.Image, box) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def renamed(names: list[str], seat: int, new: str) -> list[str]:
    out = list(names)
    out[seat] = new
    return out


def probe_names(state, before, moves, players: int, box) -> None:
    """Only the mover's name shows in ``box`` (the last-turn line): renaming the mover changes it, renaming
    anybody else does not."""
    names = NAMES[:players]
    mover = before.to_move
    base = image(state, before, moves, names)
    assert differs(base, image(state, before, moves, renamed(names, mover, "Zebedee")), box)
    for other in set(range(players)) - {mover}:
        assert not differs(base, image(state, before, moves, renamed(names, other, "Zebedee")), box)


def test_rincala_with_three_players_names_who_moved():
    for state, before, moves in turns("rincala", 3, seed=3)[4:7]:
        lines = ri.last_turn_lines(moves, ri.replay(before, moves))
        im = image(state, before, moves, NAMES)
        box = (0, im.height - 12 - ri.LINE_H * len(lines) - ri.LINE_H, im.width, im.height)   # heading + lines
        probe_names(state, before, moves, 3, box)


def test_roocala_names_who_moved_and_keeps_the_last_move_at_the_end():
    played = turns("roocala", 2, seed=3)
    state, before, moves = played[10]
    box = (0, rr.status_top("hex"), rr.WIDTH, rr.height("hex"))
    probe_names(state, before, moves, 2, box)
    end, before, moves = played[-1]
    assert end.is_over
    with_move, without = image(end, before, moves, NAMES[:2]), image(end, None, [], NAMES[:2])
    assert differs(with_move, without, box)                    # the move that ended the game is still told


@pytest.mark.parametrize("when", [30, -1])
def test_quincala_names_who_moved(when):
    played = turns("quincala", 2, seed=3)
    state, before, moves = played[when]
    box = (0, rq.NOTE_Y - 14, rq.WIDTH, rq.NOTE_Y + 14)
    if state.is_over:                  # the end sentence names both: the probe is the line being there at all
        assert len(rq.end_sentence(state, NAMES[:2])) == 1
        assert differs(image(state, before, moves, NAMES[:2]), image(state, None, [], NAMES[:2]), box)
    else:
        probe_names(state, before, moves, 2, box)


@pytest.mark.parametrize("players", [2, 3])
def test_spinca_names_the_player_not_the_seat(players):
    played = turns("spinca", players, seed=3)
    for state, before, moves in [played[5], played[-1]]:
        mover = before.to_move
        lines = [t for t in rs.layout(state, moves, NAMES[:players], before).texts if t.role == "last"]
        assert len(lines) == 1 and f"by {NAMES[mover]}:" in bare(lines[0].text.replace("\u2068", "").replace(
            "\u2069", "")), lines
        assert "White" not in lines[0].text and "Black" not in lines[0].text


LONG = ["Maximilian Alexander von Habsburg-Lothringen", "Bartholomew Fitzgerald-Montgomery",
        "Konstantinos Papadopoulos-Georgiou"]


def test_quincala_keeps_the_last_turn_under_a_two_line_end_sentence():
    state, before, moves = turns("quincala", 2, seed=3)[-1]
    names = LONG[:2]
    assert state.is_over and len(rq.end_sentence(state, names)) == 2
    box = (0, rq.THIRD_Y - 14, rq.WIDTH, rq.THIRD_Y + 14)
    base = image(state, before, moves, names)
    assert differs(base, image(state, None, [], names), box)
    # it names who moved: renaming the mover changes the line, renaming the other player does not
    mover, other = before.to_move, 1 - before.to_move
    for seat, changes in ((mover, True), (other, False)):
        new = renamed(names, seat, LONG[2])
        assert len(rq.end_sentence(state, new)) == 2
        assert differs(base, image(state, before, moves, new), box) == changes, seat


@pytest.mark.parametrize("players", [2, 3])
def test_spinca_keeps_the_last_turn_under_a_two_line_end_sentence(players):
    state, before, moves = turns("spinca", players, seed=3)[-1]
    names = LONG[:players]
    texts = rs.layout(state, moves, names, before).texts
    assert state.is_over and len([t for t in texts if t.role == "end"]) == 2
    last = [t for t in texts if t.role == "last"]
    assert len(last) == 1 and "by " in bare(last[0].text), [t.text for t in texts if t.role in ("end", "last")]
    y = round(rs.line_centre(players, 2))
    box = (0, y - 13, rs.WIDTH, y + 13)
    assert differs(image(state, before, moves, names), image(state, None, [], names), box)
