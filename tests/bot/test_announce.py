"""One type per kind of announcement (bot/services/announce.py): each round-trips through its payload, rows keep
the payloads earlier versions wrote, every front end declares a handler for every kind (checked at start-up),
and a row no handler can ever read fails at once instead of being retried."""

from __future__ import annotations

import json
import logging
import typing
from dataclasses import dataclass, fields
from typing import Any

import discord
import pytest

from bot.dispatcher import MissingHandlers, check_handlers
from bot.services.announce import (
    KINDS,
    AwayNotice,
    BoardPost,
    BotTurn,
    Card,
    Digest,
    Dm,
    DrawProposal,
    Hint,
    Notice,
    Reminder,
    ReplayPost,
    Reply,
    TakebackProposal,
    TournamentCard,
    TournamentEnd,
    TournamentPairing,
    TournamentRound,
    TournamentStandings,
)
from bot.store.rows import Announcement
from bot.terminal import Table
from bot.tournament_pairer import TournamentPairer
from tests.bot.discord_harness import _http_error
from tests.bot.support import GUILD, boards, cards, make_bot
from tests.conftest import ANN, BOB, CHANNEL

SAMPLE = {int: 7, str: "x", tuple[int, ...]: (3, 1),    # a value of each type a payload field has
          dict[str, Any]: {"template": "{n} pieces", "args": {"n": 2}}}


def filled(cls: type[Notice], *, optional: bool) -> Notice:
    """A notice of ``cls`` with every field set (``optional``: the optional ones too, else left unset)."""
    hints = typing.get_type_hints(cls)
    values = {}
    for f in fields(cls):
        if f.name == "expires_at" or (f.default is None and not optional):
            continue
        kinds = [t for t in typing.get_args(hints[f.name]) if t is not type(None)] or [hints[f.name]]
        values[f.name] = SAMPLE[kinds[0]]
    return cls(**values, expires_at="2026-11-26T12:00:00+00:00" if optional else None)


@pytest.mark.parametrize("name", sorted(KINDS))
@pytest.mark.parametrize("optional", [True, False], ids=["all set", "optional unset"])
def test_every_kind_round_trips_through_its_json_payload(name, optional):
    notice = filled(KINDS[name], optional=optional)
    payload = json.loads(json.dumps(notice.to_payload()))
    assert KINDS[name].from_payload(payload, expires_at=notice.expires_at) == notice
    assert notice.kind == name and "expires_at" not in payload


# The payloads as the services and the poster wrote them before the kinds were typed: rows already in a
# database keep being read, and a row written now is the same on disk.
EARLIER_ROWS = [
    ("card", {"event": "open"}, Card("open")),
    ("board", {"event": "start", "ply": 0, "turns": 0}, BoardPost("start", 0, 0)),
    ("board", {"event": "turn", "ply": 3, "turns": 1, "seat": 0, "record": "a1-b2", "pending": "", "from_ply": 2},
     BoardPost("turn", 3, 1, seat=0, record="a1-b2", pending="", from_ply=2)),
    ("board", {"event": "takeback", "ply": 2, "turns": 1, "by": 11, "undone": 1, "from_ply": 1},
     BoardPost("takeback", 2, 1, by=11, undone=1, from_ply=1)),
    ("bot_turn", {"ply": 1}, BotTurn(1)),
    ("reminder", {"ply": 4}, Reminder(4)),
    ("reply", {"token": "t", "application_id": 5, "text": "ok", "link": "board", "language": "de"},
     Reply("t", 5, "ok", link="board", language="de")),
    ("dm", {"user_id": 11, "text": "Your move", "fallback": "It is your move."},
     Dm(11, "Your move", "It is your move.")),
    ("replay", {"ply": 9}, ReplayPost(9)),
    ("draw", {"event": "offer", "ply": 4, "by": 11}, DrawProposal("offer", 4, 11)),
    ("draw", {"event": "declined", "ply": 4, "by": 12, "offerer": 11}, DrawProposal("declined", 4, 12, 11)),
    ("takeback", {"event": "request", "ply": 4, "by": 11}, TakebackProposal("request", 4, 11)),
    ("takeback", {"event": "declined", "ply": 4, "by": 12, "requester": 11}, TakebackProposal("declined", 4, 12, 11)),
    ("away", {"user_id": 11, "until": "2026-12-01T00:00:00+00:00"}, AwayNotice(11, "2026-12-01T00:00:00+00:00")),
    ("away", {"user_id": 11, "until": None}, AwayNotice(11, None)),
    ("digest", {"user_id": 11, "matches": [3, 1]}, Digest(11, (3, 1))),
    ("hint", {"ply": 4, "by": 11}, Hint(4, 11)),
    ("tournament_card", {"event": "open"}, TournamentCard("open")),
    ("tournament_card", {"event": "update", "status": "cancelled", "reason": "too_few"},
     TournamentCard("update", status="cancelled", reason="too_few")),
    ("tournament_round", {"round": 2, "matches": [7, 8], "deadline": "2026-12-01T00:00:00+00:00"},
     TournamentRound(2, (7, 8), "2026-12-01T00:00:00+00:00")),
    ("tournament_standings", {"round": 2, "match_id": 7}, TournamentStandings(2, 7)),
    ("tournament_pairing", {"round": 3}, TournamentPairing(3)),
    ("tournament_end", {"winners": [11, 12]}, TournamentEnd((11, 12))),
]


