"""The problems panel: a table of validation problems, kept current as the workflow is edited.

Activating a row (double-click / Enter) emits `problem_activated(node_id, edge_id)` (either may be
None); the controller selects and centres that node or edge. A summary label counts errors and
warnings. The panel listens to the model through one `WorkflowSignals` bridge.

Scheduling (measured by `tests/perf/bench_open_file.py`): changes are gathered for `DEBOUNCE_MS`
(one validation per burst, e.g. a macro deleting many nodes); moves and canvas-only `ui` changes are
ignored (validation never reads positions). A workflow with fewer than `BACKGROUND_ABOVE` nodes +
edges is validated on the GUI thread (a few ms: a thread hop would cost more than it saves); a larger
one on the validation thread (`BackgroundValidation`), so an edit never stalls the window, and only
the newest edit's result is shown. `revalidate()` validates now, on the GUI thread, and makes any
result still in flight stale. `current` tells whether the rows are those of the workflow as it is.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QTimer, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from engine.graph.model import Workflow, WorkflowChange
from engine.graph.problems import Problem
from widgets.problems.background_validation import BackgroundValidation
from widgets.problems.problems_model import ProblemsModel
from widgets.workflow_signals import WorkflowSignals

DEBOUNCE_MS = 30
BACKGROUND_ABOVE = 2000  # nodes + edges from which validation runs off the GUI thread (~5 ms below)


class ProblemsPanel(QWidget):
    problem_activated = Signal(object, object)  # node_id: str | None, edge_id: str | None
    problems_counted = Signal(int, int)  # errors, warnings

    def __init__(self, workflow: Workflow, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.background_above = BACKGROUND_ABOVE
        self.background = BackgroundValidation(parent=self)
        self.background.validated.connect(self._on_validated)
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
        self._timer.timeout.connect(self._validate_changed)
        self.table.activated.connect(self._on_row_activated)
        self._signals: WorkflowSignals | None = None
        self._attach(workflow)
        self._update_summary()

    @property
    def current(self) -> bool:
        """True when the rows are the validation of the workflow as it is now."""
        return not self._timer.isActive() and not self.background.pending

    def set_workflow(self, workflow: Workflow) -> None:
        self._attach(workflow)
        self._timer.stop()
        if self._in_background(workflow):
            self.model.set_workflow(workflow, validate_now=False)
            self.background.follow(workflow)
            self.background.request()
            self.summary.setText("Checking the workflow…")
        else:
            self.background.stop()
            self.model.set_workflow(workflow)
            self._update_summary()

    def revalidate(self) -> None:
        """Validate now on the GUI thread (a result still in flight is dropped as stale)."""
        self._timer.stop()
        self.background.cancel()
        self.model.revalidate()
        self._update_summary()

    def _attach(self, workflow: Workflow) -> None:
        if self._signals is not None:
            self._signals.detach()
            self._signals.deleteLater()
        self._signals = WorkflowSignals(workflow, self)
        self._signals.changed.connect(self._on_model_changed)

    def _in_background(self, workflow: Workflow) -> bool:
        return len(workflow.nodes) + len(workflow.edges) >= self.background_above

    def _on_model_changed(self, change: WorkflowChange) -> None:
        if change.kind in ("node_moved", "ui_changed") or change.field == "ui":
            return  # positions, colours, comments: nothing validation reads
        self._timer.start()

    def _validate_changed(self) -> None:
        workflow = self.model.workflow
        if self._in_background(workflow):
            if self.background.following is not workflow:
                self.background.follow(workflow)
            self.background.request()
        else:
            self.revalidate()

    def _on_validated(self, problems: list[Problem]) -> None:
        self.model.show(problems)
        self._update_summary()

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
