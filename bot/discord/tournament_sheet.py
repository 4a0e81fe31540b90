"""A tournament's standings image as a Discord attachment; its words and figures are ``bot.standings_sheet``'s
(shared with the web page)."""

from __future__ import annotations

import io

import discord

STANDINGS_FILE = "standings.png"


def standings_file(png: bytes, description: str, filename: str = STANDINGS_FILE) -> discord.File:
    return discord.File(io.BytesIO(png), filename=filename, description=description)
