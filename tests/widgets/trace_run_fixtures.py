"""Real runs for the Trace, Call inspector and Events panel tests: a bundled example run offline on the
simulated provider, recorded in a throwaway store, with its projection (whole, or fed batch by batch)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from engine.events import Event
from engine.graph.format import load_workflow
from engine.llm.sim import SimGateway
from engine.projection import RunProjection
from engine.runtime import compile_workflow
from engine.runtime.launch import follow, start_run
from engine.store.store import TraceStore

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "resources" / "examples"
EXAMPLES = ("triad", "research", "code_fix", "text_to_sql", "hanoi", "tools")


@dataclass
class RecordedRun:
    projection: RunProjection
    batches: list[list[Event]]
    store: TraceStore
    run_id: str


def record_example(name: str, db: Path) -> RecordedRun:
    """Run example `name` to its end on the simulated provider; its projection, batches and store."""
    wf = load_workflow(EXAMPLES_DIR / f"{name}.triadic.json")
    plan = compile_workflow(wf, base_dir=EXAMPLES_DIR)
    store = TraceStore(db)
    batches: list[list[Event]] = []

    async def go() -> RunProjection:
        run = start_run(plan, store=store, gateway=SimGateway())
        projection = RunProjection()
        await follow(run, projection, on_batch=lambda b: batches.append(list(b)))
        return projection

    projection = asyncio.run(go())
    return RecordedRun(projection, batches, store, projection.run_id)
