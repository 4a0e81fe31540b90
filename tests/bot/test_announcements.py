"""An announcement is never lost to an attachment (issue [13]): the result of a long game is posted and pings
its players; the replay follows in a message of its own that fits the server's limit; an attachment Discord
refuses for its size is left out, not the post; an announcement given up is logged at ERROR and counted; the
mover's confirmation never links a board the game has left behind."""

from __future__ import annotations

import io
import logging
import random

import discord
import pytest
from PIL import Image

from bot import metrics
from bot.discord.posts.boards import BOARD_TOO_LARGE
from bot.discord.posts.replays import REPLAY_REFUSED, REPLAY_TOO_LONG, ReplayCache
from bot.discord.posts.replies import BOARD_NOT_POSTED, BOARD_PENDING
from bot.dispatcher import MAX_ATTEMPTS, Delivered, Dispatcher, PermanentFailure
from bot.store.rows import OutboxRow
from tests.bot.discord_harness import FakeDiscord, _http_error
from tests.bot.support import GUILD, autocompleted_turn, boards, cards, make_bot, said
from tests.conftest import ANN, BOB, BOTH_BACKENDS, CHANNEL

BACKENDS = BOTH_BACKENDS     # each test that uses the database runs on SQLite and on PostgreSQL

TEN_MIB = 10 * 1024 * 1024
MESSAGES = ("POST", "/channels/{channel_id}/messages")


def given_up(kind: str) -> float:
    return metrics.REGISTRY.get_sample_value("boardgames_announcements_given_up_total", {"kind": kind}) or 0.0


@pytest.fixture
async def roomy(db, clock):
    """The harness with time for a long game's replay to be drawn inside one command."""
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, timeout=300.0) as f:
        yield f
        await f.settle()


async def start(fake, ann, bob, game="tintas", **options):
    card = cards(await fake.slash(ann, f"{game} challenge", opponent=bob, **options))[0]
    out = await fake.click(bob, card.button("Accept")["custom_id"], message=card)
    return boards(out)[-1]


async def current(fake, match_id=1):
    return await fake.client.services.queries.get(match_id)


async def move_by_command(fake, people, game="tintas", match_id=1):
    """The player to move plays the first turn the autocomplete offers; what the bot sent."""
    match = await current(fake, match_id)
    mover = next(p for p in people if int(p["id"]) == match.to_move_user.user_id)
    turn = await autocompleted_turn(fake, mover, f"{game} move")
    return await fake.slash(mover, f"{game} move", move=turn)


def replies(out) -> list:
    """The mover's private confirmations (the 'thinking…' reply completed by the outbox)."""
    return [s for s in out if s.kind in ("edit_original", "followup") and "Move played" in (s.content or "")]


def board_link(fake, message_id: int) -> str:
    return f"https://discord.com/channels/{GUILD}/{fake.channel_id}/{message_id}"


# ---- a refused attachment never costs the post ----------------------------------------------------------------

async def test_an_attachment_refused_for_its_size_is_left_out_and_the_result_still_told(db, clock):
    async with FakeDiscord(make_bot(db, clock), guild_id=GUILD, attachment_limit=2_000) as fake:
        ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
        card = [s for s in await fake.slash(ann, "tintas challenge", opponent=bob) if s.kind == "channel_message"][0]
        out = await fake.click(bob, card.button("Accept")["custom_id"], message=card)
        board = [s for s in out if s.kind == "channel_message"][-1]
        assert not board.files and BOARD_TOO_LARGE.format(game="tintas") in board.text()   # the board, told why
        confirm = (await fake.slash(ann, "tintas resign"))[-1]
        await fake.click(ann, confirm.button("Yes, resign")["custom_id"], message=confirm)
        await fake.settle()
        posts = [s for s in fake.sent if s.kind == "channel_message"]
        result, replay = posts[-2], posts[-1]
        assert "resign" in result.text().lower() and set(result.mentions) == {11, 12}
        assert result.button("Rematch")
        assert not replay.files and REPLAY_TOO_LONG.format(id=1) in replay.text()
        refused = [r for r in fake.requests if r.method == "POST" and any(n == "replay.gif" for n, _ in r.files)]
        assert refused and all(len(data) > 2_000 for r in refused for _, data in r.files)   # was tried, and refused
        results = [r for _, _, r, _ in await fake.client.services.outbox.delivered(1)]
        assert results and not [r for r in results if r.startswith("failed")]


