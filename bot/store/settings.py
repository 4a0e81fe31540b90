"""Server settings (time per move, threads, channels) and each player's notification choice."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.store.db import Database, Tx

NOTIFY_CHOICES = ("mention", "dm", "off", "digest")
STORED_NOTIFY = {"digest": "dm"}     # a digest's reminders come as DMs; the digest itself is in user_digests
DEFAULT_TIME_PER_MOVE = 3 * 86400      # seconds: the default when a server has chosen none


@dataclass(frozen=True)
class GuildSettings:
    default_time_per_move: int | None = DEFAULT_TIME_PER_MOVE   # None = casual by default
    threads: bool = False
    channels: frozenset[int] = field(default_factory=frozenset)  # empty = every channel
    takebacks: bool = False                                      # takebacks allowed in rated matches too


class SettingsStore:
    def __init__(self, db: Database):
        self.db = db

    async def guild(self, guild_id: int) -> GuildSettings:
        row = await self.db.fetchone(
            "SELECT default_time_per_move, threads, takebacks FROM guild_settings WHERE guild_id = ?", (guild_id,))
        rows = await self.db.fetchall("SELECT channel_id FROM guild_channels WHERE guild_id = ?", (guild_id,))
        channels = frozenset(r[0] for r in rows)
        if row is None:
            return GuildSettings(channels=channels)
        seconds = row[0]
        return GuildSettings(default_time_per_move=seconds or None if seconds is not None else DEFAULT_TIME_PER_MOVE,
                             threads=bool(row[1]), channels=channels, takebacks=bool(row[2]))

    async def update_guild(self, guild_id: int, *, default_time_per_move: int | None = None,
                           threads: bool | None = None, allow_channel: int | None = None,
                           remove_channel: int | None = None, takebacks: bool | None = None) -> GuildSettings:
        """Change what is given; ``default_time_per_move=0`` means casual by default."""
        async with self.db.transaction() as tx:
            await self.write_guild(tx, guild_id, default_time_per_move=default_time_per_move, threads=threads,
                                   allow_channel=allow_channel, remove_channel=remove_channel, takebacks=takebacks)
        return await self.guild(guild_id)

    async def write_guild(self, tx: Tx, guild_id: int, *, default_time_per_move: int | None = None,
                          threads: bool | None = None, allow_channel: int | None = None,
                          remove_channel: int | None = None, takebacks: bool | None = None) -> None:
        """``update_guild`` in the caller's transaction."""
        await tx.execute("INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT DO NOTHING", (guild_id,))
        if default_time_per_move is not None:
            await tx.execute("UPDATE guild_settings SET default_time_per_move = ? WHERE guild_id = ?",
                             (default_time_per_move, guild_id))
        if threads is not None:
            await tx.execute("UPDATE guild_settings SET threads = ? WHERE guild_id = ?", (int(threads), guild_id))
        if takebacks is not None:
            await tx.execute("UPDATE guild_settings SET takebacks = ? WHERE guild_id = ?", (int(takebacks), guild_id))
        if allow_channel is not None:
            await tx.execute("INSERT INTO guild_channels (guild_id, channel_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                             (guild_id, allow_channel))
        if remove_channel is not None:
            await tx.execute("DELETE FROM guild_channels WHERE guild_id = ? AND channel_id = ?",
                             (guild_id, remove_channel))

    async def notify(self, user_id: int) -> str:
        row = await self.db.fetchone("SELECT (SELECT notify FROM user_settings WHERE user_id = ?),"
                                     " (SELECT next_at FROM user_digests WHERE user_id = ?)", (user_id, user_id))
        if row is not None and row[1]:
            return "digest"
        return row[0] if row is not None and row[0] else "mention"

    async def set_notify(self, user_id: int, choice: str) -> None:
        if choice not in NOTIFY_CHOICES:
            raise ValueError(f"notify must be one of {', '.join(NOTIFY_CHOICES)}")
        async with self.db.transaction() as conn:
            await self.write_notify(conn, user_id, choice)

    async def write_notify(self, tx: Tx, user_id: int, choice: str) -> None:
        """Store a choice in the caller's transaction; any choice but the digest turns the digest off."""
        await tx.execute("INSERT INTO user_settings (user_id, notify) VALUES (?, ?)"
                         " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
                         (user_id, STORED_NOTIFY.get(choice, choice)))
        if choice != "digest":
            await tx.execute("UPDATE user_digests SET next_at = NULL WHERE user_id = ?", (user_id,))

    # ---- the user's Discord locale (direct messages speak it) ----
    async def locale(self, user_id: int) -> str | None:
        """The user's Discord locale as last remembered ('de', 'en-US', …); None when never seen."""
        row = await self.db.fetchone("SELECT locale FROM user_settings WHERE user_id = ?", (user_id,))
        return row[0] if row is not None else None

    async def remember_locale(self, user_id: int, locale: str) -> None:
        """Store the user's Discord locale as given (the row is only changed when the value differs)."""
        async with self.db.transaction() as tx:
            await tx.execute("INSERT INTO user_settings (user_id, locale) VALUES (?, ?)"
                             " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale"
                             " WHERE user_settings.locale IS NULL OR user_settings.locale <> excluded.locale",
                             (user_id, locale))
