"""Playing the bot itself through the real command tree: it accepts at once, thinks off the loop, moves like a
player (announced and drawn), fills several seats, and stops when the match ends."""

from __future__ import annotations

import asyncio

import pytest

from bot.ai_player import AIPlayer
from bot.metrics import REGISTRY
from tests.bot.support import GUILD, autocompleted_turn, boards, said


@pytest.fixture
def ann(fake):
    return fake.user(11, "Ann")


async def latest_board(fake):
    await fake.settle()                       # anything still running in the background
    return boards(fake.sent)[-1]


async def play_against_bot(fake, ann, game, board, limit=200):
    for _ in range(limit):
        text = board.text()
        if "🏆" in text or "🤝" in text:
            return board
        assert board.content == "<@11>", text    # the only ping is the human's
        value = await autocompleted_turn(fake, ann, f"{game} move")
        out = await fake.slash(ann, f"{game} move", move=value)
        assert "Move played" in said(out)
        board = await latest_board(fake)
        assert board is boards(out)[-1]      # the bot answered within the command: nothing came later
    raise AssertionError("the game against the bot did not end")


async def test_a_whole_tintas_game_against_the_bot(fake, ann):
    out = await fake.slash(ann, "tintas vs-bot", level=1)
    first = boards(out)[0]                   # the match starts at once, announced with its first board
    assert "Bot (level 1)" in first.text() and "casual" in first.text().lower()
    assert "The match begins" in said(out) and f"/{first.message_id}" in said(out)
    board = await latest_board(fake)
    assert board is boards(out)[-1]
    final = await play_against_bot(fake, ann, "tintas", board)
    bot_turns = [s for s in fake.sent if s.kind == "channel_message" and "**Bot (level 1)** played" in s.text()]
    assert bot_turns and all(s.files for s in bot_turns)            # announced and drawn like a human's
    assert "Ratings:" not in final.text()                            # games against the bot are unrated
    assert await fake.client.services.ratings.snapshot() == []
    match = (await fake.client.services.queries.matches_of(11, guild_id=GUILD, statuses=("finished",)))[0]
    assert await fake.client.services.queries.log_reproduces_position(match.id)


async def test_challenging_the_bot_user_starts_at_once_at_the_chosen_level(fake, ann):
    me = fake.user(int(fake.client.user.id), fake.client.user.name, bot=True)
    out = await fake.slash(ann, "roocala challenge", opponent=me, level=2, variant="square")
    labels = [c.get("label") for s in out for c in s.components]
    assert "Accept" not in labels                                     # nothing to accept: the bot said yes
    assert boards(out)                                                # the first board is posted at once
    board = await latest_board(fake)
    assert "Bot (level 2)" in board.text() and "Square board" in board.text()


async def test_one_human_fills_a_rincala_table_with_two_bots(fake, ann):
    await fake.slash(ann, "rincala vs-bot", level=1, bots=2)
    board = await latest_board(fake)
    assert "Bot A (level 1)" in board.text() and "Bot B (level 1)" in board.text()
    final = await play_against_bot(fake, ann, "rincala", board, limit=300)
    assert "🏆" in final.text() or "🤝" in final.text()


async def test_a_bot_seat_cannot_be_moved_by_a_human(fake, ann):
    await fake.slash(ann, "spinca vs-bot", level=1, bots=3)       # four players: Ann + a bot partner vs two bots
    await latest_board(fake)
    match = (await fake.client.services.queries.matches_of(11, guild_id=GUILD))[0]
    partner = next(p for p in match.seated if p.is_ai and (p.seat - match.seat_of(11)) % 2 == 0)
    assert partner.name.startswith("Bot")
    bob = fake.user(12, "Bob")
    out = await fake.slash(bob, "spinca move", move="1a1")
    assert all(s.ephemeral for s in out) and "no active Spinca match" in said(out)


class RecordingPool:
    """Stands in for the process pool: answers with the in-process search and records cancellations."""

    def __init__(self):
        self.cancelled: list[int] = []

    def cancel(self, match_id):
        self.cancelled.append(match_id)


