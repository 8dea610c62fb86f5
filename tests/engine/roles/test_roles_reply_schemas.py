"""Plans and verdicts are validated against their JSON Schemas: a reply that does not match is
refused naming where and what (the repair call and the node's failure say it), and the prompts tell
the model the shape before its first reply."""

from __future__ import annotations

import json

import pytest

from engine.events import LogMessage
from engine.llm.types import LLMRequest
from engine.roles.parsing import parse_plan, read_plan
from engine.roles.reply_schemas import PLAN_SCHEMA, VERDICT_SCHEMA, schema_problems
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, Reply, build, default_reply


def test_a_plan_that_does_not_match_names_the_place() -> None:
    with pytest.raises(ValueError, match=r"reply.tasks\[1\]"):
        parse_plan(json.dumps({"tasks": [{"task": "fine"}, {"id": "t2", "depends_on": ["t1"]}]}), 8)
    with pytest.raises(ValueError, match=r"reply.tasks\[0\].depends_on\[0\]: \[\] is not of type"):
        parse_plan(json.dumps({"tasks": [{"task": "a", "depends_on": [[]]}]}), 8)
    with pytest.raises(ValueError, match=r"reply\.tasks: \[\] should be non-empty"):
        parse_plan('{"tasks": []}', 8)
    assert schema_problems({"tasks": ["one", {"id": 2, "task": "two", "depends_on": [1]}]}, PLAN_SCHEMA) == []
    assert schema_problems({"decision": "approve", "score": 0.5, "reasons": "ok"}, VERDICT_SCHEMA) == []


def test_a_fenced_list_of_tasks_is_a_plan() -> None:
    reply = 'Here is the plan:\n```json\n["collect data", "write it up"]\n```\nGood luck.'
    assert [t["task"] for t in parse_plan(reply, 8)] == ["collect data", "write it up"]


@pytest.mark.asyncio
async def test_tasks_past_max_tasks_are_left_out_with_a_warning() -> None:
    tasks, left_out = read_plan(json.dumps({"tasks": [f"step {i}" for i in range(5)]}), 3)
    assert len(tasks) == 3 and left_out == 2

    def reply(request: LLMRequest) -> Reply:
        if request.metadata["role"] == "planner":
            return json.dumps({"tasks": [f"step {i}" for i in range(5)]})
        return default_reply(request)

    wf = build([("in", "input", {}), ("p", "planner", {"max_tasks": 3}), ("x", "executor", {}), ("o", "output", {})],
               ["in.value->p.goal", "p.plan->x.task", "x.result->o.value"])
    gateway = FakeGateway(reply)
    run = Run(compile_workflow(wf), gateway=gateway, inputs={"goal": "five steps"})
    result = await run.wait()
    assert result.status == "succeeded", result.reason
    assert len(gateway.by_role("executor")) == 3
    [warning] = [e.message for e in run.hub.history if isinstance(e, LogMessage) and e.level == "warning"]
    assert "the plan had 5 tasks; only the first 3" in warning and "2 left out" in warning
    planner_prompt = gateway.by_role("planner")[0].messages[-1]["content"]
    assert 'Reply with only a JSON plan of this shape: {"tasks": [' in planner_prompt and "at most 3 tasks" in planner_prompt


@pytest.mark.asyncio
async def test_a_reply_cut_off_at_the_output_limit_is_said_so_and_asked_shorter() -> None:
    from engine.events import ErrorRaised
    from engine.llm.types import LLMResponse

    def reply(request: LLMRequest) -> Reply:
        if request.metadata["role"] == "planner":
            return LLMResponse('{"tasks": [{"id": "t1", "task": "a very long', request.model, "fake",
                               tokens_in=10, tokens_out=256, finish_reason="length")
        return default_reply(request)

    wf = build([("in", "input", {}), ("p", "planner", {}), ("x", "executor", {}), ("o", "output", {})],
               ["in.value->p.goal", "p.plan->x.task", "x.result->o.value"])
    gateway = FakeGateway(reply)
    run = Run(compile_workflow(wf), gateway=gateway, inputs={"goal": "g"})
    result = await run.wait()
    assert result.status == "failed"
    [repair] = [r for r in gateway.by_role("planner") if r.metadata.get("repair")]
    assert "cut off at the model's output limit (256 tokens)" in repair.messages[-1]["content"]
    assert "Keep it short enough to finish." in repair.messages[-1]["content"]
    assert "even after a repair round: the reply was cut off" in result.reason
    assert "the repaired reply had the same fault" in result.reason
    assert any(isinstance(e, ErrorRaised) and e.error_type == "MalformedReply" for e in run.hub.history)
