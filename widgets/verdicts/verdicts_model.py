"""`VerdictsModel`: a table over a run's verdicts (`RunProjection.verdicts`), filtered, appended in batches.

Columns: time, judge, subject, decision (coloured), score, round, claims held, reasons. Rows are
indices into the projection's append-only verdict list, in seq order, that pass the filters (a
node — as judge or subject, or a node inside it when it is a sub-graph —, and a set of decisions).
`sync()` appends the verdicts that arrived since the last call with one `beginInsertRows` per call
(once per flush); changing a filter or the projection resets. `data()` only reads one verdict and a node title.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QWidget

from engine import events as ev
from engine.projection import RunProjection
from widgets.verdicts.look import look_for, preview, seconds

AnyIndex = QModelIndex | QPersistentModelIndex
HEADERS = ("Time", "Judge", "Subject", "Decision", "Score", "Round", "Claims", "Reasons")
JUDGE, SUBJECT, DECISION = 1, 2, 3
DECISIONS = ("approve", "revise", "reject")


def claims_held(verdict: ev.VerdictIssued) -> str:
    if not verdict.claims:
        return "—"
    held = sum(1 for c in verdict.claims if c.get("supported", c.get("held")))
    return f"{held}/{len(verdict.claims)} held"


class VerdictsModel(QAbstractTableModel):
    def __init__(self, view_owner: QWidget | None = None) -> None:
        super().__init__(view_owner)
        self._owner = view_owner
        self.projection: RunProjection | None = None
        self.node_filter: str | None = None
        self.decisions: frozenset[str] = frozenset(DECISIONS)
        self._rows: list[int] = []  # indices into projection.verdicts
        self._scanned = 0

    # -- feeding ----------------------------------------------------------------------------------
    def reset(self, projection: RunProjection | None, node_filter: str | None,
              decisions: frozenset[str] | None = None) -> None:
        self.beginResetModel()
        self.projection, self.node_filter = projection, node_filter
        if decisions is not None:
            self.decisions = decisions
        self._rows, self._scanned = [], 0
        self._rows = self._new_rows()
        self.endResetModel()

    def sync(self) -> int:
        """Append the verdicts that arrived since the last call; returns how many rows were added."""
        new = self._new_rows()
        if new:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(new) - 1)
            self._rows.extend(new)
            self.endInsertRows()
        return len(new)

    def _new_rows(self) -> list[int]:
        verdicts = self.projection.verdicts if self.projection is not None else []
        node, decisions = self.node_filter, self.decisions
        inside = node + "/" if node is not None else ""
        found = [i for i in range(self._scanned, len(verdicts))
                 if verdicts[i].decision in decisions
                 and (node is None or node in (verdicts[i].node_id, verdicts[i].subject_node_id)
                      or verdicts[i].node_id.startswith(inside) or verdicts[i].subject_node_id.startswith(inside))]
        self._scanned = len(verdicts)
        return found

    # -- reading ----------------------------------------------------------------------------------
    def verdict_at(self, row: int) -> ev.VerdictIssued:
        assert self.projection is not None
        return self.projection.verdicts[self._rows[row]]

    def row_of_seq(self, seq: int) -> int | None:
        if self.projection is None:
            return None
        verdicts = self.projection.verdicts
        return next((row for row, i in enumerate(self._rows) if verdicts[i].seq == seq), None)

    def title(self, node_id: str) -> str:
        row = self.projection.nodes.get(node_id) if self.projection is not None else None
        return row.title if row is not None and row.title else node_id

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.projection is None:
            return None
        v = self.projection.verdicts[self._rows[index.row()]]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(v, column)
        if role == Qt.ItemDataRole.ForegroundRole and column == DECISION:
            return look_for(self._owner).decision(v.decision)
        if role == Qt.ItemDataRole.BackgroundRole and column == DECISION:
            return look_for(self._owner).decision_bg(v.decision)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (4, 5):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column in (JUDGE, SUBJECT):
                node_id = v.node_id if column == JUDGE else v.subject_node_id
                model = f"\nmodel: {v.judge_model}" if column == JUDGE and v.judge_model else ""
                return f"{self.title(node_id)} ({node_id}){model}"
            if column == 7:
                return "\n".join(f"• {r}" for r in v.reasons) or None
        return None

    def _text(self, v: ev.VerdictIssued, column: int) -> str:
        if column == 0:
            return seconds(v.ts)
        if column == JUDGE:
            return self.title(v.node_id)
        if column == SUBJECT:
            return self.title(v.subject_node_id)
        if column == DECISION:
            return v.decision
        if column == 4:
            return f"{v.score:.2f}"
        if column == 5:
            return str(v.round)
        if column == 6:
            return claims_held(v)
        return preview("; ".join(v.reasons))
