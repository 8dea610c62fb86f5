"""Table model of the store's runs (`RunsModel`) and the filter over it (`RunsFilter`).

Columns: workflow, status, started, duration, tokens, cost, verdicts, run (id and replay / fork
marks). The rows are one `load_listings` result, replaced whole on each refresh (`set_listings`:
one reset, however many runs). Live runs (`set_live`) read "running · live" and cannot be deleted.
`SORT_ROLE` gives each cell's raw value (numbers sort as numbers, newest first by start).

`RunsFilter` keeps the rows whose workflow, status or id contains the filter text (case-insensitive)
and, when a status is chosen, only that status.

Invariant: `data()` only formats the one row asked for; the model never touches the store.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor

from widgets.runs.run_rows import RunListing, fmt_cost, fmt_duration, fmt_started, fmt_tokens, fmt_verdicts

Index = QModelIndex | QPersistentModelIndex
_DISPLAY, _TOOLTIP, _ALIGN = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.TextAlignmentRole
_FOREGROUND = Qt.ItemDataRole.ForegroundRole
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
RUN_ID_ROLE = Qt.ItemDataRole.UserRole + 2
HEADERS = ("Workflow", "Status", "Started", "Duration", "Tokens", "Cost", "Verdicts", "Run")
NUMERIC = frozenset({3, 4, 5})
# Status colours readable on light and dark backgrounds alike (mid-tones).
STATUS_COLORS = {"succeeded": "#2e9d57", "failed": "#d9534f", "budget_exceeded": "#e08a1e",
                 "cancelled": "#8a8f98", "interrupted": "#b8860b", "running": "#3a8ee6"}


class RunsModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.listings: list[RunListing] = []
        self.live: set[str] = set()

    def set_listings(self, listings: list[RunListing]) -> None:
        self.beginResetModel()
        self.listings = listings
        self.endResetModel()

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
        if role == SORT_ROLE:
            return self._raw(item, column)
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

    def _raw(self, item: RunListing, column: int) -> Any:
        s = item.summary
        raw: tuple[Any, ...] = (self._text(item, 0).lower(), s.status, s.started_at or 0.0, s.duration_s,
                                item.tokens, s.cost_usd, sum(item.verdicts.values()), item.run_id)
        return raw[column]

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


class RunsFilter(QSortFilterProxyModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.text = ""
        self.status = ""
        self.setSortRole(SORT_ROLE)

    def set_text(self, text: str) -> None:
        self.text = text.strip().lower()
        self.invalidateRowsFilter()

    def set_status(self, status: str) -> None:
        self.status = status
        self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        model = self.sourceModel()
        item = model.listing(source_row) if isinstance(model, RunsModel) else None
        if item is None:
            return False
        s = item.summary
        if self.status and s.status != self.status:
            return False
        if not self.text:
            return True
        return any(self.text in field.lower() for field in (s.workflow_name, s.workflow_id, s.status, s.id))
