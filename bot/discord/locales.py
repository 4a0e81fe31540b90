"""Remembering each user's Discord locale, so direct messages (private, like interaction replies) speak it.

Discord tells a user's locale only with their interactions; ``acknowledged`` hands it here after the defer. The
store is written only when the locale differs from what this process last stored for the user, so a command
costs no extra write when nothing changed (another process may write it once more: harmless, it is the same).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Protocol

log = logging.getLogger(__name__)

LOCALE_MEMORY_SIZE = 10_000     # users whose last stored locale this process remembers (least recent dropped)


class LocaleStore(Protocol):
    """Where locales are stored (``Services.settings``)."""

    async def remember_locale(self, user_id: int, locale: str) -> None: ...


class LocaleMemory:
    """The locale last stored per user, bounded (an LRU of ``size`` users)."""

    def __init__(self, size: int = LOCALE_MEMORY_SIZE):
        self.size = size
        self._stored: OrderedDict[int, str] = OrderedDict()

    def __len__(self) -> int:
        return len(self._stored)

    def known(self, user_id: int, locale: str) -> bool:
        """Whether ``locale`` is what this process last stored for the user (and mark the user recent)."""
        if self._stored.get(user_id) != locale:
            return False
        self._stored.move_to_end(user_id)
        return True

    async def remember(self, settings: LocaleStore, user_id: int, locale: str) -> bool:
        """Store the user's locale unless it is known already; whether it was written."""
        if not locale or self.known(user_id, locale):
            return False
        await settings.remember_locale(user_id, locale)
        self._stored[user_id] = locale
        self._stored.move_to_end(user_id)
        while len(self._stored) > self.size:
            self._stored.popitem(last=False)
        return True
