"""The terminal's numbered menus: a turn built from the steps Discord's picker offers (engines/steps.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.services import Services
from bot.store import Database
from bot.terminal import LANGUAGE_VARIABLES, play_in_terminal
from engines import GAMES

SEED = 5
AGAIN = 2             # moves after which the same player moves again, picked in one turn (turns can be long)
MATCH_ID = 1          # the terminal's only match in its fresh database

@pytest.fixture(autouse=True)
def english_terminal(monkeypatch):
    """The terminal takes its language from the environment: these tests read its English words."""
    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)



async def first_turn(db_file: Path) -> list[str]:
    """The moves stored for the match's first turn (its last turn, as the player resigned after it)."""
    db = await Database.open(db_file)
    try:
        match = await Services(db).queries.get(MATCH_ID)
        return list(match.last_turn)
    finally:
        await db.close()


def picking(prompts: list[str], lines: list[str], before: list[str]) -> Iterator[str]:
    """After the typed turns ``before``, opens the menu, then picks a move after which the player moves again
    where the menu has one (up to ``AGAIN`` times), else its last option (groups included), until the turn is
    played."""
    yield from before
    yield "pick"
    agains = 0
    while True:
        last = re.search(r"pick 1-(\d+)", prompts[-1])
        if last is None:
            break
        again = [line.split(")")[0].strip() for line in lines[-int(last.group(1)):] if "move again" in line]
        agains += bool(again)
        yield again[-1] if again and agains <= AGAIN else last.group(1)
    yield "resign"


@pytest.mark.parametrize("game_key, seed, before", [(key, SEED, []) for key in sorted(GAMES)] + [
    ("tintas", 4, ["E4"])])         # Bob's first slides: a turn of several moves
async def test_a_turn_picked_by_numbers_is_the_typed_turn(tmp_path, game_key, seed, before):
    prompts: list[str] = []
    lines: list[str] = []
    answers = picking(prompts, lines, before)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    picked_db = tmp_path / "picked.sqlite3"
    assert await play_in_terminal(game_key, seed=seed, out_dir=str(tmp_path / "p"), database=str(picked_db),
                                  read=read, write=lines.append) == 0
    picked = await first_turn(picked_db)
    assert picked and any("played" in line for line in lines)
    if before:
        assert len(picked) > 1
    menu_prompts = [p for p in prompts if "pick 1-" in p]
    mover = prompts[len(before)].removesuffix("> ")
    assert menu_prompts and all(p.startswith(mover + ", ") for p in menu_prompts)

    typed_answers = iter([*before, ", ".join(m for m in picked if m != "end"), "resign"])
    typed_db = tmp_path / "typed.sqlite3"
    assert await play_in_terminal(game_key, seed=seed, out_dir=str(tmp_path / "t"), database=str(typed_db),
                                  read=lambda prompt: next(typed_answers), write=lambda line: None) == 0
    assert await first_turn(typed_db) == picked


async def run_tintas(tmp_path: Path, answers: list[str]) -> tuple[list[str], list[str]]:
    typed = iter(answers)
    prompts: list[str] = []
    lines: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    assert await play_in_terminal("tintas", seed=4, out_dir=str(tmp_path), read=read, write=lines.append) == 0
    return prompts, lines


async def test_back_cancel_and_a_wrong_number_change_nothing(tmp_path):
    # Tintas opens with a placement on any of 49 cells: a column first (9 groups), then the cell.
    prompts, lines = await run_tintas(tmp_path, ["", "b", "99", "x", "1", "b", "1", "c", "resign"])
    out = "\n".join(lines)
    assert "Ann, choose the first step of your turn:" in out
    assert "  1) A… (2 moves)" in out
    assert "Ann, there is nothing to go back to yet." in out
    assert 'Ann, "99" is not in the list: type a number from 1 to 9, b to go back or c to cancel.' in out
    assert 'Ann, "x" is not in the list' in out
    assert "Ann, your turn so far: A. Choose the next step:" in out
    assert out.count("Ann, choose the first step of your turn:") == 5    # after b, 99, x, and after b again
    assert "Ann, nothing played." in out and "played A" not in out
    assert prompts.count("Ann> ") == 2 and "Bob> " not in prompts       # cancelled: still Ann's turn
    assert all(p.startswith("Ann") for p in prompts)


async def test_an_empty_line_opens_the_menu_and_a_finished_turn_is_played(tmp_path):
    prompts, lines = await run_tintas(tmp_path, ["", "4", "4", "resign"])
    out = "\n".join(lines)
    assert "D4 — ends your turn" in out
    assert "played D4" in out
    assert prompts[-1] == "Bob> "                  # Ann's turn was played; Bob resigns
