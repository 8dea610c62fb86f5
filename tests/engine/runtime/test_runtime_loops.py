from __future__ import annotations

import json

import pytest

from engine.events import PlanEmitted, VerdictIssued
from engine.llm.types import LLMRequest, RateLimitedError
from engine.runtime import HumanPolicy, execute
from tests.engine.runtime.fakes import FakeGateway, Reply, build, default_reply, triad


def verdicts(*items: tuple[str, float]):  # type: ignore[no-untyped-def]
    """A reply function whose critic answers the given (decision, score) in turn."""
    queue = list(items)

    def reply(request: LLMRequest) -> Reply:
        if request.metadata.get("role") == "critic":
            decision, score = queue.pop(0) if queue else ("approve", 0.9)
            return json.dumps({"decision": decision, "score": score, "reasons": [f"{decision} because"], "claims": []})
        if request.metadata.get("role") == "executor":
            return f"draft {request.metadata['round']}: {request.metadata['task']}"
        return default_reply(request)

    return reply


@pytest.mark.asyncio
async def test_revise_loops_back_with_reasons_until_approved() -> None:
    gateway = FakeGateway(verdicts(("revise", 0.3), ("revise", 0.5), ("approve", 0.9)))
    result = await execute(triad(), gateway=gateway)
    assert result.status == "succeeded"
    assert [v.decision for v in result.verdicts] == ["revise", "revise", "approve"]
    assert [v.round for v in result.verdicts] == [0, 1, 2]
    executor_calls = gateway.by_role("executor")
    assert len(executor_calls) == 9 and {r.metadata["round"] for r in executor_calls} == {0, 1, 2}
    assert "revise because" in executor_calls[-1].messages[-1]["content"]
    assert "draft 2" in result.outputs["result"]


@pytest.mark.asyncio
async def test_exhausted_rounds_fail_with_reason_or_ask_the_human_policy() -> None:
    never = verdicts(*[("revise", 0.2)] * 10)
    result = await execute(triad(max_rounds=2), gateway=FakeGateway(never))
    assert result.status == "failed" and "not approved after 2 revision(s)" in result.reason
    assert "revise because" in result.reason and len(result.verdicts) == 3
    assert "result" not in result.outputs
    never = verdicts(*[("revise", 0.2)] * 10)
    asked: list[str] = []
    policy = HumanPolicy(lambda node, prompt, artifact: (asked.append(node), ("edit", "fixed by hand"))[1])
    result = await execute(triad(max_rounds=1), gateway=FakeGateway(never), human=policy)
    assert result.status == "succeeded" and result.outputs["result"] == "fixed by hand" and asked == ["critic"]


@pytest.mark.asyncio
async def test_rollback_on_worse_keeps_the_best_artifact() -> None:
    reply = verdicts(("revise", 0.6), ("revise", 0.2), ("approve", 0.5))
    result = await execute(triad(approve_score=0.5), gateway=FakeGateway(reply))
    assert result.status == "succeeded" and "draft 0" in result.outputs["result"]
    reply = verdicts(("revise", 0.6), ("revise", 0.2), ("approve", 0.5))
    result = await execute(triad(approve_score=0.5, rollback_on_worse=False), gateway=FakeGateway(reply))
    assert "draft 2" in result.outputs["result"]


@pytest.mark.asyncio
async def test_reject_replans_through_the_planner_within_max_replans() -> None:
    gateway = FakeGateway(verdicts(("reject", 0.1), ("approve", 0.9)))
    result = await execute(triad(), gateway=gateway)
    assert result.status == "succeeded"
    planner_calls = gateway.by_role("planner")
    assert len(planner_calls) == 2 and "reject because" in planner_calls[1].messages[-1]["content"]
    gateway = FakeGateway(verdicts(*[("reject", 0.1)] * 10))
    wf = triad()
    wf.set_param("planner", "max_replans", 1)
    result = await execute(wf, gateway=gateway)
    assert result.status == "failed" and "rejected" in result.reason and len(gateway.by_role("planner")) == 2