async def test_a_refusal_of_another_kind_still_fails_the_post(fake, people):
    """Only a refusal for size is answered by leaving the attachment out: another refusal of a post with an
    attachment (here a malformed upload) is not retried without it."""
    ann, bob, _ = people
    await start(fake, ann, bob)

    def malformed(route, params, body, uploads):
        if uploads:
            raise _http_error(discord.HTTPException, 400, 50035, "Invalid Form Body")
        return fake._http_default(MESSAGES, params, body or {}, uploads)
    fake.http_handlers[MESSAGES] = malformed
    before = given_up("board")
    await move_by_command(fake, [ann, bob])
    results = [(k, r) for _, k, r, _ in await fake.client.services.outbox.delivered(1)]
    assert ("board", "failed: 400 Invalid Form Body") in results
    assert given_up("board") == before + 1


# ---- the mover's confirmation links the board of the move, or says it is not there ----------------------------

async def test_the_confirmation_links_the_new_board(fake, people):
    ann, bob, _ = people
    await start(fake, ann, bob)
    out = await move_by_command(fake, [ann, bob])
    board = boards(out)[-1]
    assert board_link(fake, board.message_id) in replies(out)[-1].content
    assert not [s for s in out if any(name == "replay.gif" for name, _ in s.files)]   # only a result has one


async def test_the_confirmation_never_links_a_board_left_behind_when_the_new_one_failed(fake, people):
    ann, bob, _ = people
    old = await start(fake, ann, bob)

    def forbidden(route, params, body, uploads):
        raise _http_error(discord.Forbidden, 403, 50013, "Missing Permissions")
    fake.http_handlers[MESSAGES] = forbidden
    out = await move_by_command(fake, [ann, bob])
    reply = replies(out)[-1].content
    assert board_link(fake, old.message_id) not in reply and "discord.com/channels" not in reply
    assert BOARD_NOT_POSTED.format(game="tintas") in reply


async def test_the_confirmation_says_the_board_follows_while_it_waits_for_a_retry(fake, people):
    ann, bob, _ = people
    old = await start(fake, ann, bob)

    def unavailable(route, params, body, uploads):
        raise _http_error(discord.DiscordServerError, 503, 0, "Service Unavailable")
    fake.http_handlers[MESSAGES] = unavailable
    out = await move_by_command(fake, [ann, bob])
    reply = replies(out)[-1].content
    assert board_link(fake, old.message_id) not in reply and BOARD_PENDING in reply
    assert [r.kind for r in await fake.client.services.outbox.pending(1)] == ["board"]     # to be retried


# ---- an announcement given up is an error, counted -----------------------------------------------------------

async def test_an_announcement_given_up_is_logged_at_error_and_counted(services, caplog):
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB])

    async def refuse(row: OutboxRow) -> Delivered:
        raise PermanentFailure("403 Missing Access")
    before = given_up("card")
    with caplog.at_level(logging.WARNING, logger="bot.dispatcher"):
        await Dispatcher(services, refuse).deliver_pending(match.id)
    assert given_up("card") == before + 1
    assert [r.levelno for r in caplog.records if "given up" in r.getMessage()] == [logging.ERROR]


async def test_an_announcement_that_keeps_failing_is_counted_when_given_up(services, clock):
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB])

    async def slow(row: OutboxRow) -> Delivered:
        raise TimeoutError("slow")
    dispatcher = Dispatcher(services, slow)
    before = given_up("card")
    for attempt in range(MAX_ATTEMPTS):
        await dispatcher.deliver_pending(match.id)
        assert given_up("card") == before + (attempt == MAX_ATTEMPTS - 1)
        clock.advance(hours=2)
    assert b"boardgames_announcements_given_up_total" in metrics.exposition()


# ---- a 400-turn Quincala match, to its end through the command tree --------------------------------------------

def whole_turn(state, rng: random.Random) -> list[str]:
    """A random legal whole turn that does not end the game while another exists."""
    seat, moves = state.to_move, []
    while not state.is_over and state.to_move == seat:
        legal = state.legal_moves()
        going = [m for m in legal if not state.play(m).is_over]
        move = rng.choice(going or legal)
        moves.append(move)
        state = state.play(move)
    return moves


