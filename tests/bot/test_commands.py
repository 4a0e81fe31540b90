"""Tintas end to end through the real CommandTree, with what the bot sends captured offline."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot import gametexts
from engines import GAMES
from tests.bot.discord_harness import FakeDiscord
from tests.bot.support import GUILD, autocompleted_turn, boards, cards, make_bot, said


async def start_match(fake, ann, bob):
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob))[0]
    out = await fake.click(bob, card.button("Accept")["custom_id"], message=card)
    return card, out


def board_in(out):
    """The newest board the bot posted among ``out``."""
    found = boards(out)
    assert found, [s.kind for s in out]
    return found[-1]


def png_of(sent) -> Image.Image:
    name, data = sent.files[0]
    assert name == "board.png" and data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data))


def mover_of(fake, board_msg, users):
    """The user the board message pings (the player to move)."""
    pinged = [u for u in users if f"<@{u['id']}>" == (board_msg.content or "")]
    assert len(pinged) == 1, board_msg.content
    return pinged[0]


async def test_challenge_card_shows_game_players_rules_and_buttons(fake, people):
    ann, bob, _ = people
    out = await fake.slash(ann, "tintas challenge", opponent=bob)
    card = cards(out)[0]
    assert card.kind == "channel_message" and not card.ephemeral    # a new message: its mention notifies
    assert out[0].kind == "deferred" and out[0].ephemeral            # acknowledged privately first
    assert "Challenge sent" in said(out) and f"/{card.message_id}" in said(out)   # with a link to the card
    text = card.text()
    assert "Tintas" in text and "<@11> challenges <@12>" in text
    assert gametexts.summary("tintas", "en") in text   # the rules in one line
    assert [c["label"] for c in card.components] == ["Accept", "Decline", "Cancel"]
    assert "<@12>" in card.content and 12 in card.mentions


@pytest.mark.parametrize("who, message", [("self", "cannot challenge yourself"), ("bot", "Other bots cannot play")])
async def test_challenging_yourself_or_a_bot_is_refused(fake, people, who, message):
    ann = people[0]
    target = ann if who == "self" else fake.user(99, "Robo", bot=True)
    out = await fake.slash(ann, "tintas challenge", opponent=target)
    assert message in said(out) and not cards(out)


async def test_only_the_challenged_answers_and_the_challenger_cancels(fake, people):
    ann, bob, cy = people
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob))[0]
    accept = card.button("Accept")["custom_id"]
    out = await fake.click(cy, accept, message=card)
    assert "not addressed to you" in said(out)
    out = await fake.click(ann, accept, message=card)
    assert "wait for your opponent" in said(out)
    out = await fake.click(bob, card.button("Cancel")["custom_id"], message=card)
    assert "Only the player who made the challenge" in said(out)
    out = await fake.click(ann, card.button("Cancel")["custom_id"], message=card)
    assert out[-1].kind == "edit" and "cancelled" in out[-1].text() and not out[-1].components


async def test_decline_closes_the_challenge(fake, people):
    ann, bob, _ = people
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob))[0]
    out = await fake.click(bob, card.button("Decline")["custom_id"], message=card)
    assert out[-1].kind == "edit" and "declined" in out[-1].text() and not out[-1].components


async def test_accept_starts_the_match_with_a_board_and_a_ping(fake, people):
    ann, bob, _ = people
    card, out = await start_match(fake, ann, bob)
    update = next(s for s in out if s.kind == "edit" and s.message_id == card.message_id)
    assert "the match is on" in update.text() and not update.components
    board = board_in(out)
    assert board.kind == "channel_message" and not board.ephemeral     # created, so the ping notifies
    assert "The match begins" in board.text()
    mover = mover_of(fake, board, [ann, bob])
    assert int(mover["id"]) in board.mentions
    image = png_of(board)
    assert 800 <= image.width <= 1000


async def play_to_the_end(fake, ann, bob, board):
    """Play whole turns chosen from the move autocomplete until the game ends; returns every board."""
    boards = [board]
    for _ in range(120):
        if "wins" in board.text():
            return boards
        mover = mover_of(fake, board, [ann, bob])
        value = await autocompleted_turn(fake, mover, "tintas move", -1)
        out = await fake.slash(mover, "tintas move", move=value)
        board = board_in(out)
        assert "Move played" in said(out) and f"/{board.message_id}" in said(out)   # the mover's private ack
        boards.append(board)
    raise AssertionError("the game did not end")


async def test_a_match_played_to_a_win(fake, people):
    ann, bob, _ = people
    _, out = await start_match(fake, ann, bob)
    posted = await play_to_the_end(fake, ann, bob, board_in(out))
    assert len(posted) > 5
    middle = posted[3].text()
    assert "played **" in middle and "collected" in middle   # notation and what was collected
    final = posted[-1]
    assert "🏆" in final.text() and ("holds all seven" in final.text() or "4 or more" in final.text())
    assert "<@11>" in final.content and "<@12>" in final.content   # both players are told
    out = await fake.slash(ann, "tintas move", move="E4")
    assert "no active Tintas match" in said(out)


async def test_an_illegal_move_is_refused_privately_and_changes_nothing(fake, people, db):
    ann, bob, _ = people
    _, out = await start_match(fake, ann, bob)
    mover = mover_of(fake, board_in(out), [ann, bob])
    first = await autocompleted_turn(fake, mover, "tintas move")
    out = await fake.slash(mover, "tintas move", move=first)
    mover = mover_of(fake, board_in(out), [ann, bob])
    before = await db.fetchone("SELECT ply, position FROM matches")
    out = await fake.slash(mover, "tintas move", move="A1 A1")
    assert all(s.ephemeral for s in out)          # nothing public was posted
    text = said(out)
    assert "A1" in text and text.rstrip().endswith("."), text   # a sentence about the move typed
    assert "(T" not in text                         # rules in words, not the spec's codes
    assert tuple(await db.fetchone("SELECT ply, position FROM matches")) == tuple(before)


async def test_a_non_player_and_the_waiting_player_cannot_move(fake, people):
    ann, bob, cy = people
    _, out = await start_match(fake, ann, bob)
    mover = mover_of(fake, board_in(out), [ann, bob])
    waiting = bob if mover is ann else ann
    move = await autocompleted_turn(fake, mover, "tintas move")
    out = await fake.slash(cy, "tintas move", move=move)
    assert "no active Tintas match" in said(out)
    out = await fake.slash(waiting, "tintas move", move=move)
    assert "not your turn" in said(out)


async def test_move_autocomplete_offers_legal_whole_turns_filtered_by_typing(fake, people):
    ann, bob, _ = people
    _, out = await start_match(fake, ann, bob)
    mover = mover_of(fake, board_in(out), [ann, bob])
    waiting = bob if mover is ann else ann
    choices = await fake.autocomplete(mover, "tintas move", "move", move="")
    cells = sorted(GAMES["tintas"].new().legal_moves())      # the first placement: 49 cells
    columns = sorted({cell[0] for cell in cells})
    # one group per column, each saying how many moves it holds: none cut
    assert [c["name"] for c in choices] == [f"{col}… ({sum(m[0] == col for m in cells)} moves)" for col in columns]
    assert [c["value"] for c in choices] == columns
    column = await fake.autocomplete(mover, "tintas move", "move", move="e")
    assert [c["value"] for c in column] == [m for m in cells if m[0] == "E"]
    out = await fake.slash(mover, "tintas move", move="E4")
    mover, waiting = waiting, mover
    choices = await fake.autocomplete(mover, "tintas move", "move", move="")
    services = fake.client.services                       # the engine's own list, for comparison
    match = await services.queries.get((await services.queries.matches_of(int(mover["id"]), guild_id=GUILD))[0].id)
    firsts = set(match.state.legal_moves())
    assert {c["value"].split()[0] for c in choices} <= firsts
    chains = [c["value"] for c in choices if " " in c["value"]]
    assert chains, "this seeded deal offers a same-colour chain on the second turn"
    typed = chains[0].split()[0]
    narrowed = await fake.autocomplete(mover, "tintas move", "move", move=typed + " ")
    assert chains[0] in [c["value"] for c in narrowed]
    # the continuations of the typed step (and stopping after it, which is a whole turn too)
    assert all(c["value"] == typed or c["value"].startswith(typed + " ") for c in narrowed)
    note = await fake.autocomplete(waiting, "tintas move", "move", move="")
    assert len(note) == 1 and "Not your turn" in note[0]["name"]


async def test_restart_continues_the_match_and_old_buttons_still_work(db, clock, people, fake):
    ann, bob, _ = people
    _, out = await start_match(fake, ann, bob)
    mover = mover_of(fake, board_in(out), [ann, bob])
    out = await fake.slash(mover, "tintas move", move="E4")
    confirm = (await fake.slash(ann, "tintas resign"))[-1]
    assert confirm.ephemeral and confirm.button("Yes, resign")
    position = (await db.fetchone("SELECT position FROM matches"))[0]

    async with FakeDiscord(make_bot(db, clock, seed=99), guild_id=GUILD) as second:   # a new process
        second.user(11, "Ann")
        second.user(12, "Bob")
        board = board_in(await second.slash(ann, "tintas board"))
        assert "turn 2" in board.text()                        # the second turn is being played
        done = await second.click(ann, confirm.button("Yes, resign")["custom_id"], message=confirm)
        assert "You resigned" in said(done)
        final = board_in(done)
        assert "Bob wins" in final.text() or "<@12> wins" in final.text()
    assert (await db.fetchone("SELECT position FROM matches"))[0] == position


async def test_a_stale_resign_button_is_refused_politely(fake, people):
    ann, bob, _ = people
    _, out = await start_match(fake, ann, bob)
    confirm = (await fake.slash(ann, "tintas resign"))[-1]
    mover = mover_of(fake, board_in(out), [ann, bob])
    await fake.slash(mover, "tintas move", move="E4")
    out = await fake.click(ann, confirm.button("Yes, resign")["custom_id"], message=confirm)
    assert "position has changed" in said(out)


async def test_matches_lists_active_matches_with_turn_marks_and_links(fake, people):
    ann, bob, cy = people
    _, out = await start_match(fake, ann, bob)
    board_id = board_in(out).message_id
    text = said(await fake.slash(ann, "matches"))
    assert "Tintas" in text and "Bob" in text
    assert f"https://discord.com/channels/{GUILD}/2000/{board_id}" in text
    mover = mover_of(fake, board_in(await fake.slash(ann, "tintas board")), [ann, bob])
    mine = said(await fake.slash(mover, "matches"))
    assert "your turn" in mine
    assert "no active matches" in said(await fake.slash(cy, "matches"))


async def test_match_option_autocomplete_and_choice_with_two_matches(fake, people):
    ann, bob, cy = people
    await start_match(fake, ann, bob)
    await start_match(fake, ann, cy)
    out = await fake.slash(ann, "tintas board")
    assert "pick one with the match option" in said(out)
    choices = await fake.autocomplete(ann, "tintas board", "match", match="")
    names = [c["name"] for c in choices]
    assert len(choices) == 2 and any("vs Bob" in n for n in names) and any("vs Cy" in n for n in names)
    assert all("your turn" in n or "to move" in n for n in names)
    vs_cy = next(c for c in choices if "vs Cy" in c["name"])
    out = await fake.slash(ann, "tintas board", match=vs_cy["value"])
    assert "Cy" in board_in(out).text()


async def test_rules_are_shown_privately_with_the_interpretations(fake, people):
    out = await fake.slash(people[0], "tintas rules")
    text = out[0].text()
    assert out[0].ephemeral and "Tintas" in text
    assert "jump" in text.lower() and "connected" in text.lower()
    assert "ranked by the current standing" in text and "aborted, unrated" in text
