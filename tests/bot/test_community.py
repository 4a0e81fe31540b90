"""Correspondence play and community through the real command tree: time on cards and boards, reminders
and forfeits posted by the scheduler, notification choices (DM, off, a closed DM), Bump and Rematch,
threads, the leaderboard's pages, and the admin permission on every admin path."""

from __future__ import annotations

import re

import discord
import pytest

from bot.model import Person
from tests.bot.support import GUILD, boards, cards, pinged, said

ADMIN = discord.Permissions(manage_guild=True)


@pytest.fixture
def people(fake):
    return [fake.user(11, "Ann"), fake.user(12, "Bob"), fake.user(13, "Cy")]


async def start(fake, people, **options):
    ann, bob = people[:2]
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob, **options))[0]
    out = await fake.click(bob, card.button("Accept")["custom_id"], message=card)
    return card, boards(out)[-1]      # the first board (DMs may follow it)


async def first_moves(fake, people, board, turns=2):
    for _ in range(turns):
        mover = pinged(board, people)
        value = (await fake.autocomplete(mover, "tintas move", "move", move=""))[0]["value"]
        board = boards(await fake.slash(mover, "tintas move", move=value))[-1]
    return board


async def test_time_per_move_shows_on_the_card_and_every_board(fake, people):
    card, board = await start(fake, people, time=2)
    assert "2 days per move" in card.text() and "Expires <t:" in card.text()
    assert re.search(r"⏰ (Ann|Bob) must move by <t:\d+:f> \(<t:\d+:R>\)", board.text())
    _, casual = await start(fake, [people[0], people[2]], time=0)
    assert "Casual: no time limit, unrated." in casual.text()


async def test_the_server_default_time_applies_when_the_challenge_says_none(fake, people):
    admin = fake.user(9, "Root", permissions=ADMIN)
    out = await fake.slash(admin, "settings", default_time=7)
    assert "Default time per move: 7 days per move" in said(out)
    card = cards(await fake.slash(people[0], "tintas challenge", opponent=people[1]))[0]
    assert "7 days per move" in card.text()


async def test_reminder_and_forfeit_are_posted_by_the_scheduler(fake, people, clock):
    _, board = await start(fake, people, time=1)
    board = await first_moves(fake, people, board, turns=2)
    late = pinged(board, people)
    clock.advance(hours=20)
    before = len(fake.sent)
    await fake.client.scheduler.run_due()
    await fake.client.dispatcher.deliver_pending()
    reminder = fake.sent[before:]
    assert len(reminder) == 1 and reminder[0].kind == "channel_message"
    assert f"<@{late['id']}>" in reminder[0].content and "Reminder" in reminder[0].content
    clock.advance(hours=5)
    await fake.client.scheduler.run_due()
    await fake.client.dispatcher.deliver_pending()
    final = boards(fake.sent)[-1]                           # the result (its replay follows in a message of its own)
    assert final.kind == "channel_message" and final.files
    assert f"{late['username']} ran out of time" in final.text() or "ran out of time" in final.text()
    assert "Ratings: " in final.text()
    assert final.button("Rematch")


async def test_a_dm_player_gets_a_dm_with_a_link_and_no_ping(fake, people):
    ann, bob, _ = people
    for p in (ann, bob):
        out = await fake.slash(p, "settings", notify="dm")
        assert "a direct message" in said(out)
    _, board = await start(fake, people)
    assert not board.content                                        # nobody pinged in the channel
    dms = [s for s in fake.sent if s.kind == "dm"]
    assert len(dms) == 1 and "It is your move." in dms[0].content
    assert f"https://discord.com/channels/{GUILD}/2000/{board.message_id}" in dms[0].content


