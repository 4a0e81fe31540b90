"""Reading a record takes time linear in its size and is bounded by limits a person finds fair: crafted lines
that made the old regular expression backtrack for a minute are refused at once with the usual message, a
record longer than its game allows or with more moves than the bot replays is refused before any replay, and
the names in it are trimmed as a match trims names."""

from __future__ import annotations

import random
import re

import pytest

from bot.model import MAX_NAME, BadInput, Person
from bot.records import (
    MAX_LINE,
    MAX_RECORD_LINES,
    MAX_RECORD_MOVES,
    MAX_RECORD_TURNS,
    TurnLine,
    parse,
    read_tag,
    read_turn_line,
    write,
)
from engines import GAMES
from tests.bot.test_record_format import random_record

# The grammar as the regular expressions that read records before (kept here as the reference the tokenizer must
# agree with; they backtracked badly on the crafted lines below, so they are only run on short lines).
OLD_TURN = re.compile(r"(\d{1,7})\.\s+([^:{}]+?):\s+([^{}]*[^{}\s])\s*\{([^{}]*)\}")
OLD_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9]{0,30})\s+"((?:[^"\\]|\\.)*)"\]')


def crafted(n: int) -> list[str]:
    """Lines of the shapes that cost the old reader seconds (the first is the issue's: 68 s at n = 1,320)."""
    return [
        "1." + " " * n + "P:" + " " * n + "a {" + "a" * n,           # a "{" that never closes
        "1." + " " * n + "P:" + " " * n + "a" + " " * n,             # no "{" at all
        "1. P:" + " a" * n + " {" + "}" * n,                         # the code closes too often
        "1." + " " * n + "P" * n + " {x}",                           # no ":" after the seat
        '[A "' + '\\"' * n + "x",                                    # a tag value that never closes
        '[A' + " " * n + '"' + "\\" * (2 * n) + '\\"]',              # the closing quote escaped
    ]


ISSUE_N = 1320      # the issue's line: 3 * 1,320 + 7 = 3,967 characters


@pytest.fixture(scope="module")
def text() -> str:
    return write(random_record("tintas", 2, None, 9, max_turns=4))


def _append(text: str, line: str) -> tuple[str, int]:
    """``text`` with ``line`` added as its last line, and that line's number."""
    body = text.rstrip("\n")
    return f"{body}\n{line}\n", body.count("\n") + 2


@pytest.mark.parametrize("shape", range(len(crafted(1))))
def test_each_crafted_line_is_refused_as_no_tag_and_no_turn(text, shape):
    line = crafted(ISSUE_N)[shape]
    assert len(line) <= MAX_LINE                 # under every limit: only the grammar refuses it
    record, at = _append(text, line)
    with pytest.raises(BadInput, match=rf"Line {at} of the record is neither a tag"):
        parse(record)


def test_the_issues_line_is_3967_characters():
    assert len(crafted(ISSUE_N)[0]) == 3967


def _old_turn(line: str) -> TurnLine | None:
    m = OLD_TURN.fullmatch(line)
    if m is None:
        return None
    return int(m.group(1)), m.group(2).strip(), m.group(3).strip(), m.group(4).strip()


def _old_tag(line: str) -> tuple[str, str] | None:
    m = OLD_TAG.fullmatch(line)
    return None if m is None else (m.group(1), re.sub(r"\\(.)", r"\1", m.group(2)))


def test_the_tokenizer_reads_every_short_line_as_the_old_regular_expressions_did():
    """20,000 random lines over the characters the grammar cares about: the same turns and tags, the same
    refusals."""
    rng = random.Random(28)
    turn_parts = ["1", "12", "٣", "1234567", "12345678", ".", " ", "\t", "\u00a0", "P", "Player 1", ":", "{", "}",
                  "a", "A ccw", ",", ", ", "x"]
    tag_parts = ["[", "]", "A", "Key", "k9", " ", "\t", '"', '\\"', "\\\\", "\\", "v", "]", "x" * 32]
    agreed = {"turn": 0, "tag": 0}
    for _ in range(20_000):
        parts = turn_parts if rng.random() < 0.6 else tag_parts
        line = "".join(rng.choice(parts) for _ in range(rng.randint(1, 12)))
        if parts is turn_parts and rng.random() < 0.5:
            line = f"{rng.randint(1, 99)}. Player {rng.randint(1, 2)}:" + line + "{" + rng.choice(["c", "", "}"]) + "}"
        if parts is tag_parts and rng.random() < 0.5:
            line = "[Key " + line + '"]'
        line = line.strip()
        assert read_turn_line(line) == _old_turn(line), line
        assert read_tag(line) == _old_tag(line), line
        agreed["turn"] += read_turn_line(line) is not None
        agreed["tag"] += read_tag(line) is not None
    assert min(agreed.values()) > 200, agreed   # both grammars were exercised, not only refusals


