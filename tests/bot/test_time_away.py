"""Time away through the command tree: /settings away:<days> pauses the player's clocks in this server (deadlines,
reminders and forfeits honour it, also across a restart), away:0 resumes them with what remained, the
allowance per year, and what opponents see."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import discord

from bot.scheduler import Scheduler
from bot.services.away import DEFAULT_AWAY_ALLOWANCE_DAYS
from tests.bot.support import autocompleted_turn, boards, cards, pinged, running, said
from tests.conftest import BOTH_BACKENDS

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL

ADMIN = discord.Permissions(manage_guild=True)


async def start(fake, people, time=1, ann=None, bob=None):
    ann, bob = ann or people[0], bob or people[1]
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob, time=time))[0]
    return boards(await fake.click(bob, card.button("Accept")["custom_id"], message=card))[-1]


async def move(fake, people, board):
    mover = pinged(board, people)
    value = await autocompleted_turn(fake, mover, "tintas move")
    return boards(await fake.slash(mover, "tintas move", move=value))[-1]


async def row(fake, match_id=1):
    return (await fake.client.services.queries.get(match_id, position=False)).row


def at(text: str | None) -> datetime:
    assert text is not None
    return datetime.fromisoformat(text)


async def due_now(fake) -> list:
    """One scheduler pass and the deliveries it causes; what was sent."""
    before = len(fake.sent)
    done = await fake.client.scheduler.run_due()
    await fake.client.dispatcher.deliver_pending()
    return [done, fake.sent[before:]]


async def test_going_away_pauses_the_deadline_and_keeps_the_time_that_remained(fake, people, clock):
    board = await start(fake, people)
    mover = pinged(board, people[:2])
    other = people[1] if mover is people[0] else people[0]
    clock.advance(hours=6)                                   # 18 hours of 24 remain
    out = await fake.slash(mover, "settings", away=3)
    assert "You are away until <t:" in said(out)
    r = await row(fake)
    back = clock.now + timedelta(days=3)
    assert at(r.deadline_at) == back + timedelta(hours=18)
    assert at(r.remind_at) == back + timedelta(hours=24 * 0.8 - 6)
    notices = [s for s in fake.sent if s.kind == "channel_message" and "is away until" in (s.content or "")]
    assert len(notices) == 1 and f"<@{mover['id']}> is away until <t:{int(back.timestamp())}:D>" in notices[0].content
    assert not notices[0].mentions                           # a quiet post: nobody is pinged by it
    listed = said(await fake.slash(other, "matches"))
    assert f"{mover['username']} to move (away until <t:{int(back.timestamp())}:D>)" in listed
    bumped = boards(await fake.click(other, board.button("Bump")["custom_id"], message=board))[-1]
    assert f"<@{mover['id']}> is away until <t:{int(back.timestamp())}:D>" in bumped.text()


async def test_untimed_matches_are_unaffected_and_get_no_notice(fake, people):
    await start(fake, people, time=0)
    out = await fake.slash(people[0], "settings", away=2)
    assert "(0)" in said(out)
    assert (await row(fake)).deadline_at is None
    assert not [s for s in fake.sent if "is away until" in (s.content or "")]


async def test_a_turn_reaching_an_away_player_waits_with_no_reminder_or_forfeit_meanwhile(fake, people, clock):
    board = await start(fake, people)
    mover = pinged(board, people[:2])
    other = people[1] if mover is people[0] else people[0]
    await fake.slash(other, "settings", away=2)
    back = clock.now + timedelta(days=2)
    clock.advance(hours=1)
    board = await move(fake, people, board)                  # the turn reaches the absent player
    assert f"<@{other['id']}> is away until" in board.text()
    assert at((await row(fake)).deadline_at) == back + timedelta(days=1)   # the full time, from the return
    clock.now = back - timedelta(seconds=1)
    done, sent = await due_now(fake)
    assert done == [] and sent == []                         # no reminder, no forfeit while away
    clock.now = back + timedelta(hours=19.2)
    done, sent = await due_now(fake)
    assert done == [("reminded", 1)] and "Reminder" in sent[0].content


async def test_coming_back_early_resumes_with_the_time_that_remained(fake, people, clock):
    board = await start(fake, people)
    mover = pinged(board, people[:2])
    clock.advance(hours=6)
    await fake.slash(mover, "settings", away=5)
    clock.advance(days=1)
    out = await fake.slash(mover, "settings", away=0)
    assert "Welcome back" in said(out)
    assert at((await row(fake)).deadline_at) == clock.now + timedelta(hours=18)
    assert any(f"<@{mover['id']}> is back" in (s.content or "") for s in fake.sent)
    assert "not away" in said(await fake.slash(mover, "settings"))
    assert "not away in this server" in said(await fake.slash(mover, "settings", away=0))



async def test_a_paused_deadline_holds_across_a_restart_and_the_forfeit_comes_at_the_right_time(db_path, clock):
    async with running(db_path, clock) as (fake, people):
        board = await start(fake, people)
        board = await move(fake, people, board)
        board = await move(fake, people, board)              # both have moved: a time-out is a forfeit
        late = pinged(board, people)
        clock.advance(hours=4)                               # 20 hours remain
        await fake.slash(late, "settings", away=2)
        back = clock.now + timedelta(days=2)
    clock.advance(days=1)                                    # the bot is down for a day
    async with running(db_path, clock, seed=8) as (fake, people):
        assert at((await row(fake)).deadline_at) == back + timedelta(hours=20)
        assert await Scheduler(fake.client.services).pass_once() > 0
        clock.now = back + timedelta(hours=20) - timedelta(seconds=1)
        done, _ = await due_now(fake)
        assert ("finished", 1) not in done
        clock.now = back + timedelta(hours=20)
        done, sent = await due_now(fake)
        assert ("finished", 1) in done
        assert "ran out of time" in boards(sent)[-1].text()


async def test_the_allowance_refuses_more_days_than_are_left(fake, people, clock):
    ann = people[0]
    assert f"{DEFAULT_AWAY_ALLOWANCE_DAYS} of {DEFAULT_AWAY_ALLOWANCE_DAYS} days left" in said(
        await fake.slash(ann, "settings"))
    await fake.slash(ann, "settings", away=20)
    clock.advance(days=21)                                   # the absence ended by itself
    out = await fake.slash(ann, "settings", away=15)
    assert "You have 10 days of time away left" in said(out)
    assert "not away" in said(await fake.slash(ann, "settings"))          # nothing was changed
    assert "You are away until" in said(await fake.slash(ann, "settings", away=10))
    clock.advance(days=10 + 366)                             # a rolling year after the last absence: whole again
    assert "30 of 30 days left" in said(await fake.slash(ann, "settings"))
    for days in (-1, 366, 10**6):
        assert re.search(r"Time away is 1 to 365 days \(0 = back now\), not -?\d+", said(
            await fake.slash(ann, "settings", away=days)))


async def test_extending_an_absence_counts_it_once(fake, people, clock):
    board = await start(fake, people)
    mover = pinged(board, people[:2])
    await fake.slash(mover, "settings", away=10)
    clock.advance(days=2)
    out = await fake.slash(mover, "settings", away=28)       # 2 spent + 28 = the whole 30
    assert "You are away until" in said(out)
    assert at((await row(fake)).deadline_at) == clock.now + timedelta(days=29)
    assert "You have 28 days" in said(await fake.slash(mover, "settings", away=29))   # the planned rest is free


async def test_admins_set_the_allowance_and_zero_forbids_time_away(fake, people):
    ann = people[0]
    admin = fake.user(9, "Root", permissions=ADMIN)
    assert "Manage Server" in said(await fake.slash(ann, "settings", away_allowance=100))
    out = await fake.slash(admin, "settings", away_allowance=5)
    assert "Time away allowed: 5 days a year" in said(out)
    assert "You have 5 days of time away left" in said(await fake.slash(ann, "settings", away=6))
    await fake.slash(admin, "settings", away_allowance=0)
    assert "does not allow time away" in said(await fake.slash(ann, "settings", away=1))
    assert "0 to 365 days" in said(await fake.slash(admin, "settings", away_allowance=-3))


async def test_a_refused_absence_changes_no_other_setting_given_with_it(fake, people):
    await start(fake, people)
    ann = int(people[0]["id"])
    before = await fake.client.services.settings.notify(ann)
    assert before != "off"
    out = await fake.slash(people[0], "settings", notify="off", away=0)     # not away: refused
    assert "You are not away" in said(out) and "nothing was changed" in said(out)
    assert await fake.client.services.settings.notify(ann) == before
