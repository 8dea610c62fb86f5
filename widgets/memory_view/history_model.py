"""`MemoryHistoryModel`: every memory write of a run (and, optionally, every read), in seq order.

Columns: time, node, what (written / refused / read), memory, scope, key, value (one-line preview),
gate (the gate's reason and the verdict that decided it, `engine.projection.judged.gate_verdict_of`).
Filters: a node (its writes and reads), reads shown or not, one key (memory, scope, key), and a
search text matched against memory, scope, key and node.

Invariants: rows are the projection's own events, appended by `sync()` with one `beginInsertRows` per
call (once per flush); changing a filter resets. `data()` reads one event; value previews and gate
lookups are computed once per row, on first paint, and cached.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QWidget

from engine import events as ev
from engine.projection import RunProjection
from engine.projection.judged import gate_verdict_of
from widgets.memory_view.merge import Key, MemoryEvent, merged_since, of_node
from widgets.verdicts.look import look_for, seconds, value_preview

AnyIndex = QModelIndex | QPersistentModelIndex
HEADERS = ("Time", "Node", "What", "Memory", "Scope", "Key", "Value", "Gate")
WHAT = 2


def what_of(e: MemoryEvent) -> str:
    if isinstance(e, ev.MemoryRead):
        return "read"
    return "written" if e.admitted else "refused"


class MemoryHistoryModel(QAbstractTableModel):
    def __init__(self, owner: QWidget | None = None) -> None:
        super().__init__(owner)
        self._owner = owner
        self.projection: RunProjection | None = None
        self.node_filter: str | None = None
        self.show_reads = True
        self.key_filter: Key | None = None
        self.search = ""
        self.rows: list[MemoryEvent] = []
        self._seen = (0, 0)
        self._cache: dict[tuple[int, int], str] = {}

    def reset(self, projection: RunProjection | None, node_filter: str | None) -> None:
        self.beginResetModel()
        self.projection, self.node_filter = projection, node_filter
        self.rows, self._seen, self._cache = [], (0, 0), {}
        self.rows = self._new_rows()
        self.endResetModel()

    def sync(self) -> int:
        new = self._new_rows()
        if new:
            first = len(self.rows)
            self.beginInsertRows(QModelIndex(), first, first + len(new) - 1)
            self.rows.extend(new)
            self.endInsertRows()
        return len(new)

    def _new_rows(self) -> list[MemoryEvent]:
        if self.projection is None:
            return []
        events, self._seen = merged_since(self.projection, self._seen)
        return [e for e in events if self._passes(e)]

    def _passes(self, e: MemoryEvent) -> bool:
        if self.node_filter is not None and not of_node(e.node_id, self.node_filter):
            return False
        if not self.show_reads and isinstance(e, ev.MemoryRead):
            return False
        if self.key_filter is not None and (e.memory, e.scope, e.key) != self.key_filter:
            return False
        if self.search:
            text = self.search.lower()
            return any(text in s.lower() for s in (e.memory, e.scope, e.key, e.node_id, self.title(e.node_id)))
        return True

    def title(self, node_id: str) -> str:
        row = self.projection.nodes.get(node_id) if self.projection is not None else None
        return row.title if row is not None and row.title else node_id

    def gate_text(self, e: MemoryEvent) -> str:
        if isinstance(e, ev.MemoryRead) or self.projection is None:
            return ""
        if not e.reason:
            return "not gated"
        verdict = gate_verdict_of(self.projection, e)
        if verdict is None:
            return e.reason
        return f"{e.reason} — verdict of {self.title(verdict.node_id)} at {seconds(verdict.ts)} (seq {verdict.seq})"

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        e = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(e, column)
        if role == Qt.ItemDataRole.ForegroundRole and column == WHAT:
            look = look_for(self._owner)
            what = what_of(e)
            return look.approve if what == "written" else look.reject if what == "refused" else look.muted
        if role == Qt.ItemDataRole.ToolTipRole and column == 7:
            return self._cached(e, 7, self.gate_text) or None
        return None

    def _text(self, e: MemoryEvent, column: int) -> str:
        if column == 0:
            return seconds(e.ts)
        if column == 1:
            return self.title(e.node_id)
        if column == WHAT:
            return what_of(e)
        if column in (3, 4, 5):
            return (e.memory, e.scope, e.key)[column - 3]
        if column == 6:
            return self._cached(e, 6, lambda x: value_preview(x.value))
        return self._cached(e, 7, self.gate_text)

    def _cached(self, e: MemoryEvent, column: int, make: Any) -> str:
        key = (e.seq, column)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = make(e)
        return found
