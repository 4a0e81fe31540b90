"""Talking to a health endpoint on this machine: loopback only, as the tests allow no other network."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest
from prometheus_client.parser import text_string_to_metric_families

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
_REAL_CONNECT = socket.socket.connect                      # taken at import, before the suite's ban applies
_REAL_CREATE = asyncio.BaseEventLoop.create_connection


def allow_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo the suite's network ban for connections to this machine only."""
    real_connect, real_create = _REAL_CONNECT, _REAL_CREATE

    def connect(self, address, *args, **kwargs):
        if isinstance(address, tuple) and address[0] in LOOPBACK:
            return real_connect(self, address, *args, **kwargs)
        raise AssertionError("network access attempted")

    async def create_connection(self, protocol_factory, host=None, port=None, *args, **kwargs):
        if host in LOOPBACK:
            return await real_create(self, protocol_factory, host, port, *args, **kwargs)
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(asyncio.BaseEventLoop, "create_connection", create_connection)


async def get(port: int, path: str) -> tuple[int, str]:
    """(status, body) of a plain HTTP GET to 127.0.0.1."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n".encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    await writer.wait_closed()
    head, _, body = raw.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body


def as_json(body: str) -> dict:
    return json.loads(body)


def sample(text: str, name: str, **labels: str) -> float | None:
    """One sample's value in a Prometheus text exposition (None if absent)."""
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return s.value
    return None
