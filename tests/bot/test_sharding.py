"""Sharding by configuration: SHARD_COUNT and SHARD_IDS, checked at start, and the bot they make."""

from __future__ import annotations

import discord
import pytest

from bot.__main__ import main
from bot.config import DEFAULT_HEALTH_PORT, ConfigError, load_config, shard_of
from bot.discord.client import GameBot, ShardedGameBot, make_bot


def config(**environ: str):
    return load_config(environ={"DATABASE_PATH": ":memory:", **environ})


def test_without_sharding_settings_the_bot_has_one_gateway_connection():
    settings = config()
    assert not settings.sharded and settings.shard_count is None and settings.shard_ids is None
    assert settings.health_port == DEFAULT_HEALTH_PORT
    bot = make_bot(settings, sync_commands=False)
    assert type(bot) is GameBot and not isinstance(bot, discord.AutoShardedClient)


def test_a_process_runs_the_shards_it_is_given():
    settings = config(SHARD_COUNT="2", SHARD_IDS=" 1 ")
    assert settings.sharded and settings.shard_count == 2 and settings.shard_ids == (1,)
    bot = make_bot(settings, sync_commands=False)
    assert isinstance(bot, ShardedGameBot) and isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 2 and bot.shard_ids == [1]


def test_a_count_without_ids_runs_every_shard_and_auto_lets_discord_decide():
    every = make_bot(config(SHARD_COUNT="3"), sync_commands=False)
    assert isinstance(every, ShardedGameBot) and every.shard_count == 3 and every.shard_ids is None
    auto = config(SHARD_COUNT="Auto")
    assert auto.auto_shard and auto.shard_count is None
    bot = make_bot(auto, sync_commands=False)
    assert isinstance(bot, ShardedGameBot) and bot.shard_count is None     # asked of Discord at login


@pytest.mark.parametrize("environ, message", [
    ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "auto", "SHARD_IDS": "0"}, "not 'auto'"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be"),
    ({"SHARD_COUNT": "-2"}, "SHARD_COUNT must be"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be"),
    ({"SHARD_COUNT": "²"}, "SHARD_COUNT must be"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "numbered 0 to 1"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "separated by commas"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0,"}, "separated by commas"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "names a shard twice"),
    ({"HEALTH_PORT": "http"}, "HEALTH_PORT"),
    ({"HEALTH_PORT": "70000"}, "HEALTH_PORT"),
])
def test_malformed_sharding_settings_are_refused_with_what_to_fix(environ, message):
    with pytest.raises(ConfigError, match=message):
        config(**environ)


def test_a_bad_shard_setting_stops_the_start_with_a_clear_message(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "0,2")
    assert main(["run"]) == 2
    assert "SHARD_IDS '0,2': shards are numbered 0 to 1" in capsys.readouterr().err


def test_health_port_zero_turns_the_endpoint_off():
    assert config(HEALTH_PORT="0").health_port == 0
    assert config(HEALTH_PORT="9100").health_port == 9100


@pytest.mark.parametrize("guild_id, count, shard", [
    (0, 2, 0),
    (1 << 22, 2, 1),
    ((5 << 22) + 12345, 3, 2),          # the low 22 bits (worker, process, increment) do not count
    (81384788765712384, 16, (81384788765712384 >> 22) % 16),
])
def test_the_shard_of_a_server_is_discords_formula(guild_id, count, shard):
    assert shard_of(guild_id, count) == shard


@pytest.mark.parametrize("guild_id", [81384788765712384, 1_000_000_000_000_000_123, 613425648685547541])
def test_our_formula_is_the_one_discord_py_routes_a_server_with(guild_id):
    bot = make_bot(config(SHARD_COUNT="4", SHARD_IDS="0,3"), sync_commands=False)
    guild = discord.Guild(data={"id": str(guild_id), "name": "x"}, state=bot._connection)
    assert guild.shard_id == shard_of(guild_id, 4)
