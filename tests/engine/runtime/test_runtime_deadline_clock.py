"""The run's deadline clock (`engine.deadline_clock`) runs from `RunStarted`: the start-up checks count
against `deadline_s`, the time the run holds does not — from wherever the hold begins, a pause made
before the run started included — and the engine's readings (`BudgetUpdated.elapsed_s`, a deadline's
`BudgetExceeded.actual`) equal what the projection of the events counts, to within `AGREE_S`: the engine
reads its clock just before each hold's event is stamped, microseconds apart."""

from __future__ import annotations

import asyncio
import time

import pytest

from engine import events as ev
from engine.projection import project
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, chain
from tests.engine.runtime.waiting import first_event

AGREE_S = 1e-3


class SlowKeyCheck(FakeGateway):
    """A gateway whose API-key check (a start-up check, run in a worker thread) takes `check_s`."""

    def __init__(self, check_s: float, **kw: float) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.check_s = check_s

    def missing_key(self, model: str, api_base: str | None) -> None:
        time.sleep(self.check_s)


def _agrees_with_the_projection(history: list[ev.Event]) -> list[ev.BudgetUpdated]:
    updates = [e for e in history if isinstance(e, ev.BudgetUpdated)]
    assert updates
    for update in updates:
        assert project(history, until_seq=update.seq).deadline_elapsed() == pytest.approx(update.elapsed_s,
                                                                                          abs=AGREE_S)
    return updates


@pytest.mark.asyncio
async def test_a_pause_made_before_the_start_up_checks_end_is_not_counted() -> None:
    run = Run(compile_workflow(chain(1, deadline_s=30)), gateway=SlowKeyCheck(0.3))  # type: ignore[arg-type]
    run.pause()  # paused at start: the key check (0.3 s) runs while the run holds
    run.start()
    await first_event(run, lambda e: isinstance(e, ev.RunPaused))
    await asyncio.sleep(0.5)
    run.resume()
    assert (await asyncio.wait_for(run.wait(), 5)).status == "succeeded"
    history = list(run.hub.history)
    started = history[0].ts
    (update,) = _agrees_with_the_projection(history)
    assert update.ts - started >= 0.5 and update.elapsed_s < 0.2  # the hold, start-up checks and all, left out
    assert [e.seq for e in history if isinstance(e, ev.RunPaused)] == [3]  # right after RunPlanned


@pytest.mark.asyncio
async def test_holds_at_start_mid_run_and_at_a_breakpoint_are_counted_alike() -> None:
    run = Run(compile_workflow(chain(3, deadline_s=30)),
              gateway=SlowKeyCheck(0.1, latency_s=0.3))  # type: ignore[arg-type]
    run.set_breakpoint("x2")
    run.pause()
    run.start()
    await first_event(run, lambda e: isinstance(e, ev.RunPaused))
    await asyncio.sleep(0.2)
    run.resume()
    await first_event(run, lambda e: isinstance(e, ev.BudgetUpdated))
    run.pause()  # mid-run: x1 calling or about to, back before x2 comes to its breakpoint
    await asyncio.sleep(0.1)
    run.resume()
    await first_event(run, lambda e: isinstance(e, ev.RunPaused) and e.reason == "breakpoint")
    await asyncio.sleep(0.2)
    run.resume()
    assert (await asyncio.wait_for(run.wait(), 5)).status == "succeeded"
    history = list(run.hub.history)
    updates = _agrees_with_the_projection(history)
    assert len(updates) == 3
    end = project(history)
    assert end.elapsed_s - end.deadline_elapsed() >= 0.5  # the three holds
    assert updates[-1].elapsed_s <= end.deadline_elapsed() + AGREE_S


@pytest.mark.asyncio
async def test_the_start_up_checks_count_against_the_deadline() -> None:
    gateway = SlowKeyCheck(0.4)
    run = Run(compile_workflow(chain(1, deadline_s=0.2)), gateway=gateway)  # type: ignore[arg-type]
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "budget_exceeded" and result.reason.startswith("run deadline_s budget exceeded: ")
    hit = next(e for e in run.hub.history if isinstance(e, ev.BudgetExceeded))
    assert (hit.budget, hit.limit) == ("deadline_s", 0.2) and hit.actual >= 0.4
    assert not gateway.requests  # the deadline had passed before any model was called
    assert project(run.hub.history).deadline_elapsed(hit.ts) == pytest.approx(hit.actual, abs=AGREE_S)
