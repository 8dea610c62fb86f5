"""Watching the event loop while something slow happens: did it keep running?"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def ticks_while(awaitable: Awaitable[T], every_s: float = 0.01) -> tuple[T, int]:
    """Await `awaitable` while a ticker on the same loop counts every `every_s`; its result and the count."""
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(every_s)
            ticks += 1

    beat = asyncio.ensure_future(ticker())
    try:
        return await awaitable, ticks
    finally:
        beat.cancel()
