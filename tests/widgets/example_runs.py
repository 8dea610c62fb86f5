"""Real runs for the run docks' tests: a bundled example run offline on the simulated provider, recorded
in a throwaway store, folded into a `RunProjection` — and a helper that feeds a run's events to a panel
in live-sized batches, the way the run controller does (one `apply_changes` per flush)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine import events as ev
from engine.graph.format import load_workflow
from engine.llm.sim import SimGateway
from engine.projection import RunProjection
from engine.runtime import compile_workflow
from engine.runtime.launch import follow, start_run
from engine.store.store import TraceStore
from widgets.run_panel import RunPanel

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@dataclass
class ExampleRun:
    projection: RunProjection
    store: TraceStore
    run_id: str


def run_example(name: str, store: TraceStore, inputs: dict[str, object] | None = None) -> ExampleRun:
    """Run `resources/examples/<name>.triadic.json` to its end on the simulated provider."""
    async def go() -> RunProjection:
        plan = compile_workflow(load_workflow(EXAMPLES / f"{name}.triadic.json"), base_dir=EXAMPLES)
        run = start_run(plan, store=store, inputs=inputs, gateway=SimGateway())
        projection = RunProjection()
        await follow(run, projection)
        return projection

    projection = asyncio.run(go())
    return ExampleRun(projection, store, projection.run_id)


def feed_live(panel: RunPanel, events: Sequence[ev.Event], batch: int) -> RunProjection:
    """Give `panel` an empty projection, then `events` `batch` at a time with one `apply_changes` each."""
    projection = RunProjection()
    panel.set_projection(projection)
    for start in range(0, len(events), batch):
        projection.apply_many(events[start:start + batch])
        panel.apply_changes(projection.take_changes())
    return projection
