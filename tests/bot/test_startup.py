"""Start-up and shutdown: the registry check that keeps adding a game simple, and a shutdown that always closes."""

from __future__ import annotations

import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from ai.policies import POLICIES
from bot import gametexts
from bot.registry import RegistryError, check_games
from engines import GAMES
from engines.base import Termination
from render.games import RENDERER_MEMBERS, RENDERERS


def test_the_registered_games_pass_the_start_up_check():
    check_games(GAMES, taken=["matches", "leaderboard", "profile", "history", "settings", "match"])


def test_a_game_without_a_renderer_fails_early_saying_what_to_add():
    class Sixth(type(GAMES["tintas"])):   # a game whose module has no renderer
        key = "hexa"
        title = "Hexa"
    with pytest.raises(RegistryError, match=r"game 'hexa' has no renderer: add render/hexa.py"):
        check_games({"hexa": Sixth()})


@pytest.mark.parametrize("key, message", [
    ("matches", "clashes with the /matches command"),
    ("Tintas Two", "is not a valid command name"),
])
def test_a_game_key_that_cannot_be_a_command_fails_early(key, message):
    class Clash(type(GAMES["tintas"])):
        pass
    game = Clash()
    game.key = key
    with pytest.raises(RegistryError, match=message):
        check_games({key: game}, taken=["matches"])


def fake_renderer(**members) -> types.ModuleType:
    """A game's renderer module as a new game might write it: Tintas's members, but those given."""
    module = types.ModuleType("render.hexa")
    for name in RENDERER_MEMBERS:
        setattr(module, name, getattr(RENDERERS["tintas"], name))
    for name, value in members.items():
        if value is None:
            delattr(module, name)
        else:
            setattr(module, name, value)
    return module


def with_hexa(renderer: types.ModuleType) -> tuple[dict, dict]:
    class Sixth(type(GAMES["tintas"])):
        key = "hexa"
        title = "Hexa"
    return {"hexa": Sixth()}, {"hexa": renderer}


def hexa_texts(root: Path, languages=("en", "de"), leave_out: str | None = None) -> Path:
    """A texts folder as bot/texts/ is, with Hexa's rules, quick start and summary in ``languages``."""
    for language in languages:
        (root / language / "hexa").mkdir(parents=True)
        for kind in gametexts.KINDS:
            if f"{language}/{kind}" != leave_out:
                (root / language / "hexa" / f"{kind}.md").write_text(f"**Hexa** {kind}\n", encoding="utf-8")
    return root


def test_a_renderer_that_follows_the_contract_passes(tmp_path):
    games, renderers = with_hexa(fake_renderer())
    check_games(games, renderers=renderers, policies={}, texts=hexa_texts(tmp_path))


@pytest.mark.parametrize("leave_out", ["en/rules", "de/quick_start", "de/summary"])
def test_a_game_without_one_of_its_texts_fails_naming_the_file(tmp_path, leave_out):
    games, renderers = with_hexa(fake_renderer())
    texts = hexa_texts(tmp_path, leave_out=leave_out)
    language, kind = leave_out.split("/")
    file = texts / language / "hexa" / f"{kind}.md"
    with pytest.raises(RegistryError, match=rf"game 'hexa' has no text {re.escape(str(file))} "):
        check_games(games, renderers=renderers, policies={}, texts=texts)


def test_a_game_with_texts_in_no_language_fails_naming_the_english_ones(tmp_path):
    games, renderers = with_hexa(fake_renderer())
    with pytest.raises(RegistryError, match=r"game 'hexa' has no text .*en/hexa/summary\.md"):
        check_games(games, renderers=renderers, policies={}, texts=tmp_path)


@pytest.mark.parametrize("member", ["TEXTS", "draw", "palette"])
def test_a_renderer_missing_a_member_fails_naming_the_game_and_the_member(member):
    games, renderers = with_hexa(fake_renderer(**{member: None}))
    with pytest.raises(RegistryError, match=rf"render/hexa.py has no {member} \(see render.games.Renderer\)"):
        check_games(games, renderers=renderers, policies={})


def test_a_renderer_whose_draw_takes_other_arguments_fails_naming_it():
    def draw(state, last_turn, names):      # the contract's previous state is missing
        raise AssertionError("never called by the check")
    games, renderers = with_hexa(fake_renderer(draw=draw))
    with pytest.raises(RegistryError, match=r"render/hexa.py: draw cannot be called as render.games.Renderer.draw"):
        check_games(games, renderers=renderers, policies={})


def test_a_renderer_whose_texts_are_no_tuple_of_templates_fails():
    games, renderers = with_hexa(fake_renderer(TEXTS=["{name} to move"]))
    with pytest.raises(RegistryError, match=r"render/hexa.py: TEXTS is not a tuple of English templates"):
        check_games(games, renderers=renderers, policies={})


def test_a_renderer_or_a_policy_of_no_game_fails_naming_its_list():
    with pytest.raises(RegistryError, match=r"render.games.RENDERERS lists 'hexa', which is no game"):
        check_games(GAMES, renderers={**RENDERERS, "hexa": fake_renderer()})
    with pytest.raises(RegistryError, match=r"ai.policies.POLICIES lists 'hexa', which is no game"):
        check_games(GAMES, policies={**POLICIES, "hexa": POLICIES["tintas"]})


def test_a_policy_that_is_no_policy_fails_naming_the_game():
    with pytest.raises(RegistryError, match=r"ai/policies/tintas.py: POLICY is a dict, not an ai.policies.Policy"):
        check_games(GAMES, policies={**POLICIES, "tintas": {"depth_cap": 80}})


def test_a_termination_without_its_sentence_fails_naming_the_game_and_the_termination():
    class Ends(Termination):
        WON = "won"
        STUCK = "stuck"

    class Sixth(type(GAMES["tintas"])):
        key = "tintas"
        termination_kinds = Ends
        terminations = {"won": "{winner} won.", "gone": "Everybody left."}
    with pytest.raises(RegistryError) as raised:
        check_games({"tintas": Sixth()})
    assert "game 'tintas' has no sentence in terminations for 'stuck'" in str(raised.value)
    assert "game 'tintas' words 'gone', which is no member of Ends" in str(raised.value)


def test_a_game_without_its_own_termination_enum_fails():
    class Sixth(type(GAMES["tintas"])):
        key = "tintas"
        termination_kinds = Termination
    with pytest.raises(RegistryError, match=r"game 'tintas' has no Termination enum of its own"):
        check_games({"tintas": Sixth()})


async def test_shutdown_closes_the_database_even_when_a_loop_fails_to_stop(fake, db, monkeypatch):
    async def broken():
        raise RuntimeError("stuck")
    monkeypatch.setattr(fake.client.scheduler, "stop", broken)
    with pytest.raises(RuntimeError, match="stuck"):
        await fake.client.close()
    with pytest.raises(ValueError):          # aiosqlite refuses statements on a closed connection
        await db.fetchone("SELECT 1")


def test_the_start_up_heap_is_frozen_out_of_the_collectors_walks():
    """What the bot's imports made lives as long as the process: once frozen (as ``run_bot`` does before it
    connects), a full garbage collection walks only what came after, a small part of it."""
    code = ("import gc, bot.discord.client; from bot.__main__ import freeze_start_up_heap; freeze_start_up_heap();"
            " print(gc.get_freeze_count(), len(gc.get_objects()))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[2])
    frozen, walked = map(int, done.stdout.split())
    assert frozen > 10_000 and walked < frozen // 10
