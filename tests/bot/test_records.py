"""Records, analysis and hints through the command tree: /match record exports a match, /<game> analyze reads the
record (or a position code) back and shows the match's own position with the bot's best turns, /<game> hint
helps only in casual matches and tells the opponents."""

from __future__ import annotations

import asyncio
import random
import re
import threading

import pytest

from bot import records
from bot.discord import admin
from bot.records import MAX_RECORD_BYTES
from bot.services.submissions import SUBMISSION_LIMIT, SUBMISSION_WINDOW
from engines import GAMES
from tests.bot.support import boards, cards, pinged, said
from tests.bot.test_record_format import random_record

ANALYSIS_BUDGET = 0.3   # seconds: the tests check what is shown, not how well the bot plays
LOOP_SIGN = 5.0         # seconds a read waits for the event loop to run before the test calls it held


@pytest.fixture(autouse=True)
def quick_analysis(fake):
    fake.client.ai.analysis_budget = ANALYSIS_BUDGET


async def start(fake, people, game="tintas", time=0):
    ann, bob, _ = people
    card = cards(await fake.slash(ann, f"{game} challenge", opponent=bob, time=time))[0]
    return boards(await fake.click(bob, card.button("Accept")["custom_id"], message=card))[-1]


def whole_turn(state, rng: random.Random) -> str:
    """A random whole turn as a player types it (moves separated by commas; several in Rincala and Quincala)."""
    seat, moves = state.to_move, []
    while True:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
        if state.is_over or state.to_move != seat or ("end" in state.legal_moves() and rng.random() < 0.5):
            return ", ".join(m for m in moves)


