"""`TracePanel`: the Trace dock — the run's spans as a live tree (run → node executions → model / tool calls).

A `RunPanel`: `set_projection` / `set_node_filter` reload the lazy `TraceModel`; `apply_changes`
inserts a flush's new spans in one batch per parent and repaints only the rows that changed. Running
node executions open as they start; what the person looks at stays put while rows arrive (the top
row is pinned unless "Follow live" is on, which scrolls to the newest span). The search box filters
by name or status (a recursive proxy over the fully read model, applied after a short pause).
Picking a call says `span_selected(span_id)`, a node execution `node_selected(node_id)`.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMenu,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from engine.projection import ProjectionChanges, RunProjection
from widgets.run_panel import RunPanel, same_run
from widgets.trace.trace_cells import NAME
from widgets.trace.trace_filter import TraceFilterProxy
from widgets.trace.trace_format import TERMINAL_SPAN_STATES
from widgets.trace.trace_model import TraceModel

SEARCH_DEBOUNCE_MS = 200
LIVE_TICK_MS = 500
CHEAP_LAYOUT_ROWS = 2_000  # up to this many rows a flush's spans go in at once
MAX_INSERT_INTERVAL_MS = 1_000


class TracePanel(RunPanel):
    fork_requested = Signal(str)  # span id of a finished run: "Fork from here…"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = TraceModel(self)
        self.model.run_time = self.run_time  # open spans' durations on the docks' one clock
        self.model.set_palette(self.palette())
        self.proxy = TraceFilterProxy(self)  # over the model only while a search filters it (else it costs every change)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Filter by name or status…")
        self.search.setClearButtonEnabled(True)
        self.follow = QCheckBox("Follow live", self)
        self.follow.setToolTip("Scroll to the newest span as it arrives")
        self.view = QTreeView(self)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QTreeView.SelectionBehavior.SelectRows)
        self.view.setModel(self.model)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._on_context_menu)
        self._menu: QMenu | None = None
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in enumerate((300, 96, 80, 76, 70, 190, 56)):
            header.resizeSection(column, width)
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Stretch)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.search, 1)
        bar.addWidget(self.follow)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)
        self._auto_expanded: set[str] = set()
        self._search_timer = QTimer(self, singleShot=True, interval=SEARCH_DEBOUNCE_MS)
        self._search_timer.timeout.connect(self._on_search_timer_timeout)
        self._live_timer = QTimer(self, interval=LIVE_TICK_MS)
        self._live_timer.timeout.connect(self._on_live_timer_timeout)
        self.search.textChanged.connect(self._on_search_text_changed)
        self.view.collapsed.connect(self._on_view_collapsed)
        self._inserted: list[QModelIndex] = []
        self._pending_added: list[str] = []
        self._pending_touched: set[str] = set()
        self._insert_timer = QTimer(self, singleShot=True)
        self._insert_timer.timeout.connect(self._insert_pending)
        self.model.rowsInserted.connect(self._on_model_rows_inserted)
        self._connect_selection()

    # -- RunPanel -------------------------------------------------------------------------------------
    def set_projection(self, projection: RunProjection | None) -> None:
        """Show `projection`; the same run standing still at another moment (playback) rewinds the rows read
        in place (`TraceModel.rewind`: the person's opened rows and scroll stay, nothing is laid out again)
        unless a search filters the tree; a live run is reloaded (its running executions opened)."""
        old = self.projection
        if (projection is not None and old is not None and projection is not old and same_run(old, projection)
                and not self.clock_running and self.model.node_filter == self.node_filter
                and not self.search.text().strip() and self.model.rewind(projection)):
            self.view.viewport().update()  # the rows left read the new moment when painted
            self.projection = projection
            self._note_received()
            self._insert_timer.stop()
            self._pending_added.clear()
            self._pending_touched.clear()
            self._inserted.clear()
            self._sync_live_timer()
            return
        super().set_projection(projection)

    def rebuild(self) -> None:
        self._auto_expanded.clear()
        self._inserted.clear()
        self._pending_added.clear()
        self._pending_touched.clear()
        self._insert_timer.stop()
        self.model.reload(self.projection, self.node_filter)
        self._apply_search()
        self._expand_open_rows()
        self._sync_live_timer()

    def update_from(self, changes: ProjectionChanges) -> None:
        if self.projection is None:
            return
        touched = set(changes.spans_changed)
        calls = self.projection.calls
        touched.update(c for c in changes.calls_changed if (row := calls.get(c)) is not None and row.restarts)
        if self.model.moved(touched | set(changes.spans_added)):
            self.rebuild()
            return
        self.model.touch_spans(touched)  # repaints only: no layout
        self._pending_added.extend(changes.spans_added)
        self._pending_touched |= touched
        rows = self.model.rows_known
        if rows <= CHEAP_LAYOUT_ROWS or self.projection.finished:
            self._insert_timer.stop()
            self._insert_pending()
        elif not self._insert_timer.isActive():
            # each insert makes the tree lay out every open row again: a big tree takes its rows
            # less often (≈ 10 % of the loop at most), never once per flush
            self._insert_timer.start(min(MAX_INSERT_INTERVAL_MS, max(100, rows // 10)))
        self._sync_live_timer()

    def _insert_pending(self) -> None:
        if self.projection is None:
            return
        added, self._pending_added = self._pending_added, []
        touched, self._pending_touched = self._pending_touched, set()
        if not added and not touched:
            return
        anchor, anchor_top = self._anchor() if added else (QModelIndex(), 0)
        refilter = self.view.model() is self.proxy and self.proxy.extend(added)
        self.model.add_spans(added)
        if refilter:
            self.proxy.invalidateFilter()
        inserted, self._inserted = self._inserted, []
        spans = self.projection.span_table.spans
        for index in inserted:
            span = spans[self.model.span_id(index)]
            if span.kind in ("run", "node") and span.end_ts is None:
                self._auto_expanded.add(span.span_id)
                if span.children:  # came with its first calls: they are read when it opens
                    self._expand(index, auto=True)
            parent = index.parent()
            if parent.isValid() and self.model.span_id(parent) in self._auto_expanded:
                self._expand(parent, auto=True)
        tidy = self.follow.isChecked() or self.model.rows_known > CHEAP_LAYOUT_ROWS
        for sid in (touched & self._auto_expanded) if tidy else ():  # opened because it ran: closes when done
            done = spans.get(sid)
            if done is not None and done.kind == "node" and done.status in TERMINAL_SPAN_STATES:
                self._auto_expanded.discard(sid)
                self.view.collapse(self._to_view(self.model.index_of(sid)))
        if self.follow.isChecked():
            if inserted:
                self.view.scrollTo(self._to_view(inserted[-1]), QTreeView.ScrollHint.EnsureVisible)
        elif anchor.isValid():
            shift = self.view.visualRect(anchor).top() - anchor_top
            if shift:
                bar = self.view.verticalScrollBar()
                bar.setValue(bar.value() + shift)

    # -- helpers --------------------------------------------------------------------------------------
    def select_span(self, span_id: str) -> None:
        """Select `span_id`'s row (a slot for other docks' `span_selected`): its rows are read, its parents opened."""
        self._insert_timer.stop()
        self._insert_pending()
        index = self._to_view(self.model.reveal(span_id))
        if index.isValid():
            self.view.setCurrentIndex(index)
            self.view.scrollTo(index)

    def _anchor(self) -> tuple[QModelIndex, int]:
        top = self.view.indexAt(QPoint(1, 1))
        return (top, self.view.visualRect(top).top()) if top.isValid() else (QModelIndex(), 0)

    def _to_view(self, index: QModelIndex) -> QModelIndex:
        return self.proxy.mapFromSource(index) if self.view.model() is self.proxy else index

    def _to_source(self, index: QModelIndex) -> QModelIndex:
        return self.proxy.mapToSource(index) if self.view.model() is self.proxy else index

    def _expand(self, index: QModelIndex, *, auto: bool) -> None:
        view_index = self._to_view(index)
        if view_index.isValid() and not self.view.isExpanded(view_index):
            self.view.expand(view_index)
            if auto:
                self._auto_expanded.add(self.model.span_id(index))

    def _expand_open_rows(self) -> None:
        """Open the top level and the node executions still running (of the first rows read)."""
        top = self.model.rowCount()
        for row in range(top):
            index = self.model.index(row, 0)
            self._expand(index, auto=False)
            span = self.model.span_at(index)
            live = self.projection is not None and not self.projection.finished
            if live and span is not None and span.kind == "run":
                for child in range(self.model.rowCount(index)):
                    sub = self.model.index(child, 0, index)
                    sub_span = self.model.span_at(sub)
                    if sub_span is not None and sub_span.end_ts is None:
                        self._expand(sub, auto=True)

    def _apply_search(self) -> None:
        needle = self.search.text().strip()
        if needle:
            self.model.fetch_all()
            if self.proxy.sourceModel() is not self.model:
                self.proxy.setSourceModel(self.model)
            self.proxy.set_needle(needle)
            if self.view.model() is not self.proxy:
                self.view.setModel(self.proxy)
                self._connect_selection()
            if len(self.proxy.visible) <= CHEAP_LAYOUT_ROWS:
                self.view.expandAll()  # the matches in their place
            else:  # thousands of matches: opening them all would lay out every row; the top level only
                for row in range(self.proxy.rowCount()):
                    self.view.expand(self.proxy.index(row, 0))
        elif self.view.model() is not self.model:
            self.proxy.set_needle("")
            self.view.setModel(self.model)
            self.proxy.setSourceModel(None)  # type: ignore[arg-type]
            self._connect_selection()
            self._expand_open_rows()

    def _connect_selection(self) -> None:
        self.view.selectionModel().currentChanged.connect(self._on_current_changed)

    def _sync_live_timer(self) -> None:
        live = self.projection is not None and not self.projection.finished and self.clock_running
        if live and not self._live_timer.isActive():
            self._live_timer.start()
        elif not live:
            self._live_timer.stop()

    # -- slots ------------------------------------------------------------------------------------------
    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        span = self.model.span_at(self._to_source(current))
        if span is None:
            return
        if span.kind in ("llm", "tool"):
            self.span_selected.emit(span.span_id)
        elif span.kind == "node" and span.node_id:
            self.node_selected.emit(span.node_id)

    def _on_context_menu(self, point: QPoint) -> None:
        """"Fork from here…" on a node execution or a call of a finished run (`fork_requested(span_id)`)."""
        span = self.model.span_at(self._to_source(self.view.indexAt(point)))
        p = self.projection
        if span is None or span.kind == "run" or p is None or p.status in ("pending", "running"):
            return
        menu = QMenu(self)
        menu.addAction("Fork from here…", lambda: self.fork_requested.emit(span.span_id))
        self._menu = menu
        menu.popup(self.view.viewport().mapToGlobal(point))

    def _on_model_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        # rows the view paged in itself since the last flush (fetchMore on layout) count as new too
        if self.projection is None or self.projection.finished:
            return
        self._inserted.extend(self.model.index(row, 0, parent) for row in range(first, last + 1))

    def _on_view_collapsed(self, index: QModelIndex) -> None:
        self._auto_expanded.discard(self.model.span_id(self._to_source(index)))  # the person closed it: stays closed

    def _on_search_text_changed(self, _text: str) -> None:
        self._search_timer.start()

    def _on_search_timer_timeout(self) -> None:
        self._apply_search()

    def _on_live_timer_timeout(self) -> None:
        if self.isVisible():
            self.view.viewport().update()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self.model.set_palette(self.palette())
            self.view.viewport().update()
        super().changeEvent(event)
