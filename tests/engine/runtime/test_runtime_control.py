from __future__ import annotations

import asyncio

import pytest

from engine.events import (
    BudgetExceeded,
    HumanDecisionMade,
    HumanDecisionRequested,
    LLMCallFinished,
    LLMCallStarted,
    RunPaused,
)
from engine.llm.types import LLMRequest
from engine.runtime import Run, compile_workflow, execute
from tests.engine.runtime.fakes import FakeGateway, build, chain
from tests.engine.runtime.waiting import first_event, node_reached


@pytest.mark.asyncio
async def test_token_budget_stops_the_run_cleanly() -> None:
    gateway = FakeGateway(tokens=(40, 10))
    run = Run(compile_workflow(chain(10, max_tokens=120)), gateway=gateway)  # type: ignore[arg-type]
    result = await run.wait()
    assert result.status == "budget_exceeded" and len(gateway.requests) == 3
    hit = next(e for e in run.hub.history if isinstance(e, BudgetExceeded))
    # the third call is cut off while it streams, before it could finish at 150 tokens
    assert (hit.budget, hit.limit, hit.node_id) == ("tokens", 120, "x2") and 120 < hit.actual < 150
    assert result.reason == f"run tokens budget exceeded at node x2: {hit.actual:g} tokens > limit 120 tokens"
    assert run.state("x3") == "cancelled" and run.state("x1") == "done"


@pytest.mark.asyncio
async def test_node_cost_budget_and_turn_budget() -> None:
    wf = chain(3)
    wf.set_param("x1", "max_cost_usd", 0.005)  # type: ignore[attr-defined]
    result = await execute(wf, gateway=FakeGateway(cost_usd=0.01))
    assert result.status == "budget_exceeded" and "node cost_usd budget exceeded at node x1" in result.reason
    result = await execute(chain(5, max_model_calls=2), gateway=FakeGateway())
    assert result.status == "budget_exceeded" and "model_calls" in result.reason


@pytest.mark.asyncio
async def test_deadline_cancels_in_flight_calls_and_closes_their_spans() -> None:
    run = Run(compile_workflow(chain(3, deadline_s=0.2)), gateway=FakeGateway(latency_s=10))  # type: ignore[arg-type]
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "budget_exceeded" and "deadline_s" in result.reason
    started = {e.span_id for e in run.hub.history if isinstance(e, LLMCallStarted)}
    closed = {e.span_id: e for e in run.hub.history if isinstance(e, LLMCallFinished)}
    assert started and started == set(closed) and all(e.error == "cancelled" for e in closed.values())
    assert run.hub.history[-1].kind == "run_finished"


@pytest.mark.asyncio
async def test_cancel_ends_with_cancelled_status() -> None:
    run = Run(compile_workflow(chain(3)), gateway=FakeGateway(latency_s=10))  # type: ignore[arg-type]
    run.start()
    await first_event(run, lambda e: isinstance(e, LLMCallStarted) and e.node_id == "x0")
    run.cancel()
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "cancelled" and run.state("x0") == "cancelled"


@pytest.mark.asyncio
async def test_pause_step_resume_and_breakpoints() -> None:
    gateway = FakeGateway()
    run = Run(compile_workflow(chain(4)), gateway=gateway)  # type: ignore[arg-type]
    run.set_breakpoint("x1")
    run.start()
    await first_event(run, lambda e: isinstance(e, RunPaused) and e.node_id == "x1")
    assert run.control.paused and len(gateway.requests) == 1 and run.state("x1") == "queued"
    run.step()
    await node_reached(run, "x1", "done")
    assert len(gateway.requests) == 2 and run.state("x2") == "queued"
    run.resume()
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "succeeded" and len(gateway.requests) == 4


@pytest.mark.asyncio
async def test_human_gate_waits_for_a_decision() -> None:
    wf = build([("in", "input", {}), ("gate", "human_gate", {}), ("out", "output", {})],
               ["in.value->gate.subject", "gate.approved->out.value"])
    run = Run(compile_workflow(wf), gateway=FakeGateway(), inputs={"goal": "ship it"})
    run.start()
    request = await first_event(run, lambda e: isinstance(e, HumanDecisionRequested))
    assert run.state("gate") == "waiting" and isinstance(request, HumanDecisionRequested)
    assert request.artifact == "ship it"
    with pytest.raises(ValueError):
        run.submit_human_decision("out", "approve")
    run.submit_human_decision("gate", "edit", "ship it carefully", reason="say how")
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.outputs == {"result": "ship it carefully"} and result.verdicts[0].judge_model == "human"
    decided = next(e for e in run.hub.history if isinstance(e, HumanDecisionMade))
    assert (decided.decision, decided.edited, decided.by, decided.reason) == ("edit", "ship it carefully", "user",
                                                                             "say how")
    wf.set_param("gate", "policy", "reject")
    result = await execute(wf, gateway=FakeGateway())
    # A rejected artifact reaches no Output: the run has no result, so it did not succeed.
    assert result.status == "failed" and result.outputs == {}
    assert "no result: Output" in result.reason


