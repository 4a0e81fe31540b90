"""Shared fixtures: a temporary database, a fake clock, the match services with fixed seeds."""

from __future__ import annotations

import asyncio
import os
import random
import socket
from datetime import UTC, datetime, timedelta

import aiohttp
import pytest

from bot.model import Person
from bot.services import Services
from bot.store import Database

GUILD = 1000
CHANNEL = 2000
ANN = Person(11, "Ann")
BOB = Person(12, "Bob")
CY = Person(13, "Cy")
DEE = Person(14, "Dee")


class FakeClock:
    """The one clock the service reads; tests move it instead of sleeping."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


# A test module that sets ``BACKENDS = BOTH_BACKENDS`` runs each of its tests that uses the database on SQLite and
# on a real PostgreSQL server (ids ``[sqlite]`` / ``[postgres]``); ``@pytest.mark.sqlite_only`` keeps one test on
# SQLite (WAL files, SQLite's query plans). Every other test uses SQLite.
BOTH_BACKENDS = ("sqlite", "postgres")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: a test of SQLite itself, not run on PostgreSQL")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    backends = getattr(metafunc.module, "BACKENDS", None)
    if backends and "backend" in metafunc.fixturenames:
        if metafunc.definition.get_closest_marker("sqlite_only"):
            backends = ("sqlite",)
        metafunc.parametrize("backend", backends, indirect=True, ids=list(backends))


@pytest.fixture
def backend(request) -> str:
    return getattr(request, "param", "sqlite")


@pytest.fixture(scope="session")
def postgres_server():
    """One throw-away PostgreSQL server for the session; a failure to start fails the PostgreSQL tests loudly
    (BOARDGAMES_SKIP_POSTGRES=1 skips them instead, for a developer without PostgreSQL; CI never sets it)."""
    from tests.postgres_server import SKIP_ENV, PostgresServer

    if os.environ.get(SKIP_ENV) == "1":
        pytest.skip(f"{SKIP_ENV}=1: the PostgreSQL half of the tests is skipped")
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def db_path(backend, tmp_path, request):
    """Where the test's database lives: a SQLite file, or the URL of a fresh PostgreSQL database (opening it
    again is another process on the same database)."""
    if backend == "sqlite":
        yield tmp_path / "test.sqlite3"
        return
    server = request.getfixturevalue("postgres_server")
    name, url = server.new_database()
    yield url
    server.drop(name)


@pytest.fixture
async def db(db_path):
    database = await Database.open(db_path)
    yield database
    await database.close()


@pytest.fixture
async def services(db, clock) -> Services:
    return Services(db, clock=clock, seed_source=random.Random(7))


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never touch the network: any connection or aiohttp session fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("network access attempted")

    real_connect = socket.socket.connect

    def local_only(sock: socket.socket, address, *args, **kwargs):
        if sock.family == getattr(socket, "AF_UNIX", None):   # the test PostgreSQL server's socket
            return real_connect(sock, address, *args, **kwargs)
        return refuse()

    monkeypatch.setattr(socket.socket, "connect", local_only)
    monkeypatch.setattr(aiohttp.ClientSession, "__init__", refuse)
    monkeypatch.setattr(asyncio.BaseEventLoop, "create_connection", refuse)
