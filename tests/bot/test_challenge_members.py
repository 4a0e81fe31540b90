"""Challenges go to members of the server only. Discord resolves a user option to a member when the user is in
the server; for anyone else (a user who left, an id typed by a modified client) it sends only the user. Such a
challenge is refused with a clear message, and no card is posted, so nobody outside the server is pinged."""

from __future__ import annotations

import copy
from typing import Any

import discord

from tests.bot.support import cards, said

MENU = "Challenge to…"


async def as_non_members(fake, user, command: str, outsiders: list[dict], **options: Any):
    """``/command`` as Discord sends it when the ``outsiders`` are not members of the server: each resolves to
    a user without member data."""
    data = fake._command_data(command, options, focused=None)
    for outsider in outsiders:
        data["resolved"]["members"].pop(outsider["id"])
    return await fake._dispatch(fake._interaction_payload(2, user, data, channel_id=None))


async def matches(fake) -> int:
    row = await fake.client.services.db.fetchone("SELECT COUNT(*) FROM matches")
    return row[0]


def posted(out) -> list:
    return [s for s in out if s.kind in ("channel_message", "dm")]


async def test_challenging_a_user_who_is_not_a_member_is_refused_and_posts_nothing(fake, people):
    ann = people[0]
    stranger = fake.user(40, "Stranger")
    out = await as_non_members(fake, ann, "tintas challenge", [stranger], opponent=stranger)
    assert "Stranger is not a member of this server" in said(out)
    assert posted(out) == [] and not any(s.mentions for s in out)
    assert await matches(fake) == 0
    out = await fake.slash(ann, "tintas challenge", opponent=stranger)           # once a member: as usual
    assert cards(out) and cards(out)[0].mentions == [40]


async def test_one_outsider_among_several_opponents_refuses_the_whole_challenge(fake, people):
    ann, bob, _ = people
    stranger = fake.user(40, "Stranger")
    out = await as_non_members(fake, ann, "rincala challenge", [stranger], opponent=bob, opponent2=stranger)
    assert "Stranger is not a member of this server" in said(out) and posted(out) == []
    assert await matches(fake) == 0


async def test_the_challenge_to_menu_refuses_a_user_who_is_not_a_member(fake, people):
    ann = people[0]
    stranger = fake.user(40, "Stranger")
    data = {"id": str(fake._snowflake()), "name": MENU, "type": discord.AppCommandType.user.value,
            "target_id": stranger["id"], "resolved": {"users": {stranger["id"]: copy.deepcopy(stranger)}}}
    out = await fake._dispatch(fake._interaction_payload(2, ann, data, channel_id=None))   # no member data
    assert "Stranger is not a member of this server" in said(out)
    assert not any(c.get("custom_id", "").startswith("ct:") for s in out for c in s.components)


async def test_the_refusal_speaks_the_users_language(fake, people):
    stranger = fake.user(40, "Stranger")
    fake.locale = "de"
    out = await as_non_members(fake, people[0], "tintas challenge", [stranger], opponent=stranger)
    assert "Stranger ist kein Mitglied dieses Servers" in said(out)
