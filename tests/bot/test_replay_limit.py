"""The per-person limit on replays drawn (issue [16]): no one member keeps the render workers busy with
/replay while other players' boards wait; a replay already drawn and kept (a finished match's) is free."""

from __future__ import annotations

from bot.services.submissions import REPLAY_LIMIT, REPLAY_WINDOW
from tests.bot.support import boards, cards, said

REFUSED = "replays drawn in the last"


async def start_match(fake, ann, bob):
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob))[0]
    return boards(await fake.click(bob, card.button("Accept")["custom_id"], message=card))[-1]


def count_draws(fake) -> list[int]:
    """Counts the replays the render pool is asked to draw (the real drawing still runs)."""
    drawn: list[int] = []
    draw = fake.client.renders.replay

    async def counted(*args, **kwargs):
        drawn.append(1)
        return await draw(*args, **kwargs)
    fake.client.renders.replay = counted
    return drawn


def shown(out) -> bool:
    return any("replay.gif" in dict(s.files) for s in out if s.files)


async def test_one_member_gets_at_most_the_limit_of_replays_drawn_in_a_window(fake, people, clock):
    ann, bob, cy = people
    await start_match(fake, ann, bob)            # a running match: its replay is drawn for every /replay
    drawn = count_draws(fake)
    for _ in range(REPLAY_LIMIT):
        assert shown(await fake.slash(cy, "replay", match="#1"))
    out = await fake.slash(cy, "replay", match="#1")
    assert not shown(out) and REFUSED in said(out) and "Nothing was done" in said(out)
    assert len(drawn) == REPLAY_LIMIT            # the refused one drew nothing
    assert shown(await fake.slash(bob, "replay", match="#1"))      # another member is not held back
    clock.advance(seconds=REPLAY_WINDOW.total_seconds())
    assert shown(await fake.slash(cy, "replay", match="#1"))       # the window has slid


async def test_a_kept_replay_costs_nothing(fake, people):
    ann, bob, cy = people
    await start_match(fake, ann, bob)
    confirm = (await fake.slash(ann, "tintas resign"))[-1]
    await fake.click(ann, confirm.button("Yes, resign")["custom_id"], message=confirm)
    await fake.settle()
    drawn = count_draws(fake)
    for _ in range(REPLAY_LIMIT + 2):            # finished: drawn once (or already with the result), then kept
        assert shown(await fake.slash(cy, "replay", match="#1"))
    assert len(drawn) <= 1


async def test_the_refusal_is_in_the_members_language(fake, people):
    ann, bob, cy = people
    await start_match(fake, ann, bob)
    for _ in range(REPLAY_LIMIT):
        await fake.slash(cy, "replay", match="#1")
    fake.locale = "de"
    out = await fake.slash(cy, "replay", match="#1")
    assert "Wiederholungen gezeichnet" in said(out) and REFUSED not in said(out)
