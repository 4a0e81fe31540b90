"""What a board post carries: a description for screen readers, a Text board button, and on the result the
whole game as an animation; /replay shows any match of the server as one."""

from __future__ import annotations

import io
import random

from PIL import Image

from tests.bot.support import boards, cards, said


async def start_match(fake, ann, bob):
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob))[0]
    out = await fake.click(bob, card.button("Accept")["custom_id"], message=card)
    return boards(out)[-1]


def attachment_descriptions(sent) -> dict[str, str]:
    raw = sent.raw or {}
    return {a.get("filename"): a.get("description", "") for a in raw.get("attachments", [])}


async def play_turns(fake, users, turns, rng):
    board = None
    for _ in range(turns):
        services = fake.client.services
        match = (await services.queries.matches_of(int(users[0]["id"]), guild_id=fake.guild_id))
        if not match:
            return board
        match = await services.queries.get(match[0].id)
        who = next(u for u in users if int(u["id"]) == match.to_move_user.user_id)
        value, _ = rng.choice(match.game.turn_suggestions(match.position, "", 25))
        board = boards(await fake.slash(who, "tintas move", move=value))[-1]
    return board


async def test_every_board_has_a_description_for_screen_readers(fake, people):
    ann, bob, _ = people
    board = await start_match(fake, ann, bob)
    alt = attachment_descriptions(board)["board.png"]
    assert "Tintas #1" in alt and "to move" in alt and ("Ann" in alt or "Bob" in alt)
    board = await play_turns(fake, [ann, bob], 1, random.Random(1))
    alt = attachment_descriptions(board)["board.png"]
    assert "last turn:" in alt and "turn 2" in alt              # one whole turn played


async def test_the_text_board_button_shows_the_position_privately(fake, people):
    ann, bob, cy = people
    board = await start_match(fake, ann, bob)
    out = await fake.click(cy, board.button("Text board")["custom_id"], message=board)   # a spectator too
    text = said(out)
    state = (await fake.client.services.queries.get(1)).position
    assert state.text_board().splitlines()[0] in text and "```" in text and "your move" in text
    assert all(s.ephemeral for s in out)


async def test_the_result_is_followed_by_the_whole_game_as_an_animation(fake, people):
    ann, bob, _ = people
    await start_match(fake, ann, bob)
    await play_turns(fake, [ann, bob], 4, random.Random(2))
    confirm = (await fake.slash(ann, "tintas resign"))[-1]
    await fake.click(ann, confirm.button("Yes, resign")["custom_id"], message=confirm)
    await fake.settle()
    posts = [s for s in fake.sent if s.kind == "channel_message"]
    final = boards(posts)[-1]
    assert set(dict(final.files)) == {"board.png"}           # the result never carries (nor waits for) the replay
    replay = posts[-1]
    assert posts.index(replay) > posts.index(final) and set(dict(replay.files)) == {"replay.gif"}
    gif = Image.open(io.BytesIO(dict(replay.files)["replay.gif"]))
    match, frames = await fake.client.services.queries.turns(1, guild_id=fake.guild_id)
    assert gif.n_frames == len(frames) == 5                  # the start and four turns
    assert "Replay of" in attachment_descriptions(replay)["replay.gif"] and not replay.mentions


async def test_replay_shows_a_running_match_privately_and_refuses_what_it_cannot(fake, people):
    ann, bob, cy = people
    await start_match(fake, ann, bob)
    await play_turns(fake, [ann, bob], 2, random.Random(3))
    out = await fake.slash(cy, "replay", match="#1")          # anyone in the server may watch
    sent = [s for s in out if s.files]
    assert len(sent) == 1 and sent[0].ephemeral and "2 turns" in sent[0].text()
    assert Image.open(io.BytesIO(dict(sent[0].files)["replay.gif"])).n_frames == 3
    assert "There is no match #99" in said(await fake.slash(cy, "replay", match="99"))
    assert "is not a match number" in said(await fake.slash(cy, "replay", match="²"))
    cards(await fake.slash(ann, "tintas challenge", opponent=cy))
    assert "never started" in said(await fake.slash(cy, "replay", match="#2"))


async def test_anyone_in_the_server_may_look_at_a_match_privately_and_nobody_is_pinged(fake, people):
    ann, bob, cy = people
    await start_match(fake, ann, bob)
    elsewhere = 2001
    fake.channel(elsewhere, "lobby")
    out = await fake.slash(cy, "tintas board", match="#1", channel_id=elsewhere)   # a spectator, elsewhere
    shown = [s for s in out if s.files]
    assert len(shown) == 1 and shown[0].ephemeral and shown[0].kind == "edit_original"
    assert "is to move" in shown[0].text() and not shown[0].mentions
    assert not [s for s in out if s.kind == "channel_message"]
    assert "no active Tintas match" in said(await fake.slash(cy, "tintas move", move="E4", channel_id=elsewhere))
    out = await fake.slash(cy, "tintas resign", match="#1")
    assert "not playing in Tintas match #1" in said(out)                            # looking is not acting


async def test_matches_lists_another_members_matches(fake, people):
    ann, bob, cy = people
    await start_match(fake, ann, bob)
    text = said(await fake.slash(cy, "matches", user=bob))
    assert "Bob's matches" in text and "Tintas** #1 vs Ann" in text
    assert "Cy has no active matches" in said(await fake.slash(ann, "matches", user=cy))


async def test_a_player_asking_for_the_board_elsewhere_is_pointed_to_the_match(fake, people):
    ann, bob, _ = people
    await start_match(fake, ann, bob)
    fake.channel(2001, "lobby")
    out = await fake.slash(ann, "tintas board", match="#1", channel_id=2001)
    assert "is played in <#2000>" in said(out) and not [s for s in out if s.kind == "channel_message"]
