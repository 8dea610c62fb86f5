"""The reason a person gives at a human gate reaches the gate's verdict (not only `HumanDecisionMade`).

Invariants under test: the verdict's reasons are "human <decision>" followed by the person's reason
when there is one (from `Run.submit_human_decision(..., reason=...)` or a `HumanPolicy` callback);
with no reason they stay "human <decision>" alone. A judge loop that ends unapproved and is then
rejected by a person fails with that person's reason in its message.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from engine.events import VerdictIssued
from engine.llm.types import LLMRequest
from engine.runtime import HumanPolicy, Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, build


def gated() -> Any:
    return build([("in", "input", {}), ("gate", "human_gate", {}), ("out", "output", {})],
                 ["in.value->gate.subject", "gate.approved->out.value"])


async def decide_at_the_gate(decision: str, edited: Any, reason: str) -> tuple[Run, VerdictIssued]:
    run = Run(compile_workflow(gated()), gateway=FakeGateway(), inputs={"goal": "ship it"})
    run.start()
    while run.state("gate") != "waiting":
        await asyncio.sleep(0.01)
    run.submit_human_decision("gate", decision, edited, reason=reason)  # type: ignore[arg-type]
    result = await asyncio.wait_for(run.wait(), 5)
    return run, result.verdicts[0]


@pytest.mark.asyncio
async def test_a_rejection_reason_typed_by_a_person_is_in_the_verdict() -> None:
    run, verdict = await decide_at_the_gate("reject", None, "the numbers do not add up")
    assert (verdict.decision, verdict.judge_model) == ("reject", "human")
    assert verdict.reasons == ["human reject", "the numbers do not add up"]
    assert run.state("gate") == "done"


@pytest.mark.asyncio
async def test_an_edit_reason_is_in_the_verdict_and_no_reason_adds_nothing() -> None:
    _, verdict = await decide_at_the_gate("edit", "ship it carefully", "say how")
    assert (verdict.decision, verdict.reasons) == ("approve", ["human edit", "say how"])
    _, verdict = await decide_at_the_gate("reject", None, "")
    assert verdict.reasons == ["human reject"]


@pytest.mark.asyncio
async def test_a_policy_callbacks_reason_is_in_the_gates_verdict_output() -> None:
    wf = build([("in", "input", {}), ("gate", "human_gate", {}), ("out", "output", {}),
                ("why", "output", {"name": "why"})],
               ["in.value->gate.subject", "gate.approved->out.value", "gate.verdict->why.value"])
    policy = HumanPolicy(lambda node, prompt, artifact: ("approve", None, "looks right"))
    result = await Run(compile_workflow(wf), gateway=FakeGateway(), inputs={"goal": "ship it"},
                       human=policy).wait()
    assert result.outputs["why"]["reasons"] == ["human approve", "looks right"]
    assert result.verdicts[0].reasons == ["human approve", "looks right"]


@pytest.mark.asyncio
async def test_a_person_rejecting_an_unapproved_artifact_says_why_in_the_failure() -> None:
    wf = build([("in", "input", {}), ("x", "executor", {}), ("c", "critic", {"max_rounds": 1}),
                ("o", "output", {})],
               ["in.value->x.task", "x.result->c.subject", "c.verdict->x.feedback", "c.approved->o.value"])

    def reply(request: LLMRequest) -> str:
        if request.metadata.get("role") == "critic":
            return json.dumps({"decision": "revise", "score": 0.2, "reasons": ["too short"], "claims": []})
        return "draft"

    policy = HumanPolicy(lambda node, prompt, artifact: ("reject", None, "wrong audience"))
    result = await Run(compile_workflow(wf), gateway=FakeGateway(reply), inputs={"goal": "write"},
                       human=policy).wait()
    assert result.status == "failed"
    assert "too short; a person rejected it: wrong audience" in result.reason