async def test_the_bot_stops_thinking_when_the_match_ends(services):
    from tests.conftest import ANN, CHANNEL
    pool = RecordingPool()
    AIPlayer(services, pool)
    match = await services.challenges.challenge_bot("tintas", guild_id=GUILD, channel_id=CHANNEL, player=ANN, level=1)
    await services.play.resign(match.id, ANN.user_id, guild_id=GUILD)
    assert pool.cancelled == [match.id]


# ---- the AI pool under overlapping work, and its fallbacks -----------------------------------------------------


def fallbacks(**labels: str) -> float:
    """How many AI fallbacks /metrics has counted (those with ``labels``; all of them without)."""
    from bot.metrics import AI_FALLBACKS
    return sum(sample.value for metric in AI_FALLBACKS.collect() for sample in metric.samples
               if sample.name.endswith("_total") and labels.items() <= sample.labels.items())


@pytest.fixture
def ai_pool():
    from ai.pool import AIPool
    pool = AIPool()            # the bot's own: one worker per core, up to the cap
    yield pool
    pool.close()


async def bot_to_move(services, game: str, level: int):
    """A fresh match against the bot at ``level``, at the bot's turn (Ann opens if she is first)."""
    from tests.conftest import ANN, CHANNEL
    match = await services.challenges.challenge_bot(game, guild_id=GUILD, channel_id=CHANNEL, player=ANN,
                                                    level=level)
    match = await services.queries.get(match.id)
    if match.ai_to_move is None:
        await services.play.submit_turn(match, ANN.user_id, match.position.legal_moves()[0], guild_id=GUILD)
        match = await services.queries.get(match.id)
    assert match.ai_to_move is not None
    return match


def position_after(game: str, plies: int, seed: int):
    """A position some random plies into a game (never a finished one)."""
    import random

    from engines import GAMES
    rng = random.Random(seed)
    state = GAMES[game].new(players=2, seed=seed)
    for _ in range(plies):
        following = state.play(rng.choice(state.legal_moves()))
        if following.is_over:
            break
        state = following
    return state


async def test_two_analyses_and_a_level_5_bot_turn_at_once_neither_time_out_nor_fall_back(services, ai_pool):
    """As when two players ask /analyze while the bot has its turn: three searches at the bot's best effort on the
    pool at once (one waits in the queue). None times out or falls back, and the bot plays the very turn its seed
    gives when it searches alone."""
    import asyncio

    from ai.search import search_turn
    from bot.ai_player import turn_seed
    ai = AIPlayer(services, ai_pool)
    match = await bot_to_move(services, "rincala", level=5)
    alone = search_turn(match.position, level=5, seed=turn_seed(match.row.seed, match.ply))
    assert not alone.out_of_time
    before = fallbacks()
    first, second, played = await asyncio.gather(
        ai.best_turns(position_after("rincala", 12, 1), seed=1),
        ai.best_turns(position_after("rincala", 20, 2), seed=2),
        ai.play(match.id, ply=match.ply))
    assert first and second
    assert played is not None and played.moves == alone.moves
    assert fallbacks() == before


async def kill_the_workers_once_searching(pool) -> None:
    """SIGKILL the pool's workers once one of them has started a search (an idle worker that dies is replaced
    at once, and a call only waits for it: no search is lost then)."""
    import os
    import signal

    from tests.processes import command, descendants

    async def searching() -> None:
        while not any(pool._started[slot] for slots in pool._running.values() for slot in slots):
            await asyncio.sleep(0.01)
    await asyncio.wait_for(searching(), 120)
    for pid in descendants(os.getpid()):      # the pool's workers (this test process starts no others)
        if "multiprocessing.spawn" in command(pid):
            os.kill(pid, signal.SIGKILL)