@pytest.mark.asyncio
async def test_malformed_verdict_gets_one_repair_then_fails_clearly() -> None:
    calls = {"n": 0}

    def reply(request: LLMRequest) -> Reply:
        if request.metadata.get("role") == "critic":
            calls["n"] += 1
            if calls["n"] == 1:
                return "I think it is fine"
            return json.dumps({"decision": "approve", "score": 0.8})
        return default_reply(request)

    from engine.events import ErrorRaised, LLMCallStarted
    from engine.runtime import Run, compile_workflow

    run = Run(compile_workflow(triad()), gateway=FakeGateway(reply))
    result = await run.wait()
    assert result.status == "succeeded" and calls["n"] == 2
    [notice] = [e for e in run.hub.history if isinstance(e, ErrorRaised)]  # the repair is announced, before it
    assert notice.recoverable and notice.error_type == "MalformedReply" and notice.node_id == "critic"
    assert "not a valid verdict" in notice.message
    repair = [e for e in run.hub.history if isinstance(e, LLMCallStarted) and e.node_id == "critic"][1]
    assert notice.seq < repair.seq and repair.request["metadata"]["repair"] is True
    result = await execute(triad(), gateway=FakeGateway(lambda r: "not json" if r.metadata["role"] == "critic"
                                                         else default_reply(r)))
    assert result.status == "failed" and "no valid verdict, even after a repair round" in result.reason


@pytest.mark.asyncio
async def test_retryable_errors_are_retried_then_fail_the_node() -> None:
    failures = {"left": 1}

    def flaky(request: LLMRequest) -> Reply:
        if request.metadata["role"] == "planner" and failures["left"]:
            failures["left"] -= 1
            return RateLimitedError("slow down", provider="fake", model=request.model)
        return default_reply(request)

    result = await execute(triad(), gateway=FakeGateway(flaky))
    assert result.status == "succeeded"
    always = FakeGateway(lambda r: RateLimitedError("slow down", provider="fake", model=r.model))
    result = await execute(triad(), gateway=always)
    assert result.status == "failed" and "slow down" in result.reason
    assert len(always.requests) == 2  # one node-level retry on top of the gateway's own retries


@pytest.mark.asyncio
async def test_plan_events_and_verdict_link_to_the_judged_artifact() -> None:
    from engine.runtime import Run, compile_workflow

    run = Run(compile_workflow(triad()), gateway=FakeGateway(verdicts(("revise", 0.4))))
    await run.wait()
    outputs = {e.seq: e for e in run.hub.history if e.kind == "node_output"}
    for verdict in (e for e in run.hub.history if isinstance(e, VerdictIssued)):
        judged = outputs[verdict.artifact_seq]  # type: ignore[index]
        assert judged.node_id == "executor" and judged.round == verdict.round
    assert sum(isinstance(e, PlanEmitted) for e in run.hub.history) == 1


@pytest.mark.asyncio
async def test_a_loop_body_run_again_gives_a_reduce_every_answer_as_one_item() -> None:
    judge = verdicts(("revise", 0.3), ("approve", 0.9))

    def reply(request: LLMRequest) -> Reply:
        role = request.metadata.get("role")
        if role == "map":
            return f"answer to {request.metadata['task']}\nsecond line\nthird line"
        if role == "reduce":
            return "report"
        return judge(request)

    wf = build(
        [("goal", "input", {"name": "goal", "default": "make tea"}), ("planner", "planner", {}),
         ("answer", "map", {"prompt": "{item}"}), ("report", "reduce", {"mode": "llm", "prompt": "{items}"}),
         ("critic", "critic", {"max_rounds": 2}), ("result", "output", {"name": "result"})],
        ["goal.value->planner.goal", "goal.value->report.items", "planner.plan->answer.items",
         "answer.results->report.items", "report.result->critic.subject", "critic.verdict->planner.feedback", "critic.approved->result.value"])
    gateway = FakeGateway(reply)
    result = await execute(wf, gateway=gateway)
    assert result.status == "succeeded" and [v.decision for v in result.verdicts] == ["revise", "approve"]
    prompts = [r.messages[-1]["content"] for r in gateway.by_role("reduce")]
    assert len(prompts) == 2
    for prompt in prompts:  # the goal (not in the loop) and three answers of three lines each: four items
        items = [line for line in prompt.splitlines() if line.startswith("- ")]
        assert items[0] == "- make tea" and len(items) == 4
        assert all(item.startswith("- answer to ") for item in items[1:])


@pytest.mark.asyncio
async def test_every_state_of_an_execution_carries_its_round() -> None:
    from engine.events import NodeStateChanged
    from engine.runtime import Run, compile_workflow

    run = Run(compile_workflow(triad()), gateway=FakeGateway(verdicts(("revise", 0.3), ("approve", 0.9))))
    assert (await run.wait()).status == "succeeded"
    rounds: dict[str, set[int]] = {}
    for event in run.hub.history:
        if isinstance(event, NodeStateChanged) and event.span_id:
            rounds.setdefault(event.span_id, set()).add(event.round)
    executions = [e for e in run.hub.history if isinstance(e, NodeStateChanged) and e.node_id == "executor"]
    assert [(e.state, e.round) for e in executions] == [("running", 0), ("done", 0), ("running", 1), ("done", 1)]
    assert all(len(seen) == 1 for seen in rounds.values())  # running and its end agree, span by span
