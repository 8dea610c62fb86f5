"""Before a run starts: the models it will call, and a missing API key failing it before any call."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.events import LLMCallStarted, NodeStateChanged
from engine.graph.format import load_workflow
from engine.llm.gateway import Gateway
from engine.llm.keys import KeyResolver
from engine.llm.prices import PriceTable
from engine.runtime import Run, compile_workflow
from engine.runtime.preflight import missing_keys, models_called, models_in_use
from tests.engine.runtime.fakes import FakeGateway, build, triad

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"


def _gateway(**environ: str) -> Gateway:
    return Gateway(keys=KeyResolver(environ=environ, keyring_get=None), prices=PriceTable({}))


def test_models_in_use_are_the_calling_nodes_with_overrides_applied() -> None:
    wf = build(
        [("in", "input", {"name": "goal"}), ("plan", "planner", {"model": "openai/gpt-4o-mini"}),
         ("pick", "router", {"mode": "condition", "routes": ["a", "b"], "model": "anthropic/claude-x"}),
         ("ask", "router", {"mode": "classifier", "routes": ["c", "d"], "model": "groq/llama"}),
         ("join", "reduce", {"mode": "concat", "model": "mistral/small"}),
         ("sum", "reduce", {"model": "sim/default", "api_base": "http://127.0.0.1:9/v1"}),
         ("check", "verifier", {})],
        ["in.value->plan.goal", "plan.plan->pick.value", "pick.a->ask.value", "ask.c->join.items",
         "plan.plan->sum.items", "join.result->check.subject"])
    uses = models_in_use(compile_workflow(wf), {"planner": "openai/gpt-4o"})
    assert sorted((u.model, u.api_base, u.node) for u in uses) == [
        ("groq/llama", None, "Ask (ask)"), ("openai/gpt-4o", None, "Plan (plan)"),
        ("sim/default", "http://127.0.0.1:9/v1", "Sum (sum)")]
    # the lean walk a run's start takes (no labels) names the same models, routers and reduces alike
    assert models_called(compile_workflow(wf), {"planner": "openai/gpt-4o"}) == {(u.model, u.api_base) for u in uses}


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.triadic.json")))
def test_models_called_are_the_models_in_use_of_every_example(example: str) -> None:
    plan = compile_workflow(load_workflow(EXAMPLES / example))
    for overrides in ({}, {"executor": "sim/strong", "critic": "openai/gpt-4o"}):
        assert models_called(plan, overrides) == {(use.model, use.api_base) for use in models_in_use(plan, overrides)}


def test_only_models_that_need_a_key_without_one_are_reported() -> None:
    wf = triad()
    wf.set_param("executor", "model", "openai/gpt-4o-mini")
    wf.set_param("critic", "model", "openai/gpt-4o")
    plan = compile_workflow(wf)
    [line] = missing_keys(plan, {}, _gateway())
    assert line == ("openai/gpt-4o-mini, openai/gpt-4o (used by Executor (executor), Critic (critic)): openai: "
                    "no API key: set the environment variable OPENAI_API_KEY or store it with "
                    "`triadic keys set openai`")
    assert missing_keys(plan, {}, _gateway(OPENAI_API_KEY="sk-test-0123456789")) == []
    assert missing_keys(plan, {"executor": "sim/default", "critic": "my-model"}, _gateway()) == []  # the call tells
    [line] = missing_keys(plan, {"executor": "gpt-4o-mini", "critic": "o3-mini"}, _gateway())  # litellm: OpenAI
    assert line.startswith("gpt-4o-mini, o3-mini (used by Executor (executor), Critic (critic)): openai: no API key")
    wf.set_param("executor", "api_base", "http://127.0.0.1:8000/v1")
    wf.set_param("critic", "model", "ollama/llama3")
    assert missing_keys(compile_workflow(wf), {}, _gateway()) == []  # a server of one's own, a keyless provider
    assert missing_keys(plan, {}, FakeGateway()) == []  # a gateway that cannot tell is not asked


@pytest.mark.asyncio
async def test_a_missing_key_fails_the_run_before_any_node_runs(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from engine.store import TraceStore

    wf = triad()
    wf.set_param("critic", "model", "anthropic/claude-3-5-haiku")
    store = TraceStore(tmp_path / "t.db")
    run = Run(compile_workflow(wf), gateway=_gateway(), store=store)
    result = await run.wait()
    assert result.status == "failed" and result.reason.startswith("cannot start: anthropic/claude-3-5-haiku "
                                                                   "(used by Critic (critic)): anthropic: no API key")
    assert "ANTHROPIC_API_KEY" in result.reason
    assert not any(isinstance(e, (LLMCallStarted, NodeStateChanged)) for e in run.hub.history)
    summary = store.get_run(run.run_id)
    assert summary is not None and summary.status == "failed" and summary.reason == result.reason
    store.close()
