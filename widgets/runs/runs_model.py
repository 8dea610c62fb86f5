"""Table model of the store's runs (`RunsModel`), sorted and filtered in Python.

Columns: workflow, status, started, duration, tokens, cost, verdicts, run (id and replay / fork
marks). The rows are one `load_listings` result, replaced whole on each refresh (`set_listings`:
one reset, however many runs). Live runs (`set_live`) read "running · live" and cannot be deleted.
Sorting (`sort`: one key per row, numbers as numbers; newest first by start until a header is
clicked) and filtering (`set_filter`: workflow, status or id containing the text, any case; one
status or all) happen here over Python lists, never through a proxy calling `data()` /
`filterAcceptsRow` per row from C++ (5,000 runs: ~200 ms a reset that way). A sort or filter is a
layout change: selections follow their run.

Invariant: `data()` only formats the one row asked for; the model never touches the store.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from widgets.runs.run_rows import RunListing, fmt_cost, fmt_duration, fmt_started, fmt_tokens, fmt_verdicts

Index = QModelIndex | QPersistentModelIndex
_DISPLAY, _TOOLTIP, _ALIGN = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.TextAlignmentRole
_FOREGROUND = Qt.ItemDataRole.ForegroundRole
RUN_ID_ROLE = Qt.ItemDataRole.UserRole + 2
HEADERS = ("Workflow", "Status", "Started", "Duration", "Tokens", "Cost", "Verdicts", "Run")
NUMERIC = frozenset({3, 4, 5})
# Status colours readable on light and dark backgrounds alike (mid-tones).
STATUS_COLORS = {"succeeded": "#2e9d57", "failed": "#d9534f", "budget_exceeded": "#e08a1e",
                 "cancelled": "#8a8f98", "interrupted": "#b8860b", "running": "#3a8ee6"}


class RunsModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.listings: list[RunListing] = []  # the rows shown: filtered and sorted
        self._all: list[RunListing] = []  # every run, sorted
        self.live: set[str] = set()
        self.sort_column, self.sort_order = 2, Qt.SortOrder.DescendingOrder
        self.text, self.status = "", ""

    def set_listings(self, listings: list[RunListing]) -> None:
        self.beginResetModel()
        self._all = list(listings)
        self._sort_all()
        self.listings = self._visible()
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort in Python (one key per row; numbers as numbers), never through per-cell `data()` calls."""
        self.sort_column, self.sort_order = column, order
        self._relayout(self._sort_all)

    def set_filter(self, text: str | None = None, status: str | None = None) -> None:
        """Keep the runs whose workflow, status or id contains `text` (any case) and, if set, of `status`."""
        if text is not None:
            self.text = text.strip().lower()
        if status is not None:
            self.status = status
        self._relayout(lambda: None)

    def _sort_all(self) -> None:
        column = self.sort_column
        if 0 <= column < len(HEADERS):
            self._all.sort(key=lambda item: item.sort_keys[column], reverse=self.sort_order == Qt.SortOrder.DescendingOrder)

    def _visible(self) -> list[RunListing]:
        text, status = self.text, self.status
        return [item for item in self._all
                if (not status or item.summary.status == status) and (not text or text in item.haystack)]

    def _relayout(self, change: Any) -> None:
        """Apply `change` and re-filter as a layout change: selections follow their run."""
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        old_ids = [self.listings[i.row()].run_id if 0 <= i.row() < len(self.listings) else "" for i in old]
        change()
        self.listings = self._visible()
        rows = {item.run_id: row for row, item in enumerate(self.listings)}
        new = [self.index(rows[run_id], i.column()) if run_id in rows else QModelIndex()
               for i, run_id in zip(old, old_ids, strict=True)]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def set_live(self, run_ids: set[str]) -> None:
        self.live = set(run_ids)
        if self.listings:
            self.dataChanged.emit(self.index(0, 1), self.index(len(self.listings) - 1, 1))

    def listing(self, row: int) -> RunListing | None:
        return self.listings[row] if 0 <= row < len(self.listings) else None

    def statuses(self) -> list[str]:
        return sorted({item.summary.status for item in self.listings})

    # -- QAbstractTableModel ---------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.listings)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if role == _DISPLAY and orientation == Qt.Orientation.Horizontal and 0 <= section < len(HEADERS):
            return HEADERS[section]
        return None

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        if not index.isValid():
            return None
        item, column = self.listings[index.row()], index.column()
        if role == _DISPLAY:
            return self._text(item, column)
        if role == RUN_ID_ROLE:
            return item.run_id
        if role == _ALIGN and column in NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == _FOREGROUND and column == 1:
            color = STATUS_COLORS.get(item.summary.status)
            return QColor(color) if color else None
        if role == _TOOLTIP:
            return self._tooltip(item, column)
        return None

    def _text(self, item: RunListing, column: int) -> str:
        s = item.summary
        if column == 0:
            return s.workflow_name or s.workflow_id or "(unnamed)"
        if column == 1:
            return f"{s.status} · live" if item.run_id in self.live else s.status
        if column == 2:
            return fmt_started(s.started_at)
        if column == 3:
            return fmt_duration(s)
        if column == 4:
            return fmt_tokens(item.tokens)
        if column == 5:
            return fmt_cost(s.cost_usd)
        if column == 6:
            return fmt_verdicts(item.verdicts)
        marks = item.marks()
        return f"{item.run_id[:8]}  ({marks})" if marks else item.run_id[:8]

    def _tooltip(self, item: RunListing, column: int) -> str | None:
        s = item.summary
        if column == 0:
            return f"{self._text(item, 0)}\n{s.workflow_id}  (version {s.workflow_hash[:12]})"
        if column == 1 and s.reason:
            return s.reason
        if column == 4:
            return f"{s.tokens_in} in, {s.tokens_out} out"
        if column == 7:
            return item.run_id + (f"\n{item.marks()}" if item.marks() else "")
        return None
