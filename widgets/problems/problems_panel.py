"""The problems panel: a table of validation problems, re-validated ~150 ms after model changes.

Activating a row (double-click / Enter) emits `problem_activated(node_id, edge_id)` (either may be
None); the controller selects and centres that node or edge. A summary label counts errors and
warnings. The panel listens to the model through one `WorkflowSignals` bridge.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QTimer, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from engine.graph.model import Workflow
from widgets.problems.problems_model import ProblemsModel
from widgets.workflow_signals import WorkflowSignals

DEBOUNCE_MS = 150


class ProblemsPanel(QWidget):
    problem_activated = Signal(object, object)  # node_id: str | None, edge_id: str | None
    problems_counted = Signal(int, int)  # errors, warnings

    def __init__(self, workflow: Workflow, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ProblemsModel(workflow, self)
        self.summary = QLabel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.summary)
        layout.addWidget(self.table)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.revalidate)
        self.table.activated.connect(self._on_row_activated)
        self._signals: WorkflowSignals | None = None
        self.set_workflow(workflow)

    def set_workflow(self, workflow: Workflow) -> None:
        if self._signals is not None:
            self._signals.detach()
            self._signals.deleteLater()
        self._signals = WorkflowSignals(workflow, self)
        self._signals.changed.connect(self._on_model_changed)
        self.model.set_workflow(workflow)
        self._update_summary()

    def revalidate(self) -> None:
        self._timer.stop()
        self.model.revalidate()
        self._update_summary()

    def _on_model_changed(self, _change: object) -> None:
        self._timer.start()

    def counts(self) -> tuple[int, int]:
        """(errors, warnings) of the last validation."""
        problems = self.model.problems
        errors = sum(p.severity == "error" for p in problems)
        return errors, len(problems) - errors

    def _update_summary(self) -> None:
        problems = self.model.problems
        errors, warnings = self.counts()
        self.summary.setText("No problems" if not problems else f"{errors} error(s), {warnings} warning(s)")
        self.problems_counted.emit(errors, warnings)

    def _on_row_activated(self, index: QModelIndex) -> None:
        if index.isValid():
            problem = self.model.problem_at(index.row())
            self.problem_activated.emit(problem.node_id, problem.edge_id)
