"""The daily digest through the command tree: chosen with an hour and a time zone, one DM a day at that local
hour listing exactly the matches where it is the player's move (links, deadlines), none on a day without
one, boards that name the player without a ping, exactly once across a restart, bad hours and zones refused."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from tests.bot.support import GUILD, autocompleted_turn, boards, cards, running, said
from tests.conftest import BOTH_BACKENDS

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL

BERLIN_9 = datetime(2026, 1, 2, 8, 0, tzinfo=UTC)   # 09:00 in Berlin after the clock's start (Jan 1, 12:00 UTC)


async def start(fake, a, b, time=1):
    card = cards(await fake.slash(a, "tintas challenge", opponent=b, time=time))[0]
    return boards(await fake.click(b, card.button("Accept")["custom_id"], message=card))[-1]


async def to_move(fake, match_id) -> int:
    match = await fake.client.services.queries.get(match_id, position=False)
    assert match.to_move_user is not None
    return match.to_move_user.user_id


async def digest_dms(fake, user_id=11):
    return [s for s in fake.sent if s.kind == "dm" and s.recipient_id == user_id and "daily digest" in s.content]


async def run(fake):
    done = await fake.client.scheduler.run_due()
    await fake.client.dispatcher.deliver_pending()
    return done


async def test_choosing_the_digest_with_an_hour_and_a_zone(fake, people):
    out = await fake.slash(people[0], "settings", notify="digest", digest_hour=9, timezone="Europe/Berlin")
    assert f"a daily digest at 09:00 (Europe/Berlin), next <t:{int(BERLIN_9.timestamp())}:f>" in said(out)
    choices = await fake.autocomplete(people[0], "settings", "timezone", timezone="berl")
    assert [c["value"] for c in choices] == ["Europe/Berlin"]
    out = await fake.slash(people[0], "settings", notify="mention")
    assert "a mention" in said(out) and (await fake.client.services.digests.next_due()) is None


async def test_the_digest_lists_exactly_the_matches_where_it_is_ones_move_once_a_day(fake, people, clock):
    ann, bob, cy = people
    await fake.slash(ann, "settings", notify="digest", digest_hour=9, timezone="Europe/Berlin")
    for a, b in ((ann, bob), (ann, cy), (bob, cy)):
        await start(fake, a, b)
    assert await fake.client.scheduler.run_due() == []
    mine = [m for m in (1, 2) if await to_move(fake, m) == 11]
    assert mine                                               # (match 3 is Bob's and Cy's: never listed)
    clock.now = BERLIN_9
    assert ("digest", 11) in await run(fake)
    dms = await digest_dms(fake)
    assert len(dms) == 1
    listed = [int(n) for n in re.findall(r"Tintas #(\d+)", dms[0].content)]
    assert sorted(listed) == mine
    for m in mine:
        match = await fake.client.services.queries.get(m, position=False)
        assert f"https://discord.com/channels/{GUILD}/2000/{match.row.board_message_id}" in dms[0].content
        assert f"move by <t:{int(match.deadline.timestamp())}:R>" in dms[0].content
    await run(fake)
    assert len(await digest_dms(fake)) == 1                   # once a day


async def test_no_digest_on_a_day_without_a_match_awaiting_the_player(fake, people, clock):
    ann, bob, _ = people
    await fake.slash(ann, "settings", notify="digest", digest_hour=9, timezone="Europe/Berlin")
    await start(fake, bob, ann, time=0)
    if await to_move(fake, 1) == 11:                          # make it Bob's move
        value = await autocompleted_turn(fake, ann, "tintas move")
        await fake.slash(ann, "tintas move", move=value)
    clock.now = BERLIN_9
    assert await run(fake) == [("digest", 11)]                # taken, but nothing to tell
    assert await digest_dms(fake) == []
    assert await fake.client.services.digests.next_due() == BERLIN_9.replace(day=3)


async def test_board_posts_name_a_digest_player_without_pinging_them(fake, people):
    ann, bob, _ = people
    await fake.slash(ann, "settings", notify="digest")
    board = await start(fake, ann, bob)
    while await to_move(fake, 1) != 11:
        value = await autocompleted_turn(fake, bob, "tintas move")
        board = boards(await fake.slash(bob, "tintas move", move=value))[-1]
    assert "<@11>" in board.text() and 11 not in board.mentions and "<@11>" not in (board.content or "")
    assert not [s for s in fake.sent if s.kind == "dm" and s.recipient_id == 11]   # no DM per turn either



async def test_a_restart_around_the_due_time_neither_doubles_nor_skips_the_digest(db_path, clock):
    async with running(db_path, clock) as (fake, (ann, bob)):
        await fake.slash(ann, "settings", notify="digest", digest_hour=9, timezone="Europe/Berlin")
        await fake.slash(bob, "settings", notify="digest", digest_hour=9, timezone="Europe/Berlin")
        await start(fake, ann, bob)
        waiting = await to_move(fake, 1)
    clock.now = BERLIN_9                                      # down across the due time: caught up after
    async with running(db_path, clock) as (fake, _):
        assert ("digest", waiting) in await fake.client.scheduler.run_due()   # taken; the process dies here
    async with running(db_path, clock, seed=9) as (fake, _):
        assert await fake.client.scheduler.run_due() == []    # not taken twice
        await fake.client.dispatcher.deliver_pending()
        await fake.client.scheduler.run_due()
        await fake.client.dispatcher.deliver_pending()
        assert len(await digest_dms(fake, waiting)) == 1


async def test_bad_hours_and_zones_are_refused_and_change_nothing(fake, people):
    ann = people[0]
    assert "0 to 23, not 24" in said(await fake.slash(ann, "settings", notify="digest", digest_hour=24))
    assert "0 to 23, not -1" in said(await fake.slash(ann, "settings", digest_hour=-1))
    out = await fake.slash(ann, "settings", notify="digest", timezone="Mars/Olympus")
    assert "'Mars/Olympus' is not a time zone I know" in said(out)
    assert await fake.client.services.settings.notify(11) == "mention"
