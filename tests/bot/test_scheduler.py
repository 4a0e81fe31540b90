"""The scheduler with a fake clock: reminders at 80 %, forfeits, aborts, expiry, catching up after a restart."""

from __future__ import annotations

import random

from bot import wording
from bot.scheduler import Scheduler
from bot.services import Services
from bot.store import Database
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL, CY, GUILD

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL


async def told(services, match_id, kind):
    """The payloads of what the scheduler left in the outbox for ``match_id`` (to be delivered), of one kind."""
    return [dict(r.payload) for r in await services.outbox.pending(match_id) if r.kind == kind]


async def start(services, game="tintas", opponents=(BOB,), days=1, **kw):
    match = await services.challenges.challenge(game, guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                    opponents=list(opponents), days_per_move=days, **kw)
    for p in opponents:
        match = await services.challenges.accept(match.id, p, guild_id=GUILD)
    return match


async def play_one_turn(services, match):
    match = await services.queries.get(match.id)
    value, _ = match.game.turn_suggestions(match.state, "", 25)[0]
    return (await services.play.submit_turn(match.id, match.to_move_user.user_id, value, guild_id=GUILD)).match


async def test_reminder_comes_once_at_80_percent_of_the_time(services, clock):
    scheduler = Scheduler(services)
    match = await start(services, days=1)
    clock.advance(hours=19)                      # 79 %
    assert await scheduler.run_due() == []
    assert await told(services, match.id, "reminder") == []
    clock.advance(hours=0.2)                     # 80 %
    assert await scheduler.run_due() == [("reminded", match.id)]
    assert await told(services, match.id, "reminder") == [{"ply": 0}]   # written with the change, to deliver
    clock.advance(hours=1)
    assert await scheduler.run_due() == []       # not twice
    assert len(await told(services, match.id, "reminder")) == 1


async def test_the_clock_restarts_for_each_player(services, clock):
    scheduler = Scheduler(services)
    match = await start(services, days=1)
    clock.advance(hours=23)
    match = await play_one_turn(services, match)   # the first player moves just in time
    clock.advance(hours=23)
    done = await scheduler.run_due()
    assert done == [("reminded", match.id)]       # the second player has used 23 of 24 hours: reminded only
    assert (await services.queries.get(match.id)).status == "active"


async def test_a_player_who_never_moved_gets_the_match_aborted_unrated(services, clock):
    scheduler = Scheduler(services)
    match = await start(services, days=2)
    clock.advance(days=2, seconds=1)
    assert await scheduler.run_due() == [("aborted", match.id)]
    done = await services.queries.get(match.id)
    assert done.status == "aborted" and "never made a first move" in wording.end_sentence(done)
    assert [p["event"] for p in await told(services, match.id, "board")][-1] == "result"
    assert await services.ratings.snapshot() == []                       # unrated
    assert (await services.matches.events(match.id))[0][2] == "abort"


async def test_running_out_of_time_forfeits_to_the_opponent_and_is_rated(services, clock):
    scheduler = Scheduler(services)
    match = await start(services, days=1)
    match = await play_one_turn(services, match)
    match = await play_one_turn(services, match)          # both have moved
    late = match.to_move_user
    clock.advance(days=1, seconds=1)
    assert await scheduler.run_due() == [("finished", match.id)]
    done = await services.queries.get(match.id)
    assert done.status == "finished" and wording.end_sentence(done) == f"{late.name} ran out of time."
    assert done.winners == (1 - late.seat,)
    assert {c.user_id: c.outcome for c in done.rating_changes} == {late.user_id: "loss",
                                                                   done.at_seat(1 - late.seat).user_id: "win"}
    assert (await services.matches.events(match.id))[0][2] == "timeout"


async def test_three_seats_the_late_player_ranks_last_and_the_rest_by_score(services, clock):
    scheduler = Scheduler(services)
    match = await start(services, game="spinca", opponents=(BOB, CY), days=1)
    for _ in range(4):
        match = await play_one_turn(services, match)      # everyone has moved at least once
    late = match.to_move_user.seat
    scores = match.state.scores
    clock.advance(days=1, seconds=1)
    await scheduler.run_due()
    done = await services.queries.get(match.id)
    assert done.row.ranks[late] == 3
    rest = [s for s in range(3) if s != late]
    best = max(scores[s] for s in rest)
    assert set(done.winners) == {s for s in rest if scores[s] == best}
    a, b = rest
    ranks = done.row.ranks
    if scores[a] == scores[b]:
        assert ranks[a] == ranks[b] == 1
    else:
        hi, lo = (a, b) if scores[a] > scores[b] else (b, a)
        assert (ranks[hi], ranks[lo]) == (1, 2)


async def test_unanswered_challenges_expire_after_a_day(services, clock):
    scheduler = Scheduler(services)
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB])
    clock.advance(hours=23)
    assert await scheduler.run_due() == []
    clock.advance(hours=1)
    assert await scheduler.run_due() == [("expired", match.id)]
    assert (await services.queries.get(match.id)).status == "expired"
    assert await told(services, match.id, "card") == [{"event": "open"}, {"event": "update"}]


async def test_casual_matches_have_no_deadline(services, clock):
    scheduler = Scheduler(services)
    match = await start(services, days=0)
    assert match.deadline is None and match.time_label.startswith("casual")
    clock.advance(days=60)
    assert await scheduler.run_due() == []


async def test_a_restart_catches_up_on_what_fell_due_while_down(db_path, clock):
    first_db = await Database.open(db_path)
    services = Services(first_db, clock=clock, seed_source=random.Random(1))
    match = await start(services, days=1)
    match = await play_one_turn(services, match)
    match = await play_one_turn(services, match)
    expired = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                  opponents=[CY])
    await first_db.close()                               # the bot goes down ...
    clock.advance(days=3)                                # ... and stays down past every deadline
    second_db = await Database.open(db_path)
    try:
        again = Services(second_db, clock=clock)
        scheduler = Scheduler(again)
        done = sorted(await scheduler.run_due())
        assert done == sorted([("finished", match.id), ("expired", expired.id)])
        assert await again.clocks.next_due() is None
    finally:
        await second_db.close()
