"""The Runs dock: the store's past runs, filterable; open or delete one.

Public API: `RunsPanel(store_source)` (a path or a callable returning an open `TraceStore`); slots
`refresh()`, `set_live_runs(set[str])`; signals `open_requested(run_id)`, `run_deleted(run_id)`,
`runs_loaded(count)`.
"""

from widgets.runs.runs_panel import RunsPanel

__all__ = ["RunsPanel"]
