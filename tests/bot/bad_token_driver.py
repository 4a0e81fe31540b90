"""``python -m bot`` as a host runs it, with Discord's HTTP API at a local address (the only change).

    python -m tests.bot.bad_token_driver API_BASE      # env: DISCORD_TOKEN, DATABASE_PATH, HEALTH_PORT
"""

from __future__ import annotations

import sys

from discord.http import Route

if __name__ == "__main__":
    Route.BASE = sys.argv[1]           # discord.py's one address of the HTTP API
    from bot.__main__ import main
    sys.exit(main(["run"]))
