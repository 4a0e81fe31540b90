"""The user context-menu command "Challenge to…" (right-click a member → Apps): a private menu of every game;
picking one challenges that member with the server's defaults, through the same path as /<game> challenge."""

from __future__ import annotations

import discord

from bot.services.challenges import MAX_OPEN_PER_USER
from engines import GAMES
from tests.bot.support import boards, cards, said

MENU = "Challenge to…"


def menu_of(out):
    """The private answer carrying the game menu."""
    found = [s for s in out if s.ephemeral and any(c.get("custom_id", "").startswith("ct:") for c in s.components)]
    assert len(found) == 1, [(s.kind, s.text()) for s in out]
    return found[0]


async def test_the_menu_lists_every_game_and_a_pick_posts_a_challenge_card(fake, people):
    ann, bob, _ = people
    admin = fake.user(50, "Admin", permissions=discord.Permissions(manage_guild=True, view_channel=True))
    await fake.slash(admin, "settings", default_time=7)                     # the server's default applies
    out = await fake.context_menu(ann, MENU, bob)
    menu = menu_of(out)
    assert "Challenge Bob to which game?" in menu.text()
    select = menu.components[0]
    assert select["custom_id"] == "ct:12"
    assert [o["value"] for o in select["options"]] == list(GAMES)           # from the registry, every game
    out = await fake.select(ann, "ct:12", ["rincala"], message=menu)
    card = cards(out)[0]
    assert card.content.startswith("<@12>") and card.mentions == [12] and "Rincala" in card.content
    match = await fake.client.services.queries.get(1)
    assert match.row.game == "rincala" and match.row.players == 2 and match.status == "challenge"
    assert [p.user_id for p in match.participants] == [11, 12]
    assert match.row.time_per_move == 7 * 86400 and "7 days per move" in card.text()
    now = fake.message(menu.message_id)
    assert "The challenge is posted" in now.text() and not now.components      # one pick, one challenge
    out = await fake.click(bob, card.button("Accept")["custom_id"], message=card)
    assert boards(out)                                                         # an ordinary challenge


async def test_the_same_refusals_as_a_slash_challenge(fake, people):
    ann, bob, _ = people
    robot = fake.user(40, "Robot", bot=True)
    out = await fake.select(ann, "ct:11", ["tintas"], message=menu_of(await fake.context_menu(ann, MENU, ann)))
    assert "cannot challenge yourself" in said(out)
    out = await fake.select(ann, "ct:40", ["tintas"], message=menu_of(await fake.context_menu(ann, MENU, robot)))
    assert "Other bots cannot play here" in said(out)
    for _ in range(MAX_OPEN_PER_USER):
        cards(await fake.slash(ann, "tintas challenge", opponent=bob))
    out = await fake.select(ann, "ct:12", ["quincala"], message=menu_of(await fake.context_menu(ann, MENU, bob)))
    assert f"You have {MAX_OPEN_PER_USER} open challenges" in said(out)
    assert len(await fake.client.services.queries.matches_of(11, guild_id=fake.guild_id,
                                                             statuses=("challenge",))) == MAX_OPEN_PER_USER


async def test_a_member_who_cannot_see_the_channel_is_refused_before_the_menu(fake, people):
    ann = people[0]
    hidden = fake.user(41, "Hidden", permissions=discord.Permissions(send_messages=True))
    out = await fake.context_menu(ann, MENU, hidden)
    assert "Hidden cannot see this channel" in said(out)
    assert not any(s.components for s in out)


async def test_the_bot_itself_plays_the_chosen_game(fake, people):
    ann = people[0]
    out = await fake.context_menu(ann, MENU, fake.bot_user)
    out = await fake.select(ann, f"ct:{fake.bot_user_id}", ["tintas"], message=menu_of(out))
    assert boards(out)
    match = await fake.client.services.queries.get(1)
    assert match.status == "active" and match.against_ai
