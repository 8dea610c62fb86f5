"""Every contract kind holds on a real run that keeps it and names the first violating event of one that
breaks it (simulated provider, bundled examples)."""

from __future__ import annotations

import pytest

from engine import events as ev
from tests.engine.contracts.contract_runs import check_one, event_at, example, gated_tools_doc

pytestmark = pytest.mark.asyncio


async def test_reviewed_before_output_holds_when_a_critic_judges_every_executor_output() -> None:
    result, _ = await check_one(example("triad"), {"kind": "reviewed_before_output"})
    assert result.passed and result.seq is None


async def test_reviewed_before_output_names_the_output_an_unreviewed_result_reached() -> None:
    result, events = await check_one(example("tools"), {"kind": "reviewed_before_output"})
    assert not result.passed
    bad = event_at(events, result.seq)
    assert isinstance(bad, ev.NodeOutput) and bad.node_id in ("answer", "words")
    assert "'solver'" in result.reason and "no critic's verdict" in result.reason


async def test_max_calls_counts_model_calls_in_scope() -> None:
    ok, _ = await check_one(example("triad"), {"kind": "max_calls", "max_calls": 40})
    assert ok.passed
    scoped, _ = await check_one(example("triad"), {"kind": "max_calls", "max_calls": 1, "nodes": ["planner"]})
    assert scoped.passed
    broken, events = await check_one(example("triad"), {"kind": "max_calls", "max_calls": 3, "roles": ["executor"]})
    calls = [e for e in events if isinstance(e, ev.LLMCallStarted) and e.node_id == "executor"]
    assert not broken.passed and broken.seq == calls[3].seq
    assert "model call 4" in broken.reason


async def test_max_cost_names_the_call_that_crossed_it() -> None:
    ok, _ = await check_one(example("triad"), {"kind": "max_cost", "max_cost": 0.05})
    assert ok.passed
    broken, events = await check_one(example("triad"), {"kind": "max_cost", "max_cost": 0.0001})
    assert not broken.passed
    assert isinstance(event_at(events, broken.seq), ev.LLMCallFinished) and "over $0.0001" in broken.reason


async def test_max_tokens_names_the_call_that_crossed_it() -> None:
    ok, _ = await check_one(example("triad"), {"kind": "max_tokens", "max_tokens": 50_000})
    assert ok.passed
    broken, events = await check_one(example("triad"), {"kind": "max_tokens", "max_tokens": 500})
    running, crossed = 0, None
    for e in events:
        if isinstance(e, ev.LLMCallFinished) and crossed is None:
            running += e.tokens_in + e.tokens_out
            crossed = e.seq if running > 500 else None
    assert not broken.passed and broken.seq == crossed
    assert f"reached {running:,}" in broken.reason and "over 500" in broken.reason


async def test_approve_score_checks_every_approving_verdict() -> None:
    ok, _ = await check_one(example("triad"), {"kind": "approve_score", "min_score": 0.7})
    assert ok.passed
    broken, events = await check_one(example("triad"), {"kind": "approve_score", "min_score": 0.95})
    verdict = event_at(events, broken.seq)
    assert not broken.passed and isinstance(verdict, ev.VerdictIssued) and verdict.decision == "approve"
    assert verdict.score < 0.95


async def test_max_duration_holds_for_a_quick_run_and_names_where_a_slow_one_went_past() -> None:
    ok, _ = await check_one(example("triad"), {"kind": "max_duration", "max_seconds": 120})
    assert ok.passed
    broken, events = await check_one(example("triad"), {"kind": "max_duration", "max_seconds": 0.001})
    assert not broken.passed and event_at(events, broken.seq).ts > 0.001
    assert "past 0.001 s" in broken.reason


async def test_gated_tool_writes_breaks_without_a_gate_and_holds_after_an_approval() -> None:
    contract = {"kind": "gated_tool_writes", "tools": ["calculator"]}
    broken, events = await check_one(example("tools"), contract)
    bad = event_at(events, broken.seq)
    assert not broken.passed and isinstance(bad, ev.ToolCallStarted) and bad.tool == "calculator"
    ok, events = await check_one(gated_tools_doc(), contract)
    assert ok.passed
    approved = next(e for e in events if isinstance(e, ev.HumanDecisionMade))
    assert approved.seq < next(e.seq for e in events if isinstance(e, ev.ToolCallStarted))


async def test_no_call_after_budget_holds_on_a_run_cut_by_its_budget() -> None:
    doc = example("triad")
    doc["settings"]["budget"]["max_tokens"] = 800
    result, events = await check_one(doc, {"kind": "no_call_after_budget"})
    assert any(isinstance(e, ev.BudgetExceeded) for e in events)
    assert result.passed
