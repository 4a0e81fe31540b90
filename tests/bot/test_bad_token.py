"""A token Discord refuses ends the bot with one clear line, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from aiohttp import web

from bot.__main__ import BAD_TOKEN

ROOT = Path(__file__).resolve().parents[2]


async def test_a_refused_token_is_one_clear_line_and_exit_status_2(tmp_path, unused_tcp_port):
    seen: list[str] = []

    async def refuse(request: web.Request) -> web.Response:      # Discord's answer to a wrong token
        seen.append(request.path)
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", refuse)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", unused_tcp_port).start()
    try:
        env = {**os.environ, "DISCORD_TOKEN": "not.a-real.token", "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
               "DATABASE_URL": "", "HEALTH_PORT": "0", "LOG_LEVEL": "WARNING"}
        proc = await __import__("asyncio").create_subprocess_exec(
            sys.executable, "-m", "tests.bot.bad_token_driver", f"http://127.0.0.1:{unused_tcp_port}/api/v10",
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = await proc.communicate()
    finally:
        await runner.cleanup()
    assert seen == ["/api/v10/users/@me"]                 # it did ask Discord, which refused
    assert proc.returncode == 2
    lines = [line for line in err.decode().splitlines() if line.strip()]
    assert lines == [BAD_TOKEN]
    assert "Traceback" not in err.decode() + out.decode()