async def test_a_closed_dm_falls_back_to_a_mention_quietly(fake, people):
    ann, bob, _ = people
    for p in (ann, bob):
        await fake.slash(p, "settings", notify="dm")
        fake.closed_dms.add(int(p["id"]))
    card, board = await start(fake, people)
    fallback = [s for s in fake.sent if s.kind == "channel_message" and s.message_id not in
                (card.message_id, board.message_id)]                # besides the card and the board
    assert not board.content and len(fallback) == 1
    assert re.fullmatch(r"<@1[12]> It is your move\.", fallback[0].content)
    assert not any(s.ephemeral and "DM" in s.text() for s in fake.sent)   # no error shown to anyone


async def test_notifications_off_means_no_ping_and_no_dm(fake, people):
    for p in people[:2]:
        await fake.slash(p, "settings", notify="off")
    card, board = await start(fake, people)
    posted = [s for s in fake.sent if s.kind in ("dm", "channel_message")]
    assert [s.message_id for s in posted] == [card.message_id, board.message_id]   # only the card and the board
    assert not board.content and not board.mentions


async def test_bump_reposts_the_board_at_the_bottom(fake, people):
    _, board = await start(fake, people)
    out = await fake.click(people[0], board.button("Bump")["custom_id"], message=board)     # a player
    bumped = boards(out)[-1]
    assert bumped.files and bumped.message_id > board.message_id
    assert f"/{bumped.message_id}" in said(out)                      # the clicker gets a link privately
    listed = said(await fake.slash(people[0], "matches"))
    assert f"/{bumped.message_id})" in listed                        # /matches links the newest board


async def test_rematch_rotates_seats_and_needs_everyone_to_accept(fake, people):
    ann, bob, _ = people
    _, board = await start(fake, people)
    seats = re.search(r"<@(\d+)> plays first, <@(\d+)> second", board.text()).groups()
    confirm = (await fake.slash(ann, "tintas resign"))[-1]
    done = boards(await fake.click(ann, confirm.button("Yes, resign")["custom_id"], message=confirm))[-1]
    out = await fake.click(people[2], done.button("Rematch")["custom_id"], message=done)
    assert all(s.ephemeral for s in out) and "Only the players" in said(out)
    card = cards(await fake.click(bob, done.button("Rematch")["custom_id"], message=done))[0]
    assert card.kind == "channel_message" and "<@11>" in card.content   # Ann must accept
    started = boards(await fake.click(ann, card.button("Accept")["custom_id"], message=card))[-1]
    again = re.search(r"<@(\d+)> plays first, <@(\d+)> second", started.text()).groups()
    assert again == (seats[1], seats[0])                                  # the seats rotated by one


async def test_threads_on_puts_each_match_in_its_own_thread(fake, people):
    admin = fake.user(9, "Root", permissions=ADMIN)
    await fake.slash(admin, "settings", threads=1)
    _, board = await start(fake, people)
    threads = [s for s in fake.sent if s.kind == "thread"]
    assert len(threads) == 1 and threads[0].content in ("Tintas: Ann vs Bob", "Tintas: Bob vs Ann")
    assert board.channel_id != 2000 and board.files                  # the first board is in the thread
    mover = pinged(board, people)
    value = (await fake.autocomplete(mover, "tintas move", "move", move="", channel_id=board.channel_id))[0]
    out = await fake.slash(mover, "tintas move", move=value["value"], channel_id=board.channel_id)
    assert boards(out)[-1].files and boards(out)[-1].channel_id == board.channel_id


async def test_play_only_in_the_channels_an_admin_chose(fake, people):
    admin = fake.user(9, "Root", permissions=ADMIN)
    fake.channel(2001, "games")
    await fake.slash(admin, "settings", allow_channel=2001)
    out = await fake.slash(people[0], "tintas challenge", opponent=people[1])
    assert all(s.ephemeral for s in out) and "Games are played in <#2001>" in said(out)
    out = await fake.slash(people[0], "tintas challenge", opponent=people[1], channel_id=2001)
    card = cards(out)[0]
    assert card.channel_id == 2001 and card.button("Accept")


@pytest.mark.parametrize("command, options", [
    ("settings", {"threads": 1}), ("settings", {"default_time": 1}), ("settings", {"allow_channel": 2000}),
    ("match abort", {"match": "1"}), ("match rebuild-ratings", {})])
