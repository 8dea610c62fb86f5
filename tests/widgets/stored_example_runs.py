"""The bundled examples run once per test session offline (simulated provider) into a trace store, for
the Timeline and Cost & tokens panel tests: the stored events, the store's run summary and spans."""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.events import Event
from engine.graph.format import load_workflow
from engine.llm.sim import SimGateway
from engine.projection import RunProjection
from engine.runtime import compile_workflow
from engine.runtime.launch import follow, start_run
from engine.store import TraceStore
from engine.store.records import RunSummary, SpanRecord

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
NAMES = ("triad", "research", "code_fix", "text_to_sql", "hanoi", "tools")


@dataclass(frozen=True)
class StoredRun:
    events: list[Event]
    summary: RunSummary
    spans: list[SpanRecord]


@cache
def stored_run(name: str) -> StoredRun:
    plan = compile_workflow(load_workflow(EXAMPLES / f"{name}.triadic.json"), base_dir=EXAMPLES)
    store = TraceStore(Path(tempfile.mkdtemp(prefix="triadic-13d-")) / "trace.db")

    async def go() -> str:
        run = start_run(plan, store=store, gateway=SimGateway())
        await follow(run, RunProjection(keep_events=False))
        return run.run_id

    run_id = asyncio.run(go())
    summary = store.get_run(run_id)
    assert summary is not None
    result = StoredRun(list(store.iter_events(run_id)), summary, store.spans(run_id))
    store.close()
    return result
