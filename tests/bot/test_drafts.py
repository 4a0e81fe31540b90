"""The picker's partial turns in the database (bot.services.drafts), on SQLite and on PostgreSQL: a draft made by
one process is continued by another and survives a restart; a draft of a position the match has left is never
made or changed; of two taps at once one lands; a draft expires PICKER_TIMEOUT after its last pick."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.model import ServiceError, StalePosition
from bot.services import Services
from bot.services.drafts import PICKER_TIMEOUT
from bot.store import Database
from tests.bot.support import GUILD, boards, cards, running
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL

BACKENDS = BOTH_BACKENDS     # each test runs on SQLite and on PostgreSQL


@pytest.fixture
async def other(db_path, clock):
    """A second bot process: its own connection to the same database."""
    db = await Database.open(db_path)
    yield Services(db, clock=clock, seed_source=random.Random(8))
    await db.close()


async def started(services: Services, game: str = "roocala", **options):
    match = await services.challenges.challenge(game, guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], **options)
    await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    return await services.queries.get(match.id)


def mover(match) -> int:
    return match.to_move_user.user_id


async def test_a_draft_made_by_one_process_is_continued_by_another(services, other):
    match = await started(services)
    who = mover(match)
    draft = await services.drafts.pick(match, await services.drafts.start(match, who), 0, 0)
    there = await other.drafts.get(await other.queries.get(match.id), who)
    assert there is not None and [p.text for p in there.picks] == [p.text for p in draft.picks]
    there = await other.drafts.pick(match, there, 1, 0)                  # the next tap lands in the other process
    here = await services.drafts.get(match, who)
    assert here is not None and [p.text for p in here.picks] == [p.text for p in there.picks]
    assert len(here.picks) == 2 and here.picks[0].text == draft.picks[0].text


async def test_a_draft_of_a_position_the_match_left_is_refused(services, other):
    """The match was read at ply p; meanwhile it moved on (here: a turn played by another process). Neither a
    new draft nor a pick is stored for ply p."""
    match = await started(services)
    who = mover(match)
    draft = await services.drafts.start(match, who)
    turn = [match.position.legal_moves()[0]]
    await other.play.submit_turn(match.id, who, turn, guild_id=GUILD)
    with pytest.raises(ServiceError, match="out of date"):
        await services.drafts.pick(match, draft, 0, 0)                   # `match` is the stale read at ply p
    with pytest.raises(StalePosition, match="moved on"):
        await services.drafts.start(match, who)
    assert await services.db.fetchall("SELECT picks FROM picker_drafts WHERE match_id = ? AND picks <> '[]'",
                                      (match.id,)) == []


async def test_a_pick_on_a_draft_the_match_left_by_a_takeback_is_refused(services, other):
    """A turn is taken back (by another process) while the player to move has a draft open: the draft's row is still
    there, but the match is at another ply; a pick read before is refused and not stored on the old ply's draft."""
    match = await started(services, days_per_move=0)               # casual: takebacks always allowed
    first = mover(match)
    await services.play.submit_turn(match.id, first, [match.position.legal_moves()[0]], guild_id=GUILD)
    match = await services.queries.get(match.id)
    second = mover(match)
    draft = await services.drafts.start(match, second)              # the draft of the position after that turn
    await other.takebacks.request(match.id, first, guild_id=GUILD)
    await other.takebacks.answer(match.id, second, guild_id=GUILD, ply=match.ply, accept=True)
    assert (await other.queries.get(match.id)).ply != match.ply     # the match left the draft's ply
    with pytest.raises(ServiceError, match="out of date"):
        await services.drafts.pick(match, draft, 0, 0)
    assert await services.db.fetchall("SELECT picks FROM picker_drafts WHERE match_id = ? AND picks <> '[]'",
                                      (match.id,)) == []


async def test_two_taps_at_once_land_once(services, other):
    """Two picks of the same step read the same draft (two pickers, two processes): one is stored, the other is
    refused as out of date, whichever comes first (on PostgreSQL truly at once)."""
    match = await started(services)
    who = mover(match)
    await services.drafts.start(match, who)
    for _ in range(5):
        here, there = await services.drafts.get(match, who), await other.drafts.get(match, who)
        assert here is not None and there is not None and here.picks == there.picks
        step = len(here.picks)
        if not here.options(match.position):
            break
        results = await asyncio.gather(services.drafts.pick(match, here, step, 0),
                                       other.drafts.pick(match, there, step, 0), return_exceptions=True)
        assert sum(not isinstance(r, Exception) for r in results) == 1, results
        assert all("out of date" in str(r) for r in results if isinstance(r, Exception))
        now = await services.drafts.get(match, who)
        assert now is not None and len(now.picks) == step + 1


