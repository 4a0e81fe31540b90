"""Playing the bot itself through the real command tree: it accepts at once, thinks off the loop, moves like a
player (announced and drawn), fills several seats, and stops when the match ends."""

from __future__ import annotations

import pytest

from bot.ai_player import AIPlayer
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
