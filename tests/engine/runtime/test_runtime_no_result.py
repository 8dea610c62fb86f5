"""A run that ends with no value on any Output says why: the node upstream that held the value back.

Covers `engine.runtime.no_result` through whole runs (offline fakes): a human gate that rejected (with
the person's reason), the skipped nodes between it and the Output, a router that sent the value down
another route, a critic without a revise loop that did not approve, and Outputs sharing one cause.
Invariant checked: the run still fails (no result, no success), and its `RunFinished` says the same.
"""

from __future__ import annotations

import json

import pytest

from engine.events import RunFinished
from engine.llm.types import LLMRequest
from engine.runtime import HumanPolicy, Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, Reply, build, default_reply


async def _finish(run: Run) -> tuple[str, str]:
    result = await run.wait()
    finished = next(e for e in run.hub.history if isinstance(e, RunFinished))
    assert (finished.status, finished.reason) == (result.status, result.reason)
    assert result.outputs == {}
    return result.status, result.reason


@pytest.mark.asyncio
async def test_a_rejecting_human_gate_is_named_with_the_persons_reason_and_what_was_skipped() -> None:
    wf = build([("goal", "input", {"name": "goal", "default": "a haiku"}), ("draft", "executor", {}),
                ("gate", "human_gate", {"prompt": "Ship it?"}), ("polish", "executor", {}),
                ("out", "output", {"name": "result"})],
               ["goal.value->draft.task", "draft.result->gate.subject", "gate.approved->polish.task",
                "polish.result->out.value"])
    policy = HumanPolicy(lambda node, prompt, artifact: ("reject", None, "too long"))
    status, reason = await _finish(Run(compile_workflow(wf), gateway=FakeGateway(), human=policy))  # type: ignore[arg-type]
    assert status == "failed"
    assert reason == ("no result: Output 'Out' (out) received no value: Human gate 'Gate' (gate) rejected it "
                      "(human reject: too long), so Executor 'Polish' (polish) was skipped")


@pytest.mark.asyncio
async def test_a_router_that_sent_the_value_elsewhere_is_named_once_for_every_output_it_starved() -> None:
    wf = build([("goal", "input", {"name": "goal", "default": "hi"}),
                ("r", "router", {"routes": ["long", "short"], "condition": "len(text) > 10"}),
                ("a", "output", {"name": "a"}), ("b", "output", {"name": "b"})],
               ["goal.value->r.value", "r.long->a.value", "r.long->b.value"])
    status, reason = await _finish(Run(compile_workflow(wf), gateway=FakeGateway()))  # type: ignore[arg-type]
    assert status == "failed"
    assert reason == ("no result: Output 'A' (a), Output 'B' (b) received no value: "
                      "Router 'R' (r) sent the value to 'short'")


def _unconvinced(request: LLMRequest) -> Reply:
    if request.metadata.get("role") == "critic":
        return json.dumps({"decision": "revise", "score": 0.4, "reasons": ["too vague", "no steps"], "claims": []})
    return default_reply(request)


@pytest.mark.asyncio
async def test_a_critic_without_a_revise_loop_that_did_not_approve_is_named_with_its_verdict() -> None:
    wf = build([("goal", "input", {"name": "goal", "default": "make tea"}), ("executor", "executor", {}),
                ("critic", "critic", {}), ("out", "output", {"name": "result"})],
               ["goal.value->executor.task", "executor.result->critic.subject", "critic.approved->out.value"])
    status, reason = await _finish(Run(compile_workflow(wf), gateway=FakeGateway(_unconvinced)))  # type: ignore[arg-type]
    assert status == "failed"
    assert reason == ("no result: Output 'Out' (out) received no value: Critic 'Critic' (critic) did not "
                      "approve it (revise, score 0.40: too vague; no steps)")
