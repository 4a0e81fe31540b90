"""The tournament service's rules and refusals: settings checked at creation (nothing written on a refusal, in the
reader's language), late entries and requested byes in a Swiss, withdrawals (forfeit or annulment in a round
robin), the start at its time (cancelled below the minimum), adjudication at a round's deadline, the TRF export."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest

from bot.i18n import speaking
from bot.model import NotAllowed, NotFound, Person, StalePosition
from bot.scheduler import Scheduler
from bot.services.tournament_views import TournamentSettings
from bot.tournaments.model import Format, Schedule, TableKind
from tests.bot.tournament_support import (
    CHANNEL,
    GUILD,
    PLAYERS,
    Recorder,
    create,
    entered,
    play_round,
    running_matches,
)

P1, P2, P3, P4, P5 = (p.user_id for p in PLAYERS[:5])
BASE = TournamentSettings(game="tintas", format=Format.SWISS, rounds=3, max_entrants=8)

REFUSALS: list[tuple[dict[str, Any], str]] = [
    ({"game": "chess"}, "There is no game called 'chess'"),
    ({"game": "roocala", "variant": "round"}, "Roocala has no variant 'round'"),
    ({"table_size": 3}, "Tintas is played at tables of 2 players, not 3"),
    ({"format": Format.LEAGUE}, "A league needs at least 4 entrants to start"),
    ({"format": Format.LEAGUE, "min_entrants": 4, "repeat_days": 10}, "starts 7, 14 or 30 days after one ends"),
    ({"format": Format.LEAGUE, "game": "rincala", "table_size": 3, "min_entrants": 4},
     "A league plays two-player games"),
    ({"repeat_days": 7}, "Only leagues have editions that repeat"),
    ({"rounds": None}, "Choose between 1 and 20 rounds"),
    ({"rounds": 21}, "Choose between 1 and 20 rounds"),
    ({"schedule": Schedule.ALL_AT_ONCE}, "paired round by round"),
    ({"days_per_move": 4}, "Time per move is one of 1, 2, 3, 5, 7, 14 days"),
    ({"min_entrants": 1}, "at least 2 entrants"),
    ({"min_entrants": 6, "max_entrants": 5}, "The most entrants (5) cannot be fewer than the least (6)"),
    ({"format": Format.ROUND_ROBIN, "rounds": None, "max_entrants": 21}, "at most 20 entrants"),
    ({"rounds": 5, "max_entrants": 5}, "at most 4 rounds"),
    ({"round_days": 0}, "A round lasts between 1 and 60 days"),
    ({"start_at": "2025-12-31T12:00:00+00:00"}, "in the next 90 days"),
    ({"start_at": "tomorrow"}, "is not a date and time"),
    ({"start_at": "2026-01-03T12:00:00"}, "needs its time zone"),
]


@pytest.mark.parametrize("change, refusal", REFUSALS, ids=[r for _, r in REFUSALS])
async def test_a_setting_out_of_range_is_refused_naming_it_and_nothing_is_written(services, change, refusal):
    with pytest.raises((NotAllowed, NotFound)) as caught:
        await services.tournaments.create(replace(BASE, **change), guild_id=GUILD, channel_id=CHANNEL,
                                          creator=PLAYERS[0], manager=True, name="Cup")
    assert refusal in str(caught.value)
    assert await services.tournaments.of_server(GUILD, statuses=("open", "running", "finished", "cancelled")) == []
    assert await services.outbox.pending() == []


async def test_a_refusal_reads_in_german(services):
    with pytest.raises(NotAllowed) as caught:
        await services.tournaments.create(replace(BASE, rounds=5, max_entrants=5), guild_id=GUILD,
                                          channel_id=CHANNEL, creator=PLAYERS[0], manager=True, name="Cup")
    with speaking("de"):
        assert str(caught.value) == ("Ein Schweizer System mit höchstens 5 Teilnehmenden hat höchstens 4 Runden: "
                                     "Jede Runde bringt einen neuen Gegner.")


async def test_an_unnamed_tournament_is_refused(services):
    with pytest.raises(NotAllowed, match="Give the tournament a name"):
        await services.tournaments.create(BASE, guild_id=GUILD, channel_id=CHANNEL, creator=PLAYERS[0],
                                          manager=True, name="   ")


async def test_a_late_entrant_scores_half_a_point_per_round_missed_and_plays_on(services):
    front = Recorder(services)
    view = await create(services, Format.SWISS, rounds=3, max_entrants=8)
    await entered(services, view.id, 4)
    await services.tournaments.start(view.id, P1, guild_id=GUILD, manager=True)
    await front.settle()
    late = Person(500, "Late")
    view = await services.tournaments.join(view.id, late, guild_id=GUILD)
    assert view.entrant(500) is not None and view.entrant(500).joined_round == 2   # type: ignore[union-attr]
    await play_round(services, view.id, lambda seats: max(seats))
    await front.settle()
    view = await services.tournaments.read(view.id)
    assert any(500 in t.seats for t in view.rounds[1].tables)
    assert next(s.points for s in view.standings if s.user_id == 500) >= Fraction(1, 2)
    only_late = next(s for s in view.standings if s.user_id == 500)
    played_r2 = next(t for t in view.rounds[1].tables if 500 in t.seats)
    assert only_late.points == Fraction(1, 2) + (1 if played_r2.kind is TableKind.BYE else 0)


async def test_a_requested_half_bye_sits_the_round_out_for_half_a_point(services):
    front = Recorder(services)
    view = await create(services, Format.SWISS, rounds=3, max_entrants=4)
    await entered(services, view.id, 4)
    await front.settle()
    await services.tournaments.request_half_bye(view.id, P2, guild_id=GUILD)      # the next round: 2
    with pytest.raises(NotAllowed, match="Choose a round not paired yet, from 2 to 3"):
        await services.tournaments.request_half_bye(view.id, P2, guild_id=GUILD, round_no=1)
    await play_round(services, view.id, lambda seats: max(seats))
    await front.settle()
    view = await services.tournaments.read(view.id)
    (rest,) = [t for t in view.rounds[1].tables if P2 in t.seats]
    assert rest.kind is TableKind.HALF_BYE and rest.points == (Fraction(1, 2),)


async def withdraw_from_round_robin(services, front: Recorder, after_rounds: int) -> Any:
    view = await create(services, Format.ROUND_ROBIN, max_entrants=4)
    await entered(services, view.id, 4)
    await front.settle()
    for _ in range(after_rounds):
        await play_round(services, view.id, lambda seats: max(seats))
        await front.settle()
    await services.tournaments.withdraw(view.id, P4, guild_id=GUILD)
    await front.settle()
    while (await services.tournaments.read(view.id)).status == "running":
        await play_round(services, view.id, lambda seats: max(seats))
        await front.settle()
    return await services.tournaments.read(view.id)


async def test_a_round_robin_withdrawal_below_half_annuls_every_game_of_theirs(services):
    view = await withdraw_from_round_robin(services, Recorder(services), after_rounds=1)   # 1 of 3 played
    assert view.status == "finished"
    assert P4 not in {s.user_id for s in view.standings}
    assert all(P4 not in t.seats for r in view.rounds for t in r.tables)
    absent = [t for r in view.rounds for t in r.tables if t.kind is TableKind.ABSENT]
    assert [t.round for t in absent] == [3]          # P4's opponent of round 3 sits out (round 2's game annulled)
    assert len(view.rounds[1].tables) == 1
    # P1 beats P2 and P3 (P4's game annulled): 2; P2 beats P3: 1; P3: 0
    assert [(s.user_id, s.points) for s in view.standings] == [(P1, 2), (P2, 1), (P3, 0)]


async def test_a_round_robin_withdrawal_from_half_on_loses_the_rest_by_forfeit(services):
    view = await withdraw_from_round_robin(services, Recorder(services), after_rounds=2)   # 2 of 3 played
    assert view.status == "finished"
    forfeits = [t for r in view.rounds for t in r.tables if t.forfeit]
    assert len(forfeits) == 1 and P4 in forfeits[0].seats
    points = {s.user_id: s.points for s in view.standings}
    assert points == {P1: 3, P2: 2, P3: 1, P4: 0}    # the lower id wins each game; P4's last game lost unplayed


async def test_at_its_start_time_a_tournament_starts_or_is_cancelled_below_its_minimum(services, clock):
    front = Recorder(services)
    soon = (clock() + timedelta(hours=2)).isoformat()
    full = await create(services, Format.ROUND_ROBIN, start_at=soon, min_entrants=3, max_entrants=8)
    empty = await create(services, Format.ROUND_ROBIN, start_at=soon, min_entrants=3, max_entrants=8)
    await entered(services, full.id, 3)
    await services.tournaments.join(empty.id, PLAYERS[0], guild_id=GUILD)
    scheduler = Scheduler(services)
    assert await scheduler.run_due() == []
    clock.advance(hours=2)
    done = await scheduler.run_due()
    assert sorted(done) == sorted([("tournament_start", full.id), ("tournament_start", empty.id)])
    await front.settle()
    assert (await services.tournaments.read(full.id)).status == "running"
    assert len(await running_matches(services, full.id)) == 1          # three entrants: one game and one sits out
    assert (await services.tournaments.read(empty.id)).status == "cancelled"
    cancelled = [n for k, t, _m, n in front.seen if t == empty.id and k == "tournament_card"]
    assert cancelled[-1].reason == "too_few"


async def test_a_game_unfinished_at_the_round_deadline_is_adjudicated_by_thinking_time(services, clock):
    front = Recorder(services)
    view = await create(services, Format.SWISS, rounds=2, max_entrants=4, round_days=1)
    await entered(services, view.id, 4)
    await front.settle()
    first, second = await running_matches(services, view.id)
    await services.play.resign(first, (await services.queries.get(first)).seated[0].user_id, guild_id=GUILD)
    match = await services.queries.get(second)
    mover = match.to_move_user
    clock.advance(hours=2)                                           # the first mover thinks two hours
    await services.play.submit_turn(match, mover.user_id, match.position.legal_moves()[0], guild_id=GUILD)
    clock.advance(hours=22, minutes=1)                               # the other, 22 hours and more: the deadline
    done = await Scheduler(services).run_due()
    assert ("adjudicated", second) in done
    await front.settle()
    view = await services.tournaments.read(view.id)
    table = next(t for t in view.rounds[0].tables if t.match_id == second)
    assert table.adjudicated and table.ranks == tuple(1 if u == mover.user_id else 2 for u in table.seats)
    assert view.current_round == 2                                   # the round ended; the next was paired
    assert (await services.queries.get(second)).row.termination == "adjudicated"


async def test_a_two_player_event_exports_as_trf_and_a_pod_event_does_not(services):
    front = Recorder(services)
    view = await create(services, Format.ROUND_ROBIN, max_entrants=4)
    await entered(services, view.id, 4)
    await front.settle()
    for _ in range(3):
        await play_round(services, view.id, lambda seats: max(seats))
        await front.settle()
    text = await services.tournaments.trf(view.id, guild_id=GUILD)
    lines = text.splitlines()
    assert any(line.startswith("012 Autumn cup") for line in lines)
    players = [line for line in lines if line.startswith("001")]
    assert len(players) == 4 and "P1" in players[0] and "3.0" in players[0]
    pods = await create(services, Format.SWISS, game="rincala", table_size=3, rounds=1, min_entrants=3)
    with pytest.raises(NotAllowed, match="two-player games only"):
        await services.tournaments.trf(pods.id, guild_id=GUILD)
    with pytest.raises(NotFound):
        await services.tournaments.trf(view.id, guild_id=GUILD + 1)


async def test_a_cancelled_tournament_aborts_its_games_and_posts_no_more_standings(services):
    front = Recorder(services)
    view = await create(services, Format.SWISS, rounds=2, max_entrants=4)
    await entered(services, view.id, 4)
    await front.settle()
    games = await running_matches(services, view.id)
    view = await services.tournaments.cancel(view.id, P1, guild_id=GUILD, manager=False)     # its creator
    await front.settle()
    assert view.status == "cancelled"
    assert [(await services.queries.get(m)).status for m in games] == ["aborted", "aborted"]
    kinds = front.kinds(view.id)
    assert "tournament_standings" not in kinds
    cards = [n for k, t, _m, n in front.seen if t == view.id and k == "tournament_card"]
    assert cards[-1].status == "cancelled" and cards[-1].reason == "by_hand"


async def test_players_kept_apart_are_never_paired_in_a_swiss(services):
    front = Recorder(services)
    view = await create(services, Format.SWISS, rounds=2, max_entrants=4)
    await entered(services, view.id, 3)
    with pytest.raises(NotAllowed, match="creator or a server manager can keep players apart"):
        await services.tournaments.forbid_pair(view.id, P1, P3, user_id=P2, guild_id=GUILD, manager=False)
    with pytest.raises(NotAllowed, match="Both players must be entered"):
        await services.tournaments.forbid_pair(view.id, P1, P5, user_id=P1, guild_id=GUILD, manager=False)
    view = await services.tournaments.forbid_pair(view.id, P3, P1, user_id=P1, guild_id=GUILD, manager=False)
    assert view.forbidden == ((P1, P3),)
    await services.tournaments.join(view.id, PLAYERS[3], guild_id=GUILD)   # full: it starts
    await front.settle()
    for _ in range(2):       # without the rule round 1 pairs P1 with P3 (top half against bottom half)
        await play_round(services, view.id, lambda seats: max(seats))
        await front.settle()
    view = await services.tournaments.read(view.id)
    assert view.status == "finished"
    assert all({P1, P3} - set(t.seats) for r in view.rounds for t in r.tables)
    robin = await create(services, Format.ROUND_ROBIN, max_entrants=4)
    with pytest.raises(NotAllowed, match="two-player Swiss only"):
        await services.tournaments.forbid_pair(robin.id, P1, P3, user_id=P1, guild_id=GUILD, manager=True)


async def test_time_outs_decide_tournament_games_a_player_who_never_moved_loses_by_forfeit(services, clock):
    front = Recorder(services)
    view = await create(services, Format.SWISS, rounds=2, max_entrants=4, days_per_move=1)
    await entered(services, view.id, 4)
    await front.settle()
    silent, played = await running_matches(services, view.id)
    for _ in range(2):             # each player of one game moves once; the other game's first mover never does
        match = await services.queries.get(played)
        await services.play.submit_turn(match, match.to_move_user.user_id, match.position.legal_moves()[0],
                                        guild_id=GUILD)
    late = (await services.queries.get(played)).to_move_user       # moved once, then runs out of time
    first = next(p for p in (await services.queries.get(played)).seated if p.user_id != late.user_id)
    never = (await services.queries.get(silent)).to_move_user
    clock.advance(days=1, minutes=1)
    await Scheduler(services).run_due()
    await front.settle()
    view = await services.tournaments.read(view.id)
    by_match = {t.match_id: t for t in view.rounds[0].tables}
    forfeit, timed = by_match[silent], by_match[played]
    assert forfeit.forfeit and forfeit.ranks == tuple(2 if u == never.user_id else 1 for u in forfeit.seats)
    assert not timed.forfeit and timed.ranks == tuple(2 if u == late.user_id else 1 for u in timed.seats)
    assert view.current_round == 2                         # the round ended by time-outs; the next was paired
    points = {s.user_id: s.points for s in view.standings}
    assert points[never.user_id] == 0 and points[first.user_id] == 1


async def test_start_join_withdraw_and_bye_refusals_change_nothing(services):
    view = await create(services, Format.SWISS, rounds=2, min_entrants=3, max_entrants=4,
                        start_at="2026-01-05T12:00:00+00:00")
    await entered(services, view.id, 2)
    before = (await services.tournaments.read(view.id), len(await services.outbox.pending()))
    with pytest.raises(NotAllowed, match="needs 3 entrants to start; it has 2"):
        await services.tournaments.start(view.id, P1, guild_id=GUILD, manager=True)
    with pytest.raises(NotAllowed, match="not playing in this tournament"):
        await services.tournaments.withdraw(view.id, P5, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="not playing in this tournament"):
        await services.tournaments.request_half_bye(view.id, P5, guild_id=GUILD)
    with pytest.raises(NotAllowed, match="Bots cannot enter"):
        await services.tournaments.join(view.id, Person(900, "Robot", is_bot=True), guild_id=GUILD)
    assert (await services.tournaments.read(view.id), len(await services.outbox.pending())) == before
    for p in PLAYERS[2:4]:
        await services.tournaments.join(view.id, p, guild_id=GUILD)
    with pytest.raises(StalePosition, match="This tournament is full"):
        await services.tournaments.join(view.id, PLAYERS[4], guild_id=GUILD)
    assert len((await services.tournaments.read(view.id)).entrants) == 4