@pytest.mark.asyncio
async def test_a_chain_of_instant_nodes_lets_the_event_loop_run() -> None:
    """A chain runs in one task (no task per node) but still yields, so a GUI on the same loop stays live."""
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    seen: list[int] = []  # the ticker's count at each model call

    def reply(request: LLMRequest) -> str:
        seen.append(ticks)
        return "ok"

    beat = asyncio.ensure_future(ticker())
    run = Run(compile_workflow(chain(300)), gateway=FakeGateway(reply))  # type: ignore[arg-type]
    result = await run.wait()
    beat.cancel()
    assert result.status == "succeeded" and len(seen) == 300
    assert seen[-1] - seen[0] >= 300 // 64 - 1  # the loop ran other work at least once per 64 nodes in a row


@pytest.mark.asyncio
async def test_every_node_starts_queued_without_an_event_per_node() -> None:
    gateway = FakeGateway(latency_s=10)
    run = Run(compile_workflow(chain(3)), gateway=gateway)  # type: ignore[arg-type]
    run.start()
    await first_event(run, lambda e: isinstance(e, LLMCallStarted) and e.node_id == "x0")
    assert [run.state(n) for n in ("x0", "x1", "x2", "out")] == ["running", "queued", "queued", "queued"]
    assert not any(getattr(e, "state", None) == "queued" for e in run.hub.history)
    run.cancel()
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "cancelled" and run.state("x2") == "cancelled"


@pytest.mark.asyncio
async def test_tool_calls_share_the_runs_concurrency_with_model_calls() -> None:
    from engine.tools import ToolRegistry

    registry = ToolRegistry()
    active = peak = 0

    @registry.tool("slow_echo")
    async def slow_echo(text: str) -> str:
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        await asyncio.sleep(0.05)
        active -= 1
        return text

    tools = [(f"t{i}", "tool", {"tool": "slow_echo", "read_only": True}) for i in range(4)]
    wf = build([("in", "input", {"default": "hi"}), *tools, *((f"o{i}", "output", {"name": f"o{i}"}) for i in range(4))],
               [*(f"in.value->t{i}.args" for i in range(4)), *(f"t{i}.result->o{i}.value" for i in range(4))],
               concurrency=2)
    result = await Run(compile_workflow(wf), gateway=FakeGateway(), tools=registry).wait()
    assert result.status == "succeeded", result.reason
    assert peak == 2 and result.outputs["o0"] == "hi"


@pytest.mark.asyncio
async def test_a_node_deadline_cuts_its_execution_and_ends_the_run() -> None:
    wf = chain(2)
    wf.set_param("x1", "deadline_s", 0.1)  # type: ignore[attr-defined]
    run = Run(compile_workflow(wf), gateway=FakeGateway(latency_s=0.3))  # type: ignore[arg-type]
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "budget_exceeded"
    assert result.reason.startswith("node deadline_s budget exceeded at node x1: ") and "limit 0.1 s" in result.reason
    hit = next(e for e in run.hub.history if isinstance(e, BudgetExceeded))
    assert (hit.budget, hit.limit, hit.node_id) == ("deadline_s", 0.1, "x1") and 0.1 <= hit.actual < 0.3
    cut = [e for e in run.hub.history if isinstance(e, LLMCallFinished)][-1]
    assert cut.node_id == "x1" and cut.error == "cancelled"  # its call in flight was closed
    assert run.state("x0") == "done" and run.state("x1") == "failed"
    assert result.duration_s < 0.3 + 0.3  # x0's call, then x1 cut at its deadline, not after its call


@pytest.mark.asyncio
async def test_a_node_that_finishes_within_its_deadline_is_untouched() -> None:
    wf = chain(2)
    wf.set_param("x1", "deadline_s", 5.0)  # type: ignore[attr-defined]
    result = await Run(compile_workflow(wf), gateway=FakeGateway(latency_s=0.01)).wait()  # type: ignore[arg-type]
    assert result.status == "succeeded"


@pytest.mark.asyncio
async def test_a_human_policy_may_say_why_and_the_reason_is_recorded() -> None:
    from engine.runtime import HumanPolicy

    wf = build([("in", "input", {}), ("gate", "human_gate", {}), ("out", "output", {})],
               ["in.value->gate.subject", "gate.approved->out.value"])
    for reply, reason in ((("reject", None, "numbers do not add up"), "numbers do not add up"),
                          (("approve", None), "")):  # a (decision, edited) reply still works
        run = Run(compile_workflow(wf), gateway=FakeGateway(), inputs={"goal": "ship it"},
                  human=HumanPolicy(lambda node, prompt, artifact, r=reply: r))  # type: ignore[misc]
        await run.wait()
        decided = next(e for e in run.hub.history if isinstance(e, HumanDecisionMade))
        assert (decided.decision, decided.by, decided.reason) == (reply[0], "policy", reason)


@pytest.mark.asyncio
async def test_a_node_call_budget_stops_the_run_at_the_call_over_it() -> None:
    wf = build([("in", "input", {"default": "pick one"}), ("v", "vote", {"k": 3, "max_calls_budget": 2}),
                ("out", "output", {})], ["in.value->v.task", "v.result->out.value"])
    gateway = FakeGateway()
    run = Run(compile_workflow(wf), gateway=gateway)  # type: ignore[arg-type]
    result = await run.wait()
    assert result.status == "budget_exceeded" and len(gateway.requests) == 2  # the third sample is never sent
    assert result.reason == "node model_calls budget exceeded at node v: 3 calls > limit 2 calls"
    hit = next(e for e in run.hub.history if isinstance(e, BudgetExceeded))
    assert (hit.budget, hit.limit, hit.node_id) == ("model_calls", 2, "v")
