"""The match services: who may act, all-or-nothing turns, results. No Discord involved."""

from __future__ import annotations

import pytest

from bot import wording
from bot.model import BadMove, NotAllowed, NotFound, Person, StalePosition
from bot.services.play import play_turn
from engines import GAMES
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, CY, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL

# A.6.3 of the Tintas spec, with the pawn on F5 and player 1 to move: F5-H4-C3-E2 takes three greens.
CHAIN_POSITION = "R.YOW....G..WO......PBG.....WP.....RB.....OP.G.R. F5 0000000 0000000 1 -"


async def challenge(services, *opponents, **kw):
    return await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                   opponents=list(opponents) or [BOB], **kw)


async def started(services):
    match = await challenge(services)
    return await services.challenges.accept(match.id, BOB, guild_id=GUILD)


@pytest.mark.parametrize("opponents, message", [
    ([ANN], "cannot challenge yourself"),
    ([Person(99, "Robo", is_bot=True)], "Other bots cannot play"),
    ([BOB, CY], "played by 2 players"),
])
async def test_bad_challenges_are_refused(services, opponents, message):
    with pytest.raises(NotAllowed, match=message):
        await challenge(services, *opponents)


async def test_unknown_variant_and_partner_are_refused(services):
    with pytest.raises(NotAllowed, match="no variant"):
        await challenge(services, variant="giant")
    with pytest.raises(NotAllowed, match="no teams"):
        await challenge(services, partner=BOB)


async def test_only_the_challenged_player_accepts_or_declines(services):
    match = await challenge(services)
    with pytest.raises(NotAllowed, match="made this challenge"):
        await services.challenges.accept(match.id, ANN, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="not addressed to you"):
        await services.challenges.accept(match.id, CY, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="Only a challenged player"):
        await services.challenges.decline(match.id, CY.user_id, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="Only the player who made"):
        await services.challenges.cancel(match.id, BOB.user_id, guild_id=GUILD)
    declined = await services.challenges.decline(match.id, BOB.user_id, guild_id=GUILD)
    assert declined.status == "declined"
    with pytest.raises(StalePosition, match="no longer open"):
        await services.challenges.accept(match.id, BOB, guild_id=GUILD)


async def test_accept_starts_the_match_with_both_seats(services):
    match = await started(services)
    assert match.status == "active"
    assert sorted(p.seat for p in match.participants) == [0, 1]
    assert match.state.encode() == match.row.position
    assert match.to_move_user is not None


async def test_a_match_in_another_server_is_out_of_reach(services):
    match = await started(services)
    mover = match.to_move_user
    with pytest.raises(NotFound, match="another server"):
        await services.play.submit_turn(match.id, mover.user_id, match.state.legal_moves()[0], guild_id=GUILD + 1)
    with pytest.raises(NotFound):
        await services.queries.find_match("tintas", mover.user_id, guild_id=GUILD + 1, channel_id=CHANNEL,
                                 match_id=match.id)


async def test_only_the_player_to_move_may_move(services):
    match = await started(services)
    waiting = next(p for p in match.seated if p.seat != match.state.to_move)
    with pytest.raises(NotAllowed, match="not your turn"):
        await services.play.submit_turn(match.id, waiting.user_id, match.state.legal_moves()[0], guild_id=GUILD)
    with pytest.raises(NotAllowed, match="not playing"):
        await services.play.submit_turn(match.id, CY.user_id, match.state.legal_moves()[0], guild_id=GUILD)
    assert (await services.queries.get(match.id)).ply == 0


def test_a_whole_turn_plays_and_ends_itself():
    state = GAMES["tintas"].decode(CHAIN_POSITION)
    moves, states = play_turn(state, 0, "h4, c3-e2")
    after = states[-1]
    assert moves == ["H4", "C3", "E2"]          # no green left in line: the turn passed by itself
    assert after.to_move == 1
    moves, states = play_turn(state, 0, "H4")
    after = states[-1]
    assert moves == ["H4", "end"]                # a submission never leaves an optional chain hanging
    assert after.to_move == 1


