"""A revision that fails inside a critic's loop (the author's re-run raised after its retries) goes on
up the recovery ladder — replan, then a person, then the critic fails saying what failed — instead of
failing the critic at once."""

from __future__ import annotations

import json

import pytest

from engine.events import LogMessage
from engine.llm.types import BadRequestError, LLMRequest
from engine.runtime import HumanPolicy, Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, Reply, build, default_reply, triad


def _script(fail_executor_calls: set[int]) -> tuple[FakeGateway, dict[str, int]]:
    """The critic asks for a revision of the first answer, then approves; the executor's calls
    numbered in `fail_executor_calls` (1-based) are refused."""
    seen = {"executor": 0, "critic": 0, "planner": 0}

    def reply(request: LLMRequest) -> Reply:
        role = str(request.metadata["role"])
        seen[role] = seen.get(role, 0) + 1
        if role == "executor" and seen["executor"] in fail_executor_calls:
            return BadRequestError("the request was refused", provider="fake", model=request.model)
        if role == "critic":
            first = seen["critic"] == 1
            return json.dumps({"decision": "revise" if first else "approve", "score": 0.4 if first else 0.9,
                               "reasons": ["too short"] if first else ["fine"]})
        return default_reply(request)

    return FakeGateway(reply), seen


@pytest.mark.asyncio
async def test_a_failed_revision_is_replanned() -> None:
    gateway, seen = _script({4})  # the plan has 3 tasks: call 4 is the revision's first task
    run = Run(compile_workflow(triad()), gateway=gateway)
    result = await run.wait()
    assert result.status == "succeeded", result.reason
    assert seen["planner"] == 2
    assert "could not be carried out" in gateway.by_role("planner")[1].messages[-1]["content"]
    assert any(isinstance(e, LogMessage) and "failed: " in e.message and e.node_id == "critic"
               for e in run.hub.history)


def _without_planner() -> object:
    return build([("in", "input", {}), ("x", "executor", {}), ("c", "critic", {"max_rounds": 2}),
                  ("o", "output", {})],
                 ["in.value->x.task", "x.result->c.subject", "c.verdict->x.feedback", "c.approved->o.value"])


@pytest.mark.asyncio
async def test_without_a_planner_a_person_may_keep_the_best_so_far() -> None:
    gateway, _ = _script({2})
    result = await Run(compile_workflow(_without_planner()), gateway=gateway, inputs={"goal": "g"},  # type: ignore[arg-type]
                       human=HumanPolicy("approve")).wait()
    assert result.status == "succeeded", result.reason
    assert result.outputs == {"result": "done: g"}  # the first answer, the best there was


@pytest.mark.asyncio
async def test_otherwise_the_critic_fails_saying_what_failed() -> None:
    gateway, _ = _script({2})
    result = await Run(compile_workflow(_without_planner()), gateway=gateway, inputs={"goal": "g"}).wait()  # type: ignore[arg-type]
    assert result.status == "failed"
    assert "a revision failed" in result.reason and "refused" in result.reason


@pytest.mark.asyncio
@pytest.mark.parametrize(("policy", "status"), [("approve", "succeeded"), ("reject", "failed"), (None, "failed")])
async def test_a_critic_that_cannot_judge_puts_the_artifact_to_a_person(policy: str | None, status: str) -> None:
    def reply(request: LLMRequest) -> Reply:
        if request.metadata["role"] == "critic":
            return "The artifact looks like a digital copy of a physical item."  # never a verdict
        return default_reply(request)

    run = Run(compile_workflow(_without_planner()), gateway=FakeGateway(reply), inputs={"goal": "g"},  # type: ignore[arg-type]
              human=HumanPolicy(policy) if policy else None)  # type: ignore[arg-type]
    result = await run.wait()
    assert result.status == status, result.reason
    if policy == "approve":
        assert result.outputs == {"result": "done: g"}
        [verdict] = result.verdicts
        assert verdict.judge_model == "human" and verdict.reasons[0].startswith("approved when asked: C (c) could not judge")
    else:
        assert "no valid verdict, even after a repair round" in result.reason
        assert ("a person rejected it" in result.reason) == (policy == "reject")
