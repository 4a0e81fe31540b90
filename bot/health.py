"""The process's health endpoint: /healthz (alive), /readyz (ready to serve), /metrics (Prometheus).

Discord-free: readiness is a set of named checks the owner adds (the bot: its database answers, its render and
AI workers answer, its gateway connection is ready). A check that asks another party (a ``Probe``) has a
timeout and is answered from a cache for a couple of seconds, so probes and scrapes cost little. /metrics
always answers: what it could not read from the database is served as last read, marked by
``boardgames_metrics_stale``, and an outage is logged in one line, not a traceback per scrape. A tiny aiohttp
server on the event loop; HEALTH_PORT=0 turns it off.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot import metrics

log = logging.getLogger(__name__)

Check = Callable[[], bool | Awaitable[bool]]
PROBE_TIMEOUT = 2.0     # seconds a probe (the database's SELECT 1, a worker's round trip) may take: else not ready
PROBE_CACHE = 2.0       # seconds a probe's answer is reused: a burst of /readyz and scrapes asks once
SCRAPE_TIMEOUT = 2.0    # seconds /metrics waits for what it reads from the database before serving it as stale


class Probe:
    """Whether ``ask`` completes within ``PROBE_TIMEOUT`` (an exception or a timeout: no), asked at most once
    every ``PROBE_CACHE`` seconds."""

    def __init__(self, ask: Callable[[], Awaitable[object]], *, timeout: float = PROBE_TIMEOUT,
                 cache: float = PROBE_CACHE):
        self.ask = ask
        self.timeout = timeout
        self.cache = cache
        self._answer: tuple[float, bool] | None = None     # (monotonic time, answer)

    async def __call__(self) -> bool:
        now = time.monotonic()
        if self._answer is not None and now - self._answer[0] < self.cache:
            return self._answer[1]
        try:
            await asyncio.wait_for(self.ask(), self.timeout)
            ok = True
        except Exception:
            ok = False
        self._answer = (time.monotonic(), ok)
        return ok


class Readiness:
    """Named checks, all of which must pass for the process to be ready."""

    def __init__(self) -> None:
        self._checks: dict[str, Check] = {}

    def add(self, name: str, check: Check) -> None:
        """``check`` answers a bool, or an awaitable of one (a ``Probe``: it times out by itself)."""
        self._checks[name] = check

    async def missing(self) -> list[str]:
        """The checks that do not pass (a failing check counts as not passing); none means ready."""
        missing = []
        for name, check in self._checks.items():
            try:
                answer = check()
                ok = bool(await answer) if inspect.isawaitable(answer) else bool(answer)
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
        self._stale = False                   # the last scrape could not read what before_scrape reads

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
        missing = await self.readiness.missing()
        if missing:
            return web.json_response({"status": "not ready", "missing": missing}, status=503)
        return web.json_response({"status": "ready"})

    async def metrics(self, _request: web.Request) -> web.Response:
        if self.before_scrape is not None:
            await self._read_database()
        return web.Response(body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _read_database(self) -> None:
        """Refresh what the database knows; if it cannot be read, keep the last values and mark them stale (the
        other metrics are still worth serving), logging once per outage."""
        assert self.before_scrape is not None
        try:
            await asyncio.wait_for(self.before_scrape(), SCRAPE_TIMEOUT)
        except Exception as exc:
            metrics.METRICS_STALE.set(1)
            if not self._stale:
                log.warning("/metrics: cannot read the database (%s); serving its last values, marked stale",
                            type(exc).__name__)
            self._stale = True
            return
        metrics.METRICS_STALE.set(0)
        if self._stale:
            log.info("/metrics: reading the database again")
        self._stale = False
