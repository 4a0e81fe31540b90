"""Open seats through the command tree: `/<game> challenge` without (all) opponents posts a card anyone in the
server can Join; the last seat starts the match; the challenger can cancel; it expires like any challenge."""

from __future__ import annotations

import asyncio
import dataclasses
import re

import discord
import pytest

from bot.model import Person, StalePosition
from bot.services.challenges import MAX_OPEN_PER_USER, OPEN_SEAT_TEAMS, arrival_team
from tests.bot.support import GUILD, boards, pinged, said
from tests.conftest import BOTH_BACKENDS

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL


@pytest.fixture
def people(fake):
    return [fake.user(11, "Ann"), fake.user(12, "Bob"), fake.user(13, "Cy"), fake.user(14, "Dee"),
            fake.user(15, "Eve")]


def open_card(sent):
    """The open challenge card among what the bot sent (a new channel message with Join)."""
    found = [s for s in sent if s.kind == "channel_message" and any(c.get("label") == "Join" for c in s.components)]
    assert len(found) == 1, [(s.kind, s.content) for s in sent]
    return found[0]


async def join(fake, who, card):
    return await fake.click(who, card.button("Join")["custom_id"], message=card)


async def test_an_open_three_seat_rincala_challenge_fills_with_two_joiners_and_starts(fake, people):
    ann, bob, cy = people[:3]
    out = await fake.slash(ann, "rincala challenge", players=3, time=2)
    card = open_card(out)
    assert "Open challenge posted" in said(out)
    assert "2 open seats" in card.content and card.mentions == []      # nobody is pinged by an open table
    assert "Open seats: 2 of 3" in card.text() and "2 days per move" in card.text()
    assert [c.get("label") for c in card.components] == ["Join", "Cancel"]
    out = await join(fake, bob, card)
    update = out[-1]
    assert update.kind == "edit" and update.message_id == card.message_id
    assert "Joined: <@12>" in update.text() and "Open seats: 1 of 3" in update.text()
    assert not boards(out) and (await fake.client.services.queries.get(1)).status == "challenge"
    out = await join(fake, cy, update)
    board = boards(out)[-1]
    first = pinged(board, [ann, bob, cy])                              # the board pings the first player
    assert re.search(r"<@1[123]> plays first, <@1[123]> second, <@1[123]> third", board.text())
    assert board.mentions == [int(first["id"])]
    card_now = fake.message(card.message_id)
    assert "Every seat is taken" in card_now.text() and not card_now.components
    match = await fake.client.services.queries.get(1)
    assert match.status == "active" and sorted(p.user_id for p in match.seated) == [11, 12, 13]
    assert match.row.time_per_move == 2 * 86400                           # rated, as a named challenge would be


async def test_a_two_player_open_challenge_is_taken_by_one(fake, people):
    ann, bob = people[:2]
    card = open_card(await fake.slash(ann, "tintas challenge"))
    assert "1 open seat" in card.content
    out = await join(fake, bob, card)
    board = boards(out)[-1]
    assert pinged(board, [ann, bob])
    assert (await fake.client.services.queries.get(1)).status == "active"


async def test_named_opponents_and_open_seats_mix(fake, people):
    """'me + @Bob + 1 open seat': Bob accepts, Cy joins; the match starts only when both are in."""
    ann, bob, cy = people[:3]
    card = open_card(await fake.slash(ann, "rincala challenge", opponent=bob, players=3))
    assert card.content.startswith("<@12> ") and card.mentions == [12]
    assert [c.get("label") for c in card.components] == ["Join", "Accept", "Decline", "Cancel"]
    out = await join(fake, bob, card)
    assert "press Accept" in said(out)
    out = await join(fake, cy, card)
    assert not boards(out) and "Open seats" not in out[-1].text() and "<@12> ⏳" in out[-1].text()
    out = await fake.click(bob, card.button("Accept")["custom_id"], message=out[-1])
    assert pinged(boards(out)[-1], [ann, bob, cy])


async def test_the_challenger_cannot_join_their_own(fake, people):
    ann = people[0]
    card = open_card(await fake.slash(ann, "tintas challenge"))
    out = await join(fake, ann, card)
    assert "your own challenge" in said(out)
    assert (await fake.client.services.queries.get(1)).row.open_seats == 1


async def test_the_same_person_cannot_take_two_seats(fake, people):
    ann, bob = people[:2]
    card = open_card(await fake.slash(ann, "rincala challenge", players=3))
    out = await join(fake, bob, card)
    out = await join(fake, bob, out[-1])
    assert "already have a seat" in said(out)
    match = await fake.client.services.queries.get(1)
    assert match.row.open_seats == 1 and len(match.participants) == 2


async def test_a_late_joiner_is_refused_once_the_seats_are_taken(fake, people):
    ann, bob, cy = people[:3]
    card = open_card(await fake.slash(ann, "tintas challenge"))
    await join(fake, bob, card)
    assert not fake.message(card.message_id).components                # the card shows no Join any more …
    stale = dataclasses.replace(card, message_id=None)                 # … but Cy's screen had not caught up
    out = await join(fake, cy, stale)
    assert "every seat was taken" in said(out)
    match = await fake.client.services.queries.get(1)
    assert sorted(p.user_id for p in match.seated) == [11, 12]


async def test_two_joiners_for_the_last_seat_exactly_one_gets_it(services):
    ann, bob, cy = Person(11, "Ann"), Person(12, "Bob"), Person(13, "Cy")
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=2000, challenger=ann,
                                                opponents=[])
    results = await asyncio.gather(services.challenges.join(match.id, bob, guild_id=GUILD),
                                   services.challenges.join(match.id, cy, guild_id=GUILD), return_exceptions=True)
    assert sum(isinstance(r, StalePosition) for r in results) == 1
    started = await services.queries.get(match.id)
    assert started.status == "active" and len(started.seated) == 2


