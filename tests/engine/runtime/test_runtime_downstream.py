"""Consumers of a judged author's output see the final artifact of the revise loop, not the first draft."""

from __future__ import annotations

import json

import pytest

from engine.events import NodeStateChanged
from engine.llm.types import LLMRequest
from engine.runtime import Run, compile_workflow, execute
from tests.engine.runtime.fakes import FakeGateway, Reply, build, default_reply


def reply_with(*decisions: tuple[str, float]):  # type: ignore[no-untyped-def]
    queue = list(decisions)

    def reply(request: LLMRequest) -> Reply:
        if request.metadata.get("role") == "critic":
            decision, score = queue.pop(0) if queue else ("approve", 0.9)
            return json.dumps({"decision": decision, "score": score, "reasons": [decision], "claims": []})
        if request.metadata.get("role") == "executor":
            return f"draft {request.metadata['round']}"
        return default_reply(request)

    return reply


def triad_with_side_consumer(**critic: object):  # type: ignore[no-untyped-def]
    return build(
        [("goal", "input", {"name": "goal", "default": "make tea"}), ("executor", "executor", {}),
         ("critic", "critic", {"max_rounds": 3, **critic}), ("result", "output", {"name": "result"}),
         ("side", "output", {"name": "side"}), ("summary", "executor", {"prompt": "Summarise: {task}"}),
         ("summed", "output", {"name": "summed"})],
        ["goal.value->executor.task", "executor.result->critic.subject", "critic.verdict->executor.feedback",
         "critic.approved->result.value", "executor.result->side.value", "executor.result->summary.task",
         "summary.result->summed.value"])


@pytest.mark.asyncio
async def test_downstream_consumers_get_the_approved_revision() -> None:
    gateway = FakeGateway(reply_with(("revise", 0.3), ("revise", 0.5), ("approve", 0.9)))
    result = await execute(triad_with_side_consumer(), gateway=gateway)
    assert result.status == "succeeded"
    assert result.outputs["result"] == result.outputs["side"] == "draft 2"
    summary_tasks = [r.messages[-1]["content"] for r in gateway.requests if r.metadata.get("node_id") == "summary"]
    assert summary_tasks == ["Summarise: draft 2"]  # the summary ran once, on the final artifact


@pytest.mark.asyncio
async def test_downstream_consumers_get_the_best_artifact_after_rollback() -> None:
    gateway = FakeGateway(reply_with(("revise", 0.6), ("revise", 0.2), ("approve", 0.5)))
    result = await execute(triad_with_side_consumer(approve_score=0.5), gateway=gateway)
    assert result.status == "succeeded" and result.outputs["side"] == "draft 0" == result.outputs["result"]


@pytest.mark.asyncio
async def test_consumers_wait_for_the_judge_and_are_skipped_when_it_fails() -> None:
    gateway = FakeGateway(reply_with(*[("revise", 0.2)] * 10))
    run = Run(compile_workflow(triad_with_side_consumer(max_rounds=1)), gateway=gateway)
    result = await run.wait()
    assert result.status == "failed" and "side" not in result.outputs
    states = {e.node_id: e.state for e in run.hub.history if isinstance(e, NodeStateChanged)}
    assert states["side"] == "skipped" and states["summary"] == "skipped"


def test_edges_are_resourced_only_for_looping_judges() -> None:
    plan = compile_workflow(triad_with_side_consumer())
    side = plan.nodes["side"].inputs[0]
    assert (side.source, side.source_port) == ("critic", "approved")
    assert plan.order.index("critic") < plan.order.index("side")
    no_loop = build([("goal", "input", {}), ("executor", "executor", {}), ("critic", "critic", {}),
                     ("side", "output", {"name": "side"})],
                    ["goal.value->executor.task", "executor.result->critic.subject", "executor.result->side.value"])
    assert compile_workflow(no_loop).nodes["side"].inputs[0].source == "executor"