async def test_a_bot_turn_whose_worker_died_plays_a_quick_turn_logged_and_counted(services, ai_pool, caplog):
    from ai.search import choose_turn
    from bot.ai_player import FALLBACK_LEVEL, turn_seed
    ai = AIPlayer(services, ai_pool)
    match = await bot_to_move(services, "rincala", level=5)
    before = fallbacks(kind="turn", reason="worker_lost")
    playing = asyncio.create_task(ai.play(match.id, ply=match.ply))
    await kill_the_workers_once_searching(ai_pool)
    played = await playing
    quick = choose_turn(match.position, level=FALLBACK_LEVEL, seed=turn_seed(match.row.seed, match.ply))
    assert played is not None and played.moves == quick
    assert fallbacks(kind="turn", reason="worker_lost") == before + 1
    assert any(r.levelname == "ERROR" and "AI fallback (worker_lost)" in r.getMessage() for r in caplog.records)


async def test_a_bot_turn_stopped_while_its_match_stands_stays_to_be_played(services, ai_pool):
    """A search stopped by the pool closing (the bot shutting down) is not a turn overtaken: the dispatcher must
    not mark the bot's turn done, or the match waits on the bot for ever."""
    from ai.search import SearchCancelled
    ai = AIPlayer(services, ai_pool)
    match = await bot_to_move(services, "rincala", level=5)
    playing = asyncio.create_task(ai.play(match.id, ply=match.ply))
    while not ai_pool.cancel(match.id):         # as close() does: every running search is told to stop
        await asyncio.sleep(0.01)
    with pytest.raises(SearchCancelled):
        await playing
    assert (await services.queries.get(match.id)).ply == match.ply       # nothing played, and the turn not lost
    assert await ai.play(match.id, ply=match.ply) is not None             # played when delivered again


async def test_a_bot_turn_overtaken_while_searching_is_skipped(services, ai_pool):
    ai = AIPlayer(services, ai_pool)
    match = await bot_to_move(services, "rincala", level=5)
    playing = asyncio.create_task(ai.play(match.id, ply=match.ply))
    human = next(p for p in match.seated if p.ai_level is None)
    while not REGISTRY.get_sample_value("boardgames_ai_queue"):      # the search is in the pool
        await asyncio.sleep(0.01)
    await services.play.resign(match.id, human.user_id, guild_id=match.row.guild_id)   # ends it: the search stops
    assert await playing is None


async def test_an_analysis_whose_worker_died_says_try_again_logged_and_counted(services, ai_pool, caplog):
    ai = AIPlayer(services, ai_pool)
    before = fallbacks(kind="analysis", reason="worker_lost")
    analysing = asyncio.create_task(ai.best_turns(position_after("rincala", 12, 1), seed=1))
    await kill_the_workers_once_searching(ai_pool)
    with pytest.raises(TimeoutError):          # what /analyze answers with "try again in a moment"
        await analysing
    assert fallbacks(kind="analysis", reason="worker_lost") == before + 1
    assert any(r.levelname == "ERROR" and "AI fallback (worker_lost)" in r.getMessage() for r in caplog.records)
    assert await ai.best_turns(position_after("rincala", 12, 1), seed=1)    # fresh workers answer the next one


async def test_a_search_stopped_by_its_safety_net_is_logged_and_counted(services, caplog):
    ai = AIPlayer(services, time_budget=0.0, analysis_budget=0.0)   # in a thread; the net stops every search
    match = await bot_to_move(services, "tintas", level=5)
    turns, analyses = fallbacks(kind="turn", reason="safety_net"), fallbacks(kind="analysis", reason="safety_net")
    assert await ai.play(match.id, ply=match.ply) is not None        # still a whole legal turn
    assert await ai.best_turns(match.position, seed=1)
    assert fallbacks(kind="turn", reason="safety_net") == turns + 1
    assert fallbacks(kind="analysis", reason="safety_net") == analyses + 1
    warned = [r for r in caplog.records if r.levelname == "WARNING" and "AI fallback (safety_net)" in r.getMessage()]
    assert len(warned) == 2
