"""The process's health endpoint: /healthz (alive), /readyz (ready to serve), /metrics (Prometheus).

Discord-free: readiness is a set of named checks the owner adds (the bot: its database is open and migrated,
its gateway connection is ready). A tiny aiohttp server on the event loop; HEALTH_PORT=0 turns it off.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot import metrics

log = logging.getLogger(__name__)

Check = Callable[[], bool]


class Readiness:
    """Named checks, all of which must pass for the process to be ready."""

    def __init__(self) -> None:
        self._checks: dict[str, Check] = {}

    def add(self, name: str, check: Check) -> None:
        self._checks[name] = check

    def missing(self) -> list[str]:
        """The checks that do not pass (a failing check counts as not passing); none means ready."""
        missing = []
        for name, check in self._checks.items():
            try:
                ok = check()
            except Exception:
                ok = False
            if not ok:
                missing.append(name)
        return missing


class HealthServer:
    """Serves the three endpoints on ``port`` (0 for an ephemeral one: tests) until ``stop``."""

    def __init__(self, readiness: Readiness, *, port: int, host: str = "0.0.0.0",
                 before_scrape: Callable[[], Awaitable[None]] | None = None):
        self.readiness = readiness
        self.host = host
        self.port = port
        self.before_scrape = before_scrape    # reads what only the database knows (the dispatcher's backlog)
        self._runner: web.AppRunner | None = None

    async def start(self) -> int:
        """Listen; returns the port bound."""
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]     # the ephemeral port, when 0 was asked for
        log.info("health endpoint on port %d (/healthz, /readyz, /metrics)", self.port)
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def healthz(self, _request: web.Request) -> web.Response:
        return web.json_response({"status": "alive"})

    async def readyz(self, _request: web.Request) -> web.Response:
        missing = self.readiness.missing()
        if missing:
            return web.json_response({"status": "not ready", "missing": missing}, status=503)
        return web.json_response({"status": "ready"})

    async def metrics(self, _request: web.Request) -> web.Response:
        if self.before_scrape is not None:
            try:
                await self.before_scrape()
            except Exception:     # the other metrics are still worth serving
                log.exception("could not read the dispatcher's backlog for /metrics")
        return web.Response(body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST})
