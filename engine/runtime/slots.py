"""The run's `concurrency` slots, shared by its model and tool calls.

`Slots` behaves as `asyncio.Semaphore` does: a free slot is taken at once (no suspension), waiters
are served first come first served, a slot is handed straight to the next waiter on release, and a
waiter cancelled after it was handed one passes it on. What it adds is `try_take()`: the free,
uncontended case — almost every call of a run — as a plain call rather than an awaited coroutine
(which is what `async with semaphore` costs on every model call). Invariant: at most `count` slots
are held at any time.
"""

from __future__ import annotations

import asyncio
from collections import deque
from types import TracebackType


class Slots:
    def __init__(self, count: int) -> None:
        self._free = count
        self._waiters: deque[asyncio.Future[None]] = deque()

    def try_take(self) -> bool:
        """Take a slot if one is free and nobody waits for one; whether it was taken."""
        if self._free <= 0 or (self._waiters and any(not w.cancelled() for w in self._waiters)):
            return False
        self._free -= 1
        return True

    async def take(self) -> None:
        """Take a slot, waiting in line for one if none is free."""
        if self.try_take():
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            try:
                await waiter
            finally:
                self._waiters.remove(waiter)
        except asyncio.CancelledError:
            if not waiter.cancelled():  # handed a slot, then cancelled before using it: pass it on
                self._free += 1
                self._wake_next()
            raise
        if self._free > 0:
            self._wake_next()

    def release(self) -> None:
        self._free += 1
        if self._waiters:
            self._wake_next()

    def _wake_next(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                self._free -= 1
                waiter.set_result(None)
                return

    async def __aenter__(self) -> None:
        await self.take()

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        self.release()
