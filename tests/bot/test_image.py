"""The Docker image's instructions do what they promise (no Docker engine needed): its entry point runs the bot
by default and any other command (``docker run image play tintas``), its health check passes exactly when
/readyz does, it stops on SIGTERM, and a code change does not reinstall the dependencies."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.health import HealthServer, Readiness
from tests.bot.health_support import allow_loopback

ROOT = Path(__file__).resolve().parents[2]


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def one(name: str) -> str:
    (args,) = [a for w, a in instructions() if w == name]
    return args


def command_line(*docker_run_args: str) -> list[str]:
    """What ``docker run image ARGS`` executes: ENTRYPOINT + (ARGS or CMD), with this test's python."""
    entry = json.loads(one("ENTRYPOINT"))
    args = list(docker_run_args) or json.loads(one("CMD"))
    assert entry[0] == "python"
    return [sys.executable, *entry[1:], *args]


def run(argv: list[str], tmp_path: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(PYTHONPATH=str(ROOT), DATABASE_PATH=str(tmp_path / "bot.sqlite3"))
    return subprocess.run(argv, cwd=tmp_path, env=env, input=stdin, capture_output=True, text=True, timeout=120)


def test_docker_run_without_a_command_runs_the_bot(tmp_path):
    done = run(command_line(), tmp_path)
    assert done.returncode == 1 and "No Discord token found" in done.stderr     # the bot, asking for its token


def test_docker_run_play_tintas_plays_in_the_terminal(tmp_path):
    done = run(command_line("play", "tintas", "--out", str(tmp_path)), tmp_path, stdin="quit\n")
    assert done.returncode == 0, done.stderr
    assert "Board image:" in done.stdout and list(tmp_path.glob("tintas-*.png"))


def test_the_image_stops_on_sigterm_exposes_the_health_port_and_installs_dependencies_before_the_code():
    assert one("STOPSIGNAL") == "SIGTERM"
    assert one("EXPOSE") == "8080"
    order = [(w, a) for w, a in instructions() if w in ("COPY", "RUN")]
    first_code = next(i for i, (w, a) in enumerate(order) if w == "COPY" and a.startswith("bot"))
    dependencies = next(i for i, (w, a) in enumerate(order) if w == "RUN" and "pip install" in a)
    assert dependencies < first_code               # a code change keeps the dependency layer
    assert all("--no-deps" in a for w, a in order[first_code:] if w == "RUN" and "pip install" in a)


@pytest.mark.parametrize("ready", [True, False])
async def test_the_health_check_passes_exactly_when_the_bot_is_ready(ready, monkeypatch):
    allow_loopback(monkeypatch)
    check = json.loads(re.sub(r"^(--\S+\s+)*CMD\s+", "", one("HEALTHCHECK")))
    readiness = Readiness()
    readiness.add("discord", lambda: ready)
    server = HealthServer(readiness, port=0, host="127.0.0.1")
    port = await server.start()
    try:
        proc = await asyncio.create_subprocess_exec(sys.executable, *check[1:], env={**os.environ,
                                                    "HEALTH_PORT": str(port)}, stderr=asyncio.subprocess.PIPE)
        await asyncio.wait_for(proc.wait(), 60)
    finally:
        await server.stop()
    assert (proc.returncode == 0) is ready
