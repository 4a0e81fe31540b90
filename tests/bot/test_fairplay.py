"""Fair play: while a rated match runs, no analysis of its position nor of any position within one whole turn of
it, however the position is spelled; everything else is analysed. Through the service and the command tree."""

from __future__ import annotations

import random
import re

import discord
import pytest

from bot import wording
from bot.model import NotAllowed
from bot.services.fairplay import FairPlay
from engines import GAMES, State
from engines.base import key_distance
from tests.bot.support import boards, cards, said
from tests.conftest import ANN, BOB, CHANNEL, GUILD

REFUSED = "Fair play"
ANALYSIS_BUDGET = 0.3   # seconds: the command tests check what is shown, not how well the bot plays
PATHS = 12          # random whole turns sampled per position (each with the positions between its moves)


def random_turn(state: State, rng: random.Random) -> tuple[list[str], list[State]]:
    """One random whole turn of the player to move: its moves and the position after each of them."""
    seat, moves, states = state.to_move, [], []
    while not state.is_over and state.to_move == seat:
        move = rng.choice(state.legal_moves())
        state = state.play(move)
        moves.append(move)
        states.append(state)
    return moves, states


def within_one_turn(state: State, rng: random.Random, paths: int = PATHS) -> list[State]:
    """The positions of ``paths`` random whole turns from ``state``: between their moves and after them."""
    out: list[State] = []
    for _ in range(paths):
        out += random_turn(state, rng)[1]
    return out


async def started(services, game: str, turns: int, *, days: int = 3, seed: int = 1):
    """A started match of ``game`` (rated with ``days`` per move; 0 = casual) after ``turns`` random whole turns."""
    match = await services.challenges.challenge(game, guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB], days_per_move=days)
    match = await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    rng = random.Random(seed)
    for _ in range(turns):
        moves, states = random_turn(match.position, rng)
        if states[-1].is_over:
            break
        await services.play.submit_turn(match.id, match.to_move_user.user_id, moves, guild_id=GUILD)
        match = await services.queries.get(match.id)
    return match


async def refused(services, state: State) -> bool:
    try:
        await services.fairplay.check(state)
    except NotAllowed as exc:
        assert REFUSED in str(exc)
        return True
    return False


def elsewhere(game: str, plies: int, seed: int) -> State:
    """A position of another game of ``game``: ``plies`` random moves from another set-up."""
    rng = random.Random(seed)
    state = GAMES[game].new(seed=seed)
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


# ---- the service ---------------------------------------------------------------------------------------------
async def test_a_respelled_quincala_pass_counter_is_the_same_position(services):
    """-/0 and -/1 give the same board, mover and legal turns: the counter only decides whether a pass ends it."""
    match = await started(services, "quincala", 2)
    code = match.position.encode()
    assert code.endswith("-/0")
    respelled = GAMES["quincala"].decode(code[:-1] + "1")
    assert respelled.encode() != code and respelled.legal_moves() == match.position.legal_moves()
    assert respelled.position_key() == match.position.position_key()      # one position as play sees it
    assert await refused(services, match.position)
    assert await refused(services, respelled)


@pytest.mark.parametrize("game, turns", [("tintas", 3), ("rincala", 4), ("roocala", 3), ("quincala", 3),
                                         ("spinca", 4)])
async def test_every_position_within_one_whole_turn_of_a_running_rated_match_is_refused(services, game, turns):
    match = await started(services, game, turns)
    ahead = within_one_turn(match.position, random.Random(5))
    assert ahead
    assert [s.encode() for s in ahead if not await refused(services, s)] == []


@pytest.mark.parametrize("game", ["tintas", "rincala", "roocala", "quincala", "spinca"])
async def test_an_unrelated_position_is_analysed_while_a_rated_match_runs(services, game):
    match = await started(services, game, 3)
    other = elsewhere(game, 60, seed=99)
    distance = key_distance(other.position_key(), match.position.position_key())
    reach = GAMES[game].turn_reach
    assert reach is None or distance is None or distance > reach       # truly unrelated, even by nearness
    assert not await refused(services, other)


async def test_two_whole_turns_ahead_is_no_longer_within_one_turn(services):
    """The opponent's reply is a position the mover's turn cannot reach: analysed (Tintas lists every turn)."""
    match = await started(services, "tintas", 3)
    rng = random.Random(2)
    after_mine = random_turn(match.position, rng)[1][-1]
    after_reply = random_turn(after_mine, rng)[1][-1]
    assert await refused(services, after_mine)
    assert not await refused(services, after_reply)


async def test_positions_of_casual_and_finished_matches_are_analysed(services):
    casual = await started(services, "tintas", 3, days=0)
    assert not await refused(services, casual.position)
    assert not any([await refused(services, s) for s in within_one_turn(casual.position, random.Random(1), 3)])
    rated = await started(services, "rincala", 3, seed=4)
    assert await refused(services, rated.position)
    await services.play.resign(rated.id, ANN.user_id, guild_id=GUILD)
    assert not await refused(services, rated.position)


