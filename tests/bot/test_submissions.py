"""The per-person limit on analyses and hints (bot.services.submissions), below the commands: the window slides
and memory stays bounded. Through the command tree: tests/bot/test_records.py."""

from __future__ import annotations

import pytest

from bot.model import NotAllowed
from bot.services.submissions import FORGET_AT, Submissions


def test_the_window_slides_request_by_request(clock):
    limit = Submissions(clock, limit=2)
    limit.take(1)
    clock.advance(seconds=20)
    limit.take(1)
    with pytest.raises(NotAllowed, match="try again in 40 seconds"):
        limit.take(1)
    clock.advance(seconds=40)                      # the first request leaves the window, the second not yet
    limit.take(1)
    with pytest.raises(NotAllowed, match="try again in 20 seconds"):
        limit.take(1)


def test_a_refused_request_is_not_counted(clock):
    limit = Submissions(clock, limit=1)
    limit.take(1)
    for _ in range(5):
        clock.advance(seconds=10)
        with pytest.raises(NotAllowed):
            limit.take(1)
    clock.advance(seconds=10)                      # 60 s after the one request taken
    limit.take(1)


def test_people_whose_requests_left_the_window_are_forgotten(clock):
    limit = Submissions(clock)
    for user in range(FORGET_AT):
        limit.take(user)
    clock.advance(minutes=5)
    limit.take(FORGET_AT)
    limit.take(FORGET_AT + 1)                      # over FORGET_AT people: the idle ones are dropped
    assert limit.remembered == 2
