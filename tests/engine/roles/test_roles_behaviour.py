from __future__ import annotations

import json

import pytest

from engine.events import LogMessage, MemoryRead, MemoryWritten, ToolCallFinished
from engine.graph.format import workflow_to_dict
from engine.llm.types import LLMRequest
from engine.runtime import Run, compile_workflow, execute
from tests.engine.runtime.fakes import FakeGateway, Reply, build, default_reply


@pytest.mark.asyncio
async def test_condition_router_routes_and_skips_the_other_branch() -> None:
    wf = build([("in", "input", {}), ("r", "router", {"routes": ["short", "long"], "condition": "len(text) < 5"}),
                ("s", "executor", {}), ("l", "executor", {}), ("os", "output", {"name": "s"}),
                ("ol", "output", {"name": "l"})],
               ["in.value->r.value", "r.short->s.task", "r.long->l.task", "s.result->os.value", "l.result->ol.value"])
    run = Run(compile_workflow(wf), gateway=FakeGateway(), inputs={"goal": "tea"})
    result = await run.wait()
    assert result.status == "succeeded" and result.outputs == {"s": "done: tea"}
    assert run.state("l") == "skipped" and run.state("ol") == "skipped"
    wf.set_param("r", "condition", "'medium'")
    result = await execute(wf, gateway=FakeGateway())
    assert result.status == "failed" and "not one of the routes" in result.reason


@pytest.mark.asyncio
async def test_classifier_router_asks_the_model_with_routes_in_metadata() -> None:
    wf = build([("in", "input", {}), ("r", "router", {"mode": "classifier", "routes": ["a", "b"]}),
                ("o", "output", {})], ["in.value->r.value", "r.b->o.value"])
    gateway = FakeGateway(lambda req: "I pick b" if req.metadata["role"] == "router" else default_reply(req))
    result = await execute(wf, gateway=gateway, inputs={"goal": "x"})
    assert result.outputs == {"result": "x"} and gateway.requests[0].metadata["routes"] == ["a", "b"]


@pytest.mark.asyncio
async def test_escalating_router_loop_moves_to_the_strong_route_on_a_stall() -> None:
    wf = build([("in", "input", {}), ("x", "executor", {}),
                ("r", "router", {"mode": "escalate", "routes": ["cheap", "strong"], "max_loops": 3}),
                ("strong", "executor", {"model": "sim/strong"}), ("o", "output", {})],
               ["in.value->x.task", "x.result->r.value", "r.cheap->x.context", "r.strong->strong.task",
                "strong.result->o.value"])
    gateway = FakeGateway(lambda req: "same answer" if req.model == "sim/default" else "strong answer")
    result = await execute(wf, gateway=gateway, inputs={"goal": "hard"})
    assert result.status == "succeeded" and result.outputs == {"result": "strong answer"}
    assert [r.model for r in gateway.requests] == ["sim/default", "sim/default", "sim/strong"]


@pytest.mark.asyncio
async def test_map_reduce_and_majority_vote() -> None:
    wf = build([("in", "input", {}), ("m", "map", {"concurrency": 2, "prompt": "answer {item}"}),
                ("r", "reduce", {}), ("o", "output", {})],
               ["in.value->m.items", "m.results->r.items", "r.result->o.value"])
    gateway = FakeGateway(lambda req: f"combined {len(req.messages[-1]['content'].splitlines())}"
                          if req.metadata["role"] == "reduce" else default_reply(req))
    result = await execute(wf, gateway=gateway, inputs={"goal": ["q1", "q2", "q3"]})
    assert result.outputs == {"result": "combined 4"} and gateway.peak <= 2
    answers = iter(["A", "b", "a "])
    wf = build([("in", "input", {}), ("v", "vote", {"k": 3}), ("o", "output", {})],
               ["in.value->v.task", "v.result->o.value"])
    result = await execute(wf, gateway=FakeGateway(lambda req: next(answers)), inputs={"goal": "pick"})
    assert result.outputs["result"].strip().lower() == "a"


@pytest.mark.asyncio
async def test_critic_selected_vote_picks_the_best_scored_sample() -> None:
    def reply(req: LLMRequest) -> Reply:
        if req.metadata["role"] == "critic":
            good = "two" in req.messages[-1]["content"]
            return json.dumps({"decision": "approve", "score": 0.9 if good else 0.1})
        return ["one", "two", "three"][req.metadata["sample"]]

    wf = build([("in", "input", {}), ("v", "vote", {"k": 3, "mode": "critic"}), ("o", "output", {})],
               ["in.value->v.task", "v.result->o.value"])
    run = Run(compile_workflow(wf), gateway=FakeGateway(reply))
    assert (await run.wait()).outputs == {"result": "two"}
    [log] = [e for e in run.hub.history if isinstance(e, LogMessage)]
    assert log.message == "vote: the judge scored the 3 samples 0.10, 0.90, 0.10; kept sample 2: 'two'"


