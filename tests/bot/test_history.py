"""One position history (``bot.history``): every place that rebuilds a position — the positions cache, a
takeback's plan, a board at an earlier ply, a replay and a record, the log check and the archive — agrees with a
plain replay of the engine over the moves in force, after a takeback too, in a game whose position code holds
everything (Tintas) and in one whose repetition rule needs the history (Rincala)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from bot import history, records
from bot.archiver import Archiver
from bot.store.rows import MoveRow
from engines import GAMES, State
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL

GAMES_TESTED = ("tintas", "rincala")     # decoded from codes; replayed (history_in_state)


def random_turn(state: State, rng: random.Random) -> list[str]:
    """One random whole turn of the player to move that does not end the game."""
    for _ in range(50):
        seat, moves, after = state.to_move, [], state
        while not after.is_over and after.to_move == seat:
            move = rng.choice(after.legal_moves())
            after = after.play(move)
            moves.append(move)
        if not after.is_over:
            return moves
    raise AssertionError("no turn that keeps the game going")


def engine_at(game: str, row, log: list[MoveRow], ply: int) -> tuple[State, State | None, list[str]]:
    """The oracle: the engine's replay of the rows in force at ``ply`` (played by then, not undone by then), and
    the turn that led there (the last run of one seat's moves, and the position before it)."""
    in_force = [mv for mv in log if mv.ply <= ply and (mv.undone_at_ply is None or mv.undone_at_ply > ply)]
    first = len(in_force)
    while first > 0 and in_force[first - 1].seat == in_force[-1].seat:
        first -= 1
    state = before = GAMES[game].new(players=row.players, seed=row.seed, variant=row.variant)
    for i, mv in enumerate(in_force):
        if i == first:
            before = state
        state = state.play(mv.move)
    turn = [mv.move for mv in in_force[first:]]
    return state, (before if turn else None), turn


def same(a: State, b: State) -> bool:
    """The same position, with the same history where the game keeps one."""
    return a.encode() == b.encode() and getattr(a, "_seen", None) == getattr(b, "_seen", None)


async def played_with_a_takeback(services, game: str, seed: int = 3):
    """A casual match: four random turns, the last of them taken back, then two more. The match just after the
    takeback, and at the end."""
    match = await services.challenges.challenge(game, guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=0)
    match = await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    rng = random.Random(seed)

    async def turn():
        nonlocal match
        mover = match.to_move_user.user_id
        await services.play.submit_turn(match.id, mover, random_turn(match.position, rng), guild_id=GUILD)
        match = await services.queries.get(match.id)
        return mover

    for _ in range(4):
        mover = await turn()
    await services.takebacks.request(match.id, mover, guild_id=GUILD)
    match = await services.queries.get(match.id)
    other = BOB.user_id if mover == ANN.user_id else ANN.user_id
    await services.takebacks.answer(match.id, other, guild_id=GUILD, ply=match.ply, accept=True)
    match = taken_back = await services.queries.get(match.id)
    for _ in range(2):
        await turn()
    return taken_back, await services.queries.get(match.id)


@pytest.mark.parametrize("game", GAMES_TESTED)
async def test_the_positions_cache_rebuilds_the_current_position_as_the_engine_replays_it(services, game):
    _, match = await played_with_a_takeback(services, game)
    log = await services.matches.moves(match.id, with_undone=True)
    assert any(mv.undone_by is not None for mv in log)
    services.ctx.positions.forget(match.id)                # a miss: rebuilt from the log
    misses = services.ctx.positions.misses
    fresh = await services.queries.get(match.id)
    assert services.ctx.positions.misses == misses + 1
    state, previous, last_turn = engine_at(game, match.row, log, match.ply)
    assert same(fresh.position, state)
    assert fresh.previous is not None and previous is not None and same(fresh.previous, previous)
    assert fresh.last_turn == last_turn


@pytest.mark.parametrize("game", GAMES_TESTED)
async def test_a_takeback_goes_back_to_the_position_the_engine_reaches_without_the_undone_turn(services, game):
    taken_back, match = await played_with_a_takeback(services, game)
    log = await services.matches.moves(match.id, with_undone=True)
    undone = [mv for mv in log if mv.undone_by is not None]
    assert undone and {mv.undone_at_ply for mv in undone} == {taken_back.ply}
    kept = [mv for mv in log if mv.ply < undone[0].ply]
    state, _, _ = engine_at(game, match.row, kept, kept[-1].ply)
    assert taken_back.row.position == state.encode()         # what the takeback stored
    assert same(taken_back.position, state)
    services.ctx.positions.forget(match.id)
    position = await services.queries.position_at(match, taken_back.ply, turn_start=taken_back.ply)
    assert same(position.state, state)                       # and what a board of that moment shows


@pytest.mark.parametrize("game", GAMES_TESTED)
async def test_the_board_at_every_earlier_ply_is_the_engines_position_then(services, game):
    _, match = await played_with_a_takeback(services, game)
    log = await services.matches.moves(match.id, with_undone=True)
    for ply in range(match.ply + 1):
        state, previous, last_turn = engine_at(game, match.row, log, ply)
        in_force = history.in_force_at(log, ply)
        start = in_force[-len(last_turn) - 1].ply if len(in_force) > len(last_turn) else 0
        position = await services.queries.position_at(match, ply, turn_start=start)
        assert same(position.state, state), ply
        assert list(position.last_turn) == last_turn, ply
        assert (position.previous is None) == (previous is None), ply
        if previous is not None:
            assert position.previous is not None and same(position.previous, previous), ply


@pytest.mark.parametrize("game", GAMES_TESTED)
async def test_the_record_export_replays_the_turns_in_force_as_the_engine_does(services, game):
    _, match = await played_with_a_takeback(services, game)
    found, frames = await services.queries.turns(match.id, guild_id=GUILD)
    log = await services.matches.moves(match.id, with_undone=True)
    state, _, _ = engine_at(game, match.row, log, match.ply)
    assert same(frames[-1][0], state)
    in_force = [mv for mv in log if mv.undone_by is None]
    assert [m for _, _, moves in frames for m in moves] == [mv.move for mv in in_force]
    text = records.write(records.from_match(found, frames, site="test"))
    assert records.parse(text).states[-1].encode() == state.encode()     # the record replays to the same end
    assert await services.queries.log_reproduces_position(match.id)


@pytest.mark.parametrize("game", GAMES_TESTED)
async def test_an_archived_log_gives_every_position_the_live_log_gave(services, clock, game):
    _, match = await played_with_a_takeback(services, game)
    await services.play.resign(match.id, ANN.user_id, guild_id=GUILD)
    live = await services.matches.moves(match.id, with_undone=True)
    boards = [await services.queries.position_at(match, ply, turn_start=max(ply - 1, 0))
              for ply in range(match.ply + 1)]
    for row in await services.outbox.pending(match.id):
        await services.outbox.done(None, row.id, now=services.ctx.now())
    clock.advance(hours=1)
    tally = await Archiver(services, after=timedelta(minutes=10)).run_batch()
    assert tally.archived == 1
    services.ctx.matches._archives.clear()                 # read back from the blob, replayed
    assert await services.matches.moves(match.id, with_undone=True) == live
    for ply, board in enumerate(boards):
        again = await services.queries.position_at(match, ply, turn_start=max(ply - 1, 0))
        assert same(again.state, board.state) and again.last_turn == board.last_turn, ply


async def test_boards_delivered_after_the_match_moved_on_show_the_engines_position_at_their_ply(fake):
    """The Discord poster draws a late board (its ply is no longer the match's) from the one history."""
    services = fake.client.services
    rng = random.Random(4)
    match = await services.challenges.challenge("rincala", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=0)
    match = await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    await fake.client.dispatcher.deliver_pending(match.id)
    for _ in range(3):                                     # three turns stored, none of their boards posted yet
        await services.play.submit_turn(match.id, match.to_move_user.user_id, random_turn(match.position, rng),
                                        guild_id=GUILD)
        match = await services.queries.get(match.id)
    drawn: list[tuple[State, State | None, list[str]]] = []
    board = fake.client.renders.board

    async def drawing(state, **kw):
        drawn.append((state, kw.get("previous"), list(kw.get("last_turn") or [])))
        return await board(state, **kw)

    fake.client.renders.board = drawing                    # records what is drawn, draws it too
    await fake.client.dispatcher.deliver_pending(match.id)
    log = await services.matches.moves(match.id, with_undone=True)
    ends = [mv.ply for i, mv in enumerate(log) if i + 1 == len(log) or log[i + 1].seat != mv.seat]
    assert len(drawn) == len(ends) == 3
    for (state, previous, last_turn), ply in zip(drawn, ends, strict=True):
        want, want_previous, want_turn = engine_at("rincala", match.row, log, ply)
        assert same(state, want) and last_turn == want_turn, ply
        assert previous is not None and want_previous is not None and same(previous, want_previous), ply


def test_the_history_replays_a_log_with_undone_rows_as_the_engine_plays_the_rows_in_force():
    """``history.replay`` plays each row on the position of the rows in force when it was played."""
    rng = random.Random(5)
    setup = _Setup("tintas", None, 2, 7)
    state = history.start(setup)
    first = random_turn(state, rng)
    rows = []
    for i, move in enumerate(first):
        rows.append(MoveRow(i + 1, 1, 0, move, "", "", None, None))
    undone = MoveRow(len(rows) + 1, 2, 1, random_turn(_play(state, first), rng)[0], "", "", 9, len(rows) + 2)
    after_undo = random_turn(_play(state, first), random.Random(11))
    again = [MoveRow(len(rows) + 2 + i, 3, 1, m, "", "", None, None) for i, m in enumerate(after_undo)]
    states = history.replay(setup, [*rows, undone, *again])
    assert states[-1].encode() == _play(state, [*first, *after_undo]).encode()
    assert states[len(rows)].encode() == _play(state, [*first, undone.move]).encode()


class _Setup:
    def __init__(self, game: str, variant: str | None, players: int, seed: int):
        self.game, self.variant, self.players, self.seed = game, variant, players, seed


def _play(state: State, moves: list[str]) -> State:
    for move in moves:
        state = state.play(move)
    return state
