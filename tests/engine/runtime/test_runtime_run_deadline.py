"""The run's own deadline (settings.budget.deadline_s) names, in the run's reason, the nodes it cut off.

Covers `engine.runtime.run_deadline` through whole runs (offline fakes): two nodes running in
parallel and a human gate waiting for a person when the deadline passes. Invariants checked: the
`BudgetExceeded` event keeps its fields (a run budget: `node_id` None, the limit and the time spent),
`RunFinished` carries the same reason, and a node finished before the deadline is not named.
"""

from __future__ import annotations

import asyncio

import pytest

from engine.events import BudgetExceeded, RunFinished
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, build


@pytest.mark.asyncio
async def test_the_run_deadline_names_the_nodes_running_and_waiting_when_it_passed() -> None:
    wf = build([("goal", "input", {"name": "goal", "default": "x"}),
                ("x0", "executor", {}), ("x1", "executor", {}), ("gate", "human_gate", {"prompt": "ok?"}),
                ("out", "output", {"name": "result"})],
               ["goal.value->x0.task", "goal.value->x1.task", "goal.value->gate.subject", "x0.result->out.value"],
               deadline_s=0.3)
    run = Run(compile_workflow(wf), gateway=FakeGateway(latency_s=5))  # type: ignore[arg-type]
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "budget_exceeded"
    assert result.reason.startswith("run deadline_s budget exceeded: ") and "> limit 0.3 s" in result.reason
    assert result.reason.endswith(" while X0 (x0), X1 (x1) were running and Gate (gate) was waiting for a person")
    hit = next(e for e in run.hub.history if isinstance(e, BudgetExceeded))
    assert (hit.budget, hit.limit, hit.node_id) == ("deadline_s", 0.3, None) and 0.3 <= hit.actual < 1.0
    finished = next(e for e in run.hub.history if isinstance(e, RunFinished))
    assert finished.reason == result.reason
    assert [run.state(n) for n in ("goal", "x0", "gate", "out")] == ["done", "cancelled", "cancelled", "cancelled"]


@pytest.mark.asyncio
async def test_one_node_cut_by_the_run_deadline_is_named_alone() -> None:
    wf = build([("goal", "input", {"name": "goal", "default": "x"}), ("x0", "executor", {}),
                ("out", "output", {"name": "result"})],
               ["goal.value->x0.task", "x0.result->out.value"], deadline_s=0.2)
    result = await asyncio.wait_for(Run(compile_workflow(wf), gateway=FakeGateway(latency_s=5)).wait(), 5)  # type: ignore[arg-type]
    assert result.status == "budget_exceeded" and result.reason.endswith(" while X0 (x0) was running")
