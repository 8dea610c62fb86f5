"""Gated memory writes in real runs over the trace store: a write is admitted only when its gate
verdict approves; a refused one is kept in the memory's history with the reason it was refused (the
gate's decision, score and reasons — or that no verdict came), and a workflow-scoped value outlives
the run that wrote it while a run-scoped one does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.events import MemoryWritten
from engine.runtime import Run, compile_workflow
from engine.store import TraceStore
from tests.engine.runtime.fakes import FakeGateway, build


def _writer(scope: str, pattern: str, *, gate: bool = True) -> Any:
    """goal → regex verifier (approves when the goal matches `pattern`) → gated memory write."""
    edges = ["goal.value->check.subject", "goal.value->mem.value", "mem.value->out.value"]
    return build([("goal", "input", {"name": "goal"}),
                  ("check", "verifier", {"check": "regex", "expression": pattern}),
                  ("mem", "memory", {"memory": "notes", "scope": scope, "key": "k", "gated": True}),
                  ("out", "output", {"name": "value"})],
                 edges + (["check.verdict->mem.gate"] if gate else []))


def _reader(scope: str) -> Any:
    return build([("mem", "memory", {"memory": "notes", "scope": scope, "key": "k", "mode": "read"}),
                  ("out", "output", {"name": "seen"})], ["mem.value->out.value"])


async def _run(store: TraceStore, wf: Any, **inputs: Any) -> tuple[Run, Any]:
    run = Run(compile_workflow(wf), gateway=FakeGateway(), store=store, inputs=inputs)
    return run, await run.wait()


@pytest.mark.asyncio
async def test_refused_writes_say_why_and_scopes_hold_across_runs(tmp_path: Path) -> None:
    with TraceStore(tmp_path / "t.db") as store:
        _, first = await _run(store, _writer("workflow", "^ok"), goal="ok first")
        assert first.status == "succeeded" and first.outputs["value"] == "ok first"
        run, second = await _run(store, _writer("workflow", "^ok"), goal="bad second")
        assert second.outputs["value"] == "ok first"  # refused: the memory keeps the approved value
        refused = next(e for e in run.hub.history if isinstance(e, MemoryWritten))
        assert not refused.admitted
        assert refused.reason.startswith("gate verdict was ") and "score 0.00" in refused.reason
        run, _ = await _run(store, _writer("workflow", "^ok", gate=False), goal="ok but ungated")
        unguarded = next(e for e in run.hub.history if isinstance(e, MemoryWritten))
        assert not unguarded.admitted and "without a gate verdict" in unguarded.reason
        _, seen = await _run(store, _reader("workflow"))
        assert seen.outputs["seen"] == "ok first"  # persisted in the store, read by a later run
        history = store.memory_history("notes", "workflow", "wf-test")
        assert [(e.value, e.admitted) for e in history] == [
            ("ok first", True), ("bad second", False), ("ok but ungated", False)]
        assert history[1].reason == refused.reason
        await _run(store, _writer("run", "^ok"), goal="ok in a run")
        _, later = await _run(store, _reader("run"))
        assert later.outputs["seen"] is None  # a run-scoped value ends with its run
