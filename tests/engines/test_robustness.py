"""Whatever a player or a stored row hands an engine, its only complaint is the contract's own exception.

``decode`` of any text either gives a position whose code round-trips or raises InvalidPosition; ``play`` and
``canonical`` of any text either play a legal move or raise IllegalMove. Never a bare ValueError ('²'.isdigit()
is true but int('²') fails; int() refuses digit strings over 4300 long), a KeyError or an IndexError.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import GAMES, IllegalMove, InvalidPosition

# Digits that are not ASCII but that str.isdigit(), str.isdecimal() or int() accept, and friends.
ODD_DIGITS = "²³¹⁰⁴٣٤۵०१১๒１２０𝟙⑴①Ⅻ"
CODE_CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.,/-:@;<>+*() \t\n\u00a0\u2003"
ALPHABET = st.sampled_from(list(CODE_CHARS + ODD_DIGITS) + ["ß", "İ", "ﬁ", "K", "ſ", "\x00", "\ufeff", "—", "→"])
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def positions(key: str) -> list:
    """A few positions of every variant and player count: starts, middles (mid-turn too) and ends."""
    game = GAMES[key]
    rng = random.Random(key)
    out = []
    for variant in game.variants or (None,):
        for players in game.player_counts:
            state = game.new(players=players, seed=rng.randrange(1000), variant=variant)
            plies = 0
            while True:
                if plies % 7 == 0 or state.is_over:
                    out.append(state)
                if state.is_over or plies > 3000:
                    break
                state = state.play(rng.choice(state.legal_moves()))
                plies += 1
    return out


POSITIONS = {key: positions(key) for key in GAMES}
KEYS = list(GAMES)


def long_text(chunk: str, length: int) -> str:
    return (chunk * (length // max(1, len(chunk)) + 1))[:length]


# Arbitrary text: any Unicode; code-like characters; and long runs (up to 6,000 characters) of either.
TEXT = st.one_of(
    st.text(max_size=60),
    st.text(ALPHABET, max_size=80),
    st.builds(long_text, st.text(ALPHABET, min_size=1, max_size=12), st.integers(100, 6000)),
    st.builds(lambda d, n: d * n, st.sampled_from(["9", "1", "²", "٣", "0"]), st.integers(1, 6000)),
)


@st.composite
def mutated(draw, strings: st.SearchStrategy[str]) -> str:
    """A real string with a few characters replaced, inserted or deleted, or a field repeated or stretched."""
    text = list(draw(strings))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["replace", "insert", "delete", "stretch"]))
        at = draw(st.integers(0, len(text)))
        if op == "replace" and at < len(text):
            text[at] = draw(ALPHABET)
        elif op == "insert":
            text.insert(at, draw(ALPHABET))
        elif op == "delete" and at < len(text):
            del text[at]
        elif op == "stretch":
            text[at:at] = list(draw(st.sampled_from(["9", "1", "0", "²", "w", "R", "/", ","]))
                               * draw(st.integers(2, 5000)))
    return "".join(text)


def codes(key: str) -> st.SearchStrategy[str]:
    return st.sampled_from([s.encode() for s in POSITIONS[key]])


def check_decode(key: str, code: str) -> None:
    game = GAMES[key]
    try:
        state = game.decode(code)
    except InvalidPosition:
        return
    again = state.encode()
    assert game.decode(again).encode() == again, f"decode({code!r}) does not round-trip"


@pytest.mark.parametrize("key", KEYS)
@SETTINGS
@given(text=TEXT)
def test_decode_of_any_text(key, text):
    check_decode(key, text)


@pytest.mark.parametrize("key", KEYS)
@SETTINGS
@given(data=st.data())
def test_decode_of_damaged_codes(key, data):
    check_decode(key, data.draw(mutated(codes(key))))


def refused(key: str, code: str) -> None:
    try:
        back = GAMES[key].decode(code)
    except InvalidPosition:
        return
    raise AssertionError(f"{code!r} decodes to {back.encode()!r}")


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("digit", list(ODD_DIGITS))
def test_decode_refuses_odd_digits_in_every_field(key, digit):
    for state in POSITIONS[key][:6]:
        code = state.encode()
        fields = code.split(" ")
        for i, field in enumerate(fields):
            for at in {0, len(field) // 2, len(field)}:   # inserted
                refused(key, " ".join(fields[:i] + [field[:at] + digit + field[at:]] + fields[i + 1:]))
        for at, char in enumerate(code):                  # in place of an ASCII digit
            if char.isdigit():
                refused(key, code[:at] + digit + code[at + 1:])


def check_move(state, text: str) -> None:
    """play() and canonical() of ``text`` agree: both raise IllegalMove, or both name the same legal move."""
    code = state.encode()
    try:
        after = state.play(text)
    except IllegalMove:
        after = None
    try:
        canonical = state.canonical(text)
    except IllegalMove:
        canonical = None
    assert state.encode() == code, f"play/canonical({text!r}) changed the state"
    assert (after is None) == (canonical is None), f"play and canonical disagree on {text!r}"
    if canonical is not None:
        assert canonical in state.legal_moves(), f"canonical({text!r}) = {canonical!r} is not a listed move"
        assert after is not None and after.encode() == state.play(canonical).encode()


@pytest.mark.parametrize("key", KEYS)
@SETTINGS
@given(data=st.data(), text=TEXT)
def test_play_and_canonical_of_any_text(key, data, text):
    check_move(data.draw(st.sampled_from(POSITIONS[key])), text)


@pytest.mark.parametrize("key", KEYS)
@SETTINGS
@given(data=st.data())
def test_play_and_canonical_of_damaged_moves(key, data):
    state = data.draw(st.sampled_from([s for s in POSITIONS[key] if not s.is_over]))
    move = data.draw(st.sampled_from(state.legal_moves()))
    variants = st.one_of(st.just(move.upper()), st.just(f"  {move}  "), mutated(st.just(move)))
    check_move(state, data.draw(variants))


@pytest.mark.parametrize("key", KEYS)
def test_moves_with_odd_digits_or_long_numbers(key):
    rng = random.Random(key)
    for state in POSITIONS[key][::3]:
        if state.is_over:
            continue
        for move in rng.sample(state.legal_moves(), min(5, len(state.legal_moves()))):
            for at, char in enumerate(move):
                if char.isdigit():
                    for digit in ODD_DIGITS:                      # in place of an ASCII digit
                        check_move(state, move[:at] + digit + move[at + 1:])
                    check_move(state, move[:at] + "9" * 5000 + move[at:])   # a number int() refuses
                    check_move(state, move[:at] + "0" * 3 + move[at:])
