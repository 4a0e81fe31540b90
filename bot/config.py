"""Settings from the environment, with a git-ignored ``.env`` file as a fallback."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from dotenv import load_dotenv

DEFAULT_DATABASE = Path("data") / "boardgames.sqlite3"


class ConfigError(ValueError):
    """A setting is missing or malformed; the message says how to fix it."""


@dataclass(frozen=True)
class Config:
    token: str | None
    database_path: Path | str     # a SQLite file, or a DATABASE_URL (sqlite:///… or postgresql://…)
    dev_guild_id: int | None
    log_level: str

    def __repr__(self) -> str:  # never let the token reach a log line
        token = "set" if self.token else "missing"
        where = without_password(str(self.database_path))
        return (f"Config(token={token}, database_path={where!r}, "
                f"dev_guild_id={self.dev_guild_id}, log_level={self.log_level!r})")


def without_password(url: str) -> str:
    """The URL with its password hidden (it may reach a log line)."""
    parts = urlsplit(url)
    if not parts.password:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)))


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
    """Read DISCORD_TOKEN, DATABASE_URL (or DATABASE_PATH), DEV_GUILD_ID and LOG_LEVEL (see .env.example)."""
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
    )
