"""Spectators through the command tree: read-only commands find anyone's running match of the server; commands
that act keep refusing people who do not play."""

from __future__ import annotations

import re

from engines import GAMES
from tests.bot.discord_harness import FakeDiscord
from tests.bot.support import GUILD, boards, cards, make_bot, said

OTHER_GUILD = GUILD + 1


def shown(out) -> list:
    """The boards shown privately (a spectator's look), never posted in the channel."""
    return [s for s in out if s.files and s.ephemeral and s.kind == "edit_original"]


async def start_match(fake, ann, bob, channel_id=None):
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob, channel_id=channel_id))[0]
    return await fake.click(bob, card.button("Accept")["custom_id"], message=card)


async def test_a_spectators_board_in_the_matchs_channel_shows_that_match(fake, people):
    ann, bob, cy = people
    await start_match(fake, ann, bob)
    out = await fake.slash(cy, "tintas board")
    looked = shown(out)
    assert len(looked) == 1 and not looked[0].mentions, [s.kind for s in out]     # privately, nobody pinged
    assert "Ann" in looked[0].text() and "Bob" in looked[0].text() and "is to move" in looked[0].text()
    assert not boards(out)


async def test_a_spectator_in_a_channel_without_a_match_is_still_told_so(fake, people):
    ann, bob, cy = people
    await start_match(fake, ann, bob)
    fake.channel(2001, "elsewhere")
    out = await fake.slash(cy, "tintas board", channel_id=2001)
    assert not shown(out) and "no active Tintas match in this channel" in said(out)


async def test_two_running_matches_in_one_channel_ask_the_spectator_to_pick(fake, people):
    ann, bob, cy = people
    dee, eve = fake.user(14, "Dee"), fake.user(15, "Eve")
    await start_match(fake, ann, bob)
    await start_match(fake, dee, eve)
    out = await fake.slash(cy, "tintas board")
    assert not shown(out) and "pick one with the match option" in said(out)


async def test_a_non_player_cannot_move_resign_or_offer_a_draw(fake, people):
    ann, bob, cy = people
    await start_match(fake, ann, bob)
    for command, options in (("tintas move", {"move": "E4"}), ("tintas resign", {}), ("tintas draw", {})):
        out = await fake.slash(cy, command, **options)
        assert "no active Tintas match in this channel" in said(out), (command, said(out))
    choices = await fake.autocomplete(cy, "tintas move", "match", match="")
    assert choices == []                                        # acting commands list only one's own matches


async def test_the_board_autocomplete_lists_the_servers_running_matches_for_anyone(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=OTHER_GUILD) as elsewhere:
        await start_match(elsewhere, elsewhere.user(21, "Zed"), elsewhere.user(22, "Yan"))
        await elsewhere.settle()
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD) as fake:
        ann, bob, cy, dee = (fake.user(i, n) for i, n in ((11, "Ann"), (12, "Bob"), (13, "Cy"), (14, "Dee")))
        fake.channel(2001, "elsewhere")
        await start_match(fake, ann, bob)
        await start_match(fake, cy, dee, channel_id=2001)
        eve = fake.user(15, "Eve")
        choices = await fake.autocomplete(eve, "tintas board", "match", match="")
        names = [c["name"] for c in choices]
        assert len(choices) == 2, names
        assert any("Ann vs Bob" in n or "Bob vs Ann" in n for n in names)
        assert any("Cy vs Dee" in n or "Dee vs Cy" in n for n in names)
        assert not any("Zed" in n or "Yan" in n for n in names)     # nothing of another server
        chosen = next(c for c in choices if "Cy" in c["name"])
        looked = shown(await fake.slash(eve, "tintas board", match=chosen["value"]))
        assert len(looked) == 1 and "Dee" in looked[0].text()
        replay = await fake.autocomplete(eve, "replay", "match", match="")
        assert sorted(c["value"] for c in replay) == sorted(c["value"] for c in choices)
        assert all("Zed" not in c["name"] for c in replay)
        mine = await fake.autocomplete(ann, "tintas board", "match", match="")
        assert mine[0]["name"].startswith("vs Bob")                  # one's own match first
        await fake.settle()


# ---- the start post names the seat the engine drew to start ------------------------------------------------------
async def test_rincalas_start_post_names_the_seat_that_really_starts(fake, people, db):
    ann, bob, _ = people
    starts = []
    for i in range(8):                   # each match draws its own seed; the engine draws the starting seat
        channel = 2100 + i
        fake.channel(channel, f"table-{i}")
        card = cards(await fake.slash(ann, "rincala challenge", opponent=bob, channel_id=channel))[0]
        board = boards(await fake.click(bob, card.button("Accept")["custom_id"], message=card))[-1]
        first = re.search(r"<@(\d+)> plays first, <@(\d+)> second", board.text())
        assert first, board.text()
        assert board.content == f"<@{first.group(1)}>"           # the one pinged to move is the one named first
        row = await db.fetchone("SELECT seed, players FROM matches WHERE channel_id = ?", (channel,))
        start = GAMES["rincala"].new(players=row[1], seed=row[0])
        seat = await db.fetchone("SELECT seat FROM participants p JOIN matches m ON m.id = p.match_id"
                                 " WHERE m.channel_id = ? AND p.user_id = ?", (channel, int(first.group(1))))
        assert seat[0] == start.to_move
        starts.append(start.to_move)
    assert 1 in starts and 0 in starts           # the second seat started at least once (seeds of this bot)
