"""Start-up and shutdown: the registry check that keeps adding a game simple, and a shutdown that always closes."""

from __future__ import annotations

import pytest

from bot.registry import RegistryError, check_games
from engines import GAMES


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


async def test_shutdown_closes_the_database_even_when_a_loop_fails_to_stop(fake, db, monkeypatch):
    async def broken():
        raise RuntimeError("stuck")
    monkeypatch.setattr(fake.client.scheduler, "stop", broken)
    with pytest.raises(RuntimeError, match="stuck"):
        await fake.client.close()
    with pytest.raises(ValueError):          # aiosqlite refuses statements on a closed connection
        await db.fetchone("SELECT 1")
