"""`RunPanel`: what every dock that shows a run is, so one controller can drive them all alike.

A panel is given the run it shows as a `RunProjection` (`set_projection`; None: no run), then told
what changed, coalesced — at most one `apply_changes` per flush (~30 ms), never one call per event.
It reads the projection; it never changes it. The node filter (`set_node_filter`) follows the node
selected on the canvas. A panel says what the person picked through `node_selected(node_id)` and
`span_selected(span_id)` (intents: the controller selects the node on the canvas, opens the call).

Invariants: `set_projection` resets the panel to the projection as it is now (a panel may be given a
projection that already holds a whole stored run, or a playback's projection rebuilt at another seq);
`apply_changes` only ever follows `set_projection` with the same projection's changes since then.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from engine.projection import ProjectionChanges, RunProjection


class RunPanel(QWidget):
    node_selected = Signal(str)
    span_selected = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.projection: RunProjection | None = None
        self.node_filter: str | None = None

    def set_projection(self, projection: RunProjection | None) -> None:
        self.projection = projection
        self.rebuild()

    def apply_changes(self, changes: ProjectionChanges) -> None:
        """Show what `changes` says changed; the default rebuilds (panels override for incremental updates)."""
        if changes.reset:
            self.rebuild()
            return
        self.update_from(changes)

    def set_node_filter(self, node_id: str | None) -> None:
        if node_id != self.node_filter:
            self.node_filter = node_id
            self.rebuild()

    # -- what a panel implements -----------------------------------------------------------------
    def rebuild(self) -> None:
        """Show `self.projection` (None: empty) from scratch, with the node filter applied."""
        raise NotImplementedError

    def update_from(self, changes: ProjectionChanges) -> None:
        """Show what changed since the last call; the default rebuilds."""
        self.rebuild()
