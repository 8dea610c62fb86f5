"""Checks that run engine code are bounded (issue 14): a backtracking JSON Schema `pattern` no longer
freezes the event loop past the check's timeout, and an SQL query cannot grow the engine's memory."""

from __future__ import annotations

import asyncio
import json
import resource
import time

import pytest

from engine.checks import run_check
from engine.checks.bounded import call_bounded


async def _max_gap(task: asyncio.Task[object]) -> float:
    """The longest the loop went without running a 10 ms ticker while `task` ran."""
    gap, last = 0.0, time.monotonic()
    while not task.done():
        await asyncio.sleep(0.01)
        now = time.monotonic()
        gap, last = max(gap, now - last), now
    return gap


@pytest.mark.asyncio
async def test_a_backtracking_schema_pattern_is_stopped_at_the_timeout_and_the_loop_keeps_going() -> None:
    schema = json.dumps({"type": "string", "pattern": "^(a+)+$"})
    started = time.monotonic()
    task = asyncio.ensure_future(run_check("json_schema", schema, json.dumps("a" * 38 + "!"), timeout_s=2.0))
    gap = await _max_gap(task)
    verdict = task.result()
    assert time.monotonic() - started < 6.0
    assert gap < 0.5, f"the event loop stalled {gap:.2f} s"
    assert verdict.decision == "revise" and "did not finish within 2 s" in verdict.reasons[0]


@pytest.mark.asyncio
async def test_schema_checks_still_judge() -> None:
    schema = json.dumps({"type": "object", "required": ["n"], "properties": {"n": {"minimum": 0}}})
    assert (await run_check("json_schema", schema, '{"n": 3}', timeout_s=10)).decision == "approve"
    bad = await run_check("json_schema", schema, '{"n": -1}', timeout_s=10)
    assert bad.decision == "revise" and "$.n" in bad.reasons[0]
    assert (await run_check("json_schema", "{not json", "{}", timeout_s=10)).broken


@pytest.mark.asyncio
async def test_an_sql_query_cannot_grow_the_engine() -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    verdict = await run_check("sql", "db=shop.sqlite", "SELECT length(randomblob(400000000))", timeout_s=10)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert verdict.decision == "revise" and "too big" in " ".join(verdict.reasons), verdict
    assert grown_mb < 100, f"the engine grew {grown_mb:.0f} MB"


@pytest.mark.asyncio
async def test_the_bounded_child_has_a_memory_cap_and_no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-should-not-be-seen-0123456789")
    status, value = await call_bounded("os:getenv", {"key": "OPENAI_API_KEY"}, timeout_s=10)
    assert (status, value) == ("ok", None)
    status, value = await call_bounded("builtins:bytearray", {}, timeout_s=10)  # callable, tiny
    assert status == "ok"
    status, _ = await call_bounded("os:urandom", {"size": 900 << 20}, timeout_s=10, memory_bytes=256 << 20)
    assert status in ("error", "crash")
