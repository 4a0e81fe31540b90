"""SQLite storage: the connection, numbered migrations, and one repository per aggregate."""

from bot.store.db import Database

__all__ = ["Database"]
