"""Tree model of the store's runs (`RunsModel`): replays and forks under the run they came from.

Columns: workflow (the tree column), status, started, duration, tokens, cost, verdicts, run (id and
lineage: "replay of 3f2a…" / "fork of 3f2a… at critic#2, seq 120"). The rows are one `load_listings`
result, replaced whole on each refresh (`set_listings`: one reset, however many runs) and arranged by
`RunTree` (a run whose source is not listed is a root). Live runs (`set_live`) read "running · live".
Sorting (`sort`: one key per row, numbers as numbers; newest first by start until a header is
clicked) orders siblings at every level; filtering (`set_filter`: workflow, status or id containing
the text, any case; one status or all) keeps the matches and their ancestors. Both happen over Python
lists, never through a proxy calling `data()` per row from C++; each is a layout change, so
selections follow their run.

Invariant: an index's internal id is its run's position in the sorted list + 1 (0 is never a run);
`data()` only formats the one row asked for; the model never touches the store.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
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


class RunsModel(QAbstractItemModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._all: list[RunListing] = []  # every run, sorted
        self.tree = RunTree()
        self._kids: dict[int, list[int]] = {0: []}  # internal id -> its children's ids (0: the roots)
        self._up: dict[int, int] = {}  # internal id -> its parent's (0: a root)
        self._row: dict[int, int] = {}  # internal id -> its row under its parent
        self.live: set[str] = set()
        self.sort_column, self.sort_order = 2, Qt.SortOrder.DescendingOrder
        self.text, self.status = "", ""

    @property
    def listings(self) -> list[RunListing]:
        """The runs shown, depth first in display order (parents before their replays and forks)."""
        return [self._all[i] for i in self.tree.shown()]

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

    def _build(self) -> RunTree:
        text, status = self.text, self.status
        if not text and not status:
            return RunTree.build(self._all)
        return RunTree.build(self._all, lambda item: (not status or item.summary.status == status)
                             and (not text or text in item.haystack))

    def _set_tree(self, tree: RunTree) -> None:
        self.tree = tree
        self._kids = {parent + 1: [c + 1 for c in children] for parent, children in tree.children.items() if children}
        self._kids.setdefault(0, [])
        self._up = {c + 1: p + 1 for c, p in tree.parent_of.items()}
        self._row = {c + 1: r for c, r in tree.row_of.items()}

    def _relayout(self, change: Any) -> None:
        """Apply `change` and rebuild the tree as a layout change: selections follow their run."""
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        old_ids = [self.run_id(i) for i in old]
        change()
        self._set_tree(self._build())
        positions = {item.run_id: position for position, item in enumerate(self._all)}
        new = [self._index_at(positions.get(run_id, ROOT), i.column()) for i, run_id in zip(old, old_ids, strict=True)]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def set_live(self, run_ids: set[str]) -> None:
        self.live = set(run_ids)
        for parent, children in self.tree.children.items():  # the status cells at every level
            if children:
                first = self.index(0, 1, self._index_at(parent, 0))
                self.dataChanged.emit(first, first.siblingAtRow(len(children) - 1))

    # -- lookups ---------------------------------------------------------------------------------
    def listing_at(self, index: Index) -> RunListing | None:
        position = index.internalId() - 1 if index.isValid() else -1
        return self._all[position] if 0 <= position < len(self._all) else None

    def run_id(self, index: Index) -> str:
        item = self.listing_at(index)
        return item.run_id if item is not None else ""

    def index_of(self, run_id: str, column: int = 0) -> QModelIndex:
        position = next((p for p, item in enumerate(self._all) if item.run_id == run_id), ROOT)
        return self._index_at(position, column)

    def _index_at(self, position: int, column: int) -> QModelIndex:
        row = self.tree.row_of.get(position) if position != ROOT else None
        return QModelIndex() if row is None else self.createIndex(row, column, position + 1)

    def statuses(self) -> list[str]:
        return sorted({item.summary.status for item in self._all})

    def parents(self) -> list[QModelIndex]:
        """The index of every shown run that has replays or forks shown under it."""
        return [self._index_at(parent, 0) for parent, children in self.tree.children.items()
                if parent != ROOT and children]

    def descendants(self, run_id: str) -> list[str]:
        return self.tree.descendants(run_id)

    # -- QAbstractItemModel ----------------------------------------------------------------------
    # Called per row by the view's layout (thousands of runs): one dict look-up each, keyed by the
    # parent's internal id (0, an invalid parent's, is the root).
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        children = self._kids.get(parent.internalId())
        if children is not None and 0 <= row < len(children):
            return self.createIndex(row, column, children[row])
        return QModelIndex()

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        up = self._up.get(index.internalId(), 0)
        return self.createIndex(self._row[up], 0, up) if up else QModelIndex()

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        children = self._kids.get(parent.internalId())
        return len(children) if children is not None else 0

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:
        return parent.internalId() in self._kids

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return len(HEADERS)

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
            return self._text(item, column)
        if role == RUN_ID_ROLE:
            return item.run_id
        if role == _ALIGN and column in NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == _FOREGROUND:
            if column == 1:
                color = STATUS_COLORS.get(item.summary.status)
                return QColor(color) if color else None
            if (self.text or self.status) and index.internalId() - 1 not in self.tree.matched:
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
