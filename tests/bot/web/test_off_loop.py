"""A page's first read of a long match replays its move log off the event loop: asserted by where the engine's
moves are played (a thread other than the loop's), never by how long anything takes on a loaded machine."""

from __future__ import annotations

import random
import threading

import pytest

from bot.model import Match
from bot.services import Services
from tests.bot.web.support import allow_local, fetch, link, pages_on, serve
from tests.conftest import ANN, BOB, CHANNEL, GUILD

LONG = 30           # whole turns: Rincala keeps its whole history in the state, so its position is a replay too


@pytest.fixture(autouse=True)
def loopback(monkeypatch):
    allow_local(monkeypatch)


@pytest.fixture
async def site(services):
    running = await serve(services)
    yield running
    await running.stop()


async def long_match(services: Services, game: str, turns: int, seed: int = 3) -> Match:
    """A running match of ``turns`` whole turns of seeded random moves that avoid ending it."""
    rng = random.Random(seed)
    match = await services.challenges.challenge(game, guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=None)
    match = await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    for _ in range(turns):
        state, seat, moves = match.position, match.position.to_move, []
        while not state.is_over and state.to_move == seat:
            legal = state.legal_moves()
            move = rng.choice([m for m in legal if not state.play(m).is_over] or legal)
            moves.append(move)
            state = state.play(move)
        match = (await services.play.submit_turn(match, match.to_move_user.user_id, moves, guild_id=GUILD)).match
        assert match.status == "active"
    return match


async def test_a_long_matchs_first_page_read_replays_its_log_in_a_thread_never_on_the_loop(services, site,
                                                                                          monkeypatch):
    match = await long_match(services, "rincala", LONG)
    moves = len(await services.ctx.matches.moves(match.id))
    await pages_on(services)
    token = await link(services, match)
    services.ctx.positions.forget(match.id)          # as after a restart: nothing of the match is cached
    played_in: list[int] = []
    state_type = type(match.position)
    play = state_type.play

    def watched(state, move):
        played_in.append(threading.get_ident())
        return play(state, move)
    monkeypatch.setattr(state_type, "play", watched)
    loop = threading.get_ident()                     # the tests' event loop runs the web server too
    for path in (f"/m/{token}", f"/m/{token}/data.json"):
        status, _headers, body = await fetch(site.port, path)
        assert status == 200 and f"#{match.id}" in body.decode()
    # the position (the whole history) and the page's turns: both replays happened, neither on the loop
    assert len(played_in) >= 2 * moves > 2 * LONG
    assert loop not in played_in
    played_in.clear()
    assert (await fetch(site.port, f"/m/{token}"))[0] == 200
    assert played_in == []                           # then kept: a second read replays nothing