async def test_every_admin_path_needs_manage_server(fake, people, command, options):
    await start(fake, people)
    out = await fake.slash(people[0], command, **options)
    assert all(s.ephemeral for s in out) and "Manage Server" in said(out)
    match = (await fake.client.services.queries.matches_of(11, guild_id=GUILD))[0]
    assert match.status == "active"
    server = await fake.client.services.settings.guild(GUILD)
    assert not server.threads and not server.channels


async def test_an_admin_aborts_a_stuck_match_unrated_and_it_is_logged(fake, people):
    admin = fake.user(9, "Root", permissions=ADMIN)
    await start(fake, people)
    out = await fake.slash(admin, "match abort", match="#1", reason="players left")
    assert "was aborted" in said(out) and "unrated" in said(out)
    final = boards(out)[-1]                                          # the public result board
    assert "aborted" in final.text() and "unrated" in final.text() and "players left" in final.text()
    assert "<@11>" in final.content and "<@12>" in final.content     # both players are told
    events = await fake.client.services.matches.events(1)
    assert events[0][1:] == (9, "abort", "players left")
    assert await fake.client.services.ratings.snapshot() == []
    assert "by <@9>" in final.text()                                 # and who aborted it


async def test_leaderboard_orders_by_rating_and_pages_with_buttons(fake, people):
    services = fake.client.services
    players = [Person(100 + i, f"P{i:02d}") for i in range(12)]
    for i in range(11):   # a ladder: P00 beats P01 beats P02 ...; P00 and P01 meet twice more
        for a, b in [(players[i], players[i + 1])] + ([(players[0], players[1])] * 2 if i == 0 else []):
            m = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=2000, challenger=a,
                                                    opponents=[b], days_per_move=3)
            await services.challenges.accept(m.id, b, guild_id=GUILD)
            await services.play.resign(m.id, b.user_id, guild_id=GUILD)
    out = await fake.slash(people[0], "leaderboard", game="tintas")
    first = out[-1]
    assert first.kind == "edit_original" and not first.ephemeral    # the leaderboard is public
    lines = [ln for ln in first.text().splitlines() if re.match(r"\*\*\d+\.\*\*", ln)]
    assert len(lines) == 10 and lines[0].startswith("**1.** <@100>")
    ratings = [int(re.search(r"— \*\*(\d+)", ln).group(1)) for ln in lines]
    assert ratings == sorted(ratings, reverse=True)
    assert "(provisional)" in lines[0] and "3 games" in lines[0] and "3W 0L 0D" in lines[0]
    assert first.button("◀ Previous")["disabled"] and not first.button("Next ▶")["disabled"]
    out = await fake.click(people[1], first.button("Next ▶")["custom_id"], message=first)
    second = out[-1]
    assert second.kind == "edit_original" and second.message_id == first.message_id   # the page turns in place
    rest = [ln for ln in second.text().splitlines() if re.match(r"\*\*\d+\.\*\*", ln)]
    assert [ln.split()[0] for ln in rest] == ["**11.**", "**12.**"] and second.button("Next ▶")["disabled"]
    profile = said(await fake.slash(people[0], "profile", user=fake.user(100, "P00")))
    assert "Tintas" in profile and "3W 0L 0D" in profile
    history = said(await fake.slash(people[0], "history", user=fake.user(101, "P01")))
    assert history.count("resigned") == 4


async def test_rebuild_ratings_command_keeps_the_numbers(fake, people):
    admin = fake.user(9, "Root", permissions=ADMIN)
    _, board = await start(fake, people)
    confirm = (await fake.slash(people[0], "tintas resign"))[-1]
    done = await fake.click(people[0], confirm.button("Yes, resign")["custom_id"], message=confirm)
    assert "You resigned" in said(done) and boards(done)
    live = await fake.client.services.ratings.snapshot()
    assert live
    out = await fake.slash(admin, "match rebuild-ratings")
    assert "rebuilt from 1 rated matches" in said(out)
    assert await fake.client.services.ratings.snapshot() == live