async def test_bots_and_members_who_cannot_see_the_channel_cannot_join(fake, people):
    ann = people[0]
    robot = fake.user(40, "Robot", bot=True)
    hidden = fake.user(41, "Hidden", permissions=discord.Permissions(send_messages=True))
    card = open_card(await fake.slash(ann, "tintas challenge"))
    assert "Bots cannot take a seat" in said(await join(fake, robot, card))
    assert "cannot see this channel" in said(await join(fake, hidden, card))
    assert (await fake.client.services.queries.get(1)).row.open_seats == 1


async def test_the_challenger_cancels_an_open_challenge(fake, people):
    ann, bob = people[:2]
    card = open_card(await fake.slash(ann, "rincala challenge", players=3))
    out = await fake.click(bob, card.button("Cancel")["custom_id"], message=card)
    assert "Only the player who made the challenge" in said(out)
    out = await fake.click(ann, card.button("Cancel")["custom_id"], message=card)
    assert "cancelled by the challenger" in out[-1].text() and not out[-1].components
    assert (await fake.client.services.queries.get(1)).status == "cancelled"


async def test_an_open_challenge_expires_like_any_challenge(fake, people, clock):
    ann, bob = people[:2]
    card = open_card(await fake.slash(ann, "tintas challenge"))
    clock.advance(hours=23)
    assert await fake.client.scheduler.run_due() == []
    clock.advance(hours=1)
    assert await fake.client.scheduler.run_due() == [("expired", 1)]
    await fake.client.dispatcher.deliver_pending()
    now = fake.message(card.message_id)
    assert "expired" in now.text() and not now.components
    stale = dataclasses.replace(card, message_id=None)
    assert "no longer open" in said(await join(fake, bob, stale))


async def test_matches_shows_open_seats_to_the_challenger_and_to_others(fake, people):
    ann, bob, cy = people[:3]
    card = open_card(await fake.slash(ann, "rincala challenge", players=3))
    await join(fake, bob, card)
    link = f"https://discord.com/channels/{GUILD}/{card.channel_id}/{card.message_id}"
    mine = said(await fake.slash(ann, "matches"))
    assert "#1 vs Bob — open challenge · 1 open seat" in mine and link in mine
    joined = said(await fake.slash(bob, "matches"))
    assert "open challenge · 1 open seat" in joined and "Open seats in this server" not in joined
    other = said(await fake.slash(cy, "matches"))
    assert "Open seats in this server" in other and "#1 by Ann — 1 open seat" in other and link in other


async def test_open_challenges_count_toward_the_limit(fake, people):
    ann = people[0]
    for _ in range(MAX_OPEN_PER_USER):
        open_card(await fake.slash(ann, "tintas challenge"))
    out = await fake.slash(ann, "tintas challenge")
    assert f"You have {MAX_OPEN_PER_USER} open challenges" in said(out)


async def test_a_table_smaller_than_the_named_players_is_refused(fake, people):
    ann, bob, cy = people[:3]
    out = await fake.slash(ann, "rincala challenge", opponent=bob, opponent2=cy, players=2)
    assert "for a table of 2" in said(out)


def test_the_team_rule_alternates_by_arrival_and_respects_a_named_partner():
    assert OPEN_SEAT_TEAMS == (0, 1, 0, 1)
    teams: list[int | None] = []
    for arrival in range(4):
        teams.append(arrival_team(arrival, teams, 2))
    assert teams == [0, 1, 0, 1]                       # the challenger partners the third to sit
    assert arrival_team(2, [0, 0], 2) == 1             # a named partner filled the challenger's team
    assert arrival_team(3, [0, 0, 1], 2) == 1


async def test_four_player_spinca_open_challenge_forms_teams_by_arrival(fake, people):
    ann, bob, cy, dee = people[:4]
    card = open_card(await fake.slash(ann, "spinca challenge", players=4))
    assert "Teams: <@11> & *open seat* vs *open seat* & *open seat*" in card.text()
    out = await join(fake, bob, card)
    assert "Teams: <@11> & *open seat* vs <@12> & *open seat*" in out[-1].text()
    await join(fake, cy, card)
    out = await join(fake, dee, card)
    board = boards(out)[-1]
    assert "Teams:" in board.text()
    seat_of = {int(uid): name for name, uid in re.findall(r"((?:White|Black) [AB]): <@(\d+)>", board.text())}
    assert len(seat_of) == 4
    assert seat_of[11].split()[0] == seat_of[13].split()[0]          # Ann partners Cy, the second to join
    assert seat_of[12].split()[0] == seat_of[14].split()[0] != seat_of[11].split()[0]


async def test_four_player_spinca_open_challenge_with_a_named_partner(fake, people):
    ann, bob, cy, dee = people[:4]
    card = open_card(await fake.slash(ann, "spinca challenge", opponent=cy, partner=cy, players=4))
    assert "Teams: <@11> & <@13> vs *open seat* & *open seat*" in card.text()
    await fake.click(cy, card.button("Accept")["custom_id"], message=card)
    await join(fake, bob, card)
    out = await join(fake, dee, card)
    board = boards(out)[-1]
    seat_of = {int(uid): name for name, uid in re.findall(r"((?:White|Black) [AB]): <@(\d+)>", board.text())}
    assert seat_of[11].split()[0] == seat_of[13].split()[0]
    assert seat_of[12].split()[0] == seat_of[14].split()[0] != seat_of[11].split()[0]
