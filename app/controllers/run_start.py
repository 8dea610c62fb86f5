"""The blocking steps of starting or opening a run, each run in the loop's executor (never on the GUI thread).

- `open_store(path)`: the trace store (`engine.store.opening.open_trace_store`), or `StoreOpenError`;
- `compile_plan(workflow_doc, base_dir)`: the frozen plan of a snapshot of the document (the document
  may change while this runs: it compiles the snapshot, a plain dict taken on the GUI thread);
- `check_keys(plan, overrides, gateway)`: `engine.runtime.preflight.missing_keys`;
- `load_stored_run(store, run_id)`: a stored run decoded and projected, with the workflow version it
  ran with.

Invariant: nothing here touches Qt; every function is safe to call from a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.graph.convert import workflow_from_dict
from engine.graph.model import Workflow
from engine.projection import RunProjection
from engine.runtime.launch import prepare
from engine.runtime.plan import RunPlan
from engine.runtime.preflight import missing_keys
from engine.store.opening import open_trace_store
from engine.store.store import TraceStore


def open_store(path: str | None) -> TraceStore:
    return open_trace_store(path)


def compile_plan(workflow_doc: dict[str, Any], base_dir: Path | None) -> RunPlan:
    """Raises `CompileError` (validation errors, a missing sub-graph file) like `triadic run`."""
    return prepare(workflow_from_dict(workflow_doc), base_dir=base_dir)


def check_keys(plan: RunPlan, overrides: dict[str, str], gateway: Any) -> list[str]:
    return missing_keys(plan, overrides, gateway)


@dataclass(frozen=True)
class StoredRun:
    run_id: str
    projection: RunProjection
    workflow: Workflow | None  # the version it ran with (None: the store does not hold it)
    status: str = ""  # the store's status of the run (what a run without its RunFinished ended as)


class StoredRunError(Exception):
    pass


def load_stored_run(store: TraceStore, run_id: str) -> StoredRun:
    """The stored run `run_id` (an id prefix is enough), projected whole; raises `StoredRunError`."""
    summary = store.get_run(run_id)
    if summary is None:
        raise StoredRunError(f"no run {run_id!r} in {store.path}")
    full_id = summary.id
    projection = RunProjection()
    projection.apply_many(store.iter_events(full_id))
    projection.take_changes()
    workflow = None
    if projection.workflow_hash:
        doc = store.workflow_version(projection.workflow_hash)
        if doc is not None:
            try:
                workflow = workflow_from_dict(doc, source=f"run {full_id[:8]}")
            except Exception:  # an old or damaged version: the run still shows, without its canvas
                workflow = None
    return StoredRun(full_id, projection, workflow, summary.status)
