"""Comparing two stored runs in the window: the Runs dock's Compare → the Compare dock.

`compare_runs(window, a, b)` projects both runs and compares them (`engine.compare.compare`, the same
as `triadic diff`) in the loop's executor — never on the GUI thread — then shows the `RunDiff` in the
Compare dock and raises it. `show_event(window, run_id, seq)` (the dock's first-divergence link)
opens that run and selects the event in the Events dock once the dock has taken the run's events in.

Invariant: a run that cannot be read is said in the dock, never raised.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from widgets.compare import ComparePanel

if TYPE_CHECKING:
    from app.main_window import MainWindow
    from engine.compare import RunDiff
    from engine.store.store import TraceStore


def wire_compare(window: MainWindow, runs_panel: Any) -> None:
    panel = _panel(window, "compare", ComparePanel)
    if panel is None:
        return
    runs_panel.compare_requested.connect(lambda a, b: compare_runs(window, a, b))
    panel.event_requested.connect(lambda run_id, seq: show_event(window, run_id, seq))


def compare_runs(window: MainWindow, a: str, b: str) -> asyncio.Task[RunDiff | None]:
    return asyncio.ensure_future(_compare(window, a, b))


async def _compare(window: MainWindow, a: str, b: str) -> RunDiff | None:
    panel = _panel(window, "compare", ComparePanel)
    if panel is None:
        return None
    dock = window.docks["compare"]
    dock.show()
    dock.raise_()
    panel.show_message(f"Comparing {a[:8]} with {b[:8]}…")
    store = await window.runs.store()
    if store is None:
        panel.show_message("The trace store cannot be opened.")
        return None
    try:
        diff: RunDiff = await asyncio.get_running_loop().run_in_executor(None, _diff, store, a, b)
    except Exception as exc:
        panel.show_message(f"Cannot compare {a[:8]} with {b[:8]}: {exc}")
        return None
    panel.show_diff(diff)
    return diff


def _diff(store: TraceStore, a: str, b: str) -> RunDiff:
    """Blocking (the executor): both runs projected from the store, then compared."""
    from engine.compare import compare
    from engine.projection import project

    projections = []
    for run_id in (a, b):
        run = store.get_run(run_id)
        if run is None:
            raise ValueError(f"no run {run_id!r} in the store")
        projections.append(project(store.iter_events(run.id)))
    return compare(projections[0], projections[1])


def show_event(window: MainWindow, run_id: str, seq: int) -> asyncio.Task[bool]:
    return asyncio.ensure_future(_show_event(window, run_id, seq))


async def _show_event(window: MainWindow, run_id: str, seq: int) -> bool:
    """Open run `run_id` and go to event `seq` as the Contracts dock does (Events dock, Trace span, node)."""
    opened = await window.runs.open_stored_run(run_id)
    return opened is not None and window.runs.views.show_event(seq)


def _panel(window: MainWindow, name: str, kind: type) -> Any:
    dock = window.docks.get(name)
    widget = dock.widget() if dock is not None else None
    return widget if isinstance(widget, kind) else None
