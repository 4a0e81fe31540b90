"""The turn path through the real command tree: acknowledged first, one read and one play, and bad input that
gets a clear private answer and changes nothing."""

from __future__ import annotations

import pytest

from bot.discord.interaction import MAX_MESSAGE
from tests.bot.support import boards, cards, said


async def start_match(fake, ann, bob):
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob))[0]
    out = await fake.click(bob, card.button("Accept")["custom_id"], message=card)
    board = boards(out)[-1]
    mover = ann if board.content == f"<@{ann['id']}>" else bob
    return board, mover


def callbacks(fake) -> int:
    return sum(1 for r in fake.requests if r.path.endswith("/callback"))


async def test_move_acknowledges_before_any_service_work(fake, people, monkeypatch):
    ann, bob, _ = people
    _, mover = await start_match(fake, ann, bob)
    services = fake.client.services
    seen: list[tuple[str, int]] = []
    for target, name in ((services.queries, "find_match"), (services.play, "submit_turn")):
        real = getattr(target, name)

        def spy(*args, _real=real, _name=name, **kwargs):
            seen.append((_name, callbacks(fake)))
            return _real(*args, **kwargs)
        monkeypatch.setattr(target, name, spy)
    before = callbacks(fake)
    out = await fake.slash(mover, "tintas move", move="E4")
    assert out[0].kind == "deferred" and out[0].ephemeral
    assert seen == [("find_match", before + 1), ("submit_turn", before + 1)]   # the defer came first


async def test_a_move_costs_one_match_read_and_one_play_of_the_submission(fake, people, monkeypatch):
    ann, bob, _ = people
    _, mover = await start_match(fake, ann, bob)
    services = fake.client.services
    match = (await services.queries.matches_of(int(mover["id"]), guild_id=fake.guild_id))[0]
    state_class = type((await services.queries.get(match.id)).position)
    plays: list[str] = []
    real_play = state_class.play

    def counting_play(self, move):
        plays.append(move)
        return real_play(self, move)
    monkeypatch.setattr(state_class, "play", counting_play)
    real_submit = services.play.submit_turn
    cost: dict[str, int] = {}

    async def measured(*args, **kwargs):
        result = await real_submit(*args, **kwargs)
        cost.update(reads=services.matches.match_reads - reads_before, plays=len(plays),
                    misses=services.ctx.positions.misses - misses_before, moves=len(result.moves))
        return result
    monkeypatch.setattr(services.play, "submit_turn", measured)
    reads_before, misses_before = services.matches.match_reads, services.ctx.positions.misses
    out = await fake.slash(mover, "tintas move", move="E4")
    assert boards(out)
    assert cost == {"reads": 1, "plays": cost["moves"], "misses": 0, "moves": cost["moves"]}
    assert cost["moves"] >= 1


async def test_positions_stay_bounded_however_many_matches_are_touched(services):
    from bot.services.positions import Position, Positions
    cache = Positions(capacity=100)
    state = object()
    for i in range(10_000):
        cache.put(i, Position(0, state, None, ()))      # type: ignore[arg-type]
    assert len(cache) == 100 and cache.get(9_999, 0) is not None and cache.get(0, 0) is None


async def test_a_six_thousand_character_move_is_refused_briefly_and_changes_nothing(fake, people, db):
    ann, bob, _ = people
    _, mover = await start_match(fake, ann, bob)
    before = tuple(await db.fetchone("SELECT ply, position FROM matches"))
    out = await fake.slash(mover, "tintas move", move="E4" * 3000)
    text = said(out)
    assert "6,000 characters" in text and len(text) < 400
    assert all(len(s.content or "") <= MAX_MESSAGE for s in out) and not boards(out)
    assert tuple(await db.fetchone("SELECT ply, position FROM matches")) == before


