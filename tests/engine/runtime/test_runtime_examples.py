"""End to end: every shipped example runs offline on the simulated provider; assertions on its trace."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.events import BudgetExceeded, MemoryWritten, PlanEmitted, ToolCallFinished
from engine.graph.format import load_workflow
from engine.llm.sim import SimGateway
from engine.llm.types import LLMRequest
from engine.runtime import Run, RunResult, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, Reply, default_reply

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
DATA = EXAMPLES / "data" / "code_fix"


async def run_example(name: str, gateway: object | None = None) -> tuple[Run, RunResult]:
    wf = load_workflow(EXAMPLES / f"{name}.triadic.json")
    run = Run(compile_workflow(wf, base_dir=EXAMPLES), gateway=gateway or SimGateway())  # type: ignore[arg-type]
    result = await run.wait()
    limits = wf.settings.budget
    assert result.tokens_in + result.tokens_out <= limits.max_tokens
    assert result.cost_usd <= limits.max_cost_usd and result.duration_s <= limits.deadline_s
    assert not any(isinstance(e, BudgetExceeded) for e in run.hub.history)
    assert run.hub.history[-1].kind == "run_finished"
    return run, result


@pytest.mark.asyncio
async def test_triad_example() -> None:
    run, result = await run_example("triad")
    assert result.status == "succeeded" and result.outputs["result"].startswith("## t1")
    assert result.verdicts and result.verdicts[-1].decision == "approve"
    assert any(isinstance(e, PlanEmitted) for e in run.hub.history)


@pytest.mark.asyncio
async def test_research_example_reviews_claims_and_replans_on_revise() -> None:
    run, result = await run_example("research")
    assert result.status == "succeeded" and result.outputs["report"]
    assert [v.decision for v in result.verdicts] == ["revise", "approve"]
    assert [e.replan for e in run.hub.history if isinstance(e, PlanEmitted)] == [0, 1]  # the revise is a replan
    [kept] = [e for e in run.hub.history if isinstance(e, MemoryWritten)]  # the approved report, gated
    assert kept.admitted and kept.memory == "reports" and kept.value == result.outputs["report"]
    assert all(v.judge_model == "sim/claude-3-5-haiku" for v in result.verdicts)


@pytest.mark.asyncio
async def test_text_to_sql_example_heals_its_query_from_the_sqlite_error() -> None:
    run, result = await run_example("text_to_sql")
    assert result.status == "succeeded" and "ORDER BY signup_date DESC" in result.outputs["query"]
    checks = [e for e in run.hub.history if isinstance(e, ToolCallFinished)]
    assert [c.tool for c in checks] == ["check.sql", "check.sql"]
    assert [c.result["decision"] for c in checks] == ["revise", "approve"]  # it heals: a wrong column, then fixed
    assert "no such column: signed_up" in checks[0].result["reasons"][0]
    assert "-- Revision 1: fixed what the check reported:" in result.outputs["query"]


@pytest.mark.asyncio
async def test_hanoi_example_votes_every_step_and_records_the_check() -> None:
    run, result = await run_example("hanoi")
    assert result.status == "succeeded" and set(result.outputs) == {"moves", "check"}
    plan = next(e for e in run.hub.history if isinstance(e, PlanEmitted))
    samples = [e for e in run.hub.history if e.kind == "llm_started" and e.node_id == "vote"]
    assert len(samples) == 5 * len(plan.tasks)
    assert result.verdicts[0].node_id == "check" and result.outputs["check"]["decision"] == result.verdicts[0].decision


@pytest.mark.asyncio
async def test_code_fix_example_loops_until_green() -> None:
    starter, fixed = (DATA / "starter.py").read_text(), (DATA / "reference_solution.py").read_text()

    def coder(request: LLMRequest) -> Reply:
        if request.metadata["role"] == "executor":
            return starter if request.metadata["round"] == 0 else fixed
        return default_reply(request)

    _run, result = await run_example("code_fix", FakeGateway(coder))
    assert result.status == "succeeded" and "def parse_duration" in result.outputs["code"]
    assert [v.decision for v in result.verdicts] == ["revise", "approve"]
    assert any("FAILED" in r for r in result.verdicts[0].reasons)


@pytest.mark.asyncio
async def test_a_run_with_a_trace_store_records_the_workflow_run_and_events(tmp_path: Path) -> None:
    from engine.store import TraceStore

    store = TraceStore(tmp_path / "trace.db")
    wf = load_workflow(EXAMPLES / "research.triadic.json")
    run = Run(compile_workflow(wf), gateway=SimGateway(), store=store)
    result = await run.wait()
    summary = store.get_run(run.run_id)
    assert summary is not None and summary.status == result.status == "succeeded"
    assert summary.workflow_hash == run.plan.workflow_hash and store.workflow_version(summary.workflow_hash)
    assert len(store.verdicts(run.run_id)) == len(result.verdicts)
    stored_kinds = {e.kind for e in store.iter_events(run.run_id)}
    assert {"run_started", "node_state", "llm_started", "verdict", "run_finished"} <= stored_kinds
    store.close()
