"""Draws by agreement through the command tree: offered on one's turn, accepted by every other player, rated as
a draw; a decline or a move ends the offer."""

from __future__ import annotations

from tests.bot.support import boards, cards, pinged, said
from tests.conftest import BOTH_BACKENDS

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL


async def start(fake, people, game="tintas", **options):
    ann, bob, cy = people
    opponents = {"opponent": bob} if game == "tintas" else {"opponent": bob, "opponent2": cy}
    card = cards(await fake.slash(ann, f"{game} challenge", time=3, **opponents, **options))[0]
    out = []
    for who in [bob] + ([cy] if game != "tintas" else []):
        out = await fake.click(who, card.button("Accept")["custom_id"], message=card)
    return boards(out)[-1]


def offer_in(out):
    found = [s for s in out if s.kind == "channel_message" and any("draw" in (c.get("label") or "").lower()
                                                                    for c in s.components)]
    assert len(found) == 1, [s.kind for s in out]
    return found[0]


async def test_a_draw_offered_and_accepted_ends_the_match_as_a_rated_draw(fake, people):
    board = await start(fake, people)
    mover = pinged(board, people[:2])
    other = people[1] if mover is people[0] else people[0]
    out = await fake.slash(mover, "tintas draw")
    assert "Draw offered" in said(out)
    offer = offer_in(out)
    assert offer.content.startswith(f"<@{other['id']}>") and int(other["id"]) in offer.mentions
    assert "<@" + mover["id"] + "> offers a draw" in offer.content
    out = await fake.click(mover, offer.button("Accept draw")["custom_id"], message=offer)
    assert "You made this offer" in said(out)
    out = await fake.click(other, offer.button("Accept draw")["custom_id"], message=offer)
    final = boards(out)[-1]
    assert "🤝 Draw — Drawn by agreement." in final.text()
    match = await fake.client.services.queries.get(1)
    assert match.status == "finished" and match.row.termination == "agreement"
    assert {c.outcome for c in match.rating_changes} == {"draw"}


async def test_only_the_player_to_move_offers_and_only_players_answer(fake, people):
    board = await start(fake, people)
    mover = pinged(board, people[:2])
    waiting = people[1] if mover is people[0] else people[0]
    assert "on your own turn" in said(await fake.slash(waiting, "tintas draw"))
    offer = offer_in(await fake.slash(mover, "tintas draw"))
    out = await fake.click(people[2], offer.button("Accept draw")["custom_id"], message=offer)
    assert "Only the players" in said(out)
    assert "already open" in said(await fake.slash(mover, "tintas draw"))


async def test_a_declined_offer_tells_the_offerer_and_play_goes_on(fake, people):
    board = await start(fake, people)
    mover = pinged(board, people[:2])
    other = people[1] if mover is people[0] else people[0]
    offer = offer_in(await fake.slash(mover, "tintas draw"))
    out = await fake.click(other, offer.button("Decline draw")["custom_id"], message=offer)
    told = [s for s in out if s.kind == "channel_message"]
    assert len(told) == 1 and told[0].content.startswith(f"<@{mover['id']}>") and "declined" in told[0].content
    assert (await fake.client.services.queries.get(1)).status == "active"
    assert boards(await fake.slash(mover, "tintas move", move="E4"))                     # play goes on


async def test_a_move_lets_the_offer_lapse(fake, people):
    board = await start(fake, people)
    mover = pinged(board, people[:2])
    other = people[1] if mover is people[0] else people[0]
    offer = offer_in(await fake.slash(mover, "tintas draw"))
    await fake.slash(mover, "tintas move", move="E4")
    out = await fake.click(other, offer.button("Accept draw")["custom_id"], message=offer)
    assert "no longer open" in said(out) and (await fake.client.services.queries.get(1)).status == "active"


async def test_with_three_players_every_other_player_must_accept(fake, people):
    board = await start(fake, people, "rincala")
    mover = pinged(board, list(people))
    others = [p for p in people if p is not mover]
    offer = offer_in(await fake.slash(mover, "rincala draw"))
    assert all(int(p["id"]) in offer.mentions for p in others)
    out = await fake.click(others[0], offer.button("Accept draw")["custom_id"], message=offer)
    assert "Agreed so far" in out[-1].text() and (await fake.client.services.queries.get(1)).status == "active"
    out = await fake.click(others[1], offer.button("Accept draw")["custom_id"], message=out[-1])
    assert (await fake.client.services.queries.get(1)).winners == (0, 1, 2)
    assert "Drawn by agreement" in boards(out)[-1].text()