async def test_a_400_turn_quincala_match_posts_its_result_and_pings_within_a_10_mib_limit(roomy, clock):
    fake = roomy
    ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
    await start(fake, ann, bob, "quincala", sizes="4")
    services, rng = fake.client.services, random.Random(1)
    match = await current(fake)
    while match.row.whole_turns < match.game.turn_cap - 1:       # the service layer, as the players would
        await services.play.submit_turn(match, match.to_move_user.user_id, whole_turn(match.position, rng),
                                        guild_id=GUILD)
        match = await current(fake)
    for row in await services.outbox.pending(1):               # those boards are not what this test is about
        await services.outbox.done(None, row.id, now="2000-01-01T00:00:00+00:00", result="skipped: test")
    out = await move_by_command(fake, [ann, bob], "quincala")   # the 400th turn, through the command tree
    await fake.settle()
    match = await current(fake)
    assert match.is_over and match.row.whole_turns == 400
    result = boards(out)[-1]
    assert "400 turns" in result.text() and set(result.mentions) == {11, 12} and result.button("Rematch")
    assert board_link(fake, result.message_id) in replies(out)[-1].content
    replay = [s for s in fake.sent if s.kind == "channel_message" and s.files][-1]
    gif = dict(replay.files)["replay.gif"]
    assert fake.attachment_limit == TEN_MIB and len(gif) <= TEN_MIB
    assert Image.open(io.BytesIO(gif)).n_frames > 2
    results = {kind: r for _, kind, r, _ in await services.outbox.delivered(1)
               if kind in ("board", "replay", "reply") and not r.startswith("skipped")}
    assert results == {"board": "sent", "replay": "sent", "reply": "sent"}

    # /replay of it fits the limit the interaction states, and is drawn once for that limit
    fake.attachment_limit = 400_000
    drawn = []
    draw = fake.client.renders.replay

    async def counted(*args, **kwargs):
        drawn.append(kwargs.get("budget"))
        return await draw(*args, **kwargs)
    fake.client.renders.replay = counted
    first = [s for s in await fake.slash(ann, "replay", match="#1") if s.files]
    again = [s for s in await fake.slash(bob, "replay", match="#1") if s.files]
    assert len(first) == len(again) == 1 and "400 turns" in first[0].text()
    shown = dict(first[0].files)["replay.gif"]
    assert len(shown) <= 400_000 and dict(again[0].files)["replay.gif"] == shown
    assert drawn == [400_000]                                    # the second /replay drew nothing


async def test_a_replay_refused_in_reply_to_replay_says_so(fake, people):
    ann, bob, cy = people
    await start(fake, ann, bob)
    await move_by_command(fake, [ann, bob])

    async def too_big(*args, **kwargs):
        return b"GIF89a" + bytes(20_000)             # a renderer that ignores the budget: Discord refuses it
    fake.client.renders.replay = too_big
    fake.attachment_limit = 10_000
    out = await fake.slash(cy, "replay", match="#1")
    assert not [s for s in out if s.files] and REPLAY_REFUSED in said(out)


def test_the_replay_cache_keeps_the_most_recently_used_within_its_bytes():
    cache = ReplayCache(limit=10)
    cache.put((1, "en", 100), b"aaaa", 4)
    cache.put((2, "en", 100), b"bbbb", 5)
    assert cache.get((1, "en", 100)) == (b"aaaa", 4)           # used: now the most recent
    cache.put((3, "en", 100), b"cccc", 6)                      # 12 bytes: the least recently used goes
    assert cache.get((2, "en", 100)) is None
    assert cache.get((1, "en", 100)) == (b"aaaa", 4) and cache.get((3, "en", 100)) == (b"cccc", 6)
    cache.put((4, "en", 100), bytes(11), 7)                    # larger than the whole cache: not kept
    assert cache.get((4, "en", 100)) is None and cache.get((3, "en", 100)) is not None


async def test_a_running_matchs_replay_is_drawn_anew_as_it_goes_on(fake, people):
    """Only a finished match's replay is kept: a running one grows with every turn."""
    ann, bob, cy = people
    await start(fake, ann, bob)
    await move_by_command(fake, [ann, bob])
    first = [s for s in await fake.slash(cy, "replay", match="#1") if s.files][0]
    await move_by_command(fake, [ann, bob])
    again = [s for s in await fake.slash(cy, "replay", match="#1") if s.files][0]
    frames = [Image.open(io.BytesIO(dict(s.files)["replay.gif"])).n_frames for s in (first, again)]
    assert frames == [2, 3] and not fake.client.poster.replays.get((1, "en", TEN_MIB))
