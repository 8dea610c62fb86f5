"""A critic-selected vote judges its samples at once; a judge reply that is no verdict leaves its
sample unscored (with a warning), and when the judge scores none the majority decides."""

from __future__ import annotations

import json

import pytest

from engine.events import LogMessage
from engine.llm.types import LLMRequest
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, Reply, build


def _vote(judge: dict[str, str]) -> tuple[Run, FakeGateway]:
    """k=3 samples "one", "two", "two"; the judge answers per sample text from `judge`."""
    def reply(req: LLMRequest) -> Reply:
        if req.metadata["role"] == "critic":
            return next(v for k, v in judge.items() if f"\n\n{k}\n\n" in req.messages[-1]["content"])
        return ["one", "two", "two"][req.metadata["sample"]]

    wf = build([("in", "input", {}), ("v", "vote", {"k": 3, "mode": "critic"}), ("o", "output", {})],
               ["in.value->v.task", "v.result->o.value"])
    gateway = FakeGateway(reply, latency_s=0.05)
    return Run(compile_workflow(wf), gateway=gateway, inputs={"goal": "pick"}), gateway


def _logs(run: Run) -> list[tuple[str, str]]:
    return [(e.level, e.message) for e in run.hub.history if isinstance(e, LogMessage)]


@pytest.mark.asyncio
async def test_the_judge_scores_the_samples_at_once_and_skips_a_reply_that_is_no_verdict() -> None:
    run, gateway = _vote({"one": json.dumps({"decision": "approve", "score": 0.7}), "two": "I like it"})
    assert (await run.wait()).outputs == {"result": "one"}
    assert gateway.peak >= 3  # the three judge calls (and the samples) ran at once
    logs = _logs(run)
    assert [lvl for lvl, _ in logs] == ["warning", "warning", "info"]
    assert "the judge's reply on sample 2 was not a verdict" in logs[0][1]
    assert logs[-1][1].startswith("vote: the judge scored the 3 samples 0.70, -, -; kept sample 1")


@pytest.mark.asyncio
async def test_with_no_sample_scored_the_majority_decides() -> None:
    run, _ = _vote({"one": "no idea", "two": "no idea"})
    assert (await run.wait()).outputs == {"result": "two"}
    assert any("the judge scored no sample; the majority decides" in m for _, m in _logs(run))
    assert _logs(run)[-1][1] == "vote: 2 of 3 samples agree on 'two'; others: 'one' (1)"
