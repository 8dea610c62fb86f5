"""Property: every run of a random valid workflow, against a model answering at random (malformed
JSON, revise / reject verdicts, unknown routes, provider errors), ends with a final status within
its loop bounds — whatever the human step answers, or with none. 25 examples each by default;
`TRIADIC_PROPERTY_EXAMPLES=300` searches further (both pass at 300, ~30 s)."""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.graph.generate import generate_workflow
from engine.llm.types import LLMRequest, ProviderUnavailableError
from engine.runtime import HumanPolicy, Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, Reply


def chaos(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)

    def reply(request: LLMRequest) -> Reply:
        roll = rng.random()
        role = request.metadata.get("role")
        if roll < 0.05:
            return ProviderUnavailableError("boom", provider="chaos", model=request.model)
        if roll < 0.12:
            return "{not json"
        if role == "planner":
            n = rng.randint(1, 4)
            return json.dumps({"tasks": [{"id": f"t{i}", "task": f"step {i}",
                                          "depends_on": [f"t{rng.randrange(i)}"] if i and rng.random() < 0.5 else []}
                                         for i in range(n)]})
        if role == "critic":
            return json.dumps({"decision": rng.choice(["approve", "revise", "reject"]), "score": rng.random()})
        if role == "router":
            return rng.choice([*request.metadata.get("routes", []), "nowhere"])
        return f"answer {rng.randint(0, 3)}"

    return reply


@pytest.mark.asyncio
@settings(max_examples=int(os.environ.get("TRIADIC_PROPERTY_EXAMPLES", 25)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(2, 30), seed=st.integers(0, 10_000), density=st.sampled_from([1.0, 1.5, 2.0]),
       human=st.sampled_from(["reject", "approve", None]))
async def test_every_run_terminates_with_a_final_status(n: int, seed: int, density: float, human: str | None) -> None:
    """Whatever the human step answers (or with none), the recovery ladder and every loop end."""
    wf = generate_workflow(n, edges_per_node=density, seed=seed)
    for node in wf.nodes.values():
        if node.role == "verifier":  # keep the property test in-process: a regex check, no subprocess
            wf.set_param(node.id, "check", "regex")
            wf.set_param(node.id, "expression", "answer [12]")
    plan = compile_workflow(wf)
    run = Run(plan, gateway=FakeGateway(chaos(seed)), human=HumanPolicy(human) if human else None)  # type: ignore[arg-type]
    result = await asyncio.wait_for(run.wait(), 30)
    assert result.status in ("succeeded", "failed")
    assert run.hub.history[-1].kind == "run_finished"
    assert all(run.state(nid) in ("done", "failed", "skipped") for nid in plan.nodes)
    judged = Counter(v.node_id for v in result.verdicts)
    for node_id, count in judged.items():
        node = plan.nodes[node_id]
        if node.role in ("critic", "verifier"):
            replans = sum(int(p.param("max_replans")) for p in plan.nodes.values() if p.role == "planner")
            assert count <= int(node.param("max_rounds")) + replans + 1


@pytest.mark.asyncio
@settings(max_examples=int(os.environ.get("TRIADIC_PROPERTY_EXAMPLES", 25)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(2, 30), seed=st.integers(0, 10_000), max_calls=st.integers(1, 12),
       max_tokens=st.sampled_from([0, 40, 150, 600]))
@example(n=6, seed=0, max_calls=1, max_tokens=40)  # a 2nd node crossed the budget while the 1st's hit was on its way
async def test_run_budgets_bound_every_random_run(n: int, seed: int, max_calls: int, max_tokens: int) -> None:
    """The same chaos under a run's model-call and token budgets: the run ends with a final status (the
    budget's, when one is hit: never "cancelled"), starts no more than `max_calls` model calls, and
    none once the tokens it has used are past `max_tokens`."""
    wf = generate_workflow(n, edges_per_node=1.5, seed=seed)
    for node in wf.nodes.values():
        if node.role == "verifier":
            wf.set_param(node.id, "check", "regex")
            wf.set_param(node.id, "expression", "answer [12]")
    wf.settings.budget = replace(wf.settings.budget, max_model_calls=max_calls, max_tokens=max_tokens)
    run = Run(compile_workflow(wf), gateway=FakeGateway(chaos(seed)), human=HumanPolicy("reject"))
    result = await asyncio.wait_for(run.wait(), 30)
    assert result.status in ("succeeded", "failed", "budget_exceeded")
    assert run.hub.history[-1].kind == "run_finished"
    assert sum(e.kind == "llm_started" for e in run.hub.history) <= max_calls
    used = 0
    for event in run.hub.history:
        if event.kind == "budget":  # BudgetUpdated: the run's usage after each call
            used = event.tokens  # type: ignore[attr-defined]
        elif event.kind == "llm_started":
            assert not max_tokens or used <= max_tokens
    if result.status == "budget_exceeded":
        exceeded = [e for e in run.hub.history if e.kind == "budget_exceeded"]
        assert len(exceeded) == 1 and exceeded[0].budget in ("model_calls", "tokens")
