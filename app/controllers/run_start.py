"""The blocking steps of starting or opening a run, each run in the loop's executor (never on the GUI thread).

- `open_store(path)`: the trace store (`engine.store.opening.open_trace_store`), or `StoreOpenError`;
- `compile_plan(workflow_doc, base_dir)`: the frozen plan of a snapshot of the document (the document
  may change while this runs: it compiles the snapshot, a plain dict taken on the GUI thread);
- `check_keys(plan, overrides, gateway)`: `engine.runtime.preflight.missing_keys`;
- `load_stored_run(store, run_id, preparers)`: a stored run decoded and projected, with the workflow
  version it ran with, and what each panel's `RunPanel.prepare` built from it (by panel name).

Invariant: nothing here touches Qt; every function is safe to call from a worker thread.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.graph.convert import workflow_from_dict
from engine.graph.model import Workflow
from engine.projection import RunProjection

if TYPE_CHECKING:  # the runtime and the store load in a worker (app.preload), not at the window's start-up
    from engine.runtime.plan import RunPlan
    from engine.store.store import TraceStore


def store_open_error() -> type[Exception]:
    """`StoreOpenError`, imported when asked (the store's package loads SQLAlchemy: ~0.3 s at start-up)."""
    from engine.store.records import StoreOpenError

    return StoreOpenError


def open_store(path: str | None) -> TraceStore:
    from engine.store.opening import (
        open_trace_store,  # SQLAlchemy: loaded off the GUI thread, not at start-up
    )

    return open_trace_store(path)


def compile_plan(workflow_doc: dict[str, Any], base_dir: Path | None) -> RunPlan:
    """Raises `CompileError` (validation errors, a missing sub-graph file) like `triadic run`."""
    from engine.runtime.launch import prepare

    return prepare(workflow_from_dict(workflow_doc), base_dir=base_dir)


def check_keys(plan: RunPlan, overrides: dict[str, str], gateway: Any) -> list[str]:
    from engine.runtime.preflight import missing_keys

    return missing_keys(plan, overrides, gateway)


@dataclass(frozen=True)
class StoredRun:
    run_id: str
    projection: RunProjection
    workflow: Workflow | None  # the version it ran with (None: the store does not hold it)
    status: str = ""  # the store's status of the run (what a run without its RunFinished ended as)
    prepared: dict[str, object] = field(default_factory=dict)  # per panel name: what its `prepare` built


class StoredRunError(Exception):
    pass


Preparer = Callable[[RunProjection], object | None]


def load_stored_run(store: TraceStore, run_id: str, preparers: Mapping[str, Preparer] | None = None) -> StoredRun:
    """The stored run `run_id` (an id prefix is enough), projected whole; raises `StoredRunError`.
    Each of `preparers` (a panel's `prepare`, by panel name) is then given the projection; one that
    raises is left out (its panel builds on the GUI thread as usual)."""
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
    prepared: dict[str, object] = {}
    for name, preparer in (preparers or {}).items():
        try:
            built = preparer(projection)
        except Exception:  # a panel's shortcut failing must not keep the run from opening
            continue
        if built is not None:
            prepared[name] = built
    return StoredRun(full_id, projection, workflow, summary.status, prepared)
