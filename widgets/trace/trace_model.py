"""`TraceModel`: a lazy, append-only `QAbstractItemModel` over a run's `SpanTable` (run → node executions → calls).

Rows are span ids; an index's internal id is the span's number in `self._ids`. Each parent's rows are
a prefix of its span's `children` (first-seen order, append-only): a parent's rows are read from the
projection the first time the view asks (`rowCount`), at most `CHUNK` of them, and the rest on
`fetchMore` — a stored run of thousands of executions paints at once. Live, `add_spans` inserts the
new spans of a flush with one `beginInsertRows` per parent, and `touch_spans` emits `dataChanged`
for those rows only. With a node filter the top level is that node's executions (`NodeRow.span_ids`).

Invariants: the model never resets except through `reload()` (a new projection or filter, or a span
moved under a parent it was not shown under) — `rewind()` moves it to the same run at another moment
in place; `data()` reads the projection's rows, formats one cell, and caches nothing that can go stale.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QPalette

from engine.projection import RunProjection, SpanRow
from widgets.trace.trace_cells import COLUMNS, RETRIES, cell_text, cell_tooltip, retries, span_status
from widgets.trace.trace_format import is_dark, status_colour, status_icon

CHUNK = 500
ROOT = ""  # the key of the invisible root
Index = QModelIndex | QPersistentModelIndex


class TraceModel(QAbstractItemModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.projection: RunProjection | None = None
        self.node_filter: str | None = None
        self.dark = False
        self._ids: list[str] = []  # internal id → span id
        self._num: dict[str, int] = {}  # span id → internal id
        self._kids: dict[str, list[str]] = {}  # parent key → the rows shown (a prefix of its source)
        self._row: dict[str, int] = {}  # span id → its row under its parent key
        self._pkey: dict[str, str] = {}  # span id → the key of the parent it is shown under
        # the run's time now as every dock shows it (its panel's `RunPanel.run_time`); None: the projection's
        # last event's (a model shown alone stands still)
        self.run_time: Callable[[], float] | None = None

    # -- feeding ----------------------------------------------------------------------------------
    def set_palette(self, palette: QPalette) -> None:
        self.dark = is_dark(palette)

    def reload(self, projection: RunProjection | None, node_filter: str | None) -> None:
        self.beginResetModel()
        self.projection, self.node_filter = projection, node_filter
        self._ids, self._num, self._kids, self._row, self._pkey = [], {}, {}, {}, {}
        self.endResetModel()

    def rewind(self, projection: RunProjection) -> bool:
        """Show `projection`, the same run at another moment (playback), keeping the rows read and the view's
        layout. A parent's rows only grow at their end (first-seen order), so at any moment they are a prefix
        of its rows at another: each parent read is cut to its rows then (`beginRemoveRows` of the tail) or
        given the rows it gained up to `CHUNK`; a row whose expand arrow comes or goes lays the tree out
        (`layoutChanged`). The rows left are not announced one by one (a `dataChanged` over thousands of rows
        makes the tree ask each whether it has children): the caller repaints its view. False, and
        nothing changed, when the rows read are not such a prefix (a span moved under another parent
        meanwhile): the caller reloads."""
        old = self.projection
        if old is None:
            return False
        self.projection = projection
        spans = projection.span_table.spans
        keep: dict[str, int] = {}  # parent key → how many of its rows read stay
        for key, shown in self._kids.items():
            if key == ROOT or key in spans:
                source = self.source(key)
                n = min(len(shown), len(source))
                if shown[:n] != source[:n]:
                    self.projection = old
                    return False
                keep[key] = n
        alive = [key for key in keep if self._alive(key, keep)]
        for key in alive:
            shown = self._kids[key]
            if keep[key] < len(shown):
                self.beginRemoveRows(self._parent_index(key), keep[key], len(shown) - 1)
                self._forget(shown[keep[key]:])
                del shown[keep[key]:]
                self.endRemoveRows()
        for key in alive:
            shown = self._kids[key]
            if len(shown) < CHUNK:
                self._append(key, self.source(key)[len(shown):CHUNK])
        if self._arrows_changed(old, alive):
            self.layoutAboutToBeChanged.emit()
            self.layoutChanged.emit()
        return True

    def _alive(self, key: str, keep: dict[str, int]) -> bool:
        """Whether `key`'s row stays shown: its parent's does and its row is within the rows that stay."""
        while key != ROOT:
            parent = self._pkey.get(key)
            if parent is None or parent not in keep or self._row[key] >= keep[parent]:
                return False
            key = parent
        return True

    def _forget(self, span_ids: list[str]) -> None:
        """Drop the rows of `span_ids` and every row read under them (their internal ids stay)."""
        pending = list(span_ids)
        while pending:
            sid = pending.pop()
            self._row.pop(sid, None)
            self._pkey.pop(sid, None)
            pending.extend(self._kids.pop(sid, ()))

    def _arrows_changed(self, old: RunProjection, keys: list[str]) -> bool:
        """Whether a row shown under `keys`, not itself read, gained its first child or lost its last."""
        before, now = old.span_table.spans, self.projection.span_table.spans  # type: ignore[union-attr]
        for key in keys:
            for sid in self._kids[key]:
                if sid not in self._kids:
                    was, span = before.get(sid), now.get(sid)
                    if bool(was is not None and was.children) != bool(span is not None and span.children):
                        return True
        return False

    def now(self) -> float | None:
        """The run's time now, for the duration of open spans (`run_time`: the Timeline's and the Deadline
        gauge's); None once the run is over (a span it never ended has no duration)."""
        p = self.projection
        if p is None or p.finished:
            return None
        return p.elapsed_s if self.run_time is None else self.run_time()

    def source(self, key: str) -> list[str]:
        p = self.projection
        if p is None:
            return []
        if key == ROOT:
            if self.node_filter is None:
                return p.span_table.roots
            row = p.nodes.get(self.node_filter)
            return row.span_ids if row is not None else []
        span = p.span_table.spans.get(key)
        return span.children if span is not None else []

    def key_for(self, span: SpanRow) -> str | None:
        """The parent key `span` belongs under in this model (None: not shown with the node filter)."""
        if self.node_filter is not None:
            if span.kind == "node" and span.node_id == self.node_filter:
                return ROOT
        elif span.parent_id is None or span.parent_id not in self.projection.span_table.spans:  # type: ignore[union-attr]
            return ROOT
        return span.parent_id

    def add_spans(self, span_ids: list[str]) -> list[QModelIndex]:
        """Insert the spans first seen in a flush (batched per parent); returns the indexes inserted."""
        p = self.projection
        if p is None:
            return []
        groups: dict[str, int] = {}
        for sid in span_ids:
            span = p.span_table.spans.get(sid)
            key = self.key_for(span) if span is not None else None
            if key is not None:
                groups[key] = groups.get(key, 0) + 1
        inserted: list[QModelIndex] = []
        fresh: set[str] = set()  # spans inserted by this call: their own rows are read when asked for
        for key, count in groups.items():
            if key != ROOT and (key not in self._row or key in fresh):
                continue  # its parent is not shown yet, or new itself: its rows are read when it is
            src = self.source(key)
            before = len(src) - count
            shown = self._kids.get(key)
            if shown is None:
                if before > 0:
                    continue  # older rows never asked for: read on demand
                shown = self._kids[key] = []
            if len(shown) < before:
                continue  # still paging in: fetchMore brings the rest
            added = self._append(key, src[len(shown):])
            fresh.update(src[len(src) - len(added):])
            inserted.extend(added)
        return inserted

    def touch_spans(self, span_ids: set[str] | list[str]) -> None:
        """dataChanged for the rows of spans that changed (each its own row, all columns)."""
        last = len(COLUMNS) - 1
        for sid in span_ids:
            row = self._row.get(sid)
            if row is not None:
                number = self._num[sid]
                self.dataChanged.emit(self.createIndex(row, 0, number), self.createIndex(row, last, number))

    def moved(self, span_ids: set[str] | list[str]) -> bool:
        """True when a shown span now belongs under another parent (the model must reload)."""
        p = self.projection
        if p is None:
            return False
        for sid in span_ids:
            key = self._pkey.get(sid)
            span = p.span_table.spans.get(sid)
            if key is not None and span is not None and self.key_for(span) != key:
                return True
        return len(self._kids.get(ROOT, ())) > len(self.source(ROOT))

    def reveal(self, span_id: str) -> QModelIndex:
        """`span_id`'s index, reading the rows it and its ancestors need first (invalid: not in this tree)."""
        p = self.projection
        if p is None:
            return QModelIndex()
        chain: list[str] = []
        span = p.span_table.spans.get(span_id)
        while span is not None and len(chain) < 64:
            chain.append(span.span_id)
            key = self.key_for(span)
            if key is None or key == ROOT:
                break
            span = p.span_table.spans.get(key)
        for sid in reversed(chain):
            found = p.span_table.spans[sid]
            key = self.key_for(found)
            if key is None or (key != ROOT and key not in self._row):
                return QModelIndex()
            parent = self._parent_index(key)
            self._shown(key)
            while sid not in self._row and self.canFetchMore(parent):
                self.fetchMore(parent)
        return self.index_of(span_id)

    def fetch_all(self) -> None:
        """Read every row (a text filter searches all spans)."""
        pending = [ROOT]
        while pending:
            key = pending.pop()
            parent = self._parent_index(key)
            while self.canFetchMore(parent):
                self.fetchMore(parent)
            pending.extend(k for k in self._kids.get(key, ()) if self.source(k))

    def _append(self, key: str, new: list[str]) -> list[QModelIndex]:
        if not new:
            return []
        shown = self._kids[key]
        first = len(shown)
        self.beginInsertRows(self._parent_index(key), first, first + len(new) - 1)
        out = []
        for offset, sid in enumerate(new):
            number = self._num.get(sid)
            if number is None:
                number = self._num[sid] = len(self._ids)
                self._ids.append(sid)
            self._row[sid], self._pkey[sid] = first + offset, key
            out.append(self.createIndex(first + offset, 0, number))
        shown.extend(new)
        self.endInsertRows()
        return out

    def _shown(self, key: str) -> list[str]:
        shown = self._kids.get(key)
        if shown is None:
            shown = self._kids[key] = []
            first = self.source(key)[:CHUNK]
            for offset, sid in enumerate(first):
                if sid not in self._num:
                    self._num[sid] = len(self._ids)
                    self._ids.append(sid)
                self._row[sid], self._pkey[sid] = offset, key
            shown.extend(first)
        return shown

    def _parent_index(self, key: str) -> QModelIndex:
        if key == ROOT:
            return QModelIndex()
        return self.createIndex(self._row[key], 0, self._num[key])

    def _key(self, parent: Index) -> str:
        return self._ids[parent.internalId()] if parent.isValid() else ROOT

    # -- reading ----------------------------------------------------------------------------------
    def span_at(self, index: Index) -> SpanRow | None:
        if not index.isValid() or self.projection is None:
            return None
        return self.projection.span_table.spans.get(self._ids[index.internalId()])

    @property
    def rows_known(self) -> int:
        """How many spans the model has shown (or read for the view) so far."""
        return len(self._ids)

    def span_id(self, index: Index) -> str:
        return self._ids[index.internalId()] if index.isValid() else ROOT

    def child_id(self, parent: Index, row: int) -> str:
        """The span id of row `row` under `parent` ("" when there is none)."""
        shown = self._shown(self._key(parent))
        return shown[row] if 0 <= row < len(shown) else ""

    def index_of(self, span_id: str) -> QModelIndex:
        row = self._row.get(span_id)
        return QModelIndex() if row is None else self.createIndex(row, 0, self._num[span_id])

    # -- QAbstractItemModel ---------------------------------------------------------------------------
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        # the view calls this for every laid-out row: the common path is two dict reads
        key = self._ids[parent.internalId()] if parent.isValid() else ROOT
        shown = self._kids.get(key)
        if shown is None:
            shown = self._shown(key)
        if 0 <= row < len(shown) and 0 <= column < _NCOLUMNS:
            return self.createIndex(row, column, self._num[shown[row]])
        return QModelIndex()

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        key = self._pkey.get(self._ids[index.internalId()], ROOT)
        return self._parent_index(key)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if self.projection is None or parent.column() > 0:
            return 0
        return len(self._shown(self._key(parent)))

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return len(COLUMNS)

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:
        if not parent.isValid():
            return bool(self.source(ROOT))
        if self.projection is None or parent.column() > 0:
            return False
        span = self.projection.span_table.spans.get(self._ids[parent.internalId()])
        return span is not None and bool(span.children)

    def canFetchMore(self, parent: Index) -> bool:
        if self.projection is None:
            return False
        key = self._key(parent)
        return len(self._shown(key)) < len(self.source(key))

    def fetchMore(self, parent: Index) -> None:
        key = self._key(parent)
        shown = self._shown(key)
        self._append(key, self.source(key)[len(shown):len(shown) + CHUNK])

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        column = index.column()
        if role == _DISPLAY:
            span = self.span_at(index)
            return None if span is None else cell_text(self.projection, span, column, self.now())  # type: ignore[arg-type]
        if role == _ALIGN:
            return _RIGHT if column >= 2 else None
        if column == 1 and role in (_DECORATION, _FOREGROUND):
            span = self.span_at(index)
            if span is None:
                return None
            status = span_status(self.projection, span)  # type: ignore[arg-type]
            return status_icon(status, self.dark) if role == _DECORATION else status_colour(status, self.dark)
        if column == RETRIES and role == _FOREGROUND:  # a call that had to be retried reads amber
            span = self.span_at(index)
            if span is not None and retries(self.projection, span):  # type: ignore[arg-type]
                return status_colour("waiting", self.dark)
            return None
        if role == _TOOLTIP:
            span = self.span_at(index)
            return None if span is None else cell_tooltip(self.projection, span, column)  # type: ignore[arg-type]
        if role == _USER:
            span = self.span_at(index)
            return None if span is None else span.span_id
        return None  # every other role (font, background, size hint…) is the view's default: answered at once


_NCOLUMNS = len(COLUMNS)
_DISPLAY = Qt.ItemDataRole.DisplayRole
_DECORATION = Qt.ItemDataRole.DecorationRole
_FOREGROUND = Qt.ItemDataRole.ForegroundRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_ALIGN = Qt.ItemDataRole.TextAlignmentRole
_USER = Qt.ItemDataRole.UserRole
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