@pytest.mark.asyncio
async def test_each_vote_says_how_many_samples_agreed_and_what_the_others_said() -> None:
    answers = iter(["Move A", "move  a", "B", "move a", "C"])
    wf = build([("in", "input", {}), ("v", "vote", {"k": 5}), ("o", "output", {})],
               ["in.value->v.task", "v.result->o.value"])
    run = Run(compile_workflow(wf), gateway=FakeGateway(lambda req: next(answers)), inputs={"goal": "pick"})
    assert (await run.wait()).outputs == {"result": "Move A"}
    [log] = [e for e in run.hub.history if isinstance(e, LogMessage)]
    assert (log.level, log.node_id) == ("info", "v")
    assert log.message == "vote: 3 of 5 samples agree on 'Move A'; others: 'B' (1), 'C' (1)"


@pytest.mark.asyncio
async def test_gated_memory_write_is_admitted_only_on_approval() -> None:
    wf = build([("in", "input", {}), ("gate", "human_gate", {"policy": "approve"}),
                ("w", "memory", {"gated": True, "key": "k"}),
                ("rd", "memory", {"mode": "read", "key": "k"}), ("o", "output", {})],
               ["in.value->w.value", "in.value->gate.subject", "gate.verdict->w.gate", "w.value->rd.value",
                "rd.value->o.value"])
    run = Run(compile_workflow(wf), gateway=FakeGateway(), inputs={"goal": "remember me"})
    result = await run.wait()
    write = next(e for e in run.hub.history if isinstance(e, MemoryWritten))
    assert write.admitted and result.outputs == {"result": "remember me"}
    assert next(e for e in run.hub.history if isinstance(e, MemoryRead)).value == "remember me"
    wf.set_param("gate", "policy", "reject")
    run = Run(compile_workflow(wf), gateway=FakeGateway(), inputs={"goal": "remember me"})
    result = await run.wait()
    assert not next(e for e in run.hub.history if isinstance(e, MemoryWritten)).admitted
    assert result.outputs == {"result": None}


@pytest.mark.asyncio
async def test_subgraph_runs_inside_its_node_with_prefixed_ids() -> None:
    inner = build([("i", "input", {"name": "q"}), ("e", "executor", {}), ("o", "output", {"name": "a"})],
                  ["i.value->e.task", "e.result->o.value"])
    outer = build([("in", "input", {}), ("sub", "subgraph", {"graph": workflow_to_dict(inner)}), ("o", "output", {})],
                  ["in.value->sub.input", "sub.output->o.value"])
    run = Run(compile_workflow(outer), gateway=FakeGateway(), inputs={"goal": "inner task"})
    result = await run.wait()
    assert result.outputs == {"result": "done: inner task"}
    assert run.state("sub/e") == "done"


@pytest.mark.asyncio
async def test_verifier_loop_fixes_until_the_check_passes() -> None:
    wf = build([("in", "input", {}), ("x", "executor", {}),
                ("v", "verifier", {"check": "regex", "expression": "FIXED", "max_rounds": 3}), ("o", "output", {})],
               ["in.value->x.task", "x.result->v.subject", "v.verdict->x.feedback", "v.passed->o.value"])
    gateway = FakeGateway(lambda req: "FIXED code" if req.metadata["round"] >= 2 else "buggy code")
    run = Run(compile_workflow(wf), gateway=gateway, inputs={"goal": "write code"})
    result = await run.wait()
    assert result.status == "succeeded" and result.outputs == {"result": "FIXED code"}
    assert [v.decision for v in result.verdicts][-1] == "approve" and len(result.verdicts) == 3
    assert sum(isinstance(e, ToolCallFinished) for e in run.hub.history) == 3


@pytest.mark.asyncio
async def test_tool_node_calls_the_registry_and_records_the_call() -> None:
    from engine.tools import ToolRegistry

    registry = ToolRegistry()

    @registry.tool("double", read_only=True, description="Double a number")
    def double(input: int) -> int:
        return input * 2

    wf = build([("in", "input", {}), ("t", "tool", {"tool": "double"}), ("o", "output", {})],
               ["in.value->t.args", "t.result->o.value"])
    run = Run(compile_workflow(wf), gateway=FakeGateway(), inputs={"goal": 21}, tools=registry)
    result = await run.wait()
    assert result.outputs == {"result": 42}, result.reason
    wf.set_param("t", "allow", ["other"])
    result = await execute(wf, gateway=FakeGateway(), inputs={"goal": 21}, tools=registry)
    assert result.status == "failed" and "double" in result.reason
