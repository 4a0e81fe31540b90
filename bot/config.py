"""Settings from the environment, with a git-ignored ``.env`` file as a fallback."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from dotenv import load_dotenv

DEFAULT_DATABASE = Path("data") / "boardgames.sqlite3"
DEFAULT_HEALTH_PORT = 8080     # /healthz, /readyz, /metrics; HEALTH_PORT=0 turns the endpoint off
AUTO = "auto"                  # SHARD_COUNT=auto: discord.py asks Discord how many shards, runs them all here


class ConfigError(ValueError):
    """A setting is missing or malformed; the message says how to fix it."""


@dataclass(frozen=True)
class Config:
    token: str | None
    database_path: Path | str     # a SQLite file, or a DATABASE_URL (sqlite:///… or postgresql://…)
    dev_guild_id: int | None
    log_level: str
    shard_count: int | None = None              # None: no sharding (or AUTO: as many as Discord recommends)
    shard_ids: tuple[int, ...] | None = None     # the shards this process runs; None: all of them
    auto_shard: bool = False                     # SHARD_COUNT=auto
    health_port: int = DEFAULT_HEALTH_PORT
    public_url: str | None = None                # match pages: the address readers use (no trailing '/')
    web_port: int | None = None                  # match pages: the port bot/web listens on; both set = on

    @property
    def web_enabled(self) -> bool:
        return bool(self.public_url) and bool(self.web_port)

    @property
    def sharded(self) -> bool:
        return self.auto_shard or self.shard_count is not None

    def __repr__(self) -> str:  # never let the token reach a log line
        token = "set" if self.token else "missing"
        where = without_password(str(self.database_path))
        return (f"Config(token={token}, database_path={where!r}, "
                f"dev_guild_id={self.dev_guild_id}, log_level={self.log_level!r}, shard_count={self.shard_count}, "
                f"shard_ids={self.shard_ids}, auto_shard={self.auto_shard}, health_port={self.health_port}, "
                f"public_url={self.public_url!r}, web_port={self.web_port})")


# The password of a URL: between the user name and the last '@' (a password may hold '/', '@' or '%xx'), and a
# ``password=`` query parameter (libpq accepts one). Masking a little more than the password is harmless.
_URL_PASSWORD = re.compile(r"^(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^:@/]*):(?P<password>.*)@(?P<tail>[^@]*)$")
_QUERY_PASSWORD = re.compile(r"(?P<head>[?&]password=)(?P<password>[^&#]*)", re.IGNORECASE)
HIDDEN = "***"


def passwords(url: str) -> list[str]:
    """The passwords written in ``url`` (as written and decoded), to mask them wherever they might be echoed."""
    found = [m["password"] for m in (_URL_PASSWORD.match(url), *_QUERY_PASSWORD.finditer(url)) if m]
    return [p for pw in found if pw for p in {pw, unquote(pw)}]


def without_password(url: str) -> str:
    """The URL with its password hidden (it may reach a log line or a message)."""
    m = _URL_PASSWORD.match(url)
    if m and m["password"]:
        url = f"{m['head']}:{HIDDEN}@{m['tail']}"
    return _QUERY_PASSWORD.sub(lambda q: q["head"] + HIDDEN, url)


def database_location(environ: dict[str, str]) -> Path | str:
    """DATABASE_URL (``sqlite:///relative/path``, ``sqlite:////absolute/path``, ``postgresql://…``); without it
    DATABASE_PATH (a SQLite file), then data/boardgames.sqlite3."""
    url = (environ.get("DATABASE_URL") or "").strip()
    if not url:
        return Path(environ.get("DATABASE_PATH") or DEFAULT_DATABASE)
    if url.startswith(("postgresql://", "postgres://")):
        return url
    if url.startswith("sqlite:///"):
        return Path(url[len("sqlite:///"):])
    raise ConfigError(f"DATABASE_URL must start with sqlite:/// or postgresql://, not {without_password(url)!r}.")


def load_config(env_file: str | os.PathLike | None = ".env", environ: dict[str, str] | None = None) -> Config:
    """Read DISCORD_TOKEN, DATABASE_URL (or DATABASE_PATH), DEV_GUILD_ID, LOG_LEVEL, SHARD_COUNT, SHARD_IDS and
    HEALTH_PORT, PUBLIC_URL and WEB_PORT (see .env.example)."""
    if environ is None:
        if env_file and Path(env_file).exists():
            load_dotenv(env_file, override=False)  # the real environment wins over .env
        environ = dict(os.environ)
    guild = (environ.get("DEV_GUILD_ID") or "").strip()
    if guild and not guild.isdigit():
        raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not {guild!r}.")
    level = (environ.get("LOG_LEVEL") or "INFO").strip().upper()
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {level!r}.")
    return Config(
        token=(environ.get("DISCORD_TOKEN") or "").strip() or None,
        database_path=database_location(environ),
        dev_guild_id=int(guild) if guild else None,
        log_level=level,
        **_sharding(environ),
        health_port=_health_port(environ),
        **_web(environ),
    )


# ---- sharding and the health endpoint ----

_NUMBER = re.compile(r"[0-9]{1,6}")     # ASCII digits only ('²'.isdigit() is True), and not absurdly long


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard whose gateway connection serves a server (Discord's formula)."""
    return (guild_id >> 22) % shard_count


def _sharding(environ: dict[str, str]) -> dict:
    """SHARD_COUNT (a number, or ``auto``) and SHARD_IDS (``0,1``: the shards this process runs)."""
    count_text = (environ.get("SHARD_COUNT") or "").strip().lower()
    ids_text = (environ.get("SHARD_IDS") or "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (the total number of shards over all processes).")
        return {}
    if count_text == AUTO:
        if ids_text:
            raise ConfigError("SHARD_IDS needs a number in SHARD_COUNT, not 'auto'.")
        return {"auto_shard": True}
    if not _NUMBER.fullmatch(count_text) or int(count_text) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards (1 or more) or 'auto', not {count_text!r}.")
    count = int(count_text)
    if not ids_text:
        return {"shard_count": count}
    parts = [p.strip() for p in ids_text.split(",")]
    if not all(_NUMBER.fullmatch(p) for p in parts):
        raise ConfigError(f"SHARD_IDS must be shard numbers separated by commas (like 0,1), not {ids_text!r}.")
    ids = tuple(int(p) for p in parts)
    outside = [i for i in ids if i >= count]
    if outside:
        raise ConfigError(f"SHARD_IDS {ids_text!r}: shards are numbered 0 to {count - 1} when SHARD_COUNT is {count}.")
    if len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS {ids_text!r} names a shard twice.")
    return {"shard_count": count, "shard_ids": ids}


def _health_port(environ: dict[str, str]) -> int:
    text = (environ.get("HEALTH_PORT") or "").strip()
    if not text:
        return DEFAULT_HEALTH_PORT
    if not _NUMBER.fullmatch(text) or int(text) > 65535:
        raise ConfigError(f"HEALTH_PORT must be a port number (0 turns the endpoint off), not {text!r}.")
    return int(text)


_PUBLIC_URL = re.compile(r"https?://[^\s/?#]+(/[^\s?#]*)?")


def _web(environ: dict[str, str]) -> dict:
    """PUBLIC_URL (``https://games.example.org``, where readers reach the pages) and WEB_PORT (where bot/web
    listens, usually behind a reverse proxy): match pages are served only when both are set."""
    url = (environ.get("PUBLIC_URL") or "").strip().rstrip("/")
    port = (environ.get("WEB_PORT") or "").strip()
    if url and not _PUBLIC_URL.fullmatch(url):
        raise ConfigError(f"PUBLIC_URL must be an http:// or https:// address like https://games.example.org, "
                          f"not {url!r}.")
    if port and (not _NUMBER.fullmatch(port) or not 0 < int(port) <= 65535):
        raise ConfigError(f"WEB_PORT must be a port number (1 to 65535), not {port!r}.")
    return {"public_url": url or None, "web_port": int(port) if port else None}