async def test_a_draft_expires_after_the_timeout_and_its_row_is_dropped(services, clock):
    match = await started(services)
    who = mover(match)
    draft = await services.drafts.start(match, who)
    clock.advance(seconds=PICKER_TIMEOUT.total_seconds() - 60)
    draft = await services.drafts.pick(match, draft, 0, 0)               # a pick renews it
    clock.advance(seconds=PICKER_TIMEOUT.total_seconds() - 60)
    assert await services.drafts.get(match, who) is not None
    clock.advance(seconds=61)
    assert await services.drafts.get(match, who) is None
    with pytest.raises(ServiceError, match="out of date"):
        await services.drafts.pick(match, draft, 1, 0)                   # an expired draft is not continued
    await services.drafts.start(match, 999)                              # any new draft drops the expired ones
    rows = await services.db.fetchall("SELECT user_id FROM picker_drafts")
    assert [int(r[0]) for r in rows] == [999]


def private(out) -> int:
    """The id of the picker's message that an answer edited."""
    return [s for s in out if s.ephemeral and s.message_id][-1].message_id


async def test_a_turn_being_picked_survives_a_restart(db_path, clock):
    """The first bot process opens the picker and picks once; after a restart, the second takes the next picks
    from the old picker's menu and confirms the turn."""
    async with running(db_path, clock) as (fake, (ann, bob)):
        card = cards(await fake.slash(ann, "roocala challenge", opponent=bob))[0]
        board = boards(await fake.click(bob, card.button("Accept")["custom_id"], message=card))[-1]
        match = (await fake.client.services.queries.matches_of(11, guild_id=GUILD, game="roocala"))[0]
        who = mover(match)
        shown = fake.message(private(await fake.click(who, f"pl:{match.id}", message=board)))
        menu = next(c for c in shown.components if c["type"] == 3)
        shown = fake.message(private(await fake.select(who, menu["custom_id"], [menu["options"][0]["value"]],
                                                       message=shown)))
    async with running(db_path, clock) as (fake, _people):
        for _ in range(5):
            menu = next((c for c in shown.components if c["type"] == 3), None)
            if menu is None:
                break
            out = await fake.select(who, menu["custom_id"], [menu["options"][0]["value"]], message=shown)
            assert "expired" not in out[-1].text()
            shown = fake.message(private(out))
        assert "Confirm to play it." in shown.text()
        await fake.click(who, f"pk:{match.id}:{match.ply}:c", message=shown)
        assert (await fake.client.services.queries.get(match.id)).ply == match.ply + 1


async def picked_whole_turn(services: Services, match, who: int):
    """A draft holding a whole turn (the first option at every step)."""
    draft = await services.drafts.start(match, who)
    while draft.options(match.position):
        draft = await services.drafts.pick(match, draft, len(draft.picks), 0)
    return draft


async def test_confirming_a_picked_turn_plays_it_and_drops_its_draft(services):
    match = await started(services)
    who = mover(match)
    draft = await picked_whole_turn(services, match, who)
    await services.drafts.confirm(match, draft, guild_id=GUILD)
    assert (await services.queries.get(match.id)).ply > match.ply
    assert await services.db.fetchall("SELECT 1 FROM picker_drafts WHERE match_id = ? AND user_id = ?",
                                      (match.id, who)) == []


async def test_a_turn_whose_draft_cannot_be_dropped_is_not_played(services):
    """The turn and the end of its draft are one transaction: when the draft's row cannot be deleted (a trigger
    refuses it), the turn is not stored either. (Played first and dropped after, the turn stayed.)"""
    match = await started(services)
    who = mover(match)
    draft = await picked_whole_turn(services, match, who)
    async with services.db.transaction() as tx:
        if services.db.backend == "sqlite":
            await tx.execute("CREATE TRIGGER refuse_drop BEFORE DELETE ON picker_drafts"
                             " BEGIN SELECT RAISE(ABORT, 'drop refused'); END")
        else:
            await tx.execute("CREATE FUNCTION refuse_drop() RETURNS trigger LANGUAGE plpgsql"
                             " AS 'BEGIN RAISE EXCEPTION ''drop refused''; END'")
            await tx.execute("CREATE TRIGGER refuse_drop BEFORE DELETE ON picker_drafts"
                             " FOR EACH ROW EXECUTE FUNCTION refuse_drop()")
    with pytest.raises(Exception, match="drop refused"):
        await services.drafts.confirm(match, draft, guild_id=GUILD)
    after = await services.queries.get(match.id)
    assert after.ply == match.ply and after.position.encode() == match.position.encode()
    assert await services.db.fetchall("SELECT 1 FROM moves WHERE match_id = ?", (match.id,)) == []


async def test_an_incomplete_picked_turn_is_refused_and_nothing_is_played(services):
    match = await started(services)
    who = mover(match)
    draft = await services.drafts.pick(match, await services.drafts.start(match, who), 0, 0)
    assert draft.options(match.position)                                  # the turn needs more picks
    with pytest.raises(ServiceError, match="not complete yet"):
        await services.drafts.confirm(match, draft, guild_id=GUILD)
    assert (await services.queries.get(match.id)).ply == match.ply
    assert await services.drafts.get(match, who) == draft                 # the draft stays, to be finished
