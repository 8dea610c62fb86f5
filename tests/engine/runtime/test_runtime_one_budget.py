"""One budget concept (issue 17): the limit a workflow file sets is the `Budget` the plan holds, the one
the runtime enforces, the one `RunStarted` records and the one the projection (the Cost dock) reports —
each limit under the names `engine.budget.LIMITS` gives it, for a run and for a sub-graph alike."""

from __future__ import annotations

import pytest

from engine.budget import LIMITS, UNITS, Budget, Limit
from engine.events import BudgetExceeded, RunStarted
from engine.graph.format import workflow_from_dict, workflow_to_dict
from engine.graph.schema import WORKFLOW_SCHEMA
from engine.projection import project
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, build, chain

# each call of the fake model: 15 tokens, $0.01, 50 ms; the third call of a chain crosses every limit
VALUES = {"max_tokens": 40, "max_cost_usd": 0.025, "deadline_s": 0.08, "max_model_calls": 2}


def _gateway() -> FakeGateway:
    return FakeGateway(tokens=(10, 5), cost_usd=0.01, latency_s=0.05)


@pytest.mark.asyncio
@pytest.mark.parametrize("limit", LIMITS, ids=lambda limit: limit.field)
async def test_the_limit_set_in_the_file_is_the_one_enforced_recorded_and_reported(limit: Limit) -> None:
    doc = workflow_to_dict(chain(4))
    doc["settings"]["budget"][limit.field] = VALUES[limit.field]
    wf = workflow_from_dict(doc)
    plan = compile_workflow(wf)
    assert plan.budget is wf.settings.budget  # one object from the file to the run
    assert getattr(plan.budget, limit.field) == VALUES[limit.field]

    run = Run(plan, gateway=_gateway())  # type: ignore[arg-type]
    result = await run.wait()
    started = next(e for e in run.hub.history if isinstance(e, RunStarted))
    assert started.settings["budget"] == doc["settings"]["budget"]
    [hit] = [e for e in run.hub.history if isinstance(e, BudgetExceeded)]
    assert (hit.budget, hit.limit) == (limit.kind, VALUES[limit.field])
    assert result.status == "budget_exceeded"
    assert hit.actual > hit.limit
    assert result.reason.startswith(f"run {limit.kind} budget exceeded")
    assert f" > limit {VALUES[limit.field]:g} {UNITS[limit.kind]}" in result.reason
    assert project(run.hub.history).limits() == {limit.kind: VALUES[limit.field]}


@pytest.mark.asyncio
@pytest.mark.parametrize("limit", [limit for limit in LIMITS if limit.field != "deadline_s"],
                         ids=lambda limit: limit.field)
async def test_a_sub_graph_s_own_budget_is_held_by_the_same_checks(limit: Limit) -> None:
    inner = chain(4, **{limit.field: VALUES[limit.field]})
    outer = build([("in", "input", {}), ("s", "subgraph", {"graph": workflow_to_dict(inner)}),
                   ("o", "output", {})], ["in.value->s.input", "s.output->o.value"])
    run = Run(compile_workflow(outer), gateway=_gateway())  # type: ignore[arg-type]
    result = await run.wait()
    [hit] = [e for e in run.hub.history if isinstance(e, BudgetExceeded)]
    assert (hit.budget, hit.limit, hit.node_id) == (limit.kind, VALUES[limit.field], "s/x2")
    assert hit.actual > hit.limit
    assert result.reason.startswith(f"sub-graph s {limit.kind} budget exceeded at node s/x2: ")


def test_the_file_s_budget_fields_are_the_budget_s() -> None:
    fields = [limit.field for limit in LIMITS]
    assert list(Budget().to_record()) == fields
    assert list(WORKFLOW_SCHEMA["$defs"]["budget"]["properties"]) == fields
    assert list(workflow_to_dict(chain(1))["settings"]["budget"]) == fields


def test_a_record_stored_before_the_rename_reads_the_same() -> None:
    old = {"max_tokens": 100, "max_cost_usd": 0.5, "deadline_s": 0.0, "max_turns": 7}
    assert Budget.from_record(old) == Budget(100, 0.5, 0.0, 7)
    assert Budget.from_record(old).set_limits() == {"tokens": 100, "cost_usd": 0.5, "model_calls": 7}
