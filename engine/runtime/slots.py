"""The run's `concurrency` slots, shared by its model and tool calls, and a node's own cap on top.

`Slots` behaves as `asyncio.Semaphore` does: a free slot is taken at once (no suspension), waiters
are served first come first served, a slot is handed straight to the next waiter on release, and a
waiter cancelled after it was handed one passes it on. What it adds is `try_take()`: the free,
uncontended case — almost every call of a run — as a plain call rather than an awaited coroutine
(which is what `async with semaphore` costs on every model call). Invariant: at most `count` slots
are held at any time.

`NodeSlots` is what one call of a node with its own `concurrency` param holds: a slot of the node's
`Slots` and one of the run's, both at once (so both caps hold). The node's is taken first, so a call
waiting for its node's cap holds none of the run's; every call takes them in that order and gives
them both back, so no call waits while holding what another waits for.
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


class NodeSlots:
    """A node's cap and the run's, taken together (node first) by each of the node's calls; the same
    interface as `Slots`, so a call holds `NodeSlots` or the run's `Slots` alike."""

    __slots__ = ("node", "run")

    def __init__(self, node: Slots, run: Slots) -> None:
        self.node, self.run = node, run

    def try_take(self) -> bool:
        """Take both if both are free at once; whether they were taken (neither is held otherwise)."""
        if not self.node.try_take():
            return False
        if self.run.try_take():
            return True
        self.node.release()
        return False

    async def take(self) -> None:
        await self.node.take()
        try:
            await self.run.take()
        except BaseException:  # cancelled while waiting for the run's slot: give the node's back
            self.node.release()
            raise

    def release(self) -> None:
        self.run.release()
        self.node.release()

    async def __aenter__(self) -> None:
        await self.take()

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        self.release()
