"""The shape the scheduler and the dispatcher share: one task that does a pass, then sleeps until woken or
until the pass says the next work is due."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class WakeableLoop:
    """Subclasses implement ``pass_once`` (never raising but for cancellation) returning seconds to sleep."""

    name = "loop"
    min_sleep = 0.5
    max_sleep = 3600.0

    def __init__(self) -> None:
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._unsubscribe: Callable[[], None] = lambda: None

    def wake(self) -> None:
        self._wake.set()

    async def pass_once(self) -> float:
        raise NotImplementedError

    async def before_first_pass(self) -> None:
        """Start-up work of the loop's task (catching up, taking back claims)."""

    async def run_forever(self) -> None:
        await self.before_first_pass()
        while True:
            self._wake.clear()
            delay = await self.pass_once()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=min(max(delay, self.min_sleep), self.max_sleep))
            except TimeoutError:
                pass

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self.run_forever(), name=self.name)

    async def stop(self) -> None:
        self._unsubscribe()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