@pytest.mark.parametrize("faults, refusal", [
    ({2: "x" * (MAX_LINE + 1), 4: "nonsense"}, "Line {} of the record is longer than"),
    ({2: "nonsense", 4: "x" * (MAX_LINE + 1)}, "Line {} of the record is neither a tag"),
    ({2: "1. Player 1: " + "a" * MAX_LINE + " {x}", 4: '[Late "tag"]'}, "Line {} of the record is longer than"),
    ({2: '[Late "tag"]', 4: "x" * (MAX_LINE + 1)}, "Line {} of the record is a header tag after the turns"),
])
def test_the_first_line_at_fault_gives_the_refusal_whatever_its_fault(text, faults, refusal):
    """The line limits are looked up for the whole record at once, the other faults line by line: still the
    first line at fault, in the order of the lines, is the one named."""
    header, body = text.split("\n\n", 1)
    turns = body.rstrip("\n").split("\n")
    for at in sorted(faults):
        turns.insert(at, faults[at])
    first = header.count("\n") + 2 + 1 + min(faults)     # the header's lines, the blank line, then the turns
    with pytest.raises(BadInput, match="^" + re.escape(refusal.format(first))):
        parse(header + "\n\n" + "\n".join(turns) + "\n")


# ---- turns and work ----------------------------------------------------------------------------------------------
def _with_turns(record_text: str, count: int, moves: str = "a") -> str:
    """The header of ``record_text`` followed by ``count`` well-formed (not legal) turn lines."""
    header = record_text.split("\n\n", 1)[0]
    return header + "\n\n" + "".join(f"{i}. Player 1: {moves} {{x}}\n" for i in range(1, count + 1))


def test_a_quincala_record_longer_than_its_400_turn_cap_is_refused_before_any_replay():
    game = GAMES["quincala"]
    assert game.turn_cap == 400
    header = write(random_record("quincala", 2, "4", 1, max_turns=1))
    with pytest.raises(BadInput, match="has 401 turns, but Quincala ends in a draw after 400 turns"):
        parse(_with_turns(header, 401))
    with pytest.raises(BadInput, match="Line 15 of the record .*turn 1"):   # at the cap: read, and turn 1 is wrong
        parse(_with_turns(header, 400))


def test_a_record_of_a_game_without_a_cap_has_at_most_max_record_turns():
    assert GAMES["rincala"].turn_cap is None
    header = write(random_record("rincala", 2, None, 1, max_turns=1))
    with pytest.raises(BadInput, match=f"has more than {MAX_RECORD_TURNS:,} turns; no record may have more"):
        parse(_with_turns(header, MAX_RECORD_TURNS + 1))
    with pytest.raises(BadInput, match="turn 1"):
        parse(_with_turns(header, MAX_RECORD_TURNS))


def test_a_record_of_more_lines_than_max_record_lines_is_refused_before_they_are_read(text):
    """Blank lines and comments cost a little each too: their number is bounded with the rest."""
    lines = text.count("\n")
    padded = text + "\n" * (MAX_RECORD_LINES - lines)
    assert parse(padded) == parse(text)
    with pytest.raises(BadInput, match=f"has {MAX_RECORD_LINES + 1:,} lines; a record may have at most "
                                       f"{MAX_RECORD_LINES:,}"):
        parse(padded + ";\n")


def test_a_record_with_more_moves_than_the_bot_replays_is_refused():
    header = write(random_record("rincala", 2, None, 1, max_turns=1))
    per_turn = 100
    turns = MAX_RECORD_MOVES // per_turn
    many = ", ".join(["a"] * per_turn)
    with pytest.raises(BadInput, match=f"has {(turns + 1) * per_turn:,} moves; a record may have at most "
                                       f"{MAX_RECORD_MOVES:,}"):
        parse(_with_turns(header, turns + 1, many))
    with pytest.raises(BadInput, match="turn 1"):
        parse(_with_turns(header, turns, many))


# ---- names ---------------------------------------------------------------------------------------------------------
def test_names_in_a_record_are_trimmed_as_a_match_trims_them(text):
    """The choice: a long name is trimmed (to MAX_NAME, spaces collapsed), not refused, like a player's name."""
    long_name = "  Ann \t the  " + "great" * 790     # a line just under MAX_LINE
    changed = "\n".join(f'[Player1 "{long_name}"]' if line.startswith("[Player1 ") else line
                        for line in text.splitlines())
    record = parse(changed)
    assert record.people[0] == Person(1, long_name).name
    assert len(record.people[0]) == MAX_NAME and record.people[0].startswith("Ann the great")
    assert parse(text).people[0] == "Näme \"0\" \\ 名前"               # a short name is kept as written
