"""`LazyDockPanel`: the stand-in a run dock holds until it is first shown, then the real panel.

The Timeline and Cost & tokens panels import pyqtgraph and numpy (~0.25 s); they start as hidden
tabs, so building them at start-up only delays the window. The stand-in is an empty widget in the
dock; when the dock first becomes visible (its tab raised, View ▸ Panels, a saved layout that shows
it) it builds the panel on the next turn of the event loop — the dock shows at once, the panel a
moment later — puts it in the dock and mounts it on the run views, which feed it the selected run
and the node filter exactly as a panel built at start-up.

A dock made with `needs_run` (the Timeline and Cost & tokens: plots of a run, with nothing to plot
before one) also waits for a run to show: shown with no run selected, it says how to get one, and it
builds its panel when a run is selected while it is in front — so a saved layout with the Timeline in
front does not load the plotting libraries (~50 MB resident) into a window that is only designing.

`built(panel)` is emitted once the panel is in its dock; `with_panel(dock, wire)` calls `wire(panel)` with
a dock's panel now, or when a lazy one is built (a window that wires a panel's own signals — "Fork from
here…" on the Timeline, the Contracts dock's event links — connects them so).

Invariants: the panel is built at most once; a factory that raises is reported on the status bar
and the dock says why in place of the panel (the window goes on); `panel` is None until built.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QDockWidget, QLabel, QVBoxLayout, QWidget

from widgets.run_panel import RunPanel

if TYPE_CHECKING:
    from app.controllers.run_controller import RunController


class LazyDockPanel(QWidget):
    built = Signal(QWidget)

    def __init__(self, name: str, title: str, factory: Callable[[], QWidget], controller: RunController,
                 parent: QWidget | None = None, *, needs_run: str = "") -> None:
        super().__init__(parent)
        self.setObjectName(f"lazy_{name}")
        self.name = name
        self.title = title
        self._factory = factory
        self._controller = controller
        self._dock: QDockWidget | None = None
        self._scheduled = False
        self._shown = False
        self.needs_run = needs_run  # what the dock says while there is no run to show ("": it builds when shown)
        self.waiting: QLabel | None = None
        self.panel: QWidget | None = None

    def watch(self, dock: QDockWidget) -> None:
        """Build the panel when `dock` is first shown (with a run selected, for a `needs_run` dock)."""
        self._dock = dock
        dock.visibilityChanged.connect(self._on_visibility_changed)
        if self.needs_run:
            self._controller.run_selected.connect(self._on_run_selected)

    def _on_visibility_changed(self, visible: bool) -> None:
        self._shown = visible
        if not visible or self._scheduled:
            return
        if self.needs_run and self._controller.selected is None:
            self._say_waiting()
            return
        self._scheduled = True
        QTimer.singleShot(0, self.build)

    def _on_run_selected(self, run_id: str) -> None:
        if run_id and self._shown:
            self._on_visibility_changed(True)

    def _say_waiting(self) -> None:
        if self.waiting is None:
            self.waiting = QLabel(self.needs_run, self)
            self.waiting.setObjectName(f"waiting_{self.name}")
            self.waiting.setWordWrap(True)
            self.waiting.setAlignment(Qt.AlignmentFlag.AlignCenter)
            layout = QVBoxLayout(self)
            layout.addWidget(self.waiting)

    def build(self) -> QWidget | None:
        """Build, place and mount the panel now (idempotent); the panel, or None if it failed."""
        if self.panel is not None or self._dock is None:
            return self.panel
        self._scheduled = True
        try:
            panel = self._factory()
        except Exception as exc:  # one broken panel must not break the window
            message = f"The {self.title} panel could not be built: {exc}"
            self._controller.status_message.emit(message)
            if self.waiting is not None:
                self.waiting.hide()
            layout = self.layout() or QVBoxLayout(self)
            label = QLabel(message, self)
            label.setWordWrap(True)
            label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            layout.addWidget(label)
            return None
        self.panel = panel
        self._dock.visibilityChanged.disconnect(self._on_visibility_changed)
        if self.needs_run:
            self._controller.run_selected.disconnect(self._on_run_selected)
        self._dock.setWidget(panel)  # the dock shows the panel; this stand-in stays, hidden, its child
        self.hide()
        if isinstance(panel, RunPanel):
            self._controller.views.mount(self.name, panel)
        self.built.emit(panel)
        return panel


def with_panel(dock: QDockWidget | None, wire: Callable[[Any], object]) -> None:
    """`wire(panel)` with the panel of `dock`: now if it is built, else once it is (a lazy dock's first show)."""
    widget = dock.widget() if dock is not None else None
    if isinstance(widget, LazyDockPanel):
        if widget.panel is not None:
            wire(widget.panel)
        else:
            widget.built.connect(wire)
    elif widget is not None:
        wire(widget)
