"""The record format (bot.records): writing and reading back whole games of every game, and every refusal."""

from __future__ import annotations

import random

import pytest

from bot.model import BadInput
from bot.records import MAX_RECORD_BYTES, GameRecord, RecordTurn, notation, parse, parse_bytes, write
from bot.services.play import play_turn
from engines import GAMES

SETUPS = [(key, players, variant) for key, game in GAMES.items() for players in game.player_counts
          for variant in (game.variants or (None,))]


def random_record(key: str, players: int, variant: str | None, seed: int, max_turns: int = 60) -> GameRecord:
    """A game of random whole turns (each one submission, as the bot stores it)."""
    rng = random.Random(seed)
    game = GAMES[key]
    state = game.new(players=players, seed=seed, variant=variant)
    start = state
    turns, states = [], [state]
    while not state.is_over and len(turns) < max_turns:
        seat = state.to_move
        assert seat is not None
        moves = [rng.choice(state.legal_moves())]
        probe = state.play(moves[0])
        while not probe.is_over and probe.to_move == seat and rng.random() < 0.7:
            moves.append(rng.choice(probe.legal_moves()))
            probe = probe.play(moves[-1])
        played, after = play_turn(state, seat, moves)
        state = after[-1]
        turns.append(RecordTurn(len(turns) + 1, seat, tuple(played), state.encode()))
        states.append(state)
    names = tuple(f"Näme \"{i}\" \\ 名前" for i in range(players))
    return GameRecord(key, start.variant, players, start.encode(), turns, tuple(game.seat_names(players)), names,
                      {"Date": "2025-03-01", "Result": "*", "Termination": "-", "Match": "#1", "Site": "test"},
                      states)


@pytest.mark.parametrize(("key", "players", "variant"), SETUPS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_written_record_reads_back_to_the_same_turns_and_positions(key, players, variant, seed):
    record = random_record(key, players, variant, seed)
    text = write(record)
    back = parse(text)
    assert back == record
    assert [s.encode() for s in back.states] == [s.encode() for s in record.states]
    assert parse_bytes(text.encode("utf-8")) == record


def test_the_header_and_the_turn_lines_are_as_documented():
    record = random_record("tintas", 2, None, 5, max_turns=3)
    lines = write(record).splitlines()
    assert lines[:4] == ['[Game "Tintas"]', '[Variant "-"]', '[Players "2"]', '[Seat1 "Player 1"]']
    assert lines[4] == '[Player1 "Näme \\"0\\" \\\\ 名前"]'
    first = record.turns[0]
    assert lines[-3] == f"1. Player {first.seat + 1}: {notation(first.moves)} {{{first.code}}}"
    assert f"[Start \"{record.start}\"]" in lines


def test_notation_leaves_out_the_automatic_end():
    assert notation(["A ccw", "C cw", "end"]) == "A ccw, C cw"
    assert notation(["end"]) == "end"


def test_a_record_picks_the_position_after_any_turn():
    record = parse(write(random_record("rincala", 3, None, 4, max_turns=6)))
    state, previous, moves = record.position(2)
    assert state.encode() == record.turns[1].code and previous is not None
    assert previous.encode() == record.turns[0].code and tuple(moves) == record.turns[1].moves
    assert record.position(0)[0].encode() == record.start
    with pytest.raises(BadInput, match="only|has 6 turns"):
        record.position(7)


def _mutate(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def _turn(text: str, number: int, change) -> str:
    """``text`` with the line of turn ``number`` changed by ``change``."""
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith(f"{number}. "))
    lines[i] = change(lines[i])
    return "\n".join(lines)


def _other_seat(line: str) -> str:
    label = line.split(": ", 1)[0]
    swapped = label.replace("Player 1", "Player X").replace("Player 2", "Player 1").replace("Player X", "Player 2")
    return line.replace(label, swapped, 1)


@pytest.fixture
def text() -> str:
    return write(random_record("tintas", 2, None, 9, max_turns=8))


def test_a_changed_position_code_is_refused_with_its_turn(text):
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("3. "))
    head, _, code = lines[i].partition("{")
    lines[i] = head + "{" + code.replace("1", "2", 1)
    with pytest.raises(BadInput, match=rf"Line {i + 1} .*turn 3"):
        parse("\n".join(lines))


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: _mutate(t, '[Game "Tintas"]', '[Game "Chess"]'), "no game of this bot"),
    (lambda t: _mutate(t, '[Players "2"]', '[Players "3"]'), "played by 2 players"),
    (lambda t: _mutate(t, '[Players "2"]', '[Players "٢"]'), "Players tag"),
    (lambda t: _mutate(t, "[Start \"", "[Start \"x"), "Start position cannot be read"),
    (lambda t: _turn(t, 2, lambda line: "3" + line[1:]), r"Line 16 .*turn 3, but turn 2"),
    (lambda t: _turn(t, 2, _other_seat), "gives turn 2 to 'Player"),
    (lambda t: _turn(t, 1, lambda line: line.replace(": ", ": Z9, ", 1)),
     r"Line 15 of the record \(turn 1\) cannot be played: .Z9"),
    (lambda t: _turn(t, 1, lambda line: line.replace(": ", ": , ", 1)), "empty move"),
    (lambda t: t + "[Extra \"x\"]\n", "header tag after the turns"),
    (lambda t: t + "hello world\n", "neither a tag"),
    (lambda t: t.replace('[Start "', '[Begin "'), "no Start tag"),
    (lambda t: _mutate(t, '[Site "test"]', '[Site "test"]\n[Site "again"]'), "repeats the Site tag"),
    (lambda t: t + "9. Player 1: " + "A" * 5000 + " {x}\n", "longer than 4,000"),
])
def test_a_bad_record_is_refused_naming_the_line(text, change, message):
    with pytest.raises(BadInput, match=message):
        parse(change(text))


def test_a_truncated_record_is_refused_or_reads_as_the_turns_it_still_has(text):
    cut = text[: text.rindex("{") + 5]            # the last line loses the end of its code
    with pytest.raises(BadInput, match="neither a tag"):
        parse(cut)
    whole_lines = text[: text.rindex("\n", 0, len(text) - 1)]
    assert len(parse(whole_lines).turns) == len(parse(text).turns) - 1


def test_oversized_and_non_text_files_are_refused_unread():
    with pytest.raises(BadInput, match="at most 262,144"):
        parse_bytes(b" " * (MAX_RECORD_BYTES + 1))
    with pytest.raises(BadInput, match="not UTF-8"):
        parse_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(BadInput, match="at most 262,144"):      # a text is measured in UTF-8 bytes, not characters
        parse("名" * (MAX_RECORD_BYTES // 3 + 1))
    with pytest.raises(BadInput, match="no Game tag"):
        parse("")


def test_comments_and_blank_lines_are_ignored(text):
    assert parse("; exported for a test\n\n" + text.replace("\n1. ", "\n; a comment\n\n1. ")) == parse(text)
