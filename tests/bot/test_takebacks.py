"""Takebacks through the command tree: asked for by the player who just moved, accepted by every other player,
undoing that whole turn while the log keeps it (marked undone, with the takeback in the match record); refused
in rated matches unless the server allows it; lapsing after a move; against the bot, granted at once."""

from __future__ import annotations

import json
from datetime import timedelta

import discord

from bot.services.play import play_turn
from engines import GAMES
from tests.bot.support import GUILD, boards, cards, pinged, said
from tests.conftest import BOTH_BACKENDS

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL

ADMIN = discord.Permissions(manage_guild=True)


async def start(fake, people, game="tintas", time=0):
    ann, bob, _ = people
    card = cards(await fake.slash(ann, f"{game} challenge", opponent=bob, time=time))[0]
    return boards(await fake.click(bob, card.button("Accept")["custom_id"], message=card))[-1]


async def match_now(fake, match_id=1):
    return await fake.client.services.queries.get(match_id)


async def play_one(fake, player, game="tintas", *, plies=1):
    """Play the first suggested turn of at least ``plies`` plies (through /<game> move); the board posted."""
    match = await match_now(fake)
    state = match.position
    value = next(v for v, _ in GAMES[game].turn_suggestions(state, "", 25)
                 if len(play_turn(state, state.to_move, v)[0]) >= plies)
    out = await fake.slash(player, f"{game} move", move=value)
    assert "Move played" in said(out), said(out)
    return boards(out)[-1]


def request_in(out):
    found = [s for s in out if s.kind == "channel_message"
             and any("takeback" in (c.get("label") or "").lower() for c in s.components)]
    assert len(found) == 1, [s.kind for s in out]
    return found[0]


async def replayed(fake, match_id=1):
    """A fresh replay of the stored log (undone moves skipped) by the engine, as a position code."""
    services = fake.client.services
    match = await services.queries.get(match_id, position=False)
    row = match.row
    state = GAMES[row.game].new(players=row.players, seed=row.seed, variant=row.variant)
    for mv in await services.matches.moves(match_id, with_undone=True):
        if mv.undone_by is None:
            state = state.play(mv.move)
    return state.encode()


async def test_an_accepted_takeback_in_a_casual_match_undoes_the_turn_and_keeps_the_log(fake, people):
    board = await start(fake, people)
    first = pinged(board, people[:2])
    second = people[1] if first is people[0] else people[0]
    await play_one(fake, first)
    before = (await match_now(fake)).position.encode()
    await play_one(fake, second)
    out = await fake.slash(second, "tintas takeback")
    assert "Takeback requested" in said(out)
    request = request_in(out)
    assert request.content.startswith(f"<@{first['id']}>") and int(first["id"]) in request.mentions
    out = await fake.click(second, request.button("Accept takeback")["custom_id"], message=request)
    assert "You asked for this takeback" in said(out)
    out = await fake.click(first, request.button("Accept takeback")["custom_id"], message=request)
    again = boards(out)[-1]
    assert again.content == f"<@{second['id']}>" and "taken back" in again.text()
    match = await match_now(fake)
    assert match.position.encode() == before and match.row.to_move == match.seat_of(int(second["id"]))
    assert match.row.whole_turns == 1 and match.ply == 3
    log = await fake.client.services.matches.moves(1, with_undone=True)
    assert [mv.ply for mv in log] == [1, 2] and log[0].undone_by is None and log[1].undone_by is not None
    events = [e for e in await fake.client.services.matches.events(1) if e[2] == "takeback"]
    assert len(events) == 1 and json.loads(events[0][3]) == {"by": int(second["id"]),
                                                             "accepted": [int(first["id"])], "plies": [2]}
    assert await replayed(fake) == match.row.position
    assert await fake.client.services.queries.log_reproduces_position(1)
    _, frames = await fake.client.services.queries.turns(1, guild_id=GUILD)
    assert len(frames) == 2                                   # the start and the one turn in force
    for _ in range(200):                                      # the match plays on to its end
        match = await match_now(fake)
        if match.is_over:
            break
        mover = next(p for p in people if int(p["id"]) == match.to_move_user.user_id)
        await play_one(fake, mover)
    assert (await match_now(fake)).is_over
    log = await fake.client.services.matches.moves(1, with_undone=True)
    assert [mv.ply for mv in log][:3] == [1, 2, 4]           # new moves go on after the takeback's ply
    assert await replayed(fake) == (await match_now(fake)).row.position


async def test_refused_in_a_rated_match_unless_an_admin_allows_it(fake, people, clock):
    board = await start(fake, people, time=3)
    first = pinged(board, people[:2])
    other = people[1] if first is people[0] else people[0]
    await play_one(fake, first)
    assert "off in rated matches" in said(await fake.slash(first, "tintas takeback"))
    admin = fake.user(20, "Admin", permissions=ADMIN)
    assert "Takebacks in rated matches: off" in said(await fake.slash(admin, "settings"))
    assert "Manage Server" in said(await fake.slash(first, "settings", takebacks=1))
    assert "Takebacks in rated matches: on" in said(await fake.slash(admin, "settings", takebacks=1))
    request = request_in(await fake.slash(first, "tintas takeback"))
    clock.advance(days=2)                               # the other player thinks it over for two days
    out = await fake.click(other, request.button("Accept takeback")["custom_id"], message=request)
    match = await match_now(fake)
    assert match.row.whole_turns == 0 and match.to_move_user.user_id == int(first["id"])
    assert match.deadline == clock() + timedelta(days=3)   # the mover's clock starts again
    assert boards(out)[-1].content == f"<@{first['id']}>"


