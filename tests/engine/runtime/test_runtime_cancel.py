"""Cancelling a run at awkward moments: before it began, twice, during a deadline cut, with a store.

Whatever the moment, the run ends "cancelled" (or with the outcome it already had), every node ends in
a final state, every call span is closed before `RunFinished`, nothing follows it, and the event
stream ends so its consumers do too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.events import Event, LLMCallFinished, LLMCallStarted, RunFinished
from engine.graph.model import Workflow
from engine.llm.types import LLMRequest, LLMResponse
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, build, triad

FINAL = {"done", "failed", "skipped", "cancelled"}


class SlowToCancel(FakeGateway):
    """A call that takes a while to wind down when cancelled, like a model stream being closed."""

    async def complete(self, request: LLMRequest, on_delta: Callable[[str], None] | None = None) -> LLMResponse:
        try:
            return await super().complete(request, on_delta)
        except asyncio.CancelledError:
            await asyncio.sleep(0.1)
            raise


def fan_out(**settings: Any) -> Workflow:
    return build([("in", "input", {}), ("a", "executor", {}), ("b", "executor", {}), ("c", "executor", {}),
                  ("oa", "output", {"name": "a"}), ("oc", "output", {"name": "c"})],
                 ["in.value->a.task", "in.value->b.task", "a.result->c.task", "a.result->oa.value",
                  "c.result->oc.value"], **settings)


def assert_ended_cleanly(run: Run) -> None:
    history = run.hub.history
    assert isinstance(history[-1], RunFinished) and sum(isinstance(e, RunFinished) for e in history) == 1
    started = {e.span_id for e in history if isinstance(e, LLMCallStarted)}
    assert started == {e.span_id for e in history if isinstance(e, LLMCallFinished)}
    assert all(run.state(nid) in FINAL for nid in run.plan.nodes), {n: run.state(n) for n in run.plan.nodes}


async def read_all(run: Run) -> list[Event]:
    return [event async for event in run.events()]


@pytest.mark.asyncio
async def test_a_cancel_before_the_run_began_ends_it_cancelled_and_ends_the_stream() -> None:
    for cancel_first in (False, True):
        gateway = FakeGateway()
        run = Run(compile_workflow(triad()), gateway=gateway)
        reader = asyncio.ensure_future(read_all(run))
        if cancel_first:
            run.cancel()  # before start(): noted, not lost
        run.start()
        run.cancel()  # the run's task has not run yet
        result = await asyncio.wait_for(run.wait(), 5)
        events = await asyncio.wait_for(reader, 5)
        assert result.status == "cancelled" and not gateway.requests
        assert [e.kind for e in events] == ["run_started", "run_planned", "run_finished"]


@pytest.mark.asyncio
async def test_a_second_cancel_while_calls_wind_down_still_marks_every_node() -> None:
    run = Run(compile_workflow(fan_out()), gateway=SlowToCancel(latency_s=5), inputs={"goal": "x"})
    run.start()
    await asyncio.sleep(0.05)
    run.cancel()
    await asyncio.sleep(0.05)  # the calls are still closing
    run.cancel()
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "cancelled"
    assert_ended_cleanly(run)
    assert [run.state(n) for n in ("a", "b", "c", "oc")] == ["cancelled"] * 4


@pytest.mark.asyncio
async def test_a_cancel_during_a_deadline_cut_ends_the_run_only_once_its_calls_closed() -> None:
    for cancel_at in (None, 0.25):
        run = Run(compile_workflow(fan_out(deadline_s=0.2)), gateway=SlowToCancel(latency_s=5), inputs={"goal": "x"})
        run.start()
        if cancel_at is not None:
            await asyncio.sleep(cancel_at)  # the deadline cut is winding the calls down
            run.cancel()
        result = await asyncio.wait_for(run.wait(), 5)
        await asyncio.sleep(0.2)  # nothing of the run may come after its end
        assert result.status == ("budget_exceeded" if cancel_at is None else "cancelled")
        assert_ended_cleanly(run)


@pytest.mark.asyncio
async def test_a_cancel_after_the_outcome_is_known_changes_nothing() -> None:
    run = Run(compile_workflow(triad()), gateway=FakeGateway())
    run.hub.add_sink(lambda event: run.cancel() if isinstance(event, RunFinished) else None)
    result = await run.wait()
    assert result.status == "succeeded"
    run.cancel()
    assert_ended_cleanly(run)


@pytest.mark.asyncio
async def test_a_run_cancelled_mid_way_reads_back_from_the_store_as_cancelled(tmp_path: Path) -> None:
    from engine.store import TraceStore

    with TraceStore(tmp_path / "t.db") as store:
        run = Run(compile_workflow(fan_out()), gateway=FakeGateway(latency_s=5), inputs={"goal": "x"}, store=store)
        run.start()
        await asyncio.sleep(0.1)
        run.cancel()
        result = await asyncio.wait_for(run.wait(), 5)
        summary = store.get_run(result.run_id)
        assert summary is not None and (summary.status, summary.reason) == ("cancelled", "cancelled by the user")
        stored = list(store.iter_events(result.run_id))
        assert stored == run.hub.history
        spans = store.spans(result.run_id)
        assert spans and all(s.end_ts is not None for s in spans)
        assert {s.node_id: s.status for s in spans if s.kind == "node"} == {"in": "done", "a": "cancelled",
                                                                             "b": "cancelled"}
    assert_ended_cleanly(run)
