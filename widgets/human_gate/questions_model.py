"""Table models of a run's human questions: those waiting for an answer, and those answered.

`OpenQuestionsModel` lists the open questions (node, asked at, prompt), oldest first; it is small
(one row per gate waiting now) and is reset when the questions change. `AnsweredModel` lists the
answers in the order they were given (node, decision, by, reason, what was edited): an answer is
never taken back, so new ones are appended in one batch (`beginInsertRows` once per update).

Invariants: both read the projection's `HumanQuestion` rows and never change them; `data()` only
formats the row it is asked about; the node filter (None: all) is applied when rows are gathered.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from engine.projection import HumanQuestion, RunProjection
from widgets.human_gate.artifact_text import preview

Index = QModelIndex | QPersistentModelIndex
_DISPLAY, _TOOLTIP = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole


def node_title(projection: RunProjection | None, node_id: str) -> str:
    row = projection.nodes.get(node_id) if projection is not None else None
    return row.title if row is not None and row.title and row.title != node_id else node_id


class _QuestionTable(QAbstractTableModel):
    HEADERS: tuple[str, ...] = ()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.projection: RunProjection | None = None
        self.rows: list[HumanQuestion] = []

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if role == _DISPLAY and orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.HEADERS):
            return self.HEADERS[section]
        return None

    def question(self, row: int) -> HumanQuestion | None:
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        if role not in (_DISPLAY, _TOOLTIP) or not index.isValid():
            return None
        text = self.cell(self.rows[index.row()], index.column(), tooltip=role == _TOOLTIP)
        return text or None

    def cell(self, q: HumanQuestion, column: int, *, tooltip: bool) -> str:
        raise NotImplementedError


class OpenQuestionsModel(_QuestionTable):
    HEADERS = ("Gate", "Asked at", "Question")

    def reset_to(self, projection: RunProjection | None, node_filter: str | None) -> None:
        self.beginResetModel()
        self.projection = projection
        found = projection.open_questions() if projection is not None else []
        self.rows = [q for q in found if node_filter is None or q.node_id == node_filter]
        self.endResetModel()

    def cell(self, q: HumanQuestion, column: int, *, tooltip: bool) -> str:
        if column == 0:
            return node_title(self.projection, q.node_id)
        if column == 1:
            return f"{q.ts:.1f} s"
        return q.prompt if tooltip else preview(q.prompt)


class AnsweredModel(_QuestionTable):
    HEADERS = ("Gate", "Decision", "By", "Why", "Edited to")

    def reset_to(self, projection: RunProjection | None, node_filter: str | None) -> None:
        self.beginResetModel()
        self.projection = projection
        self._filter = node_filter
        self.rows = self._gather()
        self.endResetModel()

    def append_new(self) -> int:
        """Append the answers given since the last look (one insert for all); how many."""
        found = self._gather()
        new = found[len(self.rows):]
        if new:
            self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows) + len(new) - 1)
            self.rows.extend(new)
            self.endInsertRows()
        return len(new)

    def _gather(self) -> list[HumanQuestion]:
        if self.projection is None:
            return []
        node_filter = getattr(self, "_filter", None)
        answered = [q for q in self.projection.questions
                    if not q.open and (node_filter is None or q.node_id == node_filter)]
        return sorted(answered, key=lambda q: q.decided_seq or q.seq)

    def cell(self, q: HumanQuestion, column: int, *, tooltip: bool) -> str:
        if column == 0:
            return node_title(self.projection, q.node_id)
        if column == 1:
            return q.decision or ""
        if column == 2:
            return q.by
        if column == 3:
            return q.reason if tooltip else preview(q.reason)
        if q.decision != "edit":
            return ""
        return preview(q.edited, 4000 if tooltip else 120)