async def test_a_declined_takeback_tells_the_requester_and_play_goes_on(fake, people):
    board = await start(fake, people)
    first = pinged(board, people[:2])
    other = people[1] if first is people[0] else people[0]
    await play_one(fake, first)
    request = request_in(await fake.slash(first, "tintas takeback"))
    out = await fake.click(other, request.button("Decline takeback")["custom_id"], message=request)
    told = [s for s in out if s.kind == "channel_message"]
    assert len(told) == 1 and told[0].content.startswith(f"<@{first['id']}>") and "declined" in told[0].content
    match = await match_now(fake)
    assert match.ply == 1 and match.row.takeback_ply is None
    await play_one(fake, other)                               # play goes on
    assert (await match_now(fake)).ply == 2


async def test_a_move_lets_the_request_lapse_and_then_it_is_too_late(fake, people):
    board = await start(fake, people)
    first = pinged(board, people[:2])
    other = people[1] if first is people[0] else people[0]
    await play_one(fake, first)
    request = request_in(await fake.slash(first, "tintas takeback"))
    await play_one(fake, other)
    out = await fake.click(other, request.button("Accept takeback")["custom_id"], message=request)
    assert "no longer open" in said(out)
    assert (await match_now(fake)).ply == 2
    assert "Someone has moved since" in said(await fake.slash(first, "tintas takeback"))


async def test_non_players_strangers_buttons_and_nothing_to_take_back_are_refused(fake, people):
    board = await start(fake, people)
    first = pinged(board, people[:2])
    other = people[1] if first is people[0] else people[0]
    assert "nothing to take back" in said(await fake.slash(first, "tintas takeback"))
    assert "nothing to take back" in said(await fake.slash(other, "tintas takeback"))
    assert "no active Tintas match" in said(await fake.slash(people[2], "tintas takeback"))
    await play_one(fake, first)
    assert "nothing to take back" in said(await fake.slash(other, "tintas takeback"))
    request = request_in(await fake.slash(first, "tintas takeback"))
    out = await fake.click(people[2], request.button("Accept takeback")["custom_id"], message=request)
    assert "Only the players" in said(out)
    assert "already open" in said(await fake.slash(first, "tintas takeback"))
    assert (await match_now(fake)).ply == 1


async def test_a_multi_ply_quincala_turn_is_undone_whole(fake, people):
    board = await start(fake, people, "quincala")
    first = pinged(board, people[:2])
    other = people[1] if first is people[0] else people[0]
    await play_one(fake, first, "quincala", plies=2)
    log = await fake.client.services.matches.moves(1)
    assert len(log) >= 2 and {mv.seat for mv in log} == {log[0].seat}
    request = request_in(await fake.slash(first, "quincala takeback"))
    await fake.click(other, request.button("Accept takeback")["custom_id"], message=request)
    match = await match_now(fake)
    fresh = GAMES["quincala"].new(players=2, seed=match.row.seed, variant=match.row.variant)
    assert match.position.encode() == fresh.encode() and match.last_turn == [] and match.previous is None
    assert all(mv.undone_by is not None for mv in await fake.client.services.matches.moves(1, with_undone=True))
    assert await fake.client.services.matches.moves(1) == []
    await play_one(fake, first, "quincala")                   # the turn is played again, differently if wished
    assert await replayed(fake) == (await match_now(fake)).row.position


async def test_against_the_bot_it_agrees_at_once_and_its_reply_is_undone_too(fake, people):
    ann = people[0]
    out = await fake.slash(ann, "rincala vs-bot", level=1)
    await fake.settle()
    match = await match_now(fake)
    if match.to_move_user.user_id != int(ann["id"]):
        await fake.settle()
        match = await match_now(fake)
    assert match.to_move_user.user_id == int(ann["id"])
    if not await fake.client.services.matches.moves(1):
        assert "nothing to take back" in said(await fake.slash(ann, "rincala takeback"))
    before = match.position.encode()
    turns_before = match.row.whole_turns
    await play_one(fake, ann, "rincala")
    await fake.settle()
    match = await match_now(fake)
    assert match.to_move_user.user_id == int(ann["id"]) and match.row.whole_turns == turns_before + 2
    out = await fake.slash(ann, "rincala takeback")
    assert "bot agreed at once" in said(out)
    again = boards(out)[-1]
    assert again.content == f"<@{ann['id']}>"
    match = await match_now(fake)
    assert match.position.encode() == before and match.row.whole_turns == turns_before
    fake.client.services.ctx.positions.forget(1)             # the position rebuilt from the log agrees
    assert (await match_now(fake)).position.encode() == before
    assert await replayed(fake) == match.row.position
