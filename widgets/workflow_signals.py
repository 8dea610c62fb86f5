"""The bridge from a `Workflow`'s plain-Python change announcements to Qt signals.

Every view (canvas, inspector, problems panel) listens to the model through one of these; none
copies model fields by hand.

Invariants: each `WorkflowChange` is re-emitted exactly once as `changed(change)` and once as its
specific signal, synchronously and in order; after `detach()` nothing more is emitted and the bridge
holds nothing of the workflow (a replaced bridge waits for `deleteLater`; the document it followed must
not wait with it).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from engine.graph.model import Workflow, WorkflowChange


class WorkflowSignals(QObject):
    changed = Signal(object)
    node_added = Signal(str)
    node_removed = Signal(str)
    node_changed = Signal(str, str)
    node_moved = Signal(str)
    edge_added = Signal(str)
    edge_removed = Signal(str)
    settings_changed = Signal()
    meta_changed = Signal()
    ui_changed = Signal(str)
    contracts_changed = Signal()

    def __init__(self, workflow: Workflow, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._unsubscribe: Callable[[], None] | None = workflow.subscribe(self._on_change)

    def detach(self) -> None:
        """Stop listening to the workflow (idempotent)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _on_change(self, change: WorkflowChange) -> None:
        self.changed.emit(change)
        kind = change.kind
        if kind == "node_added":
            self.node_added.emit(change.node_id or "")
        elif kind == "node_removed":
            self.node_removed.emit(change.node_id or "")
        elif kind == "node_changed":
            self.node_changed.emit(change.node_id or "", change.field or "")
        elif kind == "node_moved":
            self.node_moved.emit(change.node_id or "")
        elif kind == "edge_added":
            self.edge_added.emit(change.edge_id or "")
        elif kind == "edge_removed":
            self.edge_removed.emit(change.edge_id or "")
        elif kind == "settings_changed":
            self.settings_changed.emit()
        elif kind == "meta_changed":
            self.meta_changed.emit()
        elif kind == "ui_changed":
            self.ui_changed.emit(change.field or "")
        elif kind == "contracts_changed":
            self.contracts_changed.emit()
