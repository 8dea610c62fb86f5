"""Table models of a run's usage: per node (`NodeUsageModel`) and per model (`ModelUsageModel`).

Columns: name, calls, tokens in, tokens out, cost. A cost the gateway could not price reads "price
unknown" (or "≥ $x · n unpriced" when part of it is known), never "$0". Rows only ever grow: new
nodes / models are inserted in one batch per refresh (beginInsertRows once), changed rows emit one
dataChanged (the same rows of another projection — playback — are swapped in, not reset); `data()`
reads the row object it holds (no lookups).

Invariant: the rows are the projection's own `NodeRow` / `ModelUsage` objects (or, filtered to one
node, `ModelUsage` rows summed from that node's calls), read only.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from engine.projection import ModelUsage, NodeRow, RunProjection

HEADERS = ("", "Calls", "Tokens in", "Tokens out", "Cost")
Index = QModelIndex | QPersistentModelIndex
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def cost_text(cost: float, unpriced: int) -> str:
    if unpriced and cost <= 0:
        return "price unknown"
    text = f"${cost:.6f}" if cost < 0.01 else f"${cost:.4f}"
    return f"≥ {text} · {unpriced} unpriced" if unpriced else text


class _UsageModel(QAbstractTableModel):
    name_header = ""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[Any] = []
        self.bold: str | None = None  # the row named so is drawn bold (the node filter)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.name_header if section == 0 else HEADERS[section]
        return None

    def name(self, row: Any) -> str:
        raise NotImplementedError

    def key(self, row: Any) -> str:
        return self.name(row)

    def calls(self, row: Any) -> int:
        raise NotImplementedError

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return self.name(row)
            if col == 1:
                return f"{self.calls(row):,}"
            if col == 2:
                return f"{row.tokens_in:,}"
            if col == 3:
                return f"{row.tokens_out:,}"
            return cost_text(row.cost_usd, row.unpriced_calls) if self.calls(row) else "—"
        if role == Qt.ItemDataRole.TextAlignmentRole and col > 0:
            return _RIGHT
        if role == Qt.ItemDataRole.FontRole and self.bold is not None and self.key(row) == self.bold:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.UserRole:
            return self.key(row)
        return None

    def show(self, rows: list[Any], changed: set[str] | None = None) -> None:
        """Show `rows`: the first `rowCount()` are the rows already shown (same order) — the same objects, or
        rows of the same names (the run at another moment: swapped in place, the view keeps its scroll and
        selection) — the rest are new; anything else resets the model."""
        have = len(self.rows)
        if len(rows) < have:
            self._reset(rows)
            return
        if any(a is not b for a, b in zip(self.rows, rows, strict=False)):
            if any(self.key(a) != self.key(b) for a, b in zip(self.rows, rows, strict=False)):
                self._reset(rows)
                return
            self.rows[:have] = rows[:have]
            changed = None
        if have and (changed is None or changed):
            self.dataChanged.emit(self.index(0, 0), self.index(have - 1, len(HEADERS) - 1))
        if len(rows) > have:
            self.beginInsertRows(QModelIndex(), have, len(rows) - 1)
            self.rows.extend(rows[have:])
            self.endInsertRows()

    def _reset(self, rows: list[Any]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()


class NodeUsageModel(_UsageModel):
    name_header = "Node"

    def name(self, row: NodeRow) -> str:
        return row.title or row.node_id

    def key(self, row: NodeRow) -> str:
        return row.node_id

    def calls(self, row: NodeRow) -> int:
        return row.llm_calls


class ModelUsageModel(_UsageModel):
    name_header = "Model"

    def name(self, row: ModelUsage) -> str:
        return row.model

    def calls(self, row: ModelUsage) -> int:
        return row.calls


def node_rows(projection: RunProjection, node_id: str | None) -> list[NodeRow]:
    """The nodes that made model calls (so the rows sum to the run); under the filter one node (and
    the nodes inside it) under the filter."""
    rows = [r for r in projection.nodes.values() if r.llm_calls]  # a sub-graph row sums its nodes: left out
    if node_id is not None:
        rows = [r for r in rows if r.node_id == node_id or r.node_id.startswith(node_id + "/")]
    return rows


def model_rows(projection: RunProjection, node_id: str | None) -> list[ModelUsage]:
    """Usage per model over the run, or over the calls of one node (and the nodes inside it)."""
    if node_id is None:
        return list(projection.usage.by_model.values())
    found: dict[str, ModelUsage] = {}
    for call in projection.calls.values():
        if call.kind != "llm" or not call.finished:
            continue
        if call.node_id != node_id and not call.node_id.startswith(node_id + "/"):
            continue
        usage = found.setdefault(call.name, ModelUsage(call.name))
        usage.calls += 1
        usage.tokens_in += call.tokens_in
        usage.tokens_out += call.tokens_out
        usage.cost_usd += call.cost_usd
        if not call.priced:
            usage.unpriced_calls += 1
    return list(found.values())
