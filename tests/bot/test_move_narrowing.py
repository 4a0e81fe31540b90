"""The move autocomplete narrows a long list through the engine's steps (engines.steps), through the real
command tree: more than 25 turns never show as 25 of them, every legal move is found by following the groups,
and the groups speak the player's language."""

from __future__ import annotations

import random

import pytest

from engines import GAMES
from tests.bot.support import GUILD, autocompleted_turn, boards, cards


@pytest.fixture
def people(fake):
    return [fake.user(11, "Ann"), fake.user(12, "Bob")]


async def started(fake, people, game: str):
    ann, bob = people
    card = cards(await fake.slash(ann, f"{game} challenge", opponent=bob))[0]
    board = boards(await fake.click(bob, card.button("Accept")["custom_id"], message=card))[-1]
    mover = next(p for p in people if f"<@{p['id']}>" == board.content)
    match = (await fake.client.services.queries.matches_of(int(mover["id"]), guild_id=GUILD))[0]
    return mover, (await fake.client.services.queries.get(match.id)).state


async def reachable(fake, user, command: str, typed: str = "", depth: int = 0) -> list[str]:
    """Every value the autocomplete leads to from ``typed``, following each group ('e2… (3 moves)')."""
    choices = await fake.autocomplete(user, command, "move", move=typed)
    assert 1 <= len(choices) <= 25 and depth < 6
    out = []
    for choice in choices:
        if choice["name"].startswith(choice["value"] + "…"):
            below = await reachable(fake, user, command, choice["value"], depth + 1)
            count = int(choice["name"].split("(")[-1].split()[0])
            assert len(below) == count, f"{choice['name']} leads to {len(below)} moves"
            out += below
        else:
            out.append(choice["value"])
    return out


async def test_a_long_list_is_narrowed_and_every_legal_move_is_found(fake, people):
    mover, state = await started(fake, people, "roocala")
    legal = state.legal_moves()
    assert len(legal) > 25
    first = await fake.autocomplete(mover, "roocala move", "move", move="")
    assert all(c["name"].startswith(c["value"] + "…") for c in first)     # groups, each saying how many
    assert sorted(await reachable(fake, mover, "roocala move")) == legal    # nothing cut, nothing else
    start = first[0]["value"]
    inside = await fake.autocomplete(mover, "roocala move", "move", move=start)
    assert [c["value"] for c in inside] == [m for m in legal if m.startswith(start)]
    assert all(" — " in c["name"] for c in inside)                          # a move says what it does


async def test_a_narrowed_turn_is_played_through_the_command(fake, people):
    mover, state = await started(fake, people, "spinca")
    value = await autocompleted_turn(fake, mover, "spinca move", -1)
    assert value in state.legal_moves()
    out = await fake.slash(mover, "spinca move", move=value)
    assert boards(out)
    match = (await fake.client.services.queries.matches_of(int(mover["id"]), guild_id=GUILD))[0]
    after = (await fake.client.services.queries.get(match.id)).state
    assert after.encode() == state.play(value).encode()


async def test_groups_speak_german(fake, people):
    mover, state = await started(fake, people, "roocala")
    fake.locale = "de"
    choices = await fake.autocomplete(mover, "roocala move", "move", move="")
    assert choices and all(c["name"].endswith(" Züge)") or c["name"].endswith("(1 Zug)") for c in choices)
    assert not any("move" in c["name"] for c in choices)


def quincala_mid_turn():
    """A seeded Quincala position where, after a placement, the same player places again among > 25 turns."""
    rng = random.Random(0)
    state = GAMES["quincala"].new(seed=0)
    while True:
        moves = state.legal_moves()
        placements = [m for m in moves if "@" in m]
        if placements and state.play(placements[0]).to_move == state.to_move \
                and len(GAMES["quincala"].turn_suggestions(state, placements[0] + " ", 26)) > 25:
            return state, placements[0]
        state = state.play(rng.choice(moves))


async def jump(fake, db, people, position) -> dict:
    """The running match (#1) jumps to ``position`` (the autocomplete reads the stored position); its mover."""
    async with db.transaction() as tx:
        await tx.execute("UPDATE matches SET position = ? WHERE id = 1", (position.encode(),))
    fake.client.services.ctx.positions.forget(1)
    match = await fake.client.services.queries.get(1)
    return next(p for p in people if int(p["id"]) == match.to_move_user.user_id)


async def test_a_later_move_of_the_turn_is_narrowed_after_the_moves_typed(fake, people, db):
    await started(fake, people, "quincala")
    state, placement = quincala_mid_turn()
    mover = await jump(fake, db, people, state)
    after = state.play(placement)
    assert len(after.legal_moves()) > 25
    choices = await fake.autocomplete(mover, "quincala move", "move", move=placement + " ")
    assert all(c["value"].startswith(placement + " ") for c in choices)
    found = await reachable(fake, mover, "quincala move", placement + " ")
    assert sorted(v[len(placement) + 1:] for v in found) == after.legal_moves()


async def test_where_steps_do_not_apply_the_list_says_how_to_see_the_rest(fake, people, db):
    await started(fake, people, "spinca")
    state = GAMES["spinca"].decode("2 ...W/...B/..../..../.../.../.../../.. 1 1d2")
    mover = await jump(fake, db, people, state)
    typed = "1d1 -"                     # a lenient form the engine reads as the slides from 1d1
    choices = await fake.autocomplete(mover, "spinca move", "move", move=typed)
    assert len(choices) == 25
    assert all(c["value"].startswith("1d1-") for c in choices[:-1])
    assert choices[-1]["name"] == "More turns start like this: type more of your turn to see them."
