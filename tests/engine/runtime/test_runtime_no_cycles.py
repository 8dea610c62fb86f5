"""A finished run is freed by reference counting alone: nothing of it forms a reference cycle, which
would keep its whole event history alive until the cycle collector came by (and make every
collection during the next run traverse it — a 10,000-node run holds ~60,000 events)."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from engine.llm.types import BadRequestError
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, chain


@pytest.mark.asyncio
@pytest.mark.parametrize("paused", [False, True])
async def test_a_finished_run_needs_no_cycle_collector(paused: bool) -> None:
    plan = compile_workflow(chain(5, deadline_s=30.0))
    gc.collect()
    gc.disable()
    try:
        run = Run(plan, gateway=FakeGateway())
        if paused:  # the pause machinery (hold listener, deadline mover) is wired in and used
            run.pause()
            run.start()
            await asyncio.sleep(0.01)
            run.resume()
        result = await run.wait()
        assert result.status == "succeeded", result.reason
        hub = weakref.ref(run.hub)
        control = weakref.ref(run.control)
        del run, result
        await asyncio.sleep(0)  # let the loop drop its last references to the run's task
        assert hub() is None and control() is None
    finally:
        gc.enable()


@pytest.mark.asyncio
@pytest.mark.parametrize("ending", ["failed", "budget_exceeded"])
async def test_a_run_that_failed_or_hit_its_budget_needs_no_cycle_collector(ending: str) -> None:
    """The errors that end them carry tracebacks whose frames hold the run: nothing may hold them back."""
    if ending == "failed":
        plan = compile_workflow(chain(3))
        gateway = FakeGateway(lambda r: BadRequestError("refused", provider="fake", model=r.model))
    else:
        plan, gateway = compile_workflow(chain(5, max_tokens=20)), FakeGateway()
    gc.collect()
    gc.disable()
    try:
        run = Run(plan, gateway=gateway)
        assert (await run.wait()).status == ending
        hub = weakref.ref(run.hub)
        del run
        await asyncio.sleep(0)
        assert hub() is None
    finally:
        gc.enable()
