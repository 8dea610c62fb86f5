"""A table model over `engine.graph.validate.validate(workflow)` results.

Columns: severity (with a standard icon), message, location (node / edge / field). Invariant: rows
are exactly the last validation result shown, errors first; `show(problems)` (a result found
elsewhere, e.g. on the validation thread) and `revalidate()` (validate here, now) replace them
wholesale and then announce them with `problems_changed(problems)` (every time, even when equal: a
listener such as the canvas may have rebuilt its items since), so other views show the same result
without validating again.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QApplication, QStyle

from engine.graph.model import Workflow
from engine.graph.problems import Problem
from engine.graph.validate import validate

AnyIndex = QModelIndex | QPersistentModelIndex
HEADERS = ("Severity", "Message", "Location")
_ICONS = {"error": QStyle.StandardPixmap.SP_MessageBoxCritical,
          "warning": QStyle.StandardPixmap.SP_MessageBoxWarning}


def location_of(problem: Problem) -> str:
    parts = []
    if problem.node_id:
        parts.append(f"node {problem.node_id}")
    if problem.edge_id:
        parts.append(f"edge {problem.edge_id}")
    if problem.field:
        parts.append(problem.field)
    return " · ".join(parts) or "workflow"


class ProblemsModel(QAbstractTableModel):
    problems_changed = Signal(object)  # list[Problem]: the new validation result

    def __init__(self, workflow: Workflow, parent: Any = None) -> None:
        super().__init__(parent)
        self._workflow = workflow
        self._problems: list[Problem] = []
        self.revalidate()

    @property
    def problems(self) -> list[Problem]:
        return list(self._problems)

    @property
    def workflow(self) -> Workflow:
        return self._workflow

    def set_workflow(self, workflow: Workflow, *, validate_now: bool = True) -> None:
        """Follow another workflow; without `validate_now` the rows are emptied until `show`."""
        self._workflow = workflow
        if validate_now:
            self.revalidate()
        else:
            self.show([])

    def revalidate(self) -> None:
        self.show(validate(self._workflow))

    def show(self, problems: list[Problem]) -> None:
        found = sorted(problems, key=lambda p: 0 if p.severity == "error" else 1)
        self.beginResetModel()
        self._problems = found
        self.endResetModel()
        self.problems_changed.emit(list(found))

    def problem_at(self, row: int) -> Problem:
        return self._problems[row]

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._problems)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        problem = self._problems[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (problem.severity, problem.message, location_of(problem))[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{problem.message}\n[{problem.code}] at {location_of(problem)}"
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            app = QApplication.instance()
            style = app.style() if isinstance(app, QApplication) else None
            return style.standardIcon(_ICONS[problem.severity]) if style else None
        return None
