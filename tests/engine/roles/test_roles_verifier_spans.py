"""A verifier's check span (`check.<kind>`) always closes: on a cancel, a deadline, and a failing check.

Invariant under test: in a finished run, every `ToolCallStarted` of a check has its one
`ToolCallFinished` — "cancelled" when the run's cancel or its deadline cut the check while it ran,
the check's error when the check raised — so no check is shown running in a finished run.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import engine.checks
from engine.checks.verdict import Verdict
from engine.events import ToolCallFinished, ToolCallStarted
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, build


def verified(**settings: float) -> Any:
    return build([("in", "input", {}), ("v", "verifier", {"check": "regex", "expression": "ok"}),
                  ("o", "output", {})], ["in.value->v.subject", "v.passed->o.value"], **settings)


async def slow_check(kind: str, expression: str, subject: Any, *, timeout_s: float, **_: Any) -> Verdict:
    await asyncio.sleep(30)
    raise AssertionError("the check should have been cut")


async def failing_check(kind: str, expression: str, subject: Any, *, timeout_s: float, **_: Any) -> Verdict:
    raise RuntimeError("sandbox vanished")


def check_spans(run: Run) -> tuple[list[ToolCallStarted], dict[str, ToolCallFinished]]:
    started = [e for e in run.hub.history if isinstance(e, ToolCallStarted) and e.node_id == "v"]
    finished = [e for e in run.hub.history if isinstance(e, ToolCallFinished) and e.node_id == "v"]
    assert len(finished) == len({e.span_id for e in finished})  # one close per span
    return started, {e.span_id: e for e in finished}


async def started_check(run: Run) -> None:
    while not any(isinstance(e, ToolCallStarted) for e in run.hub.history):
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_a_cancel_while_the_check_runs_closes_its_span_as_cancelled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.checks, "run_check", slow_check)
    run = Run(compile_workflow(verified()), gateway=FakeGateway(), inputs={"goal": "ok"})
    run.start()
    await asyncio.wait_for(started_check(run), 5)
    run.cancel()
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "cancelled" and run.state("v") == "cancelled"
    started, finished = check_spans(run)
    assert [e.tool for e in started] == ["check.regex"]
    closed = finished[started[0].span_id]
    assert (closed.tool, closed.error, closed.result) == ("check.regex", "cancelled", None)
    assert run.hub.history[-1].kind == "run_finished"


@pytest.mark.asyncio
async def test_a_deadline_cutting_the_check_closes_its_span_as_cancelled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.checks, "run_check", slow_check)
    run = Run(compile_workflow(verified(deadline_s=0.2)), gateway=FakeGateway(), inputs={"goal": "ok"})
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "budget_exceeded" and "deadline_s" in result.reason
    started, finished = check_spans(run)
    assert len(started) == 1 and finished[started[0].span_id].error == "cancelled"


@pytest.mark.asyncio
async def test_a_check_that_raises_closes_its_span_with_the_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.checks, "run_check", failing_check)
    run = Run(compile_workflow(verified()), gateway=FakeGateway(), inputs={"goal": "ok"})
    result = await asyncio.wait_for(run.wait(), 5)
    assert result.status == "failed" and run.state("v") == "failed" and "sandbox vanished" in result.reason
    started, finished = check_spans(run)
    assert len(started) == 1
    assert finished[started[0].span_id].error == "RuntimeError: sandbox vanished"


@pytest.mark.asyncio
async def test_a_check_that_runs_records_its_verdict_once() -> None:
    run = Run(compile_workflow(verified()), gateway=FakeGateway(), inputs={"goal": "all ok"})
    result = await asyncio.wait_for(run.wait(), 10)
    assert result.status == "succeeded" and result.outputs == {"result": "all ok"}
    started, finished = check_spans(run)
    closed = finished[started[0].span_id]
    assert closed.error is None and closed.result["decision"] == "approve"
