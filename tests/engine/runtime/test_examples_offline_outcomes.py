"""End to end, offline: the code-fix and Tower-of-Hanoi examples demonstrate their loop on the
simulated provider (its "code_fix" and "hanoi" oracles) and end `succeeded` for the right reason."""

from __future__ import annotations

import importlib
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from engine.events import LLMCallFinished, LLMCallStarted, PlanEmitted
from engine.graph.format import load_workflow
from engine.graph.model import Workflow
from engine.llm.sim import SimGateway
from engine.runtime import Run, RunResult, compile_workflow

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
hanoi_checker = importlib.import_module("resources.examples.data.hanoi")


async def run(wf: Workflow) -> tuple[Run, RunResult]:
    started = Run(compile_workflow(wf, base_dir=EXAMPLES), gateway=SimGateway())
    result = await started.wait()
    return started, result


@pytest.mark.asyncio
async def test_code_fix_goes_red_then_green_with_the_failures_fed_back() -> None:
    wf = load_workflow(EXAMPLES / "code_fix.triadic.json")
    started, result = await run(wf)
    assert result.status == "succeeded", result.reason
    assert [v.decision for v in result.verdicts] == ["revise", "approve"]
    assert any("FAILED parse_duration" in r for r in result.verdicts[0].reasons)
    coder_prompts = [e.request["messages"][-1]["content"] for e in started.hub.history
                     if isinstance(e, LLMCallStarted) and e.node_id == "coder"]
    assert len(coder_prompts) == 2 and "FAILED parse_duration" in coder_prompts[1]
    code = result.outputs["code"]
    reference = (EXAMPLES / "data" / "code_fix" / "reference_solution.py").read_text()
    assert "# Revision 1: fixed what the tests reported:" in code and reference.split('"""')[-1].strip() in code
    first = next(e.content for e in started.hub.history if isinstance(e, LLMCallFinished) and e.node_id == "coder")
    assert "for number, unit in re.findall" in first and '"""' not in first  # the starter, docstring left out


@pytest.mark.asyncio
async def test_code_fix_run_is_deterministic_for_the_seed() -> None:
    wf = load_workflow(EXAMPLES / "code_fix.triadic.json")
    _, one = await run(wf)
    _, two = await run(wf)
    assert one.outputs == two.outputs and (one.tokens_in, one.tokens_out) == (two.tokens_in, two.tokens_out)


@pytest.mark.asyncio
async def test_code_fix_without_the_oracle_still_fails_on_the_plain_simulator() -> None:
    wf = load_workflow(EXAMPLES / "code_fix.triadic.json")
    wf.set_param("coder", "sim", {"output": "python"})
    _, result = await run(wf)
    assert result.status == "failed" and "not approved after 4 revision(s)" in result.reason


@pytest.mark.asyncio
async def test_hanoi_votes_out_the_slips_and_the_checker_approves() -> None:
    wf = load_workflow(EXAMPLES / "hanoi.triadic.json")
    started, result = await run(wf)
    assert result.status == "succeeded", result.reason
    assert result.verdicts[-1].node_id == "check" and result.verdicts[-1].decision == "approve"
    plan = next(e for e in started.hub.history if isinstance(e, PlanEmitted))
    assert len(plan.tasks) == 15
    task_of_span: dict[str, str] = {}
    samples: dict[str, list[str]] = defaultdict(list)
    for event in started.hub.history:
        if isinstance(event, LLMCallStarted) and event.node_id == "vote":
            task_of_span[event.span_id] = event.request["metadata"]["task_id"]
        if isinstance(event, LLMCallFinished) and event.node_id == "vote":
            samples[task_of_span[event.span_id]].append(event.content)
    assert sum(len(s) for s in samples.values()) == 5 * 15
    disagreeing = [t for t, s in samples.items() if len(set(s)) > 1]
    assert disagreeing, "no vote step had a wrong sample to correct"
    assert hanoi_checker.verdict(result.outputs["moves"], 4)["decision"] == "approve"


@pytest.mark.asyncio
async def test_hanoi_with_high_error_rate_and_one_sample_is_caught_by_the_checker() -> None:
    wf = load_workflow(EXAMPLES / "hanoi.triadic.json")
    wf.set_param("vote", "k", 1)
    wf.set_param("vote", "sim", {"oracle": "hanoi", "error_rate": 0.6})
    wf.set_settings(replace(wf.settings, seed=3))
    _, result = await run(wf)
    assert result.verdicts[-1].decision == "revise"  # no vote, no correction: the slips stay in
    assert "moves" not in result.outputs and result.outputs["check"]["decision"] == "revise"
