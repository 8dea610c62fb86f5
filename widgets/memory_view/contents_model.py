"""`MemoryContentsModel`: each memory scope's current contents, as a tree grouped by memory and scope.

Top-level rows are (memory, scope) groups in the order first seen; under each, one row per key: its
value (a one-line preview), the node that wrote it, when, and the gate's word. A key's entry is its
last admitted write in the run; a key the run only read (a workflow or global memory written by an
earlier run) shows the value it read. With a node filter only the keys that node (or, for a
sub-graph, a node in it) wrote or read are listed (with their current value, whoever wrote it).

Invariants: `sync()` reads only the writes and reads that arrived since the last call; it inserts new
groups and keys with one `beginInsertRows` per parent and announces changed values with
`dataChanged` — never a reset. `data()` reads one entry and one node title.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QWidget

from engine import events as ev
from engine.projection import RunProjection
from widgets.memory_view.merge import Group, Key, MemoryEvent, merged_since, of_node
from widgets.verdicts.look import look_for, seconds, value_preview

AnyIndex = QModelIndex | QPersistentModelIndex
HEADERS = ("Key", "Value", "Written by", "At", "Gate")


class MemoryContentsModel(QAbstractItemModel):
    def __init__(self, owner: QWidget | None = None) -> None:
        super().__init__(owner)
        self._owner = owner
        self.projection: RunProjection | None = None
        self.node_filter: str | None = None
        self._bold = QFont(owner.font() if owner is not None else QFont())
        self._bold.setBold(True)
        self._clear()

    def _clear(self) -> None:
        self.groups: list[Group] = []
        self._group_row: dict[Group, int] = {}
        self.keys: list[list[str]] = []
        self._key_row: dict[Key, int] = {}
        self.entries: dict[Key, MemoryEvent] = {}  # every key's current entry, shown or not
        self._touched: set[Key] = set()  # keys the filter node wrote or read
        self._previews: dict[Key, str] = {}
        self._seen = (0, 0)

    def reset(self, projection: RunProjection | None, node_filter: str | None) -> None:
        self.beginResetModel()
        self.projection, self.node_filter = projection, node_filter
        self._clear()
        self._absorb(notify=False)
        self.endResetModel()

    def sync(self) -> None:
        self._absorb(notify=True)

    def _absorb(self, *, notify: bool) -> None:
        if self.projection is None:
            return
        events, self._seen = merged_since(self.projection, self._seen)
        changed: dict[Key, None] = {}
        for e in events:
            key = (e.memory, e.scope, e.key)
            if self.node_filter is not None and of_node(e.node_id, self.node_filter):
                self._touched.add(key)
            if isinstance(e, ev.MemoryWritten):
                if e.admitted:
                    self.entries[key] = e
                    self._previews.pop(key, None)
            elif key not in self.entries:
                self.entries[key] = e
            if key in self.entries and (self.node_filter is None or key in self._touched):
                changed[key] = None
        new_groups = [g for g in dict.fromkeys(k[:2] for k in changed if k not in self._key_row)
                      if g not in self._group_row]
        if new_groups:
            first = len(self.groups)
            if notify:
                self.beginInsertRows(QModelIndex(), first, first + len(new_groups) - 1)
            for g in new_groups:
                self._group_row[g] = len(self.groups)
                self.groups.append(g)
                self.keys.append([])
            if notify:
                self.endInsertRows()
        added: dict[int, list[str]] = {}
        for key in changed:
            if key in self._key_row:
                if notify:
                    row = self._key_row[key]
                    parent = self.index(self._group_row[key[:2]], 0)
                    self.dataChanged.emit(self.index(row, 0, parent), self.index(row, len(HEADERS) - 1, parent))
            else:
                added.setdefault(self._group_row[key[:2]], []).append(key[2])
        for group_row, names in added.items():
            first = len(self.keys[group_row])
            if notify:
                self.beginInsertRows(self.index(group_row, 0), first, first + len(names) - 1)
            group = self.groups[group_row]
            for name in names:
                self._key_row[(*group, name)] = len(self.keys[group_row])
                self.keys[group_row].append(name)
            if notify:
                self.endInsertRows()

    # -- reading ----------------------------------------------------------------------------------
    def entry_at(self, index: AnyIndex) -> MemoryEvent | None:
        if not index.isValid() or index.internalId() == 0:
            return None
        group = self.groups[index.internalId() - 1]
        return self.entries.get((*group, self.keys[index.internalId() - 1][index.row()]))

    def key_count(self) -> int:
        return sum(len(k) for k in self.keys)

    def index(self, row: int, column: int, parent: AnyIndex = QModelIndex()) -> QModelIndex:
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if parent.isValid():
            return self.createIndex(row, column, parent.row() + 1)
        return self.createIndex(row, column, 0)

    def parent(self, index: AnyIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, 0)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:
        if not parent.isValid():
            return len(self.groups)
        return len(self.keys[parent.row()]) if parent.internalId() == 0 and parent.column() == 0 else 0

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        column = index.column()
        if index.internalId() == 0:
            memory, scope = self.groups[index.row()]
            if role == Qt.ItemDataRole.DisplayRole:
                count = len(self.keys[index.row()])
                return f"{memory} · {scope} scope — {count} key{'s' if count != 1 else ''}" if column == 0 else ""
            if role == Qt.ItemDataRole.FontRole and column == 0:
                return self._bold
            return None
        entry = self.entry_at(index)
        if entry is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(entry, column)
        if role == Qt.ItemDataRole.ForegroundRole and (column == 4 or isinstance(entry, ev.MemoryRead)):
            return look_for(self._owner).muted
        return None

    def _text(self, e: MemoryEvent, column: int) -> str:
        if column == 0:
            return e.key
        if column == 1:
            key = (e.memory, e.scope, e.key)
            found = self._previews.get(key)
            if found is None:
                found = self._previews[key] = value_preview(e.value)
            return found
        if column == 2:
            return self.title(e.node_id) if isinstance(e, ev.MemoryWritten) else f"(read by {self.title(e.node_id)})"
        if column == 3:
            return seconds(e.ts)
        if isinstance(e, ev.MemoryRead):
            return "written before this run"
        return e.reason or "not gated"

    def title(self, node_id: str) -> str:
        row = self.projection.nodes.get(node_id) if self.projection is not None else None
        return row.title if row is not None and row.title else node_id