def test_an_illegal_step_rejects_the_whole_turn_naming_the_rule():
    state = GAMES["tintas"].decode(CHAIN_POSITION)
    with pytest.raises(BadMove, match=r"After H4: [^(]*$"):
        play_turn(state, 0, "H4 H2")
    with pytest.raises(BadMove, match="Type a move"):
        play_turn(state, 0, "   ")


async def test_an_illegal_move_changes_nothing(services):
    match = await started(services)
    mover = match.to_move_user
    await services.play.submit_turn(match.id, mover.user_id, match.state.legal_moves()[0], guild_id=GUILD)
    match = await services.queries.get(match.id)
    before = (match.ply, match.state.encode())
    with pytest.raises(BadMove):
        await services.play.submit_turn(match.id, match.to_move_user.user_id, "Q9", guild_id=GUILD)
    match = await services.queries.get(match.id)
    assert (match.ply, match.state.encode()) == before


async def test_resign_gives_the_win_to_the_opponent_and_refuses_stale_buttons(services):
    match = await started(services)
    with pytest.raises(StalePosition):
        await services.play.resign(match.id, ANN.user_id, guild_id=GUILD, expected_ply=5)
    done = await services.play.resign(match.id, ANN.user_id, guild_id=GUILD, expected_ply=0)
    assert done.status == "finished"
    assert done.winners == (done.seat_of(BOB.user_id),)
    assert wording.result_text(done).startswith("🏆 Bob wins — Ann resigned")
    with pytest.raises(StalePosition, match="over"):
        await services.play.submit_turn(match.id, BOB.user_id, "E4", guild_id=GUILD)


async def test_a_played_out_game_ends_with_one_winner_and_a_reason(services):
    match = await started(services)
    turns = 0
    while match.status == "active":
        value, _ = match.game.turn_suggestions(match.state, "", 25)[0]
        match = (await services.play.submit_turn(match.id, match.to_move_user.user_id, value, guild_id=GUILD)).match
        turns += 1
        assert turns < 200
    assert len(match.winners) == 1
    text = wording.result_text(match)
    winner = match.at_seat(match.winners[0]).name
    assert text.startswith(f"🏆 {winner} wins — {winner} holds")
    assert await services.queries.log_reproduces_position(match.id)


async def test_find_match_needs_a_choice_when_several_are_active(services):
    first = await started(services)
    second = await started(services)
    with pytest.raises(NotFound, match="pick one with the match option"):
        await services.queries.find_match("tintas", ANN.user_id, guild_id=GUILD, channel_id=CHANNEL)
    found = await services.queries.find_match("tintas", ANN.user_id, guild_id=GUILD, channel_id=CHANNEL,
                                     match_id=second.id)
    assert found.id == second.id
    with pytest.raises(NotAllowed, match="not playing"):
        await services.queries.find_match("tintas", CY.user_id, guild_id=GUILD, channel_id=CHANNEL, match_id=first.id)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_nothing_a_user_types_escapes_as_anything_but_a_clear_refusal(key):
    """Random text as a whole turn: either it plays, or BadMove with a message — never another exception."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    game = GAMES[key]
    state = game.new(players=min(game.player_counts), seed=1)
    alphabet = st.sampled_from(list("abcdefghijABCDEFGHIJ0123456789 ,;-+>@<*xR/") + ["end", "cw", "pass", "→"])
    legal = state.legal_moves()

    @settings(max_examples=150, deadline=None, derandomize=True)
    @given(st.one_of(st.lists(alphabet, max_size=12).map("".join),
                     st.lists(st.sampled_from(legal), min_size=1, max_size=3).map(" ".join)))
    def check(text):
        try:
            play_turn(state, state.to_move, text)
        except BadMove as exc:
            assert str(exc)

    check()
