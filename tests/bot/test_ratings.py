"""Ratings: two players, three with a shared win, teams; casual and aborted games unrated; rebuild = live."""

from __future__ import annotations

import random

import pytest

from bot import messages
from bot.ratings import PROVISIONAL_GAMES, Ratings, display, outcomes
from bot.service import Person
from bot.store.matches import Result
from tests.conftest import ANN, BOB, CHANNEL, CY, DEE, GUILD


async def finished(service, game, people, *, resign_seat=None, days=3, partner=None):
    """A timed match that ends by resignation of ``people[resign_seat]`` (seat order is random)."""
    match = await service.challenge(game, guild_id=GUILD, channel_id=CHANNEL, challenger=people[0],
                                    opponents=people[1:], days_per_move=days, partner=partner)
    for p in people[1:]:
        match = await service.accept(match.id, p, guild_id=GUILD)
    who = people[resign_seat or 0]
    return await service.resign(match.id, who.user_id, guild_id=GUILD)


def test_outcomes_count_a_shared_win_for_all_as_a_draw():
    assert outcomes(2, (0,)) == ["win", "loss"]
    assert outcomes(3, (0, 2)) == ["win", "loss", "win"]
    assert outcomes(3, (0, 1, 2)) == ["draw"] * 3


async def test_two_players_winner_rises_loser_falls(service):
    done = await finished(service, "tintas", [ANN, BOB], resign_seat=0)
    change = {c.user_id: c for c in done.rating_changes}
    assert change[BOB.user_id].delta > 0 > change[ANN.user_id].delta
    assert change[BOB.user_id].outcome == "win" and change[ANN.user_id].outcome == "loss"
    bob = (await service.ratings.of_user(GUILD, BOB.user_id))[0]
    assert (bob.games, bob.wins, bob.losses) == (1, 1, 0) and bob.provisional and bob.label.endswith("?")
    assert "Ratings: " in messages.result_text(done)


async def test_three_players_with_a_shared_win_rate_the_winners_alike(service, db):
    """Rincala ties are shared wins: rank 1, 1, 2 — the two winners gain exactly the same."""
    match = await service.challenge("rincala", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                    opponents=[BOB, CY], days_per_move=3)
    for p in (BOB, CY):
        match = await service.accept(match.id, p, guild_id=GUILD)
    ok = await service.store.finish(match.id, expected_ply=0, now="2026-01-01T13:00:00+00:00",
                                    result=Result("finished", (0, 1), (1, 1, 2), "A shared win."))
    assert ok
    rated = await service.ratings.record(await service.get(match.id))
    by_seat = {match.seat_of(c.user_id): c for c in rated}
    assert by_seat[0].mu_after == pytest.approx(by_seat[1].mu_after) and by_seat[0].delta > 0
    assert by_seat[2].delta < 0
    assert [by_seat[s].outcome for s in range(3)] == ["win", "win", "loss"]


async def test_teams_share_their_rating_change(service):
    done = await finished(service, "spinca", [ANN, BOB, CY, DEE], resign_seat=0, partner=CY)
    change = {c.user_id: c.mu_after - c.mu_before for c in done.rating_changes}
    assert change[ANN.user_id] == pytest.approx(change[CY.user_id]) and change[ANN.user_id] < 0
    assert change[BOB.user_id] == pytest.approx(change[DEE.user_id]) and change[BOB.user_id] > 0
    assert set(done.winners) == {done.seat_of(BOB.user_id), done.seat_of(DEE.user_id)}


async def test_casual_and_aborted_matches_leave_ratings_alone(service):
    casual = await finished(service, "tintas", [ANN, BOB], days=0)
    assert casual.rating_changes == [] and await service.ratings.snapshot() == []
    match = await service.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN, opponents=[BOB])
    match = await service.accept(match.id, BOB, guild_id=GUILD)
    aborted = await service.abort(match.id, 999, guild_id=GUILD, reason="stuck")
    assert aborted.status == "aborted" and await service.ratings.snapshot() == []
    assert (await service.store.events(match.id))[0][1:] == (999, "abort", "stuck")


async def test_rebuild_from_the_log_gives_the_live_numbers(service):
    rng = random.Random(5)
    people = [ANN, BOB, CY, DEE, Person(15, "Eve")]
    for _ in range(12):
        a, b = rng.sample(people, 2)
        await finished(service, "tintas", [a, b], resign_seat=rng.randrange(2))
    await finished(service, "spinca", [ANN, BOB, CY], resign_seat=1)
    live = await service.ratings.snapshot()
    assert len(live) == 5 + 3
    assert await service.ratings.rebuild() == 13
    assert await service.ratings.snapshot() == live
    fresh = Ratings(service.store.db)                    # the script path: a new object, same database
    await fresh.rebuild(GUILD)
    assert await fresh.snapshot() == live


async def test_provisional_until_enough_games(service):
    for i in range(PROVISIONAL_GAMES):
        await finished(service, "tintas", [ANN, BOB], resign_seat=i % 2)
    ann = (await service.ratings.of_user(GUILD, ANN.user_id))[0]
    assert ann.games == PROVISIONAL_GAMES and not ann.provisional and "?" not in ann.label
    assert display(25.0) == 1500
