"""Shared fixtures: a temporary database, a fake clock, the match services with fixed seeds."""

from __future__ import annotations

import asyncio
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


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "test.sqlite3"


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

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(aiohttp.ClientSession, "__init__", refuse)
    monkeypatch.setattr(asyncio.BaseEventLoop, "create_connection", refuse)
