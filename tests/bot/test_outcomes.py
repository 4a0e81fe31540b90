"""How a match ended is data (a termination with roles and facts), and its sentence is composed in one place."""

from __future__ import annotations

import random

from bot import wording
from engines import GAMES
from tests.conftest import ANN, BOB, CHANNEL, GUILD


async def started(services, game="tintas", days=3):
    match = await services.challenges.challenge(game, guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=days)
    return await services.challenges.accept(match.id, BOB, guild_id=GUILD)


async def test_the_turn_cap_is_applied_by_the_service_as_a_rated_draw(services, monkeypatch):
    """Quincala's 400-turn draw (binding decision 7) lives in the service; shown here with a cap of 3."""
    monkeypatch.setattr(type(GAMES["tintas"]), "turn_cap", 3)
    match = await started(services)
    rng = random.Random(1)
    for _ in range(3):
        assert match.status == "active"
        match = await services.queries.get(match.id)
        value, _ = rng.choice(match.game.turn_suggestions(match.position, "", 25))
        match = (await services.play.submit_turn(match, match.to_move_user.user_id, value, guild_id=GUILD)).match
    assert match.status == "finished" and match.row.whole_turns == 3
    assert match.winners == (0, 1) and match.row.termination == "turn_cap"
    assert wording.end_sentence(match) == "No one won in 3 turns, so the game is a draw."
    assert wording.result_text(match).startswith("🤝 Draw")
    assert {c.outcome for c in match.rating_changes} == {"draw"}


async def test_the_engine_outcome_is_stored_and_told_with_the_peoples_names(services):
    match = await started(services)
    rng = random.Random(4)
    while match.status == "active":
        match = await services.queries.get(match.id)
        value, _ = rng.choice(match.game.turn_suggestions(match.position, "", 25))
        match = (await services.play.submit_turn(match, match.to_move_user.user_id, value, guild_id=GUILD)).match
    assert match.row.termination in GAMES["tintas"].terminations
    winner = match.at_seat(match.winners[0]).name
    sentence = wording.end_sentence(match)
    assert winner in sentence and "Player " not in sentence
    assert wording.end_sentence(match, lambda p: f"<@{p.user_id}>").count("<@") >= 1


async def test_a_resignation_names_the_one_who_resigned(services):
    match = await started(services)
    done = await services.play.resign(match.id, BOB.user_id, guild_id=GUILD)
    assert done.row.termination == "resigned" and done.row.outcome["roles"] == {"loser": done.seat_of(BOB.user_id)}
    assert wording.result_text(done).startswith(f"🏆 {ANN.name} wins — {BOB.name} resigned.")


async def test_seats_the_rules_name_keep_their_names_beside_the_people(services):
    match = await services.challenges.challenge("spinca", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=3)
    match = await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    done = await services.play.resign(match.id, ANN.user_id, guild_id=GUILD)
    seat_name = GAMES["spinca"].seat_names(2)[done.seat_of(ANN.user_id)]
    assert f"{seat_name} ({ANN.name}) resigned." in wording.end_sentence(done)


async def test_a_match_that_ended_before_outcomes_were_data_keeps_its_sentence(services, db):
    match = await started(services)
    await services.play.resign(match.id, ANN.user_id, guild_id=GUILD)
    async with db.transaction() as tx:   # as migration 004 leaves an older row
        await tx.execute("UPDATE matches SET termination = NULL, outcome = NULL, end_reason = 'Ann resigned.'")
    old = await services.queries.get(match.id)
    assert wording.end_sentence(old) == "Ann resigned."


async def test_an_admin_abort_names_the_admin_where_people_are_mentioned(services):
    match = await started(services)
    done = await services.play.abort(match.id, 99, guild_id=GUILD, admin=True, reason="left the server")
    assert wording.end_sentence(done) == "Aborted by an admin: left the server (unrated)."
    assert wording.end_sentence(done, lambda p: f"<@{p.user_id}>") == \
        "Aborted by <@99>: left the server (unrated)."


async def test_a_draw_at_unequal_scores_is_rated_as_a_draw(services, monkeypatch):
    """A repetition draw (Roocala) or a cap draw: every seat a winner, whatever the scores, is rated a draw."""
    from engines.base import Outcome
    match = await started(services)
    state = (await services.queries.get(match.id)).position
    monkeypatch.setattr(type(state), "scores", property(lambda self: (2, 7)))
    from engines.base import rank_seats
    draw = Outcome("repetition", (0, 1), rank_seats(state, (0, 1)))
    assert draw.ranks == (1, 1)
    from bot.store.rows import Result
    done = await services.play.end(match, Result("finished", draw.winners, draw.ranks, "turn_cap", facts={"turns": 9}),
                                   event=None)
    assert {c.outcome for c in done.rating_changes} == {"draw"}
    assert abs(done.rating_changes[0].mu_after - done.rating_changes[1].mu_after) < 1e-9


def test_every_service_sentence_has_its_termination():
    assert {kind.value for kind in wording.ServiceTermination} == set(wording.SERVICE_TERMINATIONS)
