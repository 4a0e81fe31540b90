"""How a game ended is data (``engines.base.Outcome``); ``outcome_text`` makes the one sentence a player reads.

Every finished game of every game, variant and player count has an outcome whose template fills without a
KeyError, names every role and agrees with ``state.winners``; ranks follow ``rank_seats``.
"""

from __future__ import annotations

import dataclasses
import random
import string
from dataclasses import dataclass

import pytest

from engines import GAMES, Outcome, outcome_text, rank_seats, turn_cap_outcome
from engines.base import TURN_CAP_TERMINATION, CapTermination, Termination

CASES = [
    pytest.param(key, variant, players, id=f"{key}-{variant or 'default'}-{players}p")
    for key, game in GAMES.items()
    for variant in game.variants or (None,)
    for players in game.player_counts
]
GAMES_PER_CASE = 12
MAX_PLIES = 5000


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def mentions(players: int) -> list[str]:
    """Names that cannot be mistaken for text of a template, as the bot's Discord mentions."""
    return [f"<@{1000 + seat}>" for seat in range(players)]


def check_outcome(game, state, where: str) -> Outcome:
    out = state.outcome()
    assert isinstance(out, Outcome), f"{where}: a finished game has no outcome"
    assert out.winners == tuple(state.winners), f"{where}: outcome winners {out.winners} != {state.winners}"
    assert out.ranks == rank_seats(state, state.winners), f"{where}: ranks {out.ranks}"
    if len(out.winners) < state.players:
        assert all(out.ranks[w] == 1 for w in out.winners), f"{where}: a winner does not rank first"
    assert out.termination in game.terminations, f"{where}: no template for {out.termination!r}"
    template = game.terminations[out.termination]
    assert not set(out.roles) & set(out.facts), f"{where}: a name is both a role and a fact"
    assert set(out.roles) <= fields(template) <= set(out.roles) | set(out.facts), (   # facts may say more
        f"{where}: {out.termination!r} fills {sorted(fields(template))} from {sorted(out.roles)} and "
        f"{sorted(out.facts)}")
    assert all(0 <= seat < state.players for seat in out.roles.values()), f"{where}: roles {out.roles}"
    names = mentions(state.players)
    text = outcome_text(game, out, names)
    for role, seat in out.roles.items():
        assert names[seat] in text, f"{where}: {role} is not mentioned in {text!r}"
    assert "{" not in text and "}" not in text and text.endswith("."), f"{where}: {text!r}"
    assert outcome_text(game, out, game.seat_names(state.players))
    return out


@pytest.mark.parametrize(("key", "variant", "players"), CASES)
def test_every_finished_random_game_explains_itself(key, variant, players):
    game = GAMES[key]
    rng = random.Random(f"{key}/{variant}/{players}")
    for _ in range(GAMES_PER_CASE):
        seed = rng.randrange(1 << 30)
        state = game.new(players=players, seed=seed, variant=variant)
        for ply in range(MAX_PLIES):
            if state.is_over:
                break
            assert state.outcome() is None, f"{key} seed {seed} ply {ply}: an outcome before the end"
            state = state.play(rng.choice(state.legal_moves()))
        check_outcome(game, state, f"{key} {variant} {players}p seed {seed}")


@pytest.mark.parametrize("key", list(GAMES))
def test_templates_have_only_named_fields(key):
    for termination, template in GAMES[key].terminations.items():
        assert termination.isidentifier() and template.endswith("."), termination
        assert all(name.isidentifier() for name in fields(template)), template


# Spinca's rarer endings (found in random games), with the sentences the terminal mode shows.
SPINCA_ENDINGS = [
    ("2 WWBB/BWWW/BBBB/WBWW/BWB/WWB/BWW/BB/WW 2 3a2,3b2", "faces",
     "Black wins with 18 face points (White 6)."),
    ("2 BBBW/BWWB/BWBW/WBWW/WWW/BBW/BBW/WW/BB 2 3a1", "inner",
     "Face points tied at 15; White wins with 3 of the 5 inner-pyramid marbles (Black 2)."),
    ("3 RRWB/RWWW/WRRW/BBBB/BRB/BWR/WRW/WB/RB 3 3a2,3b2", "faces_three",
     "Red wins with 7 face points (White 6, Black 4)."),
    ("3 WBRB/BWRB/RWRW/BBWW/RBW/RRR/RWB/WB/WB 3 3b1,3b2", "highest_tied",
     "White and Red tied for the highest total (7), so Black wins with 6 face points."),
    ("3 WWBB/BWRB/RRWW/BRBR/WRW/RBB/RWW/RW/BB 3 3a1,3a2", "inner_tied",
     "All face totals tied at 8 and White and Red tied in the inner pyramid with 2 marbles each, so Black wins "
     "with 1."),
    ("3 BBWW/RRBR/RRWW/BWWB/BBR/WRR/BWR/WW/BB 3 3a2,3b2", "inner_three",
     "Face points tied at 8; Red wins with 3 of the 5 inner-pyramid marbles (White 1, Black 1)."),
    ("4 WWBB/BWWW/BBBB/WBWW/BWB/WWB/BWW/BB/WW 2 3a2,3b2", "faces_teams",
     "Black A and Black B win with 18 face points (White A and White B 6)."),
    ("4 BBBW/BWWB/BWBW/WBWW/WWW/BBW/BBW/WW/BB 2 3a1", "inner_teams",
     "Face points tied at 15; White A and White B win with 3 of the 5 inner-pyramid marbles (Black A and "
     "Black B 2)."),
]


