"""Model of the store's runs as a lineage tree (`RunsModel`): replays and forks right under the run
they came from, indented, in a flat table.

Columns: workflow (indented by lineage depth, "└ " before a replay or fork), status, started,
duration, tokens, cost, verdicts, run (id and lineage: "replay of 3f2a…" / "fork of 3f2a… at
critic#2, seq 120"). The rows are one `load_listings` result, replaced whole on each refresh
(`set_listings`: one reset, however many runs), arranged by `RunTree` (a run whose source is not
listed is a root) and laid out depth first. Live runs (`set_live`) read "running · live". Sorting
(`sort`: one key per row, numbers as numbers; newest first by start until a header is clicked)
orders siblings at every level; filtering (`set_filter`: workflow, status or id containing the text,
any case; one status or all) keeps the matches and their sources (dimmed). Both happen over Python
lists; each is a layout change, so selections follow their run.

Why a table and not a `QTreeView`: with 5,000 runs the tree view's layout asks the Python model for
every row's index and children on each reset and paint (5,000 runs: ~30 ms a paint, ~100 ms under
load, against ~8 ms for the table); the lineage is fully shown (nothing to expand) and costs nothing.

Invariant: `data()` only formats the one row asked for; the model never touches the store.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from widgets.runs.run_rows import RunListing, fmt_cost, fmt_duration, fmt_started, fmt_tokens, fmt_verdicts
from widgets.runs.run_tree import ROOT, RunTree

Index = QModelIndex | QPersistentModelIndex
_DISPLAY, _TOOLTIP, _ALIGN = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.TextAlignmentRole
_FOREGROUND = Qt.ItemDataRole.ForegroundRole
RUN_ID_ROLE = Qt.ItemDataRole.UserRole + 2
HEADERS = ("Workflow", "Status", "Started", "Duration", "Tokens", "Cost", "Verdicts", "Run")
NUMERIC = frozenset({3, 4, 5})
# Status colours readable on light and dark backgrounds alike (mid-tones).
STATUS_COLORS = {"succeeded": "#2e9d57", "failed": "#d9534f", "budget_exceeded": "#e08a1e",
                 "cancelled": "#8a8f98", "interrupted": "#b8860b", "running": "#3a8ee6"}
_DIM = QColor("#8a8f98")


class RunsModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._all: list[RunListing] = []  # every run, sorted
        self.tree = RunTree()
        self._ids: list[str] = []  # the run ids of `_all`, in its order
        self._rows: list[int] = []  # per row: the run's position in the sorted list
        self._depth: list[int] = []  # per row: its lineage depth (0: a root)
        self._row_of: dict[str, int] = {}  # run id -> its row
        self.live: set[str] = set()
        self.sort_column, self.sort_order = 2, Qt.SortOrder.DescendingOrder
        self.text, self.status = "", ""

    @property
    def listings(self) -> list[RunListing]:
        """The runs shown, depth first in display order (parents before their replays and forks)."""
        return [self._all[i] for i in self._rows]

    @property
    def listings_all(self) -> list[RunListing]:
        """Every run loaded, sorted (shown or not)."""
        return self._all

    def set_listings(self, listings: list[RunListing]) -> None:
        self.beginResetModel()
        self._all = list(listings)
        self._sort_all()
        self._set_tree(self._build())
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort in Python (one key per row; numbers as numbers), never through per-cell `data()` calls."""
        self.sort_column, self.sort_order = column, order
        self._relayout(self._sort_all)

    def set_filter(self, text: str | None = None, status: str | None = None) -> None:
        """Keep the runs whose workflow, status or id contains `text` (any case) and, if set, of `status`
        (with the runs they descend from, so a lineage is never cut)."""
        if text is not None:
            self.text = text.strip().lower()
        if status is not None:
            self.status = status
        self._relayout(lambda: None)

    def _sort_all(self) -> None:
        column = self.sort_column
        if 0 <= column < len(HEADERS):
            self._all.sort(key=lambda item: item.sort_keys[column], reverse=self.sort_order == Qt.SortOrder.DescendingOrder)
        self._ids = [item.summary.id for item in self._all]

    def _build(self) -> RunTree:
        text, status = self.text, self.status
        if not text and not status:
            return RunTree.build(self._all)
        return RunTree.build(self._all, lambda item: (not status or item.summary.status == status)
                             and (not text or text in item.haystack))

    def _set_tree(self, tree: RunTree) -> None:
        self.tree = tree
        rows = tree.rows()
        self._rows = [position for position, _depth in rows]
        self._depth = [depth for _position, depth in rows]
        ids = self._ids
        self._row_of = dict(zip([ids[position] for position in self._rows], range(len(self._rows)), strict=True))

    def _relayout(self, change: Any) -> None:
        """Apply `change` and rebuild the tree as a layout change: selections follow their run."""
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        old_ids = [self.run_id(i) for i in old]
        change()
        self._set_tree(self._build())
        new = [self.index_of(run_id, i.column()) for i, run_id in zip(old, old_ids, strict=True)]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def set_live(self, run_ids: set[str]) -> None:
        self.live = set(run_ids)
        if self._rows:
            self.dataChanged.emit(self.index(0, 1), self.index(len(self._rows) - 1, 1))

    # -- lookups ---------------------------------------------------------------------------------
    def listing_at(self, index: Index) -> RunListing | None:
        row = index.row() if index.isValid() else -1
        return self._all[self._rows[row]] if 0 <= row < len(self._rows) else None

    def listing(self, row: int) -> RunListing | None:
        return self._all[self._rows[row]] if 0 <= row < len(self._rows) else None

    def run_id(self, index: Index) -> str:
        item = self.listing_at(index)
        return item.run_id if item is not None else ""

    def index_of(self, run_id: str, column: int = 0) -> QModelIndex:
        row = self._row_of.get(run_id)
        return QModelIndex() if row is None else self.index(row, column)

    def depth(self, row: int) -> int:
        return self._depth[row] if 0 <= row < len(self._depth) else 0

    def source_of(self, run_id: str) -> str:
        """The listed run `run_id` sits under ("" for a root or a run not shown)."""
        row = self._row_of.get(run_id)
        if row is None:
            return ""
        up = self.tree.parent_of.get(self._rows[row], ROOT)
        return self._all[up].run_id if up != ROOT else ""

    def statuses(self) -> list[str]:
        return sorted({item.summary.status for item in self._all})

    def descendants(self, run_id: str) -> list[str]:
        return self.tree.descendants(run_id)

    # -- QAbstractTableModel ---------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if role == _DISPLAY and orientation == Qt.Orientation.Horizontal and 0 <= section < len(HEADERS):
            return HEADERS[section]
        return None

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        item = self.listing_at(index)
        if item is None:
            return None
        column = index.column()
        if role == _DISPLAY:
            text = self._text(item, column)
            depth = self._depth[index.row()] if column == 0 else 0
            return f"{'    ' * (depth - 1)}└ {text}" if depth else text
        if role == RUN_ID_ROLE:
            return item.run_id
        if role == _ALIGN and column in NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == _FOREGROUND:
            if column == 1:
                color = STATUS_COLORS.get(item.summary.status)
                return QColor(color) if color else None
            if (self.text or self.status) and self._rows[index.row()] not in self.tree.matched:
                return _DIM  # shown only as the source of a match
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