@pytest.mark.parametrize("typed", ["²", "1" * 40, "9" * 4300, "#-3", "١٢", "12abc", "#" * 50])
async def test_a_match_option_that_is_no_number_gets_a_clear_answer(fake, people, db, typed):
    ann, bob, _ = people
    _, mover = await start_match(fake, ann, bob)
    before = tuple(await db.fetchone("SELECT ply, position FROM matches"))
    for command, options in (("tintas move", {"move": "E4"}), ("tintas board", {}), ("tintas resign", {})):
        out = await fake.slash(mover, command, match=typed, **options)
        text = said(out)
        assert "is not a match number" in text and "went wrong" not in text and len(text) < 200, text
    assert tuple(await db.fetchone("SELECT ply, position FROM matches")) == before


@pytest.mark.parametrize("typed, message", [
    ("²", "is not a match number"),
    ("9" * 4300, "is not a match number"),
    ("#999", "There is no match #999"),
])
async def test_match_abort_refuses_bad_numbers_with_the_real_reason(fake, people, typed, message):
    import discord
    admin = fake.user(20, "Admin", permissions=discord.Permissions(manage_guild=True))
    await start_match(fake, *people[:2])
    text = said(await fake.slash(admin, "match abort", match=typed))
    assert message in text and "went wrong" not in text


async def test_match_abort_of_a_finished_match_says_it_is_over(fake, people):
    import discord
    admin = fake.user(20, "Admin", permissions=discord.Permissions(manage_guild=True))
    ann, bob, _ = people
    await start_match(fake, ann, bob)
    confirm = (await fake.slash(ann, "tintas resign"))[-1]
    await fake.click(ann, confirm.button("Yes, resign")["custom_id"], message=confirm)
    assert "That match is over" in said(await fake.slash(admin, "match abort", match="1"))


async def test_rematch_pressed_twice_opens_one_challenge(fake, people):
    ann, bob, _ = people
    await start_match(fake, ann, bob)
    confirm = (await fake.slash(ann, "tintas resign"))[-1]
    out = await fake.click(ann, confirm.button("Yes, resign")["custom_id"], message=confirm)
    final = boards(out)[-1]
    first = await fake.click(bob, final.button("Rematch")["custom_id"], message=final)
    second = await fake.click(ann, final.button("Rematch")["custom_id"], message=final)
    assert len(cards(first)) == 1 and not cards(second)
    assert "already offered" in said(second)
    assert len(await fake.client.services.queries.matches_of(12, guild_id=fake.guild_id,
                                                             statuses=("challenge",))) == 1


async def test_a_match_is_played_where_it_lives_and_the_answer_points_there(fake, people):
    ann, bob, _ = people
    _, mover = await start_match(fake, ann, bob)
    elsewhere = 2001
    fake.channel(elsewhere, "other")
    out = await fake.slash(mover, "tintas move", move="E4", channel_id=elsewhere)
    assert "no active Tintas match in this channel" in said(out) and "#1 in <#2000>" in said(out)
    out = await fake.slash(mover, "tintas move", move="E4", match="1", channel_id=elsewhere)
    assert "is played in <#2000>" in said(out) and not boards(out)


async def test_challenges_per_user_are_limited_with_a_fair_message(fake, people):
    from bot.services.challenges import MAX_OPEN_PER_USER
    ann = people[0]
    for i in range(MAX_OPEN_PER_USER):
        out = await fake.slash(ann, "tintas challenge", opponent=fake.user(100 + i, f"P{i}"))
        assert cards(out), said(out)
    out = await fake.slash(ann, "tintas challenge", opponent=people[1])
    assert not cards(out) and f"{MAX_OPEN_PER_USER} open challenges" in said(out)


async def test_a_long_name_is_kept_short(services):
    from bot.model import MAX_NAME, Person
    assert len(Person(1, "x" * 1_000_000).name) == MAX_NAME
    assert Person(1, "  Ann \n  Lee ").name == "Ann Lee"


async def test_a_challenge_to_someone_who_cannot_see_the_channel_is_refused(fake, people):
    import discord
    ann = people[0]
    hidden = fake.user(30, "Hidden", permissions=discord.Permissions(send_messages=True))   # no View Channel
    out = await fake.slash(ann, "tintas challenge", opponent=hidden)
    assert not cards(out) and "cannot see this channel" in said(out)