@pytest.mark.parametrize(("code", "termination", "sentence"), SPINCA_ENDINGS)
def test_spinca_endings(code, termination, sentence):
    game = GAMES["spinca"]
    state = game.decode(code)
    out = check_outcome(game, state, code)
    assert out.termination == termination
    assert outcome_text(game, out, game.seat_names(state.players)) == sentence


def test_every_spinca_template_is_exercised():
    assert {termination for _, termination, _ in SPINCA_ENDINGS} == set(GAMES["spinca"].terminations)


def test_the_text_uses_the_names_given():
    game = GAMES["tintas"]
    out = Outcome("four_colours", (1,), (2, 1), {"winner": 1, "loser": 0},
                  {"count": 4, "colours": "red, orange, yellow, purple"})
    assert outcome_text(game, out, ["{Ann}", "Bob"]) == (
        "Bob holds 4 or more pieces in 4 colours (red, orange, yellow, purple) and at least one of every colour, "
        "so {Ann} can no longer collect seven of any colour.")


def test_an_outcome_is_frozen():
    out = Outcome("repetition", (0, 1), (1, 1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        out.termination = "threshold"  # type: ignore[misc]
    assert out.roles == {} and out.facts == {}


# --- rank_seats ---------------------------------------------------------------------------------------------


@dataclass
class Standing:
    """Just what rank_seats reads."""

    scores: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.scores)


@pytest.mark.parametrize(("scores", "winners", "among", "ranks"), [
    ((3, 5, 5), (0,), None, (1, 2, 2)),          # the winner first whatever the scores; ties share a rank
    ((3, 5, 4), (), None, (3, 1, 2)),            # no winner: by score, higher is better
    ((4, 4), (0, 1), None, (1, 1)),              # a draw at equal scores
    ((2, 7), (0, 1), None, (1, 1)),              # a draw is a draw whatever the scores (rated as one)
    ((2, 7, 1), (0, 1), None, (1, 1, 2)),        # a shared win: the winners share the first rank
    ((9, 5, 4, 1), (1,), (1, 2, 3), (0, 1, 2, 3)),   # seats outside ``among`` get 0
])
def test_rank_seats(scores, winners, among, ranks):
    assert rank_seats(Standing(scores), winners, among) == ranks  # type: ignore[arg-type]


# --- the turn cap ---------------------------------------------------------------------------------------------


def test_only_quincala_has_a_turn_cap():
    assert {key: game.turn_cap for key, game in GAMES.items()} == {
        "tintas": None, "rincala": None, "roocala": None, "quincala": 400, "spinca": None}


def test_the_turn_cap_outcome_is_a_draw_with_a_sentence():
    game = GAMES["quincala"]
    state = game.new()
    out = turn_cap_outcome(state)
    assert out.termination == TURN_CAP_TERMINATION and out.winners == (0, 1) and out.ranks == (1, 1)
    assert outcome_text(game, out, ["Ann", "Bob"]) == "No one completed a tower in 400 turns, so the game is a draw."
    with pytest.raises(ValueError):
        turn_cap_outcome(GAMES["tintas"].new())


# --- terminations as enums ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(GAMES))
def test_every_termination_of_a_game_has_its_sentence_and_every_sentence_its_termination(key):
    """``Game.terminations`` keys are exactly the game's ``Termination`` members (plus a worded turn cap)."""
    game = GAMES[key]
    assert issubclass(game.termination_kinds, Termination) and game.termination_kinds is not Termination
    kinds = {kind.value for kind in game.termination_kinds}
    assert set(game.terminations) - {TURN_CAP_TERMINATION} == kinds


@pytest.mark.parametrize("key", list(GAMES))
def test_a_finished_game_ends_with_a_member_of_its_own_termination_enum(key):
    game = GAMES[key]
    state = game.new(game.player_counts[0])
    rng = random.Random(7)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    termination = state.outcome().termination
    assert type(termination) is game.termination_kinds and termination == termination.value


def test_the_turn_cap_is_the_services_termination_for_any_game():
    out = turn_cap_outcome(GAMES["quincala"].new())
    assert out.termination is CapTermination.TURN_CAP and out.termination == TURN_CAP_TERMINATION
