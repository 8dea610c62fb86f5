"""A workflow used as a sub-graph keeps its own run limits: tokens, cost, model calls and deadline
hold over its nodes for each execution, and the run ends `budget_exceeded` naming the sub-graph."""

from __future__ import annotations

import pytest

from engine.events import BudgetExceeded
from engine.graph.format import workflow_to_dict
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, build, chain


def _outer(**inner_limits: float) -> object:
    inner = chain(3, **inner_limits)
    return build([("in", "input", {}), ("s", "subgraph", {"graph": workflow_to_dict(inner)}), ("o", "output", {})],
                 ["in.value->s.input", "s.output->o.value"])


@pytest.mark.asyncio
@pytest.mark.parametrize(("limits", "said"), [
    ({"max_tokens": 20}, "sub-graph s tokens budget exceeded at node s/x1"),
    ({"max_model_calls": 2}, "sub-graph s model_calls budget exceeded at node s/x2: 3 calls > limit 2 calls"),
    ({"max_cost_usd": 0.015}, "sub-graph s cost_usd budget exceeded at node s/x1"),
])
async def test_the_sub_graphs_own_limits_hold_over_its_nodes(limits: dict[str, float], said: str) -> None:
    gateway = FakeGateway(tokens=(10, 5), cost_usd=0.01)  # each call: 15 tokens, $0.01
    run = Run(compile_workflow(_outer(**limits)), gateway=gateway, inputs={"goal": "g"})  # type: ignore[arg-type]
    result = await run.wait()
    assert result.status == "budget_exceeded" and said in result.reason, result.reason
    [hit] = [e for e in run.hub.history if isinstance(e, BudgetExceeded)]
    assert hit.node_id is not None and hit.node_id.startswith("s/")


@pytest.mark.asyncio
async def test_the_sub_graphs_deadline_is_a_timer_around_it() -> None:
    run = Run(compile_workflow(_outer(deadline_s=0.1)), gateway=FakeGateway(latency_s=0.06),  # type: ignore[arg-type]
              inputs={"goal": "g"})
    result = await run.wait()
    assert result.status == "budget_exceeded" and "sub-graph s deadline_s budget exceeded at node s" in result.reason


@pytest.mark.asyncio
async def test_within_its_limits_or_without_any_it_runs_as_before() -> None:
    for limits in ({"max_tokens": 1000, "max_model_calls": 3, "deadline_s": 10.0}, {}):
        result = await Run(compile_workflow(_outer(**limits)), gateway=FakeGateway(),  # type: ignore[arg-type]
                           inputs={"goal": "g"}).wait()
        assert result.status == "succeeded", (limits, result.reason)
