"""Pause, breakpoints, steps and resume are announced in the event stream: one event per change of the
run's hold, placed against the held node's states; they round-trip through the store; the run's
deadline does not count the time the run holds."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgpack  # type: ignore[import-untyped]
import pytest
import zstandard

from engine.events import (
    BudgetExceeded,
    BudgetUpdated,
    Event,
    NodeStateChanged,
    RunPaused,
    RunResumed,
    RunStarted,
)
from engine.runtime import Run, compile_workflow
from engine.store import TraceStore
from engine.store.segments import FORMAT_EVENT_TUPLES, decode_segment
from tests.engine.runtime.fakes import FakeGateway, chain
from tests.engine.runtime.waiting import first_event, node_reached


def holds(history: list[Event]) -> list[tuple[str, str, str | None]]:
    return [(e.kind, e.reason if isinstance(e, RunPaused) else e.mode, e.node_id)
            for e in history if isinstance(e, RunPaused | RunResumed)]


def at(history: list[Event], kind: type[Event], node: str | None = None, state: str | None = None) -> int:
    """Index of the first event of `kind` (a NodeStateChanged of `node` into `state`)."""
    return next(i for i, e in enumerate(history) if isinstance(e, kind) and (
        state is None or (isinstance(e, NodeStateChanged) and (e.node_id, e.state) == (node, state))))


@pytest.mark.asyncio
async def test_pause_and_resume_are_announced_once_each_and_hold_the_next_node() -> None:
    run = Run(compile_workflow(chain(3)), gateway=FakeGateway(latency_s=0.05))  # type: ignore[arg-type]
    run.start()
    await node_reached(run, "x0", "running")
    run.resume()  # the run goes on already: nothing changes, nothing is said
    run.pause()
    run.pause()  # pausing a paused run is no change
    await node_reached(run, "x0", "done")
    assert run.control.paused and run.state("x0") == "done" and run.state("x1") == "queued"
    run.resume()
    run.resume()
    result = await asyncio.wait_for(run.wait(), 5)
    history = run.hub.history
    assert result.status == "succeeded"
    assert holds(history) == [("run_paused", "user", None), ("run_resumed", "resume", None)]
    paused, resumed = at(history, RunPaused), at(history, RunResumed)
    # paused while x0 ran (it finished), x1 started only after the resume
    assert at(history, NodeStateChanged, "x0", "running") < paused < at(history, NodeStateChanged, "x0", "done")
    assert at(history, NodeStateChanged, "x0", "done") < resumed < at(history, NodeStateChanged, "x1", "running")
    run_span = history[0].span_id
    assert history[paused].span_id == history[resumed].span_id == run_span


@pytest.mark.asyncio
async def test_a_breakpoint_hit_then_a_step_then_resume() -> None:
    gateway = FakeGateway()
    run = Run(compile_workflow(chain(4)), gateway=gateway)  # type: ignore[arg-type]
    run.set_breakpoint("x1")
    run.start()
    await first_event(run, lambda e: isinstance(e, RunPaused))
    assert run.state("x0") == "done" and run.state("x1") == "queued" and len(gateway.requests) == 1
    run.pause()  # already held at the breakpoint: no second pause event
    run.step()
    await node_reached(run, "x1", "done")
    assert run.control.paused and run.state("x2") == "queued"  # the run holds again after the step
    run.resume()
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "succeeded" and len(gateway.requests) == 4
    history = run.hub.history
    assert holds(history) == [("run_paused", "breakpoint", "x1"), ("run_resumed", "step", "x1"),
                              ("run_resumed", "resume", None)]
    hit = at(history, RunPaused)
    step, go_on = (i for i, e in enumerate(history) if isinstance(e, RunResumed))
    node = lambda nid, state: at(history, NodeStateChanged, nid, state)  # noqa: E731
    assert node("x0", "done") < hit < step < node("x1", "running") < node("x1", "done") < go_on < node("x2", "running")


@pytest.mark.asyncio
async def test_a_step_on_a_free_run_lets_one_node_through_then_holds() -> None:
    run = Run(compile_workflow(chain(3)), gateway=FakeGateway(latency_s=0.05))  # type: ignore[arg-type]
    run.start()
    await node_reached(run, "x0", "running")
    run.step()
    await node_reached(run, "x1", "done")
    assert run.control.paused and run.state("x2") == "queued"
    assert holds(run.hub.history) == [("run_resumed", "step", "x1")]  # from here the run holds
    run.resume()
    assert (await asyncio.wait_for(run.wait(), 5)).status == "succeeded"


@pytest.mark.asyncio
async def test_the_deadline_does_not_count_the_time_the_run_is_paused() -> None:
    # paused before it starts: announced right after RunStarted and the plan, and 0.4 s held do not count
    run = Run(compile_workflow(chain(2, deadline_s=0.25)), gateway=FakeGateway(latency_s=0.05))  # type: ignore[arg-type]
    run.pause()
    run.start()
    await first_event(run, lambda e: isinstance(e, RunPaused))
    await asyncio.sleep(0.4)  # the time held is what this test is about: it passes while the run holds
    assert holds(run.hub.history) == [("run_paused", "user", None)] and isinstance(run.hub.history[0], RunStarted)
    assert [e.kind for e in run.hub.history[1:3]] == ["run_planned", "run_paused"]
    run.resume()
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "succeeded" and result.duration_s > 0.4
    # the budget gauge counts as the deadline does: without the 0.4 s the run was held
    gauges = [e.elapsed_s for e in run.hub.history if isinstance(e, BudgetUpdated)]
    assert gauges and max(gauges) < 0.25
    # the clock still runs while the run goes on: 0.2 s held, then cut 0.15 s into the run
    slow = Run(compile_workflow(chain(3, deadline_s=0.15)), gateway=FakeGateway(latency_s=0.1))  # type: ignore[arg-type]
    slow.pause()
    slow.start()
    await first_event(slow, lambda e: isinstance(e, RunPaused))
    await asyncio.sleep(0.2)  # held on purpose: this time must not count
    slow.resume()
    result = await asyncio.wait_for(slow.wait(), 5)
    hit = next(e for e in slow.hub.history if isinstance(e, BudgetExceeded))
    assert result.status == "budget_exceeded" and result.duration_s > 0.3
    assert 0.15 <= hit.actual < 0.25 and f"{hit.actual:.3g} s > limit 0.15 s" in result.reason


@pytest.mark.asyncio
async def test_pause_events_round_trip_through_the_store(tmp_path: Path) -> None:
    with TraceStore(tmp_path / "t.db") as store:
        run = Run(compile_workflow(chain(2)), gateway=FakeGateway(), store=store)  # type: ignore[arg-type]
        run.set_breakpoint("x1")
        run.start()
        await first_event(run, lambda e: isinstance(e, RunPaused))
        run.step()
        await node_reached(run, "x1", "done")
        run.resume()
        result = await asyncio.wait_for(run.wait(), 5)
        assert not result.recording_errors
        stored = list(store.iter_events(result.run_id))
        assert stored == run.hub.history
        assert holds(stored) == [("run_paused", "breakpoint", "x1"), ("run_resumed", "step", "x1"),
                                 ("run_resumed", "resume", None)]
        assert [e.kind for e in store.iter_events(result.run_id, kinds="run_paused")] == ["run_paused"]


def test_a_pause_row_with_fewer_fields_reads_by_name_with_defaults() -> None:
    header = {"run_paused": ["reason"]}  # as a writer knowing no `node_id` would have stored it
    body = msgpack.packb([header, [["run_paused", "r", 3, 0.5, "r:run1", None, "user"]]])
    [event] = decode_segment(FORMAT_EVENT_TUPLES + zstandard.ZstdCompressor().compress(body), "r")
    assert event == RunPaused(run_id="r", seq=3, ts=0.5, span_id="r:run1", reason="user")
