"""Ratings: two players, three with a shared win, teams; casual and aborted games unrated; rebuild = live."""

from __future__ import annotations

import random

import pytest

from bot import wording
from bot.model import Person
from bot.ratings import PROVISIONAL_GAMES, display, outcomes
from bot.store.ratings import RatingStore
from bot.store.rows import Result
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, CY, DEE, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL


async def finished(services, game, people, *, resign_seat=None, days=3, partner=None):
    """A timed match that ends by resignation of ``people[resign_seat]`` (seat order is random)."""
    match = await services.challenges.challenge(game, guild_id=GUILD, channel_id=CHANNEL, challenger=people[0],
                                    opponents=people[1:], days_per_move=days, partner=partner)
    for p in people[1:]:
        match = await services.challenges.accept(match.id, p, guild_id=GUILD)
    who = people[resign_seat or 0]
    return await services.play.resign(match.id, who.user_id, guild_id=GUILD)


def test_outcomes_count_a_shared_win_for_all_as_a_draw():
    assert outcomes(2, (0,)) == ["win", "loss"]
    assert outcomes(3, (0, 2)) == ["win", "loss", "win"]
    assert outcomes(3, (0, 1, 2)) == ["draw"] * 3


async def test_two_players_winner_rises_loser_falls(services):
    done = await finished(services, "tintas", [ANN, BOB], resign_seat=0)
    change = {c.user_id: c for c in done.rating_changes}
    assert change[BOB.user_id].delta > 0 > change[ANN.user_id].delta
    assert change[BOB.user_id].outcome == "win" and change[ANN.user_id].outcome == "loss"
    bob = (await services.ratings.of_user(GUILD, BOB.user_id))[0]
    assert (bob.games, bob.wins, bob.losses) == (1, 1, 0) and bob.provisional and bob.label.endswith("?")
    assert "Ratings: " in wording.result_text(done)


async def test_three_players_with_a_shared_win_rate_the_winners_alike(services, db):
    """Rincala ties are shared wins: rank 1, 1, 2 — the two winners gain exactly the same."""
    match = await services.challenges.challenge("rincala", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                    opponents=[BOB, CY], days_per_move=3)
    for p in (BOB, CY):
        match = await services.challenges.accept(match.id, p, guild_id=GUILD)
    done = await services.play.end(match, Result("finished", (0, 1), (1, 1, 2), "resigned", {"loser": 2}),
                                   event=None)
    rated = done.rating_changes
    assert rated == await services.ratings.changes(match.id)     # rated in the transaction that finished it
    by_seat = {match.seat_of(c.user_id): c for c in rated}
    assert by_seat[0].mu_after == pytest.approx(by_seat[1].mu_after) and by_seat[0].delta > 0
    assert by_seat[2].delta < 0
    assert [by_seat[s].outcome for s in range(3)] == ["win", "win", "loss"]


async def test_teams_share_their_rating_change(services):
    done = await finished(services, "spinca", [ANN, BOB, CY, DEE], resign_seat=0, partner=CY)
    change = {c.user_id: c.mu_after - c.mu_before for c in done.rating_changes}
    assert change[ANN.user_id] == pytest.approx(change[CY.user_id]) and change[ANN.user_id] < 0
    assert change[BOB.user_id] == pytest.approx(change[DEE.user_id]) and change[BOB.user_id] > 0
    assert set(done.winners) == {done.seat_of(BOB.user_id), done.seat_of(DEE.user_id)}


async def test_casual_and_aborted_matches_leave_ratings_alone(services):
    casual = await finished(services, "tintas", [ANN, BOB], days=0)
    assert casual.rating_changes == [] and await services.ratings.snapshot() == []
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB])
    match = await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    aborted = await services.play.abort(match.id, 999, guild_id=GUILD, admin=True, reason="stuck")
    assert aborted.status == "aborted" and await services.ratings.snapshot() == []
    assert (await services.matches.events(match.id))[0][1:] == (999, "abort", "stuck")


async def test_rebuild_from_the_log_gives_the_live_numbers(services):
    rng = random.Random(5)
    people = [ANN, BOB, CY, DEE, Person(15, "Eve")]
    for _ in range(12):
        a, b = rng.sample(people, 2)
        await finished(services, "tintas", [a, b], resign_seat=rng.randrange(2))
    await finished(services, "spinca", [ANN, BOB, CY], resign_seat=1)
    live = await services.ratings.snapshot()
    assert len(live) == 5 + 3
    assert await services.ratings.rebuild() == 13
    assert await services.ratings.snapshot() == live
    fresh = RatingStore(services.db)                        # the script path: a new object, same database
    await fresh.rebuild(GUILD)
    assert await fresh.snapshot() == live


async def test_provisional_until_enough_games(services):
    for i in range(PROVISIONAL_GAMES):
        await finished(services, "tintas", [ANN, BOB], resign_seat=i % 2)
    ann = (await services.ratings.of_user(GUILD, ANN.user_id))[0]
    assert ann.games == PROVISIONAL_GAMES and not ann.provisional and "?" not in ann.label
    assert display(25.0) == 1500


async def test_a_rebuild_works_in_batches_so_another_process_writes_in_between(services, db_path):
    from bot.store import Database
    for i in range(12):
        await finished(services, "tintas", [ANN, BOB], resign_seat=i % 2)
    live = await services.ratings.snapshot()
    other_db = await Database.open(db_path)
    seen: list[tuple[int, int]] = []

    async def another_process_writes(done: int, total: int) -> None:
        async with other_db.transaction() as tx:            # would wait for the whole rebuild if it were one
            await tx.execute("INSERT INTO user_settings (user_id) VALUES (1) ON CONFLICT DO NOTHING")
            seen.append((done, (await tx.fetchone("SELECT COUNT(*) FROM rating_changes"))[0]))
    try:
        count = await services.ratings.rebuild(batch=2, progress=another_process_writes)
    finally:
        await other_db.close()
    assert count == 12 and await services.ratings.snapshot() == live
    assert seen == [(n, 2 * n) for n in range(2, 13, 2)]      # it wrote between batches, seeing each one