async def test_a_turn_too_wide_to_list_refuses_every_comparable_position(services):
    """Past ``turn_positions_limit`` positions the turn is not listed: every position of the same variant and player
    count is refused (the safe side); another variant's is not comparable, so analysed."""
    narrow = FairPlay(services.ctx, turn_positions_limit=2)
    match = await started(services, "roocala", 2)
    running = await services.matches.rated_in_play("roocala")
    assert narrow.near_rated_play(elsewhere("roocala", 40, seed=9), running)
    assert not services.fairplay.near_rated_play(elsewhere("roocala", 40, seed=9), running)
    square = GAMES["roocala"].new(seed=9, variant="square")
    assert match.row.variant != "square" and not narrow.near_rated_play(square, running)


async def test_a_turns_positions_are_listed_once_per_ply(services):
    match = await started(services, "tintas", 2)
    fairplay = services.fairplay
    for state in within_one_turn(match.position, random.Random(3), 4):
        await refused(services, state)
    assert fairplay.listed == 1
    moves, _ = random_turn(match.position, random.Random(8))
    await services.play.submit_turn(match.id, match.to_move_user.user_id, moves, guild_id=GUILD)
    now = (await services.queries.get(match.id)).position
    assert all([await refused(services, s) for s in within_one_turn(now, random.Random(4), 4)])
    assert fairplay.listed == 2                                      # the new ply's turn, listed anew


# ---- through the command tree ----------------------------------------------------------------------------------
async def start(fake, people, game: str, time: int):
    fake.client.ai.analysis_budget = ANALYSIS_BUDGET
    ann, bob, _ = people
    card = cards(await fake.slash(ann, f"{game} challenge", opponent=bob, time=time))[0]
    return boards(await fake.click(bob, card.button("Accept")["custom_id"], message=card))[-1]


async def test_analyze_refuses_a_respelled_code_and_a_candidate_turn_of_a_rated_match(fake, people):
    await start(fake, people, "quincala", time=3)
    match = await fake.client.services.queries.get(1)
    code = match.position.encode()
    out = await fake.slash(people[2], "quincala analyze", code=code[:-1] + "1")    # -/0 -> -/1
    assert REFUSED in said(out) and not any(s.files for s in out)
    after = random_turn(match.position, random.Random(1))[1][-1]
    out = await fake.slash(people[0], "quincala analyze", code=after.encode())
    assert REFUSED in said(out) and not any(s.files for s in out)
    unrelated = elsewhere("quincala", 60, seed=99)
    out = await fake.slash(people[0], "quincala analyze", code=unrelated.encode())
    assert any(name == "board.png" for s in out for name, _ in s.files), said(out)


async def test_analyze_of_a_casual_match_in_progress_is_shown(fake, people):
    await start(fake, people, "tintas", time=0)
    match = await fake.client.services.queries.get(1)
    out = await fake.slash(people[2], "tintas analyze", code=match.position.encode())
    assert any(name == "board.png" for s in out for name, _ in s.files), said(out)


# ---- a match number of another server reads as a missing one -----------------------------------------------------
@pytest.mark.parametrize("command", ["match record", "replay", "tintas board", "tintas resign", "match abort"])
async def test_another_servers_match_number_gets_the_answer_a_missing_one_gets(fake, people, command):
    services = fake.client.services
    other = GUILD + 1
    theirs = await services.challenges.challenge("tintas", guild_id=other, channel_id=CHANNEL + 1, challenger=ANN,
                                                 opponents=[BOB], days_per_move=3)
    await services.challenges.accept(theirs.id, BOB, guild_id=other)
    missing = theirs.id + 5
    admin = fake.user(50, "Admin", permissions=discord.Permissions(manage_guild=True, view_channel=True))
    asker = admin if command == "match abort" else people[0]
    foreign = said(await fake.slash(asker, command, match=f"#{theirs.id}"))
    absent = said(await fake.slash(asker, command, match=f"#{missing}"))
    assert f"#{theirs.id}" in foreign
    assert foreign == absent.replace(f"#{missing}", f"#{theirs.id}")
    assert (await services.queries.get(theirs.id)).status == "active"       # and nothing happened to it


async def test_analysis_says_how_many_turns_it_lists(fake, people):
    """A Tintas position with two legal whole turns (end the chain, or take D6): 'My two best turns', two lines."""
    fake.client.ai.analysis_budget = ANALYSIS_BUDGET
    code = "WRBYPORGWOBB.WRPOG.YOG.....W......YOWOPGBYGBBYRGG C6 0100141 3020001 2 Y"
    out = await fake.slash(people[0], "tintas analyze", code=code)
    text = said(out)
    assert "My two best turns for Player 2:" in text
    assert len(re.findall(r"^\d\. `", text, re.M)) == 2
    fake.locale = "de"
    assert "Meine zwei besten Züge" in said(await fake.slash(people[0], "tintas analyze", code=code))


@pytest.mark.parametrize("n, heading", [(1, "My best turn for Ann:"), (2, "My two best turns for Ann:"),
                                        (3, "My three best turns for Ann:")])
def test_the_analysis_heading_counts_the_turns_listed(n, heading):
    text = wording.analysis_text("Ann", [(f"T{i}", 0.5, False) for i in range(n)])
    assert heading in text and len(re.findall(r"^\d\. `", text, re.M)) == n
