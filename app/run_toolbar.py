"""`RunToolbar`: Run / Stop / Pause / Step, the run picker, and the selected run's state, time, tokens, cost.

It shows what the `RunController` says (`refresh`) and sends the person's picks back as intents
(`run_pick_requested(run_id)`); the actions are the window's (`app.run_actions`). Two notes appear when
they apply: the canvas was edited since the selected live run started (the run goes on with its
frozen plan), and a stored run is shown read-only (with "Back to editing").

Invariants: the picker lists every run the controller holds, the selected one current; refreshing
it never emits a pick; labels are plain text read from `LiveRun`, nothing is computed here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QLabel, QMainWindow, QSizePolicy, QToolBar

from widgets.canvas.run_style import state_color

if TYPE_CHECKING:
    from app.controllers.run_controller import RunController

# a run's status → the node state whose colour it takes (the canvas and the toolbar agree)
_STATE_OF = {"running": "running", "paused": "waiting", "waiting": "waiting", "succeeded": "done",
             "failed": "failed", "budget_exceeded": "failed", "cancelled": "cancelled", "interrupted": "cancelled"}


class RunToolbar(QToolBar):
    run_pick_requested = Signal(str)

    def __init__(self, window: QMainWindow, actions: dict[str, QAction]) -> None:
        super().__init__("Run", window)
        self.setObjectName("run_toolbar")
        for name in ("run", "stop", "pause", "step"):
            self.addAction(actions[name])
        self.addSeparator()
        self.picker = QComboBox(self)
        self.picker.setObjectName("run_picker")
        self.picker.setMinimumContentsLength(34)
        self.picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.picker.setToolTip("The run the canvas and the panels follow (several runs may be live at once)")
        self.picker.activated.connect(self._on_picker_activated)
        self.addWidget(self.picker)
        self.state = QLabel(self)
        self.state.setObjectName("run_state")
        self.state.setMargin(6)
        self.addWidget(self.state)
        self.edited = QLabel("⚠ canvas edited since this run started — it runs the plan it started with", self)
        self.edited.setObjectName("run_edited_note")
        self.edited.setStyleSheet("color: #d4a017; font-weight: bold;")
        self.edited_action = self.addWidget(self.edited)
        self.edited_action.setVisible(False)
        spacer = QLabel(self)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.addWidget(spacer)
        self.banner = QLabel(self)
        self.banner.setObjectName("run_read_only_banner")
        self.banner_action = self.addWidget(self.banner)
        self.back_action = actions["back_to_editing"]
        self.addAction(self.back_action)
        self.show_read_only(False, "")
        self.addAction(actions["close_run"])

    def refresh(self, controller: RunController) -> None:
        """Re-read the picker and the labels from the controller."""
        runs = list(controller.runs.values())
        selected = controller.selected
        with QSignalBlocker(self.picker):
            if [self.picker.itemData(i) for i in range(self.picker.count())] != [r.run_id for r in runs]:
                self.picker.clear()
                for live in runs:
                    self.picker.addItem(live.label(), live.run_id)
            else:
                for i, live in enumerate(runs):
                    self.picker.setItemText(i, live.label())
            self.picker.setCurrentIndex(runs.index(selected) if selected in runs else -1)
            if not runs:
                self.picker.setPlaceholderText("No run yet — press F5")
        if selected is None:
            self.state.setText("")
            self.edited_action.setVisible(False)
            return
        state = _STATE_OF.get(selected.status())
        dark = self.palette().window().color().lightness() < 128
        self.state.setText(selected.summary())
        self.state.setStyleSheet(f"color: {state_color(state, dark).name()}; font-weight: bold;" if state else "")
        self.edited_action.setVisible(controller.canvas_edited())

    def show_read_only(self, read_only: bool, text: str) -> None:
        self.banner.setText(f"🔒 {text}" if text else "")
        self.banner_action.setVisible(read_only)
        self.back_action.setVisible(read_only)

    def _on_picker_activated(self, index: int) -> None:
        run_id = self.picker.itemData(index)
        if run_id:
            self.run_pick_requested.emit(str(run_id))
