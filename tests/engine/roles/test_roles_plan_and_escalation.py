"""Plans whose tasks are listed before their dependencies, and escalating routers fed failing
verdicts: the dependency's result still reaches the task, and each failing verdict moves one route up."""

from __future__ import annotations

import json

import pytest

from engine.llm.types import LLMRequest
from engine.roles.parsing import parse_plan
from engine.runtime import execute
from tests.engine.runtime.fakes import FakeGateway, Reply, build, default_reply


def test_a_task_listed_before_its_dependency_moves_after_it() -> None:
    text = json.dumps({"tasks": [{"id": "report", "task": "write it up", "depends_on": ["data"]},
                                 {"id": "data", "task": "collect data"},
                                 {"id": "other", "task": "unrelated"}]})
    tasks = parse_plan(text, max_tasks=8)
    assert [(t["id"], t["depends_on"]) for t in tasks] == [("data", []), ("report", ["data"]), ("other", [])]
    cycle = json.dumps({"tasks": [{"id": "a", "task": "x", "depends_on": ["b"]},
                                  {"id": "b", "task": "y", "depends_on": ["c"]},
                                  {"id": "c", "task": "z", "depends_on": ["a", "c"]}]})
    # a cycle is broken at its earliest-listed task; the rest keep their dependencies
    assert [(t["id"], t["depends_on"]) for t in parse_plan(cycle, 8)] == [("a", []), ("c", ["a"]), ("b", ["c"])]


@pytest.mark.asyncio
async def test_the_executor_gets_the_result_of_a_dependency_listed_later() -> None:
    plan = {"tasks": [{"id": "report", "task": "write it up", "depends_on": ["data"]},
                      {"id": "data", "task": "collect data"}]}

    def reply(request: LLMRequest) -> Reply:
        return json.dumps(plan) if request.metadata["role"] == "planner" else default_reply(request)

    gateway = FakeGateway(reply)
    wf = build([("in", "input", {}), ("p", "planner", {}), ("x", "executor", {}), ("o", "output", {})],
               ["in.value->p.goal", "p.plan->x.task", "x.result->o.value"])
    result = await execute(wf, gateway=gateway, inputs={"goal": "a report"})
    assert result.status == "succeeded", result.reason
    [report] = [r for r in gateway.by_role("executor") if r.metadata["task_id"] == "report"]
    assert "[data] done: collect data" in report.messages[-1]["content"]


@pytest.mark.asyncio
async def test_each_failing_verdict_escalates_one_route_up() -> None:
    scores = iter([0.1, 0.2, 0.3, 0.4])

    def reply(request: LLMRequest) -> Reply:
        if request.metadata["role"] == "critic":  # never approves; each verdict says something new
            return json.dumps({"decision": "revise", "score": next(scores), "reasons": ["weak"]})
        if request.model == "sim/strong":
            return "strong answer"
        return f"draft {request.metadata['round']}"

    wf = build([("in", "input", {}), ("x", "executor", {}), ("c", "critic", {}),
                ("r", "router", {"mode": "escalate", "routes": ["cheap", "medium", "strong"], "max_loops": 3}),
                ("s", "executor", {"model": "sim/strong"}), ("o", "output", {})],
               ["in.value->x.task", "x.result->c.subject", "c.verdict->r.value", "r.cheap->x.feedback",
                "r.medium->x.context", "r.strong->s.task", "s.result->o.value"])
    gateway = FakeGateway(reply)
    result = await execute(wf, gateway=gateway, inputs={"goal": "hard"})
    assert result.status == "succeeded", result.reason
    assert result.outputs == {"result": "strong answer"}
    # first failing verdict: medium (x again, with it as context); second: strong
    assert [r.metadata["role"] for r in gateway.requests] == ["executor", "critic", "executor", "critic", "executor"]
