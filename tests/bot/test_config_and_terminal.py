"""Configuration from the environment, the no-token exit, and the terminal mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import DEFAULT_DATABASE, ConfigError, load_config
from bot.terminal import LANGUAGE_VARIABLES, play_in_terminal, terminal_language


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch):
    """The terminal takes its language from the environment: these tests read its English words."""
    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)



def test_settings_are_read_and_defaults_apply():
    config = load_config(environ={"DISCORD_TOKEN": " abc.def ", "DEV_GUILD_ID": "123", "LOG_LEVEL": "debug"})
    assert config.token == "abc.def" and config.dev_guild_id == 123 and config.log_level == "DEBUG"
    assert config.database_path == DEFAULT_DATABASE
    assert "abc.def" not in repr(config)      # the token never reaches a log line


def test_env_file_fills_in_what_the_environment_lacks(tmp_path, monkeypatch):
    env = tmp_path / ".env"
    env.write_text("DATABASE_PATH=/tmp/x.sqlite3\nLOG_LEVEL=WARNING\n")
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)      # it would win over DATABASE_PATH
    monkeypatch.setenv("LOG_LEVEL", "ERROR")
    config = load_config(env)
    assert config.database_path == Path("/tmp/x.sqlite3")
    assert config.log_level == "ERROR"           # the real environment wins over .env


@pytest.mark.parametrize("environ, message", [({"DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
                                              ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL")])
def test_malformed_settings_are_explained(environ, message):
    with pytest.raises(ConfigError, match=message):
        load_config(environ=environ)


def test_without_a_token_the_bot_exits_non_zero_and_says_what_to_do(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)              # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 1
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and ".env" in err and "make play GAME=tintas" in err


async def test_terminal_mode_plays_through_the_service_and_writes_boards(tmp_path):
    typed = iter(["moves", "Z9", "E4", "resign"])
    lines: list[str] = []
    code = await play_in_terminal("tintas", seed=4, out_dir=str(tmp_path), read=lambda prompt: next(typed),
                                  write=lines.append)
    out = "\n".join(lines)
    assert code == 0
    assert "Legal: " in out and "Not played:" in out and "Z9" in out.upper()
    assert "played E4" in out                       # the turn in notation, without Discord's bold marks
    assert "wins — " in out and "resigned" in out
    boards = sorted(tmp_path.glob("tintas-*.png"))
    assert len(boards) == 3                         # start, after E4, final
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in boards)
    assert f"Board image: {boards[0]}" in out


async def test_a_german_terminal_says_every_word_in_german(tmp_path, monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    typed = iter(["moves", "Z9", "", "c", "E4", "resign"])
    lines: list[str] = []
    code = await play_in_terminal("tintas", seed=4, out_dir=str(tmp_path), read=lambda prompt: next(typed),
                                  write=lines.append)
    out = "\n".join(lines)
    assert code == 0
    assert "Erlaubt: " in out and "Nicht gespielt:" in out and "Die Partie beginnt!" in out
    assert "„moves“" in out and "Brettbild: " in out and "nichts gespielt" in out
    english = ("Legal", "Not played", "Board image", "The match begins", "Type a move", "autocomplete", "to move",
               "wins", "resigned", "Player", "nothing played", "pick 1-", "first step", "the legal ones")
    assert not [word for word in english if word in out], out


@pytest.mark.parametrize("environ, language", [
    ({"LANG": "de_DE.UTF-8"}, "de"), ({"LANG": "de_AT"}, "de"), ({"LC_ALL": "en_GB.UTF-8", "LANG": "de_DE"}, "en"),
    ({"LC_MESSAGES": "de_CH.UTF-8", "LANG": "en_US"}, "de"), ({"LANG": "C.UTF-8"}, "en"), ({"LANG": "fr_FR"}, "en"),
    ({}, "en")])
def test_the_terminal_speaks_the_language_the_environment_names(environ, language):
    assert terminal_language(environ) == language


async def test_rebuild_ratings_script_reports_unchanged_numbers(db_path, services, capsys):
    from bot.__main__ import rebuild_ratings
    from tests.conftest import ANN, BOB, CHANNEL, GUILD

    match = await services.challenges.challenge("tintas", guild_id=GUILD, channel_id=CHANNEL, challenger=ANN,
                                                opponents=[BOB],
                                    days_per_move=3)
    await services.challenges.accept(match.id, BOB, guild_id=GUILD)
    await services.play.resign(match.id, ANN.user_id, guild_id=GUILD)
    live = await services.ratings.snapshot()
    assert await rebuild_ratings(db_path, None) == 0
    out = capsys.readouterr().out
    assert "from 1 rated matches" in out and "unchanged" in out
    assert await services.ratings.snapshot() == live


async def test_terminal_mode_can_seat_the_bot(tmp_path):
    lines: list[str] = []
    asked = []

    def read(prompt: str) -> str:
        assert prompt.startswith("Ann")               # the bot never asks the keyboard
        asked.append(prompt)
        if sum("Bot (level 1) played" in line for line in lines) >= 2 or len(asked) > 30:
            return "resign"
        return "E4" if not any("played" in line for line in lines) else "n"   # a placement, then slides

    code = await play_in_terminal("tintas", seed=2, out_dir=str(tmp_path), bots=1, level=1, read=read,
                                  write=lines.append)
    out = "\n".join(lines)
    assert code == 0
    assert out.count("Bot (level 1) played") >= 2 and "resigned" in out


async def test_the_terminal_names_players_and_offers_its_own_moves_list(tmp_path):
    typed = iter(["", "c", "x" * 600, "E4", "resign"])
    lines: list[str] = []
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    assert await play_in_terminal("tintas", seed=4, out_dir=str(tmp_path), read=read, write=lines.append) == 0
    out = "\n".join(lines)
    assert "autocomplete" not in out                     # Discord's words are not the terminal's
    assert "Ann, choose the first step of your turn:" in out and "Ann, nothing played." in out   # Enter: a menu
    assert "no turn is that long" in out and "Type 'moves' to list the legal ones." in out
    assert "Player 1" not in out and "Player 2" not in out
    assert "Ann: R0 O0" in out and "Bob: R0 O0" in out     # the text board names the people at the keyboard
    assert {p.rstrip("> ") for p in prompts if p.endswith("> ")} <= {"Ann", "Bob"}
    assert prompts[1] == "Ann, pick 1-9 (b back, c cancel): "


async def test_the_terminal_says_the_bot_is_thinking_before_it_plays(tmp_path):
    """The bot's turn is the dispatcher's worker, not the terminal's; the terminal still says it is coming."""
    lines: list[str] = []

    def read(prompt: str) -> str:
        return "resign" if any("Bot (level 1) played" in line for line in lines) else "E4"

    assert await play_in_terminal("tintas", seed=2, out_dir=str(tmp_path), bots=1, level=1, read=read,
                                  write=lines.append) == 0
    thinking = [i for i, line in enumerate(lines) if line == "Bot (level 1) is thinking…"]
    played = [i for i, line in enumerate(lines) if "Bot (level 1) played" in line]
    assert thinking and played and thinking[0] < played[0]