async def play_turns(fake, people, game: str, turns: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(turns):
        match = await fake.client.services.queries.get(1)
        mover = next(p for p in people if int(p["id"]) == match.to_move_user.user_id)
        out = await fake.slash(mover, f"{game} move", move=whole_turn(match.position, rng))
        assert "Move played" in said(out), said(out)


def private_file(out, name: str):
    found = [s for s in out if s.ephemeral and any(f == name for f, _ in s.files)]
    assert found, [(s.kind, s.ephemeral, [f for f, _ in s.files]) for s in out]
    return found[-1], next(data for f, data in found[-1].files if f == name)


def shown_code(sent) -> str:
    found = re.search(r"Position code: `([^`]+)`", sent.text())
    assert found, sent.text()
    return found.group(1)


async def export(fake, who, match_id: int = 1) -> tuple[object, str]:
    out = await fake.slash(who, "match record", match=f"#{match_id}")
    sent, data = private_file(out, f"match-{match_id}.txt")
    return sent, data.decode("utf-8")


# ---- /match record, read back by /<game> analyze ---------------------------------------------------------------
@pytest.mark.parametrize("game", ["tintas", "rincala", "quincala"])
async def test_a_record_exported_and_read_back_by_analyze_shows_the_matchs_position(fake, people, game):
    ann, bob, cy = people
    await start(fake, people, game, time=0)                  # casual: a rated match in progress is not analysed
    await play_turns(fake, people, game, 5)
    match = await fake.client.services.queries.get(1)
    sent, text = await export(fake, cy)                      # a spectator may export any match of the server
    assert "record of" in sent.text() and f"/{game} analyze" in sent.text()
    lines = text.splitlines()
    assert lines[0] == f'[Game "{GAMES[game].title}"]' and '[Players "2"]' in lines
    assert '[Match "#1"]' in lines and '[Result "*"]' in lines and '[Termination "-"]' in lines
    seats = {line for line in lines if re.match(r"\[Player\d", line)}
    assert seats == {'[Player1 "Ann"]', '[Player2 "Bob"]'} or seats == {'[Player1 "Bob"]', '[Player2 "Ann"]'}
    assert any(re.fullmatch(r'\[Date "\d{4}-\d\d-\d\d"\]', line) for line in lines)
    _, frames = await fake.client.services.queries.turns(1, guild_id=fake.guild_id)
    assert f'[Start "{frames[0][0].encode()}"]' in lines
    turn_lines = [line for line in lines if re.match(r"\d+\. ", line)]
    assert len(turn_lines) == 5 == len(frames) - 1
    assert turn_lines[-1].endswith(f"{{{match.row.position}}}")

    out = await fake.slash(cy, f"{game} analyze", record=("match-1.txt", text.encode("utf-8")))
    shown, _ = private_file(out, "board.png")
    assert shown_code(shown) == match.row.position == match.position.encode()
    assert "turn 5 of 'match-1.txt'" in shown.text()
    assert re.search(r"^1\. `.+` — ", shown.text(), re.M) and "winning chances" in shown.text().lower()


async def test_analyze_with_turn_shows_the_position_after_that_turn(fake, people):
    await start(fake, people, "rincala")
    await play_turns(fake, people, "rincala", 4)
    _, text = await export(fake, people[0])
    _, frames = await fake.client.services.queries.turns(1, guild_id=fake.guild_id)
    for n in (0, 2):
        out = await fake.slash(people[2], "rincala analyze", record=("match-1.txt", text.encode()), turn=n)
        shown, _ = private_file(out, "board.png")
        assert shown_code(shown) == frames[n][0].encode()
    out = await fake.slash(people[2], "rincala analyze", record=("match-1.txt", text.encode()), turn=9)
    assert "no position after turn 9: the record has 4 turns" in said(out)


async def test_analyze_by_code_lists_three_best_turns_for_the_player_to_move(fake, people):
    state = GAMES["tintas"].new(seed=3)
    out = await fake.slash(people[0], "tintas analyze", code=state.encode())
    shown, png = private_file(out, "board.png")
    assert png.startswith(b"\x89PNG") and shown_code(shown) == state.encode()
    ranks = re.findall(r"^(\d)\. `([^`]+)` — (.+)$", shown.text(), re.M)
    assert [r[0] for r in ranks] == ["1", "2", "3"]
    for _, turn, _ in ranks:   # each a legal whole turn of this position
        assert GAMES["tintas"].split_turn(turn)[0] in state.legal_moves()
    assert f"**Player {state.to_move + 1}** is to move" in shown.text()


async def test_analyze_of_a_finished_position_says_who_won_instead(fake, people):
    rng = random.Random(4)
    state = GAMES["tintas"].new(seed=4)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    out = await fake.slash(people[0], "tintas analyze", code=state.encode())
    shown, _ = private_file(out, "board.png")
    winner = f"Player {state.winners[0] + 1}"
    assert "The game is over." in shown.text() and f"{winner} won" in shown.text()
    assert "winning chances" not in shown.text().lower()


async def test_bad_codes_and_records_are_refused_and_nothing_is_shown(fake, people):
    ann = people[0]
    await start(fake, people, "tintas")
    await play_turns(fake, people, "tintas", 3)
    _, text = await export(fake, ann)
    cases = [
        ({"code": "not a code"}, "That is no Tintas position code"),
        ({"code": "x" * 3000}, "3,000 characters"),
        ({}, "Give a position code"),
        ({"code": GAMES["tintas"].new(seed=1).encode(), "record": ("m.txt", text.encode())}, "not both"),
        ({"code": GAMES["tintas"].new(seed=1).encode(), "turn": 1}, "turn: picks a position in an attached record"),
        ({"record": ("m.txt", text[: text.rindex("{") + 4].encode())}, "neither a tag"),          # truncated
        ({"record": ("m.txt", re.sub(r"\{(.)", lambda m: "{" + ("B" if m.group(1) != "B" else "G"), text,
                                     count=0).encode())}, "the position code after turn 1 is not the position"),
        ({"record": ("m.txt", b"\xff\xfe garbage")}, "not UTF-8"),
        ({"record": ("m.txt", b"x" * (MAX_RECORD_BYTES + 1))}, "at most 262,144"),
        ({"record": ("m.txt", text.replace('[Game "Tintas"]', '[Game "Rincala"]').encode())}, "Players or Variant|"
         "Start position cannot be read"),
    ]
    for options, message in cases:
        out = await fake.slash(ann, "tintas analyze", **options)
        assert re.search(message, said(out)), (options.keys(), said(out))
        assert not any(f for s in out for f in s.files), options.keys()


async def test_a_record_of_another_game_is_sent_to_that_games_analyze(fake, people):
    await start(fake, people, "rincala")
    await play_turns(fake, people, "rincala", 1)
    _, text = await export(fake, people[0])
    out = await fake.slash(people[0], "tintas analyze", record=("match-1.txt", text.encode()))
    assert "That is a Rincala record; use /rincala analyze" in said(out)


async def test_a_match_that_never_started_or_of_no_number_has_no_record(fake, people):
    ann, bob, _ = people
    await fake.slash(ann, "tintas challenge", opponent=bob, time=0)
    assert "never started" in said(await fake.slash(bob, "match record", match="#1"))
    assert "There is no match #7" in said(await fake.slash(bob, "match record", match="#7"))
    assert "not a match number" in said(await fake.slash(bob, "match record", match="twelve"))


def test_match_record_is_open_to_every_member():
    """Discord's default permissions cover a whole command group: the /match group must not hide record."""
    assert admin.match_group.default_permissions is None
    assert "record" in [c.name for c in admin.match_group.commands]


async def test_admin_tools_of_the_match_group_still_refuse_members(fake, people):
    await start(fake, people)
    assert "Manage Server" in said(await fake.slash(people[2], "match abort", match="#1"))


# ---- hints -----------------------------------------------------------------------------------------------------
async def test_hint_is_refused_in_a_rated_match(fake, people):
    board = await start(fake, people, time=3)
    mover = pinged(board, people[:2])
    out = await fake.slash(mover, "tintas hint")
    assert "is rated, so no hint" in said(out)
    assert not any(s.kind == "channel_message" for s in out)
    assert not any(s.files for s in out)
    assert await fake.client.services.matches.events(1) == []


async def test_hint_in_a_casual_match_helps_privately_and_tells_the_opponent(fake, people):
    board = await start(fake, people, time=0)
    mover = pinged(board, people[:2])
    out = await fake.slash(mover, "tintas hint")
    shown, _ = private_file(out, "board.png")
    match = await fake.client.services.queries.get(1)
    assert shown_code(shown) == match.row.position and "hint for your turn in #1" in shown.text()
    assert len(re.findall(r"^\d\. `", shown.text(), re.M)) == 3
    told = [s for s in out if s.kind == "channel_message"]
    assert len(told) == 1 and f"<@{mover['id']}> used a hint in Tintas #1" in told[0].content
    assert told[0].mentions == []                                        # told, not pinged
    events = await fake.client.services.matches.events(1)
    assert [(actor, action) for _, actor, action, _ in events] == [(int(mover["id"]), "hint")]
    again = await fake.slash(mover, "tintas hint")                       # the same position: told once
    assert private_file(again, "board.png") and not [s for s in again if s.kind == "channel_message"]
    assert len(await fake.client.services.matches.events(1)) == 1


async def test_hint_is_for_players_on_their_own_turn(fake, people):
    board = await start(fake, people, time=0)
    mover = pinged(board, people[:2])
    waiting = people[1] if mover is people[0] else people[0]
    assert "A hint is for your own turn" in said(await fake.slash(waiting, "tintas hint"))
    assert "You are not playing in Tintas match #1" in said(await fake.slash(people[2], "tintas hint", match="1"))
    assert "no active Tintas match in this channel" in said(await fake.slash(people[2], "tintas hint"))
    assert await fake.client.services.matches.events(1) == []


async def test_hint_against_the_bot_is_allowed_and_recorded(fake, people):
    ann = people[0]
    await fake.slash(ann, "rincala vs-bot", level=1)
    await fake.settle()
    match = await fake.client.services.queries.get(1)
    assert match.to_move_user.user_id == int(ann["id"])
    out = await fake.slash(ann, "rincala hint")
    assert private_file(out, "board.png")
    assert not [s for s in out if s.kind == "channel_message"]          # no human opponent to tell
    assert [e[2] for e in await fake.client.services.matches.events(1)] == ["hint"]


async def test_analyze_refuses_the_position_of_a_rated_match_in_progress(fake, people):
    """A player of a rated match cannot get its best turns in secret through /match record and /analyze."""
    board = await start(fake, people, time=3)
    mover = pinged(board, people[:2])
    match = await fake.client.services.queries.get(1)
    out = await fake.slash(mover, "tintas analyze", code=match.position.encode())
    assert "rated match in progress" in said(out)
    assert not any(s.files for s in out)
    text = (await fake.client.services.queries.get(1)).position.encode()
    out = await fake.slash(people[2], "tintas analyze", code=text)     # a spectator neither
    assert "rated match in progress" in said(out)


# ---- reading off the event loop, and how often -------------------------------------------------------------------
async def test_a_record_is_read_and_replayed_while_the_event_loop_keeps_running(fake, people, monkeypatch):
    """The read of a record does not hold the event loop: while it is in progress (it ends by waiting for a sign
    of life from the loop, which could never come if it ran on the loop), another coroutine runs. No timing is
    asserted: LOOP_SIGN is only how long a broken read waits before the test fails."""
    text = records.write(random_record("roocala", 2, "hex", 1, max_turns=400))
    alive = threading.Event()
    seen: list[bool] = []
    real = records.parse_bytes

    async def ticker() -> None:
        while True:
            alive.set()
            await asyncio.sleep(0)

    def watched(data: bytes) -> records.GameRecord:
        alive.clear()
        record = real(data)
        seen.append(alive.wait(LOOP_SIGN))
        return record

    monkeypatch.setattr(records, "parse_bytes", watched)
    running = asyncio.create_task(ticker())
    try:
        out = await fake.slash(people[0], "roocala analyze", record=("long.txt", text.encode()))
    finally:
        running.cancel()
    assert private_file(out, "board.png")
    assert seen == [True], "no coroutine ran while the record was read: the read held the event loop"


async def test_one_person_gets_a_limited_number_of_analyses_and_hints_a_minute(fake, people, clock, monkeypatch):
    """Every analysis or hint counts, across games; the one over the limit is refused, says when to come back and
    reads nothing; another person is not affected; the window slides."""
    ann, bob, _ = people
    text = records.write(random_record("tintas", 2, None, 3, max_turns=3))
    read: list[bytes] = []
    real = records.parse_bytes
    monkeypatch.setattr(records, "parse_bytes", lambda data: (read.append(data), real(data))[1])
    commands = ["tintas analyze", "rincala analyze", "tintas hint"]
    for i in range(SUBMISSION_LIMIT):
        command = commands[i % len(commands)]
        out = await fake.slash(ann, command, **({"code": "bad"} if "analyze" in command else {}))
        assert "try again in" not in said(out), (i, said(out))
    out = await fake.slash(ann, "tintas analyze", record=("m.txt", text.encode()))
    window = int(SUBMISSION_WINDOW.total_seconds())
    assert f"You have asked for {SUBMISSION_LIMIT} analyses or hints in the last {window} seconds" in said(out)
    assert f"try again in {window} seconds. Nothing was done." in said(out)
    assert not any(s.files for s in out) and read == []
    assert private_file(await fake.slash(bob, "tintas analyze", record=("m.txt", text.encode())), "board.png")
    clock.advance(seconds=window - 1)
    assert "please try again in 1 second." in said(await fake.slash(ann, "tintas hint"))
    clock.advance(seconds=1)
    assert private_file(await fake.slash(ann, "tintas analyze", record=("m.txt", text.encode())), "board.png")
    assert len(read) == 2