@pytest.mark.parametrize("kind, payload, notice", EARLIER_ROWS, ids=[f"{k}-{i}" for i, (k, _, _) in
                                                                      enumerate(EARLIER_ROWS)])
def test_a_row_written_by_an_earlier_version_reads_as_its_notice_and_is_written_the_same(kind, payload, notice):
    assert KINDS[kind].from_payload(payload) == notice
    assert notice.to_payload() == payload


def test_the_earlier_rows_cover_every_kind():
    assert {kind for kind, _, _ in EARLIER_ROWS} == set(KINDS)


# ---- every front end handles every kind ------------------------------------------------------------------------

async def test_the_discord_poster_and_the_terminal_handle_every_kind_and_leave_the_bots_turn_to_the_ai(
        fake, services, tmp_path):
    table = Table(services, tmp_path, print)
    discord_workers = {**fake.client.ai.workers, **TournamentPairer(services).workers}
    for front_end, workers in ((fake.client.poster, discord_workers), (table, table.workers)):
        check_handlers(front_end.name, front_end.handlers, workers)
        assert set(front_end.handlers) | set(workers) == set(KINDS.values())
        assert BotTurn not in front_end.handlers and set(workers) == {BotTurn, TournamentPairing}


@dataclass(frozen=True)
class Invitation(Notice):
    """A kind a newer feature adds."""
    kind = "tournament_invite"
    tournament: int


def test_the_check_names_a_kind_without_a_handler():
    with pytest.raises(MissingHandlers, match=r"the poster has no handler for the announcement kind\(s\): "
                                              r"tournament_invite"):
        check_handlers("the poster", {Card: print}, {}, kinds={"card": Card, "tournament_invite": Invitation})


def test_the_check_refuses_a_kind_handled_by_both_the_front_end_and_the_worker():
    with pytest.raises(MissingHandlers, match="bot_turn"):
        check_handlers("the poster", {BotTurn: print}, {BotTurn: print}, kinds={"bot_turn": BotTurn})


async def test_the_bot_does_not_start_with_a_kind_it_has_no_handler_for(db, clock, monkeypatch):
    monkeypatch.setitem(KINDS, "tournament_invite", Invitation)
    bot = make_bot(db, clock)
    try:
        with pytest.raises(MissingHandlers, match="the Discord poster has no handler .*tournament_invite"):
            await bot.setup_hook()
        assert bot._dispatcher is None
    finally:
        if bot._renders is not None:
            bot._renders.close()


