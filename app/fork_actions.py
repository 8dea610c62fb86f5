"""Fork a past run at a step from the window: the Trace and Timeline docks' and the canvas's "Fork from here…".

A span of the shown run (Trace or Timeline dock: the seq where its node execution began running, from the run's
projection) or a node of a finished run shown on the canvas (its `fork_handler`: "NODE#1", the node's
first execution) names the fork point. `open_fork_dialog` reads the recorded
workflow version and the fork point in the loop's executor, then opens the non-modal `ForkDialog`
with the node's recorded prompt, model and parameters — and, when the canvas holds that workflow, what it
and the sub-graph files beside it change in the versions the run ran (`engine.replay.run_changes`: the fork
starts from the recorded versions); its Fork starts `RunController.fork_stored` (everything before served
from the recording, the node and what follows live, in the window).
"""

from __future__ import annotations

import asyncio
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QWidget

from app.lazy_dock import LazyDockPanel
from engine.graph.convert import workflow_to_dict
from widgets.fork import ForkDialog

if TYPE_CHECKING:
    from app.main_window import MainWindow
    from engine.projection import RunProjection
    from engine.replay import RunChanges


def wire_fork(window: MainWindow) -> None:
    for name in ("trace", "timeline"):  # the docks whose spans offer "Fork from here…" (`fork_requested(span_id)`)
        dock = window.docks.get(name)
        widget = dock.widget() if dock is not None else None
        if isinstance(widget, LazyDockPanel):  # the Timeline is built when first shown: wire it then
            if widget.panel is not None:
                _wire_span_fork(window, widget.panel)
            else:
                widget.built.connect(lambda panel: _wire_span_fork(window, panel))
        elif widget is not None:
            _wire_span_fork(window, widget)
    window.runs.run_selected.connect(lambda _run_id: _follow_selection(window))
    window.runs.run_finished.connect(lambda _run_id, _status: _follow_selection(window))


def _follow_selection(window: MainWindow) -> None:
    """The canvas offers "Fork from here…" while a finished run is shown on it."""
    live = window.runs.selected
    if live is not None and not live.live and live.projection.run_id:
        run_id, owner = live.run_id, weakref.ref(window)  # no cycle window → view → handler → window

        def fork_at(node_id: str) -> asyncio.Task[ForkDialog | None] | None:
            found = owner()
            return open_fork_dialog(found, run_id, f"{node_id}#1") if found is not None else None

        window.view.fork_handler = fork_at
    else:
        window.view.fork_handler = None


def _wire_span_fork(window: MainWindow, panel: QWidget) -> None:
    requests = getattr(panel, "fork_requested", None)
    if requests is not None:
        requests.connect(lambda span_id: fork_from_span(window, span_id))


def fork_from_span(window: MainWindow, span_id: str) -> asyncio.Task[ForkDialog | None] | None:
    live = window.runs.selected
    if live is None:
        return None
    at = execution_of(live.projection, span_id)
    if at is None:
        window.show_status("That span is not inside a node's execution: pick a node or one of its calls")
        return None
    return open_fork_dialog(window, live.run_id, at)


def execution_of(p: RunProjection, span_id: str) -> str | None:
    """The fork point of `span_id` (a node execution, or a call inside one) as the engine reads it: the
    seq of the event where that execution began running ("123"; `engine.replay.fork_point` names the
    node and its execution from it)."""
    from engine import events as ev

    spans = p.span_table.spans
    span = spans.get(span_id)
    while span is not None and span.kind != "node":
        span = spans.get(span.parent_id) if span.parent_id else None
    if span is None:
        return None
    began = next((e.seq for e in p.events if isinstance(e, ev.NodeStateChanged) and e.span_id == span.span_id
                  and e.state == "running"), None)
    return None if began is None else str(began)


def open_fork_dialog(window: MainWindow, run_id: str, at: str) -> asyncio.Task[ForkDialog | None]:
    return asyncio.ensure_future(_open(window, run_id, at))


async def _open(window: MainWindow, run_id: str, at: str) -> ForkDialog | None:
    store = await window.runs.store()
    if store is None:
        return None

    current = workflow_to_dict(window.document.workflow)  # read here: the document lives on the GUI thread
    path = getattr(window.document, "path", None)

    def read() -> tuple[Any, dict[str, Any], str]:
        from engine.replay import RunChanges, run_changes
        from engine.replay.fork import fork_point
        from engine.runtime.sub_graph_versions import node_params, recorded_documents, recorded_hashes

        run = store.get_run(run_id)
        if run is None:
            raise ValueError(f"no run {run_id!r} in the store")
        point = fork_point(store.iter_events(run.id, kinds=["node_state"]), at)
        document = store.workflow_version(run.workflow_hash) or {}
        started = next(iter(store.iter_events(run.id, kinds=["run_started"])), None)
        sub_graphs = recorded_documents(store, recorded_hashes(started))  # an inner node's own version
        same = str(current.get("id") or "") == run.workflow_id  # the canvas holds today's version of it
        changes = run_changes(document, sub_graphs, current, Path(path).parent if path else None) if same \
            else RunChanges()
        return point, node_params(document, sub_graphs, point.node_id), _notice(changes)

    try:
        point, params, notice = await asyncio.get_running_loop().run_in_executor(None, read)
    except Exception as exc:
        window.runs.error_reported.emit("The run cannot be forked there", str(exc))
        return None
    dialog = ForkDialog(run_id, point.node_id, point.execution, point.seq, params, window, notice=notice)
    runs, at = window.runs, f"{point.node_id}#{point.execution}"  # the dialog's slots hold no window
    dialog.fork_requested.connect(lambda model, prompt, edits: runs.fork_stored(run_id, at, model, prompt, edits))
    owner = weakref.ref(window)

    def done(_result: int) -> None:
        found = owner()
        if found is not None and found.fork_dialog is dialog:
            found.fork_dialog = None
        dialog.deleteLater()

    dialog.finished.connect(done)
    window.fork_dialog = dialog
    dialog.show()  # non-modal: the past run stays explorable while the edits are made
    dialog.raise_()
    return dialog


def _notice(changes: RunChanges) -> str:
    """What the fork dialog says of today's workflow and sub-graph files ("" when they are as the run ran)."""
    text = ("The canvas's workflow or its sub-graph files differ from the versions this run ran; the fork "
            f"starts from those versions, with your edits:\n{changes.bullets()}") if changes.lines else ""
    return "\n\n".join(part for part in (text, changes.unchecked_note()) if part)
