"""Waiting in tests for the event that is meant, from the run's own stream, instead of sleeping."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from engine.events import Event, NodeStateChanged
from engine.runtime import Run


async def first_event(run: Run, match: Callable[[Event], bool], timeout_s: float = 5.0) -> Event:
    """The run's first event (already emitted or still to come) that `match` accepts."""

    async def scan() -> Event:
        async for event in run.events():
            if match(event):
                return event
        raise AssertionError("the run's stream ended without the event waited for")

    return await asyncio.wait_for(scan(), timeout_s)


async def node_reached(run: Run, node_id: str, state: str) -> Event:
    """The event of `node_id` entering `state`."""
    return await first_event(run, lambda e: isinstance(e, NodeStateChanged) and (e.node_id, e.state) == (node_id, state))
