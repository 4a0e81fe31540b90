"""Roocala and Quincala through the real command tree: variants on the card, board and match list;
whole turns typed in each game's notation; forced continuations announced."""

from __future__ import annotations

import random

import pytest

from bot.services.play import play_turn
from engines import GAMES
from tests.bot.support import GUILD, autocompleted_turn, boards, cards, pinged, said


@pytest.fixture
def people(fake):
    return [fake.user(11, "Ann"), fake.user(12, "Bob")]


async def start(fake, people, game, **options):
    ann, bob = people
    card = cards(await fake.slash(ann, f"{game} challenge", opponent=bob, **options))[0]
    out = await fake.click(bob, card.button("Accept")["custom_id"], message=card)
    return card, boards(out)[-1]


async def test_roocala_square_variant_shows_everywhere_and_plays(fake, people):
    card, board = await start(fake, people, "roocala", variant="square")
    assert "Square board (6×6)" in card.text()
    assert "Square board (6×6)" in board.text()
    listed = said(await fake.slash(people[0], "matches"))
    assert "Roocala** (Square board (6×6))" in listed
    assert "South: " in board.text() and "North: " in board.text()
    for _ in range(12):
        mover = pinged(board, people)
        choices = await fake.autocomplete(mover, "roocala move", "move", move="")
        # each move says what it does; a group of more says how many it holds
        assert choices and all(" — " in c["name"] or c["name"].endswith(" moves)") for c in choices)
        value = await autocompleted_turn(fake, mover, "roocala move")
        board = boards(await fake.slash(mover, "roocala move", move=value))[-1]
        assert "played **" in board.text() and board.files
    queries = fake.client.services.queries
    match = await queries.get((await queries.matches_of(11, guild_id=GUILD))[0].id)   # with its position
    assert match.row.variant == "square" and match.state.variant == "square"
    assert await fake.client.services.queries.log_reproduces_position(match.id)


async def test_roocala_defaults_to_hex_and_refuses_illegal_moves_by_rule(fake, people):
    card, board = await start(fake, people, "roocala")
    assert "Hex board (37 cells)" in card.text()
    mover = pinged(board, people)
    out = await fake.slash(mover, "roocala move", move="a1>g7")
    assert all(s.ephemeral for s in out) and "first checker" in said(out) and "(R-" not in said(out)


async def test_quincala_sizes_and_a_whole_turn_in_the_spec_notation(fake, people):
    card, board = await start(fake, people, "quincala", sizes="4")
    assert "4 sizes" in card.text()
    services = fake.client.services
    match = await services.queries.get((await services.queries.matches_of(11, guild_id=GUILD))[0].id)
    state = match.state
    # a two-leg move written the §7 way, "a-b-c", found from the engine's own legal legs
    for first in state.legal_moves():
        after = state.play(first)
        if after.to_move == state.to_move and any(m != "end" for m in after.legal_moves()):
            second = next(m for m in after.legal_moves() if m != "end")
            break
    else:
        pytest.fail("no two-leg move in the opening")
    typed = f"{first}-{second.split('-')[1]}"
    mover = pinged(board, people)
    board = boards(await fake.slash(mover, "quincala move", move=typed))[-1]
    assert "played **" in board.text() and board.files
    log = await services.matches.moves(match.id)
    assert [m.move for m in log][:2] == [first, second]


async def test_quincala_rules_say_the_board_is_a_reconstruction(fake, people):
    out = await fake.slash(people[0], "quincala rules")
    assert out[0].ephemeral
    text = out[0].text().lower()
    assert "unpublished" in text and "reconstruction" in text


def test_quincala_compulsory_placements_stay_with_the_player_and_are_named():
    """Random play to a turn that starts with pieces to place: a submission that does not place them all
    leaves the turn with the player, and the service reports what is still compulsory."""
    game, rng = GAMES["quincala"], random.Random(4)
    for seed in range(40):
        state = game.new(seed=seed)
        for _ in range(400):
            if state.is_over:
                break
            if state.pending() and any("@" in m for m in state.legal_moves()):
                seat = state.to_move
                place = next(m for m in state.legal_moves() if "@" in m)
                moves, states = play_turn(state, seat, place)
                after = states[-1]
                if not after.is_over and after.to_move == seat and after.pending():
                    assert moves == [place]                 # no automatic `end` inside a forced turn
                    assert after.pending()
                    return
            state = state.play(rng.choice(state.legal_moves()))
    pytest.fail("random play never reached compulsory placements")