async def test_the_terminal_does_not_start_with_a_kind_it_has_no_handler_for(services, tmp_path, monkeypatch):
    monkeypatch.setitem(KINDS, "tournament_invite", Invitation)
    with pytest.raises(MissingHandlers, match="the terminal has no handler .*tournament_invite"):
        Table(services, tmp_path, print)


# ---- a row no handler can ever read ----------------------------------------------------------------------------

async def given_up_at_once(fake, kind: str, payload: dict, caplog) -> tuple[str, int]:
    """Write a row of ``kind`` beside a challenge, deliver; (its result, its attempts) and whether nothing is left."""
    services = fake.client.services
    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB])
    async with services.db.transaction() as tx:
        (row_id,) = await services.outbox.add(tx, match.id, [Announcement(kind, payload)], now=services.ctx.now())
    with caplog.at_level(logging.WARNING, logger="bot.dispatcher"):
        await fake.client.dispatcher.deliver_pending(match.id)
    assert await services.outbox.pending(match.id) == []          # nothing waits for a retry
    result, attempts = await services.db.fetchone("SELECT result, attempts FROM outbox WHERE id = ?", (row_id,))
    return result, attempts


async def test_a_row_of_a_kind_this_version_does_not_know_fails_at_once_not_after_seven_tries(fake, caplog):
    result, attempts = await given_up_at_once(fake, "tournament_invite", {"tournament": 3}, caplog)
    assert result == "failed: unknown announcement kind 'tournament_invite'" and attempts == 0
    assert [r.levelno for r in caplog.records if "tournament_invite" in r.getMessage()] == [logging.ERROR]
    assert cards(fake.sent)                                        # the rest of the match's rows went out


async def test_a_row_whose_payload_lacks_what_its_kind_needs_fails_at_once(fake, caplog):
    result, attempts = await given_up_at_once(fake, "board", {"event": "turn"}, caplog)
    assert result.startswith("failed: unreadable board payload") and attempts == 0
    assert [r.levelno for r in caplog.records if "unreadable board" in r.getMessage()] == [logging.ERROR]


# ---- what a post must remember is written with its mark ---------------------------------------------------------

THREADS = ("POST", "/channels/{channel_id}/messages/{message_id}/threads")
MESSAGES = ("POST", "/channels/{channel_id}/messages")


async def test_a_first_board_retried_after_its_thread_was_opened_goes_to_that_thread(fake, clock):
    """The thread is opened, the board's post fails and is retried: Discord refuses a second thread for the
    card, and the board goes to the one opened (it bears the card's id), which the match then remembers."""
    ann, bob = fake.user(11, "Ann"), fake.user(12, "Bob")
    await fake.slash(fake.user(9, "Root", permissions=discord.Permissions(manage_guild=True)), "settings", threads=1)
    opened: list[int] = []

    def one_thread(route, params, body, uploads):
        if opened:
            raise _http_error(discord.HTTPException, 400, 160004, "A thread has already been created")
        opened.append(int(params["message_id"]))
        return fake._http_default(THREADS, params, body or {}, uploads)
    failed: list[bool] = []

    def first_board_fails(route, params, body, uploads):
        if uploads and not failed:
            failed.append(True)
            raise _http_error(discord.DiscordServerError, 503, 0, "Service Unavailable")
        return fake._http_default(MESSAGES, params, body or {}, uploads)
    fake.http_handlers[THREADS] = one_thread
    fake.http_handlers[MESSAGES] = first_board_fails
    card = cards(await fake.slash(ann, "tintas challenge", opponent=bob))[0]
    await fake.click(bob, card.button("Accept")["custom_id"], message=card)
    assert failed and not boards(fake.sent)
    clock.advance(minutes=1)
    await fake.client.dispatcher.deliver_pending(1)
    (board,) = boards(fake.sent)
    match = await fake.client.services.queries.get(1, position=False)
    assert opened == [card.message_id] and board.channel_id == card.message_id
    assert match.row.channel_id == card.message_id and match.row.board_message_id == board.message_id
