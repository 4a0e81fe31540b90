"""Matches with three and four seats through the real command tree (Rincala, Spinca)."""

from __future__ import annotations

import re

import pytest

from tests.bot.support import autocompleted_turn, boards, cards, pinged, said


@pytest.fixture
def people(fake):
    return [fake.user(11, "Ann"), fake.user(12, "Bob"), fake.user(13, "Cy"), fake.user(14, "Dee")]


async def play_out(fake, game: str, board, people, limit: int = 400):
    """Play the first autocompleted turn of whoever is pinged until the result; returns the last board."""
    for _ in range(limit):
        if "🏆" in board.text() or "🤝" in board.text():
            return board
        mover = pinged(board, people)
        others = [p for p in people if p is not mover]
        note = await fake.autocomplete(others[0], f"{game} move", "move", move="")
        assert "Not your turn" in note[0]["name"]
        choices = await fake.autocomplete(mover, f"{game} move", "move", move="")
        assert choices and all(len(c["name"]) <= 100 for c in choices)
        value = await autocompleted_turn(fake, mover, f"{game} move")
        board = boards(await fake.slash(mover, f"{game} move", move=value))[-1]
        assert board.files and board.files[0][1].startswith(b"\x89PNG")
    raise AssertionError("the match did not end")


async def test_three_player_challenge_starts_only_when_everyone_accepted(fake, people):
    ann, bob, cy, _ = people
    card = cards(await fake.slash(ann, "spinca challenge", opponent=bob, opponent2=cy))[0]
    assert "<@12>" in card.content and "<@13>" in card.content
    out = await fake.click(bob, card.button("Accept")["custom_id"], message=card)
    assert [s.kind for s in out] == ["deferred", "edit"]   # only the card is brought up to date
    update = out[-1]
    assert update.message_id == card.message_id
    assert "<@12> ✅" in update.text() and "<@13> ⏳" in update.text()
    assert update.button("Accept")                      # still open for Cy
    out = await fake.click(bob, card.button("Accept")["custom_id"], message=update)
    assert all(s.ephemeral or s.kind == "deferred" for s in out) and "already accepted" in said(out)
    out = await fake.click(cy, card.button("Accept")["custom_id"], message=card)
    board = boards(out)[-1]
    seats = re.findall(r"(White|Black|Red): <@(\d+)>", board.text())
    assert sorted(int(uid) for _, uid in seats) == [11, 12, 13]       # seat order shown
    final = await play_out(fake, "spinca", board, people[:3])
    assert re.search(r"🏆 .* wins|win together|🤝 Draw", final.text())
    assert "<@11>" in final.content and "<@12>" in final.content and "<@13>" in final.content


async def test_any_challenged_player_can_decline_a_three_player_challenge(fake, people):
    ann, bob, cy, _ = people
    card = cards(await fake.slash(ann, "spinca challenge", opponent=bob, opponent2=cy))[0]
    out = await fake.click(bob, card.button("Accept")["custom_id"], message=card)
    out = await fake.click(cy, card.button("Decline")["custom_id"], message=out[-1])
    update = out[-1]
    assert update.kind == "edit" and update.message_id == card.message_id
    assert "declined" in update.text() and not update.components
    assert "no active matches" in said(await fake.slash(bob, "matches"))


async def test_four_players_play_in_teams_on_alternate_seats(fake, people):
    ann, bob, cy, dee = people
    out = await fake.slash(ann, "spinca challenge", opponent=bob, opponent2=cy, opponent3=dee)
    assert all(s.ephemeral for s in out) and "partner" in said(out)
    out = await fake.slash(ann, "spinca challenge", opponent=bob, opponent2=cy, opponent3=dee, partner=ann)
    assert all(s.ephemeral for s in out) and "must be one of the players you challenge" in said(out)
    card = cards(await fake.slash(ann, "spinca challenge", opponent=bob, opponent2=cy, opponent3=dee,
                                  partner=cy))[0]
    assert "Teams: <@11> & <@13> vs <@12> & <@14>" in card.text()
    for p in (bob, cy, dee):
        out = await fake.click(p, card.button("Accept")["custom_id"], message=card)
    board = boards(out)[-1]
    seat_of = {int(uid): name for name, uid in re.findall(r"((?:White|Black) [AB]): <@(\d+)>", board.text())}
    assert len(seat_of) == 4
    assert seat_of[11].split()[0] == seat_of[13].split()[0]          # partners share a colour
    assert seat_of[12].split()[0] == seat_of[14].split()[0] != seat_of[11].split()[0]
    final = await play_out(fake, "spinca", board, people)
    text = final.text()
    assert "win together" in text                                    # a team win is shared
    result_line = next(line for line in text.splitlines() if line.startswith("🏆"))
    winners = set(re.findall(r"<@(\d+)>", result_line.split("—")[0]))
    assert winners in ({"11", "13"}, {"12", "14"})


async def test_rincala_three_players_partial_acceptance_and_a_full_game(fake, people):
    ann, bob, cy, _ = people
    card = cards(await fake.slash(ann, "rincala challenge", opponent=bob, opponent2=cy, time=0))[0]
    assert "casual" in card.text().lower()
    out = await fake.click(cy, card.button("Accept")["custom_id"], message=card)
    update = out[-1]
    assert update.kind == "edit" and update.message_id == card.message_id
    assert "<@13> ✅" in update.text() and "<@12> ⏳" in update.text()
    out = await fake.click(bob, card.button("Accept")["custom_id"], message=update)
    board = boards(out)[-1]
    assert re.search(r"<@1[123]> plays first, <@1[123]> second, <@1[123]> third", board.text())
    seen_again = False
    for _ in range(300):
        text = board.text()
        if "🏆" in text or "🤝" in text:
            break
        mover = pinged(board, people[:3])
        choices = await fake.autocomplete(mover, "rincala move", "move", move="")
        assert all(" — " in c["name"] for c in choices)           # every offered move says what it does
        board = boards(await fake.slash(mover, "rincala move", move=choices[0]["value"]))[-1]
        seen_again |= "move again" in board.text()
    else:
        raise AssertionError("the Rincala game did not end")
    assert seen_again, "the forced continuation was announced at least once"
    result = next(line for line in board.text().splitlines() if line.startswith(("🏆", "🤝")))
    assert "points" in result or "pts" in result or "wins" in result
