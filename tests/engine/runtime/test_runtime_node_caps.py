"""Per-node concurrency caps as measured on calls that take time: an executor's plan tasks, a vote's
k samples (and its plan's tasks × samples), a map's items and an executor's tool calls each stay
under their node's `concurrency` and under the run's at once; 0 or no param is only the run's cap
(as before the param existed); a cap larger than the work is harmless; nodes are capped apart."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from engine.graph.model import Workflow
from engine.llm.types import LLMRequest, LLMResponse
from engine.runtime import Run, compile_workflow, execute
from engine.runtime.slots import NodeSlots, Slots
from tests.engine.runtime.fakes import FakeGateway, Reply, build, default_reply

PLAN = {"goal": "g", "tasks": [{"id": f"t{i}", "task": f"part {i}", "depends_on": []} for i in range(8)]}


class PeakByNode(FakeGateway):
    """Also counts the most calls of each node in flight at once (and of all, in `peak`)."""

    def __init__(self, reply: Callable[[LLMRequest], Reply] = default_reply, latency_s: float = 0.02) -> None:
        super().__init__(reply, latency_s=latency_s)
        self.active_by: Counter[str] = Counter()
        self.peak_by: Counter[str] = Counter()

    def enter(self, node: str) -> None:
        self.active_by[node] += 1
        self.peak_by[node] = max(self.peak_by[node], self.active_by[node])

    async def complete(self, request: LLMRequest, on_delta: Callable[[str], None] | None = None) -> LLMResponse:
        node = str(request.metadata.get("node_id"))
        self.enter(node)
        try:
            return await super().complete(request, on_delta)
        finally:
            self.active_by[node] -= 1


def fan_out(run_cap: int, x: dict[str, Any], v: dict[str, Any], m: dict[str, Any]) -> Workflow:
    """An executor and a vote given an 8-task plan, a map over its 8 tasks, and two plain executors."""
    nodes: list[tuple[str, str, dict[str, Any]]] = [
        ("in", "input", {"name": "plan"}), ("x", "executor", x), ("v", "vote", {"k": 1, **v}),
        ("m", "map", m), ("p1", "executor", {}), ("p2", "executor", {})]
    edges = ["in.value->x.task", "in.value->v.task", "in.value->m.items", "in.value->p1.task",
             "in.value->p2.task"]
    for nid, port in (("x", "result"), ("v", "result"), ("m", "results"), ("p1", "result"), ("p2", "result")):
        nodes.append((f"o_{nid}", "output", {"name": nid}))
        edges.append(f"{nid}.{port}->o_{nid}.value")
    return build(nodes, edges, concurrency=run_cap)


async def run_fan_out(run_cap: int, x: dict[str, Any], v: dict[str, Any],
                      m: dict[str, Any]) -> tuple[Counter[str], int]:
    gateway = PeakByNode()
    result = await execute(fan_out(run_cap, x, v, m), gateway=gateway, inputs={"plan": PLAN})
    assert result.status == "succeeded", result
    return gateway.peak_by, gateway.peak


@pytest.mark.asyncio
async def test_each_nodes_cap_holds_beside_uncapped_nodes() -> None:
    peaks, overall = await run_fan_out(64, {"concurrency": 2}, {"concurrency": 3}, {"concurrency": 1})
    assert (peaks["x"], peaks["v"], peaks["m"], peaks["p1"], peaks["p2"]) == (2, 3, 1, 8, 8)
    assert overall == 2 + 3 + 1 + 8 + 8  # the others' calls go on meanwhile


@pytest.mark.asyncio
@pytest.mark.parametrize(("run_cap", "cap"), [(4, 3), (1, 4), (6, 100)])
async def test_the_runs_cap_still_holds_over_capped_nodes(run_cap: int, cap: int) -> None:
    caps = {"concurrency": cap}
    peaks, overall = await run_fan_out(run_cap, caps, caps, caps)
    assert overall == run_cap
    assert all(1 <= peaks[n] <= min(cap, run_cap) for n in ("x", "v", "m"))


@pytest.mark.asyncio
async def test_a_cap_larger_than_the_work_is_harmless() -> None:
    caps = {"concurrency": 100}
    peaks, overall = await run_fan_out(64, caps, caps, caps)
    assert (peaks["x"], peaks["v"], peaks["m"], overall) == (8, 8, 8, 40)


def single(role: str, params: dict[str, Any], run_cap: int) -> Workflow:
    port = "items" if role == "map" else "task"
    out = "results" if role == "map" else "result"
    return build([("in", "input", {"name": "plan"}), ("n", role, params), ("out", "output", {"name": "result"})],
                 [f"in.value->n.{port}", f"n.{out}->out.value"], concurrency=run_cap)


@pytest.mark.asyncio
@pytest.mark.parametrize("role", ["executor", "vote", "map"])
@pytest.mark.parametrize("params", [{}, {"concurrency": 0}])
async def test_no_cap_or_zero_is_only_the_runs_cap(role: str, params: dict[str, Any]) -> None:
    extra = {"k": 1} if role == "vote" else {}
    for run_cap in (5, 64):
        gateway = PeakByNode()
        result = await execute(single(role, {**extra, **params}, run_cap), gateway=gateway, inputs={"plan": PLAN})
        assert result.status == "succeeded" and len(gateway.requests) == 8
        expected = min(run_cap, 8)  # all 8 tasks at once when the run allows, as before the param existed
        if role == "map" and not params:
            expected = min(run_cap, 4)  # a map without the param keeps its default of 4
        assert gateway.peak_by["n"] == expected


@pytest.mark.asyncio
@pytest.mark.parametrize(("run_cap", "cap", "node_peak"), [(32, 3, 3), (2, 5, 2), (32, 0, 12)])
async def test_a_votes_cap_holds_over_its_samples_and_its_plans_tasks(run_cap: int, cap: int, node_peak: int) -> None:
    plan = {"goal": "g", "tasks": [{"id": f"t{i}", "task": f"step {i}", "depends_on": []} for i in range(4)]}
    wf = build([("in", "input", {"name": "plan"}), ("v", "vote", {"k": 3, "concurrency": cap}),
                ("out", "output", {"name": "result"})], ["in.value->v.task", "v.result->out.value"],
               concurrency=run_cap)
    gateway = PeakByNode()
    result = await execute(wf, gateway=gateway, inputs={"plan": plan})
    assert result.status == "succeeded" and len(gateway.requests) == 12
    assert gateway.peak_by["v"] == node_peak  # 4 tasks × 3 samples nested: one cap over all 12 calls
    wf = build([("in", "input", {"name": "task"}), ("v", "vote", {"k": 9, "concurrency": cap}),
                ("out", "output", {"name": "result"})], ["in.value->v.task", "v.result->out.value"],
               concurrency=run_cap)
    gateway = PeakByNode()
    assert (await execute(wf, gateway=gateway, inputs={"task": "one step"})).status == "succeeded"
    assert gateway.peak_by["v"] == min(node_peak, 9)


@pytest.mark.asyncio
@pytest.mark.parametrize(("run_cap", "cap", "node_peak"), [(32, 2, 2), (3, 5, 3), (32, 0, 6)])
async def test_an_executors_tool_calls_count_against_its_cap(run_cap: int, cap: int, node_peak: int) -> None:
    from engine.tools import ToolRegistry

    registry = ToolRegistry()
    gateway = PeakByNode(lambda r: _tool_then_answer(r))

    @registry.tool("slow")
    async def slow(text: str) -> str:
        gateway.enter("x")  # a tool call of x: counted with its model calls
        try:
            await asyncio.sleep(0.02)
            return text.upper()
        finally:
            gateway.active_by["x"] -= 1

    plan = {"goal": "g", "tasks": [{"id": f"t{i}", "task": f"part {i}", "depends_on": []} for i in range(6)]}
    wf = build([("in", "input", {"name": "plan"}), ("x", "executor", {"tools": ["slow"], "concurrency": cap}),
                ("out", "output", {"name": "result"})], ["in.value->x.task", "x.result->out.value"],
               concurrency=run_cap)
    result = await Run(compile_workflow(wf), gateway=gateway, tools=registry, inputs={"plan": plan}).wait()
    assert result.status == "succeeded" and result.outputs["result"].count("PART") == 6
    assert gateway.peak_by["x"] == node_peak


def _tool_then_answer(request: LLMRequest) -> Reply:
    results = [m["content"] for m in request.messages if m["role"] == "tool"]
    if results:
        return f"answer {results[0]}"
    call = {"id": "c1", "type": "function", "function": {"name": "slow", "arguments": '{"text": "part"}'}}
    return LLMResponse(content="", model=request.model, provider="fake", tool_calls=[call])


@pytest.mark.asyncio
async def test_a_call_cancelled_while_waiting_for_the_runs_slot_gives_its_nodes_back() -> None:
    run = Slots(1)
    capped = NodeSlots(Slots(2), run)
    assert capped.try_take()  # both free: both taken
    waiting = asyncio.ensure_future(capped.take())  # takes the node's 2nd slot, waits for the run's
    await asyncio.sleep(0)
    assert not waiting.done() and not capped.node.try_take()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert capped.node.try_take()  # the node's slot came back
    capped.node.release()
    capped.release()
    assert run.try_take() and capped.node.try_take() and capped.node.try_take()
