"""`MemoryPanel`: the Memory dock — what the run's memories hold, every write and read, each value in full.

Three parts: the current contents (`MemoryContentsModel`, a tree grouped by memory and scope), the
history (`MemoryHistoryModel`: writes, admitted or refused and by which verdict, and — "Reads" — the
reads), and the value of the selected row (`MemoryValuePane`, which with `set_store` also says what the
store holds now for workflow / global memory). Selecting a key in the contents narrows the history to
that key while "Only the selected key" is on; the search box narrows it by memory, scope, key or node.

Signals (intents, `RunPanel`): selecting a row emits `node_selected(node_id)` of the node that wrote
(or read) it. Live writes are appended once per flush (`update_from` → `sync`), never a reset.
While a node filter is set a "only <node> ✕" button says so and clears it; Ctrl+C (and the history's
context menu) copies the selected value, or the whole write / read as JSON.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QSplitter,
    QTableView,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from engine.projection import ProjectionChanges, RunProjection
from engine.projection.judged import artifact_text
from widgets.compact_rows import short_views
from widgets.elided_label import ElidedLabel
from widgets.memory_view.contents_model import MemoryContentsModel
from widgets.memory_view.history_model import MemoryHistoryModel
from widgets.memory_view.merge import MemoryEvent
from widgets.memory_view.value_pane import MemoryValuePane
from widgets.run_panel import RunPanel, same_run


class MemoryPanel(RunPanel):
    def __init__(self, parent: QWidget | None = None, *, store: Any = None) -> None:
        super().__init__(parent)
        self.contents_model = MemoryContentsModel(self)
        self.history_model = MemoryHistoryModel(self)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Filter by memory, scope, key or node")
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(100)
        self.reads = QCheckBox("Reads", self)
        self.reads.setChecked(True)
        self.only_key = QCheckBox("Only the selected key", self)
        self.summary = ElidedLabel(parent=self)
        self.node_chip = QToolButton(self)  # "only <node>": the canvas selection; clicking shows every node
        self.node_chip.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.node_chip.setToolTip("Only the node selected on the canvas: click to show every node")
        self.node_chip.clicked.connect(self._on_node_chip_clicked)
        bar = QHBoxLayout()  # two rows, the filter above its options and the count: the dock fits a narrow column
        bar.addWidget(self.node_chip)
        bar.addWidget(self.search, 1)
        options = QHBoxLayout()
        options.addWidget(self.reads)
        options.addWidget(self.only_key)
        options.addWidget(self.summary, 1)
        row_height = self.fontMetrics().height() + 8
        self.contents = QTreeView(self)
        self.contents.setModel(self.contents_model)
        self.contents_model.rowsInserted.connect(self._on_contents_rows_inserted)
        self.contents_model.modelReset.connect(self._on_contents_reset)
        self.contents.setUniformRowHeights(True)
        self.contents.setAlternatingRowColors(True)
        self.contents.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.contents.header().resizeSection(0, 160)
        self.contents.header().resizeSection(1, 260)
        self.history = QTableView(self)
        self.history.setModel(self.history_model)
        self.history.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.history.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.history.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.history.setWordWrap(False)
        self.history.setAlternatingRowColors(True)
        self.history.verticalHeader().hide()
        self.history.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.history.verticalHeader().setDefaultSectionSize(row_height)
        self.history.horizontalHeader().setStretchLastSection(True)
        for column, width in enumerate((60, 140, 60, 80, 70, 100, 200)):
            self.history.horizontalHeader().resizeSection(column, width)
        copy = QAction("Copy value", self.history)
        copy.setShortcut(QKeySequence.StandardKey.Copy)
        copy.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        copy.triggered.connect(self._on_copy_triggered)
        copy_row = QAction("Copy as JSON", self.history)
        copy_row.triggered.connect(self._on_copy_row_triggered)
        self.history.addActions([copy, copy_row])
        self.history.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.value = MemoryValuePane(self)
        self.value.set_store(store)
        short_views(self.contents, self.history)
        self.lists = QSplitter(Qt.Orientation.Vertical, self)
        self.lists.addWidget(self.contents)
        self.lists.addWidget(self.history)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.addWidget(self.lists)
        self.splitter.addWidget(self.value)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(bar)
        layout.addLayout(options)
        layout.addWidget(self.splitter, 1)
        self._emitting = True
        self._refused = self._writes_counted = 0  # refused writes counted so far, of how many
        self.search.textChanged.connect(self._on_search_changed)
        self.reads.toggled.connect(self._on_reads_toggled)
        self.only_key.toggled.connect(self._on_only_key_toggled)
        self.contents.selectionModel().currentChanged.connect(self._on_contents_current_changed)
        self.history.selectionModel().currentRowChanged.connect(self._on_history_current_changed)
        self.rebuild()

    def set_store(self, store: Any) -> None:
        """The `TraceStore` the run is recorded in (or None): lasting memory is compared with it."""
        self.value.set_store(store)

    # -- RunPanel ---------------------------------------------------------------------------------
    def rebuild(self) -> None:
        shown = self.value.shown
        self.node_chip.setVisible(self.node_filter is not None)
        if self.node_filter is not None and self.projection is not None:
            self.node_chip.setText(f"only {self.history_model.title(self.node_filter)} ✕")
        self._refused = self._writes_counted = 0
        self.contents_model.reset(self.projection, self.node_filter)
        self._reset_history()
        if shown is None or self.projection is None or not self._reselect(shown):
            self.value.show_event(self.projection, None)
        self._count()

    def update_from(self, changes: ProjectionChanges) -> None:
        if not changes.memory:
            return
        self.contents_model.sync()
        self.history_model.sync()
        self._count()

    def set_projection(self, projection: RunProjection | None) -> None:
        """Show `projection`; the selection stays when it is the same run again (playback at another seq)."""
        if not same_run(self.projection, projection):
            self.value.show_event(None, None)
        super().set_projection(projection)

    # -- helpers ----------------------------------------------------------------------------------
    def _reset_history(self) -> None:
        model = self.history_model
        model.show_reads, model.search = self.reads.isChecked(), self.search.text().strip()
        entry = self.value.shown if self.only_key.isChecked() else None
        model.key_filter = (entry.memory, entry.scope, entry.key) if entry is not None else None
        model.reset(self.projection, self.node_filter)

    def _reselect(self, shown: MemoryEvent) -> bool:
        for row, e in enumerate(self.history_model.rows):
            if e.seq == shown.seq:  # the same run's event (maybe from a projection rebuilt for playback)
                self._emitting = False
                try:
                    self.history.selectionModel().setCurrentIndex(
                        self.history_model.index(row, 0),
                        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
                finally:
                    self._emitting = True
                return True
        return False

    def _count(self) -> None:
        p = self.projection
        writes = len(p.memory_writes) if p is not None else 0
        if p is not None:
            self._refused += sum(1 for w in p.memory_writes[self._writes_counted:] if not w.admitted)
            self._writes_counted = writes
        refused = self._refused
        reads = len(p.memory_reads) if p is not None else 0
        keys = self.contents_model.key_count()
        text = f"{keys} key{'s' if keys != 1 else ''} · {writes} write{'s' if writes != 1 else ''}"
        text += f" ({refused} refused)" if refused else ""
        self.summary.setText(text + f" · {reads} read{'s' if reads != 1 else ''}")

    def _show(self, e: MemoryEvent | None) -> None:
        run_entry = self.contents_model.entries.get((e.memory, e.scope, e.key)) if e is not None else None
        self.value.show_event(self.projection, e, run_entry)
        if e is not None and self._emitting:
            self.node_selected.emit(e.node_id)

    # -- slots ------------------------------------------------------------------------------------
    def _on_node_chip_clicked(self) -> None:
        self.set_node_filter(None)

    def _on_copy_triggered(self) -> None:
        if self.value.shown is not None:
            QApplication.clipboard().setText(artifact_text(self.value.shown.value))

    def _on_copy_row_triggered(self) -> None:
        if self.value.shown is not None:
            record = self.value.shown.to_record()
            QApplication.clipboard().setText(json.dumps(record, indent=2, ensure_ascii=False, default=str))

    def _on_contents_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        if not parent.isValid():  # new groups: their title spans the row, their keys show
            for row in range(first, last + 1):
                self.contents.setFirstColumnSpanned(row, QModelIndex(), True)
                self.contents.expand(self.contents_model.index(row, 0))

    def _on_contents_reset(self) -> None:
        if self.contents_model.groups:
            self._on_contents_rows_inserted(QModelIndex(), 0, len(self.contents_model.groups) - 1)

    def _on_contents_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        entry = self.contents_model.entry_at(current)
        if entry is None:
            return
        self._show(entry)
        if self.only_key.isChecked():
            self._reset_history()

    def _on_history_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self._show(self.history_model.rows[current.row()])

    def _on_search_changed(self, _text: str) -> None:
        self._reset_history()

    def _on_reads_toggled(self, _checked: bool) -> None:
        self._reset_history()

    def _on_only_key_toggled(self, _checked: bool) -> None:
        self._reset_history()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        wide = event.size().width() > 1.3 * event.size().height()
        orientation = Qt.Orientation.Horizontal if wide else Qt.Orientation.Vertical
        if self.splitter.orientation() != orientation:
            self.splitter.setOrientation(orientation)
            total = event.size().width() if wide else event.size().height()
            self.splitter.setSizes([int(total * 0.6), int(total * 0.4)])
