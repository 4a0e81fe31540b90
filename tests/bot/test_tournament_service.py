"""The tournament service: whole events run through it and the real dispatcher, standings checked by hand."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

from bot.scheduler import Scheduler
from bot.tournaments.model import Format, Schedule
from tests.bot.tournament_support import GUILD, PLAYERS, Recorder, create, entered, play_round, running_matches

P1, P2, P3, P4, P5 = (p.user_id for p in PLAYERS[:5])


def rr_result(seats: tuple[int, ...]) -> int | None:
    """P1-P2 drawn, P3 beats P2, otherwise the lower id wins (the loser is returned; None: a draw)."""
    pair = set(seats)
    if pair == {P1, P2}:
        return None
    if pair == {P2, P3}:
        return P2
    return max(seats)


async def test_a_round_robin_of_four_runs_to_its_end_with_hand_computed_standings(services):
    front = Recorder(services)
    view = await create(services, Format.ROUND_ROBIN, max_entrants=4)
    await entered(services, view.id, 4)          # the fourth entry fills it: it starts at once
    await front.settle()
    for _round in range(3):
        view = await services.tournaments.read(view.id)
        assert view.status == "running"
        await play_round(services, view.id, rr_result)
        await front.settle()
    view = await services.tournaments.read(view.id)
    assert view.status == "finished"
    table = [(s.user_id, s.points, s.sonneborn_berger, s.rank) for s in view.standings]
    assert table == [(P1, Fraction(5, 2), Fraction(11, 4), 1), (P3, Fraction(2), Fraction(3, 2), 2),
                     (P2, Fraction(3, 2), Fraction(5, 4), 3), (P4, Fraction(0), Fraction(0), 4)]
    assert view.winners == (P1,)
    kinds = front.kinds(view.id)
    assert kinds.count("tournament_round") == 3
    assert kinds.count("tournament_standings") == 6
    assert kinds.count("tournament_end") == 1
    assert kinds[-1] == "tournament_end"
    assert view.crosstable is not None and view.crosstable[0] == ("", "1", "½", "1")
    for i, (kind, _t, _m, notice) in enumerate(front.seen):     # each result's standings come after its post
        if kind == "tournament_standings":
            assert any(k == "board" and m == notice.match_id and n.event == "result" for k, _t2, m, n in front.seen[:i])


async def test_a_swiss_of_five_gives_one_bye_a_round_and_runs_to_its_end(services):
    front = Recorder(services)
    view = await create(services, Format.SWISS, rounds=3, max_entrants=5)
    await entered(services, view.id, 5)
    await front.settle()
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for round_no in range(1, 4):
        view = await services.tournaments.read(view.id)
        assert view.current_round == round_no
        tables = view.rounds[round_no - 1].tables
        games = [t for t in tables if t.kind.value == "game"]
        bye = [t.seats[0] for t in tables if t.kind.value == "bye"]
        assert len(games) == 2 and len(bye) == 1
        byes += bye
        for t in games:
            assert frozenset(t.seats) not in met          # no repeat pairings
            met.add(frozenset(t.seats))
        # the lower id wins every game, but P2's game of round 2 is drawn
        await play_round(services, view.id,
                         lambda seats, r=round_no: None if r == 2 and P2 in seats else max(seats))
        await front.settle()
    view = await services.tournaments.read(view.id)
    assert view.status == "finished"
    assert len(set(byes)) == 3                             # never a second bye while others had none
    # by hand, from the pairings: a win or the bye 1, a draw ½ each; Sonneborn-Berger: the points of each
    # opponent beaten, half those of one drawn (byes count nothing)
    points: dict[int, Fraction] = {p: Fraction(0) for p in (P1, P2, P3, P4, P5)}
    results: list[tuple[int, int, Fraction]] = []           # (player, opponent, score)
    for r in view.rounds:
        for t in r.tables:
            if t.kind.value == "bye":
                points[t.seats[0]] += 1
                continue
            a, b = t.seats
            drawn = r.number == 2 and P2 in t.seats
            score_a = Fraction(1, 2) if drawn else Fraction(int(a < b))
            points[a] += score_a
            points[b] += 1 - score_a
            results += [(a, b, score_a), (b, a, 1 - score_a)]
    sb = {p: sum((s * points[o] for q, o, s in results if q == p), Fraction(0)) for p in points}
    assert {s.user_id: (s.points, s.sonneborn_berger) for s in view.standings} == \
        {p: (points[p], sb[p]) for p in points}
    assert sum(points.values()) == 3 * (2 + 1)             # each round: two games and a one-point bye
    assert [s.points for s in view.standings] == sorted(points.values(), reverse=True)


async def test_a_rincala_pod_round_seats_three_and_scores_placement_points(services):
    front = Recorder(services)
    view = await create(services, Format.SWISS, game="rincala", table_size=3, rounds=1, min_entrants=3, max_entrants=6)
    await entered(services, view.id, 6)
    await front.settle()
    view = await services.tournaments.read(view.id)
    tables = view.rounds[0].tables
    assert [len(t.seats) for t in tables] == [3, 3]
    for t in tables:           # the seat that resigns ranks last; the others by the position's standing
        assert t.match_id is not None
        await services.play.resign(t.match_id, t.seats[2], guild_id=1000)
    await front.settle()
    view = await services.tournaments.read(view.id)
    assert view.status == "finished"
    points = {s.user_id: s.points for s in view.standings}
    for t in view.rounds[0].tables:
        match = await services.queries.get(t.match_id)
        ranks = match.row.ranks
        assert ranks[2] > max(ranks[:2])
        # placement points: 1 for 1st, ½ for 2nd, 0 for 3rd of three; two sharing 1st score ¾ each
        by_places = {(1, 2, 3): [1, Fraction(1, 2), 0], (2, 1, 3): [Fraction(1, 2), 1, 0],
                     (1, 1, 2): [Fraction(3, 4), Fraction(3, 4), 0]}
        assert [points[u] for u in t.seats] == by_places[tuple(ranks)]


async def test_a_spinca_pod_of_four_plays_in_teams(services):
    front = Recorder(services)
    view = await create(services, Format.SWISS, game="spinca", table_size=4, rounds=1, min_entrants=4, max_entrants=4)
    await entered(services, view.id, 4)
    await front.settle()
    view = await services.tournaments.read(view.id)
    (table,) = view.rounds[0].tables
    assert table.teams == ((0, 2), (1, 3))
    assert table.match_id is not None
    await services.play.resign(table.match_id, table.seats[1], guild_id=1000)   # seats 1 and 3 lose together
    await front.settle()
    view = await services.tournaments.read(view.id)
    points = {s.user_id: s.points for s in view.standings}
    assert [points[u] for u in table.seats] == [Fraction(1), Fraction(0), Fraction(1), Fraction(0)]


async def test_a_double_round_robin_of_five_all_at_once_swaps_seats_in_the_second_leg(services):
    front = Recorder(services)
    view = await create(services, Format.DOUBLE_ROUND_ROBIN, schedule=Schedule.ALL_AT_ONCE, max_entrants=5)
    await entered(services, view.id, 5)
    await front.settle()
    view = await services.tournaments.read(view.id)
    assert view.total_rounds == 10 and view.current_round == 10 and len(view.rounds) == 10
    games = [t for r in view.rounds for t in r.tables if t.match_id is not None]
    assert len(games) == 20                                       # every game starts at once
    by_pair: dict[frozenset[int], list[tuple[int, ...]]] = {}
    for t in games:
        by_pair.setdefault(frozenset(t.seats), []).append(t.seats)
    assert len(by_pair) == 10 and all(len(s) == 2 and s[0] == s[1][::-1] for s in by_pair.values())
    sitting_out = [t.seats[0] for r in view.rounds for t in r.tables if t.kind.value == "absent"]
    assert sorted(sitting_out) == sorted([P1, P2, P3, P4, P5] * 2)   # each sits out once per leg
    await play_round(services, view.id, lambda seats: max(seats))   # the lower id wins every game
    await front.settle()
    view = await services.tournaments.read(view.id)
    assert view.status == "finished"
    assert [(s.user_id, s.points) for s in view.standings] == [(P1, 8), (P2, 6), (P3, 4), (P4, 2), (P5, 0)]
    assert view.crosstable is not None and view.crosstable[0][1:] == ("1 1",) * 4


async def test_a_big_field_is_paired_in_a_worker_process(services):
    front = Recorder(services, process_from=4)         # this small field as if it were big
    view = await create(services, Format.SWISS, rounds=2, max_entrants=6)
    await entered(services, view.id, 6)
    await front.settle()
    await play_round(services, view.id, lambda seats: max(seats))
    await front.settle()
    view = await services.tournaments.read(view.id)
    assert view.current_round == 2 and [len(r.tables) for r in view.rounds] == [3, 3]
    met = [frozenset(t.seats) for r in view.rounds for t in r.tables]
    assert len(set(met)) == 6                           # no repeat pairing across the two rounds


async def test_a_league_plays_its_divisions_at_once_and_its_next_edition_promotes_and_relegates(services, clock):
    front = Recorder(services)
    view = await create(services, Format.LEAGUE, min_entrants=4, max_entrants=12, repeat_days=7,
                        start_at=(clock() + timedelta(hours=1)).isoformat())
    ids = [p.user_id for p in PLAYERS[:11]]
    await entered(services, view.id, 11)
    clock.advance(hours=1)
    await Scheduler(services).run_due()
    await front.settle()
    view = await services.tournaments.read(view.id)
    division = {e.user_id: e.division for e in view.entrants}
    assert [u for u in ids if division[u] == 1] == ids[:6] and [u for u in ids if division[u] == 2] == ids[6:]
    games = [t for r in view.rounds for t in r.tables if t.match_id is not None]
    assert len(games) == 15 + 10 and all(division[t.seats[0]] == division[t.seats[1]] for t in games)
    await play_round(services, view.id, lambda seats: max(seats))   # the lower id wins every game
    await front.settle()
    view = await services.tournaments.read(view.id)
    assert view.status == "finished" and view.winners == (ids[0],)
    assert [(s.division, s.user_id, s.points, s.rank) for s in view.standings] == \
        [(1, u, Fraction(5 - i), i + 1) for i, u in enumerate(ids[:6])] + \
        [(2, u, Fraction(4 - i), i + 1) for i, u in enumerate(ids[6:])]
    (following,) = [s for s in await services.tournaments.of_server(GUILD) if s.status == "open"]
    nxt = await services.tournaments.read(following.id)
    assert (nxt.edition, nxt.series_id) == (2, view.id)
    newcomer = PLAYERS[11]
    await services.tournaments.join(nxt.id, newcomer, guild_id=GUILD)
    clock.advance(days=7)
    await Scheduler(services).run_due()
    await front.settle()
    nxt = await services.tournaments.read(nxt.id)
    assert nxt.status == "running"
    division = {e.user_id: e.division for e in nxt.entrants}
    # the bottom two of the top division go down, the top two of the second come up; the newcomer joins by rating
    top = [ids[0], ids[1], ids[2], ids[3], ids[6], ids[7]]
    assert sorted(u for u, d in division.items() if d == 1) == sorted(top)
    assert sorted(u for u, d in division.items() if d == 2) == sorted([ids[4], ids[5], *ids[8:], newcomer.user_id])


async def test_who_timed_out_in_a_league_and_was_not_seen_since_is_left_out_of_the_next_edition(services, clock):
    front = Recorder(services)
    view = await create(services, Format.LEAGUE, min_entrants=4, max_entrants=8, repeat_days=7, days_per_move=1)
    await entered(services, view.id, 5)
    await services.tournaments.start(view.id, P1, guild_id=GUILD, manager=True)
    await front.settle()
    silent = P5                                    # never moves: each of their games ends without them
    for match_id in await running_matches(services, view.id):
        match = await services.queries.get(match_id)
        seats = [p.user_id for p in match.seated]
        if silent not in seats:
            await services.play.resign(match_id, max(seats), guild_id=GUILD)
        elif match.to_move_user.user_id != silent:  # their opponent moves first, then waits for them in vain
            await services.play.submit_turn(match, match.to_move_user.user_id, match.position.legal_moves()[0],
                                            guild_id=GUILD)
    clock.advance(days=1, minutes=1)
    await Scheduler(services).run_due()
    await front.settle()
    view = await services.tournaments.read(view.id)
    assert view.status == "finished"
    assert next(s for s in view.standings if s.user_id == silent).points == 0
    (following,) = [s for s in await services.tournaments.of_server(GUILD) if s.status == "open"]
    nxt = await services.tournaments.read(following.id)
    assert sorted(e.user_id for e in nxt.entrants) == [P1, P2, P3, P4]


async def test_at_every_tournament_table_the_first_seat_moves_first(services):
    """Tintas and Rincala draw their first player by lot; at a tournament's table the pairing decides it (the
    second leg of a double round robin swaps who moves first), so the lot keeps only the set-up."""
    front = Recorder(services)
    view = await create(services, Format.DOUBLE_ROUND_ROBIN, schedule=Schedule.ALL_AT_ONCE, max_entrants=4)
    await entered(services, view.id, 4)
    pods = await create(services, Format.SWISS, game="rincala", table_size=3, rounds=1, min_entrants=3,
                        max_entrants=6)
    await entered(services, pods.id, 6)
    await front.settle()
    tables = [t for v in (view, pods) for r in (await services.tournaments.read(v.id)).rounds for t in r.tables
              if t.match_id is not None]
    assert len(tables) == 12 + 2
    for t in tables:
        match = await services.queries.get(t.match_id)
        first = next(p.user_id for p in match.seated if p.seat == match.row.to_move)
        assert match.ply == 0 and first == t.seats[0], (match.game.key, t.seats, first)
