"""A server's match pages: whether they are on (off | link | listed), whose names they show, and the secret that
signs their links."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.db import Database, Tx

PAGE_MODES = ("off", "link", "listed")


@dataclass(frozen=True)
class PageSettings:
    mode: str = "off"
    display_names: bool = False      # False: seat names only
    secret: str | None = None        # hex; None until pages are first turned on

    @property
    def on(self) -> bool:
        return self.mode != "off" and self.secret is not None


class PageStore:
    def __init__(self, db: Database):
        self.db = db

    async def settings(self, guild_id: int) -> PageSettings:
        row = await self.db.fetchone("SELECT pages, page_names, page_secret FROM guild_settings WHERE guild_id = ?",
                                     (guild_id,))
        return PageSettings() if row is None else PageSettings(row[0], bool(row[1]), row[2])

    async def write(self, tx: Tx, guild_id: int, *, mode: str | None = None, display_names: bool | None = None,
                    secret: str | None = None) -> None:
        """Change what is given, in the caller's transaction."""
        await tx.execute("INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT DO NOTHING", (guild_id,))
        if mode is not None:
            await tx.execute("UPDATE guild_settings SET pages = ? WHERE guild_id = ?", (mode, guild_id))
        if display_names is not None:
            await tx.execute("UPDATE guild_settings SET page_names = ? WHERE guild_id = ?",
                             (int(display_names), guild_id))
        if secret is not None:
            await tx.execute("UPDATE guild_settings SET page_secret = ? WHERE guild_id = ?", (secret, guild_id))

    async def secret_missing(self, tx: Tx, guild_id: int) -> bool:
        row = await tx.fetchone("SELECT page_secret FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return row is None or row[0] is None
