"""`EventsModel`: the run's raw event stream as a virtual table (seq, time, kind, node, span, summary).

Rows point into `projection.events` (append-only): with no filter a row is an event's position,
with one the model keeps the positions that match. New events are taken in with `scan(limit)` — one
`beginInsertRows` per call, so a flush of thousands of events is one insert; a new filter starts
over (`set_filter`) and is scanned in chunks by the panel, so 100,000 events never freeze the window.

Invariants: rows only grow between `set_filter` / `reset` calls; `data()` formats one cell of one event.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from engine import events as ev
from engine.projection import RunProjection
from widgets.events_view.event_text import event_node, event_summary, short_span

STEP = 1_000  # events matched between two looks at the clock
COLUMNS = ("Seq", "Time", "Kind", "Node", "Span", "Summary")
Index = QModelIndex | QPersistentModelIndex
Matcher = Callable[[RunProjection, ev.Event], bool]


class EventsModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.projection: RunProjection | None = None
        self.matcher: Matcher | None = None
        self._rows: list[int] = []  # positions of the shown events (with a matcher)
        self._count = 0  # rows shown
        self._scanned = 0  # events looked at so far

    def reset(self, projection: RunProjection | None, matcher: Matcher | None) -> None:
        self.beginResetModel()
        self.projection, self.matcher = projection, matcher
        self._rows, self._count, self._scanned = [], 0, 0
        self.endResetModel()

    def set_filter(self, matcher: Matcher | None) -> None:
        self.reset(self.projection, matcher)

    def pending(self) -> int:
        """Events not looked at yet."""
        return len(self.projection.events) - self._scanned if self.projection is not None else 0

    def scan(self, limit: int | None = None, *, budget_s: float | None = None) -> int:
        """Take in up to `limit` events not looked at yet (all when None), stopping early once `budget_s`
        seconds are spent matching (checked every `STEP` events); returns how many rows were added."""
        p = self.projection
        if p is None:
            return 0
        events = p.events
        end = len(events) if limit is None else min(len(events), self._scanned + limit)
        start = self._scanned
        if end <= start:
            return 0
        if self.matcher is None:
            self._scanned = end
            added = end - start
        else:
            match, found = self.matcher, []
            deadline = None if budget_s is None else time.perf_counter() + budget_s
            at = start
            while at < end:
                stop = min(end, at + STEP)
                found.extend(i for i in range(at, stop) if match(p, events[i]))
                at = stop
                if deadline is not None and time.perf_counter() > deadline:
                    break
            self._scanned = at
            added = len(found)
        if added:
            self.beginInsertRows(QModelIndex(), self._count, self._count + added - 1)
            if self.matcher is not None:
                self._rows.extend(found)
            self._count += added
            self.endInsertRows()
        return added

    def event_at(self, row: int) -> ev.Event | None:
        if self.projection is None or not 0 <= row < self._count:
            return None
        return self.projection.events[self._rows[row] if self.matcher is not None else row]

    def row_of_seq(self, seq: int) -> int | None:
        """The row showing the event `seq` among the rows taken in (None: not shown — filtered out or not read yet)."""
        if self.projection is None:
            return None
        events = self.projection.events
        if self.matcher is None:
            row = bisect_left(events, seq, 0, self._count, key=_seq_of)
        else:
            row = bisect_left(self._rows, seq, 0, self._count, key=lambda i: events[i].seq)
        return row if row < self._count and self.event_at(row).seq == seq else None  # type: ignore[union-attr]

    # -- QAbstractTableModel ------------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else self._count

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if role == Qt.ItemDataRole.TextAlignmentRole and index.column() <= 1:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        e = self.event_at(index.row())
        if e is None or self.projection is None:
            return None
        column = index.column()
        if column == 0:
            return str(e.seq)
        if column == 1:
            return f"{e.ts:.3f}"
        if column == 2:
            return e.kind
        if column == 3:
            return event_node(self.projection, e)
        if column == 4:
            return (e.span_id or "") if role == Qt.ItemDataRole.ToolTipRole else short_span(e.span_id)
        return event_summary(e)


def _seq_of(event: ev.Event) -> int:
    return event.seq
