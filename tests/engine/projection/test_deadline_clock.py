"""The projection reads the run's time as its deadline counts it at every moment (`deadline_elapsed`): the
time since `RunStarted` less the time it held (pause, breakpoint, after a step until a "resume"), equal to
what the engine's own deadline clock said in each `BudgetUpdated` (holds at start and at breakpoints:
tests/engine/runtime/test_runtime_deadline_clock.py)."""

from __future__ import annotations

import asyncio

import pytest

from engine import events as ev
from engine.projection import project
from engine.projection.clone import clone_projection
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, chain
from tests.engine.runtime.waiting import first_event


def _held_run() -> list[ev.Event]:
    r = "r"
    return [
        ev.RunStarted(run_id=r, seq=1, ts=0.0, workflow_id="w", workflow_name="W", workflow_hash="h"),
        ev.RunPaused(run_id=r, seq=2, ts=2.0, span_id="run", reason="user"),
        ev.RunResumed(run_id=r, seq=3, ts=5.0, span_id="run", mode="step", node_id="a"),  # still held
        ev.RunResumed(run_id=r, seq=4, ts=6.0, span_id="run", mode="resume"),
        ev.LogMessage(run_id=r, seq=5, ts=9.0, level="info", message="on"),
        ev.RunResumed(run_id=r, seq=6, ts=10.0, span_id="run", mode="step", node_id="b"),  # a free run steps: held
        ev.LogMessage(run_id=r, seq=7, ts=11.5, level="info", message="later"),
    ]


def test_the_time_held_is_left_out_at_every_moment() -> None:
    events = _held_run()
    at = {seq: project(events, until_seq=seq) for seq in range(1, 8)}
    assert [at[s].elapsed_s for s in range(1, 8)] == [0.0, 2.0, 5.0, 6.0, 9.0, 10.0, 11.5]
    assert [at[s].deadline_elapsed() for s in range(1, 8)] == [0.0, 2.0, 2.0, 2.0, 5.0, 6.0, 6.0]
    assert at[3].deadline_elapsed(5.5) == 2.0 and at[5].deadline_elapsed(9.5) == 5.5  # between events, live
    copy = clone_projection(at[5])  # a playback checkpoint carries the clock on
    copy.apply_many(events[5:])
    assert copy.deadline_elapsed() == at[7].deadline_elapsed()


def test_the_count_starts_at_run_started() -> None:
    """Events are stamped from the clock's origin (the run being made), `RunStarted` a little after it
    (well under a millisecond in a run made and started at once). The gauge of a stored run counted from
    the origin before; it counts from `RunStarted` now, as the engine does — that much less."""
    r = "r"
    events = [ev.RunStarted(run_id=r, seq=1, ts=0.25, workflow_id="w", workflow_name="W", workflow_hash="h"),
              ev.LogMessage(run_id=r, seq=2, ts=1.0, level="info", message="on")]
    assert project(events).deadline_elapsed() == 0.75 and project(events).deadline_elapsed(2.0) == 1.75
    assert project(events[1:]).deadline_elapsed() == 0.0  # not started: nothing counted


@pytest.mark.asyncio
async def test_it_equals_the_engines_deadline_clock_in_each_budget_update() -> None:
    run = Run(compile_workflow(chain(3, deadline_s=30)), gateway=FakeGateway(latency_s=0.05))  # type: ignore[arg-type]
    run.start()
    await first_event(run, lambda e: isinstance(e, ev.BudgetUpdated))  # a hold within the deadline's window
    run.pause()
    await first_event(run, lambda e: isinstance(e, ev.RunPaused))
    await asyncio.sleep(0.3)  # held: this time is not counted
    run.resume()
    await asyncio.wait_for(run.wait(), 5)
    history = list(run.hub.history)
    updates = [e for e in history if isinstance(e, ev.BudgetUpdated)]
    assert updates
    resumed = next(e.seq for e in history if isinstance(e, ev.RunResumed))
    assert updates[-1].seq > resumed
    for update in updates:
        moment = project(history, until_seq=update.seq)
        if update.seq > resumed:
            assert moment.elapsed_s - moment.deadline_elapsed() >= 0.29  # the time held (the 0.3 s slept)
        assert moment.deadline_elapsed() == pytest.approx(update.elapsed_s, abs=1e-3)
