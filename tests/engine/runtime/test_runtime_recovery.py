"""The recovery ladder past retries: a node that still fails is replanned through the planner above
it (at most `max_replans`), then put to a person (when the run has a human policy), then fails
saying what was tried."""

from __future__ import annotations

import pytest

from engine.events import LogMessage, NodeStateChanged
from engine.graph.model import Workflow
from engine.llm.types import BadRequestError, LLMRequest
from engine.runtime import HumanPolicy, Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, Reply, build, default_reply


def _planned(max_replans: int = 2) -> Workflow:
    return build([("in", "input", {"name": "goal", "default": "ship it"}),
                  ("p", "planner", {"max_replans": max_replans}), ("x", "executor", {}), ("o", "output", {})],
                 ["in.value->p.goal", "p.plan->x.task", "x.result->o.value"])


def _failing(times: int) -> tuple[FakeGateway, list[int]]:
    """A gateway whose executor calls are refused (not retryable) for the first `times` plans."""
    plans = [0]

    def reply(request: LLMRequest) -> Reply:
        if request.metadata["role"] == "planner":
            plans[0] += 1
        elif request.metadata["role"] == "executor" and plans[0] <= times:
            return BadRequestError("the request was refused", provider="fake", model=request.model)
        return default_reply(request)

    return FakeGateway(reply), plans


@pytest.mark.asyncio
async def test_a_failed_executor_is_replanned_with_the_failure_as_feedback() -> None:
    gateway, plans = _failing(1)
    run = Run(compile_workflow(_planned()), gateway=gateway)
    result = await run.wait()
    assert result.status == "succeeded", result.reason
    assert plans[0] == 2
    replan = gateway.by_role("planner")[1].messages[-1]["content"]
    assert "could not be carried out: X (x) failed: " in replan and "refused" in replan
    warnings = [e.message for e in run.hub.history if isinstance(e, LogMessage) and e.level == "warning"]
    assert any("replanning through P (p) (1 of 2)" in m for m in warnings), warnings
    states = [(e.state, e.round) for e in run.hub.history if isinstance(e, NodeStateChanged) and e.node_id == "x"]
    assert states[-1] == ("done", 1) and ("failed", 0) in states


@pytest.mark.asyncio
async def test_replans_are_bounded_then_the_node_fails_saying_what_was_tried() -> None:
    gateway, plans = _failing(99)
    result = await Run(compile_workflow(_planned(max_replans=2)), gateway=gateway).wait()
    assert result.status == "failed"
    assert plans[0] == 3  # the first plan and two replans
    assert "refused" in result.reason and "also after replan 1, replan 2" in result.reason
    no_replans, plans = _failing(99)
    result = await Run(compile_workflow(_planned(max_replans=0)), gateway=no_replans).wait()
    assert result.status == "failed" and plans[0] == 1 and "also after" not in result.reason


@pytest.mark.asyncio
@pytest.mark.parametrize(("answer", "status", "output"), [
    (("edit", "written by hand", "the model is down"), "succeeded", "written by hand"),
    (("reject", None, "not worth it"), "failed", None),
])
async def test_then_a_person_is_asked(answer: tuple[str, object, str], status: str, output: object) -> None:
    asked: list[str] = []

    def decide(node_id: str, prompt: str, artifact: object) -> tuple[str, object, str]:
        asked.append(f"{node_id}: {prompt}")
        return answer  # type: ignore[return-value]

    gateway, _ = _failing(99)
    result = await Run(compile_workflow(_planned(max_replans=1)), gateway=gateway,
                       human=HumanPolicy(decide)).wait()
    assert result.status == status, result.reason
    assert len(asked) == 1 and asked[0].startswith("x: ") and "refused" in asked[0]
    assert "edit to give its 'result' yourself" in asked[0]
    if output is not None:
        assert result.outputs == {"result": output}
    else:
        assert "rejected when asked: not worth it" in result.reason and "also after replan 1" in result.reason


@pytest.mark.asyncio
async def test_approve_tries_the_node_once_more() -> None:
    calls = {"executor": 0}

    def reply(request: LLMRequest) -> Reply:
        if request.metadata["role"] == "executor":
            calls["executor"] += 1
            if calls["executor"] == 1:
                return BadRequestError("a passing hiccup", provider="fake", model=request.model)
        return default_reply(request)

    wf = build([("in", "input", {}), ("x", "executor", {}), ("o", "output", {})],
               ["in.value->x.task", "x.result->o.value"])  # no planner: straight to the person
    run = Run(compile_workflow(wf), gateway=FakeGateway(reply), inputs={"goal": "go"}, human=HumanPolicy("approve"))
    result = await run.wait()
    assert result.status == "succeeded", result.reason
    assert calls["executor"] == 2
    states = [e.state for e in run.hub.history if isinstance(e, NodeStateChanged) and e.node_id == "x"]
    assert states == ["running", "failed", "waiting", "running", "done"]  # one "running" for the new try
