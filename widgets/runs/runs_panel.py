"""`RunsPanel`: the store's past runs as a lineage tree — newest first, replays and forks under their
source, filterable; opened, re-run, deleted, pruned and compacted from here.

The store comes from `store_source`: a path (opened with `open_trace_store`, and closed by `close()`)
or a callable returning an open `TraceStore` (the app's own). Opening and every read and delete run in
the loop's executor (`loop.run_in_executor` from a task on the GUI's one qasync loop), never on the
GUI thread; a store that cannot be opened shows its reason in the panel (no traceback) and is tried
again on the next refresh. `refresh()` reloads (the controller calls it when a run finishes; a
refresh asked while one is loading runs once after it). Double-click / Enter / Open emits
`open_requested(run_id)`; Delete asks (a non-modal `QMessageBox.open()`, never `exec()`), deletes,
emits `run_deleted(run_id)` and reloads. Live runs (`set_live_runs`) cannot be deleted. The context
menu also asks to re-run a finished run from its recording (`rerun_requested(run_id)`) and to export
one to a bundle file ("Export run…": `export_requested(run_id)`). Prune… /
Compact and the store's size are `StoreHousekeeping`'s (widgets/runs/store_housekeeping.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from widgets.compact_rows import compact_buttons
from widgets.runs.run_rows import RunListing, load_listings
from widgets.runs.runs_model import RUN_ID_ROLE, RunsModel
from widgets.runs.store_housekeeping import StoreHousekeeping

if TYPE_CHECKING:  # the store's package loads SQLAlchemy: opened in a worker, not at start-up
    from engine.store import TraceStore

    StoreSource = Callable[[], TraceStore] | str | Path
LIMIT = 5000
ALL_STATUSES = "All statuses"


class RunsPanel(QWidget):
    open_requested = Signal(str)
    export_requested = Signal(str)
    rerun_requested = Signal(str)  # re-run this finished run from its recording
    compare_requested = Signal(str, str)  # run A, run B: show how they differ
    run_deleted = Signal(str)
    runs_loaded = Signal(int)  # how many runs the list holds now (also after a failed load: 0)

    def __init__(self, store_source: StoreSource, parent: QWidget | None = None, *, limit: int = LIMIT) -> None:
        super().__init__(parent)
        self._source = store_source
        self._store: TraceStore | None = None
        self._owns_store = not callable(store_source)
        self._limit = limit
        self._loading: asyncio.Task[None] | None = None
        self._again = False
        self._confirm: QMessageBox | None = None
        self._menu: QMenu | None = None
        self.error = ""
        self.model = RunsModel(self)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText("Filter by workflow, status or run id")
        self.filter_edit.setClearButtonEnabled(True)
        self.status_combo = QComboBox(self)
        self.status_combo.addItem(ALL_STATUSES)
        self.refresh_button = QPushButton("Refresh", self)
        self.open_button = QPushButton("Open", self)
        self.delete_button = QPushButton("Delete…", self)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.view = self._make_view()
        self.housekeeping = StoreHousekeeping(self)
        self.export_action = QAction("Export run…", self)
        self.export_action.setObjectName("export_run")
        self.export_action.setToolTip("Write this run, its workflow version and its recording to one bundle file")
        self.export_action.triggered.connect(self._on_export_triggered)
        bar = QHBoxLayout()  # two rows, the filter above the buttons: the dock fits a narrow left column
        bar.addWidget(self.filter_edit, 1)
        bar.addWidget(self.status_combo)
        buttons = QHBoxLayout()
        for button in (self.refresh_button, self.open_button, self.delete_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        compact_buttons(self.refresh_button, self.open_button, self.delete_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.housekeeping)
        self.filter_edit.textChanged.connect(self._on_filter_edited)
        self.status_combo.currentTextChanged.connect(self._on_status_changed)
        self.refresh_button.clicked.connect(self.refresh)
        self.open_button.clicked.connect(self._on_open_clicked)
        self.delete_button.clicked.connect(self._on_delete_clicked)
        self.view.activated.connect(self._on_row_activated)
        self.view.customContextMenuRequested.connect(self._on_context_menu)
        self.view.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.model.layoutChanged.connect(self._on_selection_changed)  # a filter may hide the selected run
        self._update_buttons()
        self.refresh()

    def _make_view(self) -> QTableView:
        view = QTableView(self)
        view.setModel(self.model)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)  # two runs: Compare
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.setWordWrap(False)
        view.setSortingEnabled(True)
        view.sortByColumn(2, Qt.SortOrder.DescendingOrder)  # newest first
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.verticalHeader().hide()
        view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
        header = view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, chars in enumerate((30, 19, 22, 10, 9, 9, 22)):
            header.resizeSection(column, view.fontMetrics().averageCharWidth() * chars + 16)
        return view

    # -- what the controller tells it ------------------------------------------------------------
    def refresh(self) -> None:
        """Reload the list from the store, off the GUI thread."""
        if self._loading is not None and not self._loading.done():
            self._again = True
            return
        self._loading = asyncio.get_event_loop().create_task(self._load())

    def set_live_runs(self, run_ids: set[str]) -> None:
        self.model.set_live(run_ids)
        self._update_buttons()

    def selected_run(self) -> str | None:
        rows = self.view.selectionModel().selectedRows()
        return str(rows[0].data(RUN_ID_ROLE)) if rows else None

    def selected_runs(self) -> list[str]:
        """The selected runs in display order."""
        rows = sorted(self.view.selectionModel().selectedRows(), key=lambda index: index.row())
        return [str(index.data(RUN_ID_ROLE)) for index in rows]

    def select_run(self, run_id: str) -> bool:
        """Select `run_id`'s row; False when it is not shown."""
        index = self.model.index_of(run_id)
        if not index.isValid():
            return False
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.view.selectionModel().setCurrentIndex(index, flags)
        self.view.scrollTo(index)
        return True

    def store(self) -> TraceStore:
        """The open store (opening it): for work in the loop's executor only."""
        return self._open_store()

    def close_store(self) -> None:
        """Close the store if the panel opened it (from a path); the next refresh opens it again."""
        if self._owns_store and self._store is not None:
            self._store.close()
        self._store = None

    # -- loading and deleting (off the GUI thread) -----------------------------------------------
    def _open_store(self) -> TraceStore:
        if self._store is None:
            source = self._source
            from engine.store.opening import open_trace_store

            self._store = source() if callable(source) else open_trace_store(source)
        return self._store

    async def in_worker(self, work: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, work)

    async def _load(self) -> None:
        if not isValid(self):
            return
        self.message.setText("Loading runs…")
        self.refresh_button.setEnabled(False)
        try:
            while True:
                self._again = False
                try:
                    listings: list[RunListing] = await self.in_worker(
                        lambda: load_listings(self._open_store(), self._limit))
                    self.error = ""
                except Exception as exc:  # a store that cannot be opened or read: said, not raised
                    self._store = None
                    listings, self.error = [], str(exc) or type(exc).__name__
                if not self._again or not isValid(self):
                    break
            if isValid(self):  # the panel may have been closed and deleted meanwhile
                self._show(listings)
        finally:
            if isValid(self):
                self.refresh_button.setEnabled(True)

    async def _delete(self, run_id: str) -> None:
        if not isValid(self):
            return
        self.message.setText(f"Deleting run {run_id[:8]}…")
        try:
            deleted = await self.in_worker(lambda: self._open_store().delete_run(run_id))
        except Exception as exc:
            if isValid(self):
                self.message.setText(f"Could not delete run {run_id[:8]}: {exc}")
            return
        if not isValid(self):
            return
        if deleted:
            self.run_deleted.emit(run_id)
        self.refresh()

    def _show(self, listings: list[RunListing]) -> None:
        selected = self.selected_run()
        self.model.set_listings(listings)
        self._fill_statuses()
        if selected is not None:
            self._select(selected)
        if self.error:
            self.message.setText(f"The trace store cannot be opened or read: {self.error}")
        elif not listings:
            self.message.setText("No runs in the store yet: run a workflow and it is listed here.")
        else:
            more = f" (the newest {self._limit})" if len(listings) >= self._limit else ""
            self.message.setText(f"{len(listings)} run{'s' if len(listings) != 1 else ''}{more}")
        self._update_buttons()
        self.housekeeping.refresh_size()
        self.runs_loaded.emit(len(listings))

    def _fill_statuses(self) -> None:
        current = self.status_combo.currentText()
        self.status_combo.blockSignals(True)
        self.status_combo.clear()
        self.status_combo.addItems([ALL_STATUSES, *self.model.statuses()])
        found = self.status_combo.findText(current)
        self.status_combo.setCurrentIndex(max(found, 0))
        self.status_combo.blockSignals(False)
        status = "" if found <= 0 else current
        if status != self.model.status:  # the status chosen is gone: show all (else no second filter pass)
            self.model.set_filter(status=status)

    def _select(self, run_id: str) -> None:
        self.select_run(run_id)

    # -- slots -----------------------------------------------------------------------------------
    def _on_status_changed(self, text: str) -> None:
        self.model.set_filter(status="" if text == ALL_STATUSES else text)

    def _on_filter_edited(self, text: str) -> None:
        self.model.set_filter(text=text)

    def _on_row_activated(self, index: QModelIndex) -> None:
        run_id = index.data(RUN_ID_ROLE)
        if run_id:
            self.open_requested.emit(str(run_id))

    def _on_open_clicked(self) -> None:
        run_id = self.selected_run()
        if run_id is not None:
            self.open_requested.emit(run_id)

    def _on_export_triggered(self) -> None:
        run_id = self.selected_run()
        if run_id is not None and run_id not in self.model.live:
            self.export_requested.emit(run_id)

    def _on_delete_clicked(self) -> None:
        run_id = self.selected_run()
        if run_id is None or run_id in self.model.live:
            return
        children = self.model.descendants(run_id)
        lineage = (f"\n\n{len(children)} replay(s) or fork(s) descend from it: they stay, listed on their own, "
                   "and can no longer be compared with it." if children else "")
        box = QMessageBox(QMessageBox.Icon.Warning, "Delete run",
                          f"Delete run {run_id[:8]} and everything recorded for it? This cannot be undone.{lineage}",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.finished.connect(lambda result: self._on_delete_answered(run_id, result))
        self._confirm = box
        box.open()

    def _on_delete_answered(self, run_id: str, result: int) -> None:
        self._confirm = None
        if result == QMessageBox.StandardButton.Yes and run_id not in self.model.live:
            asyncio.get_event_loop().create_task(self._delete(run_id))

    def _on_context_menu(self, point: QPoint) -> None:
        index = self.view.indexAt(point)
        run_id = self.model.run_id(index)
        if not run_id:
            return
        chosen = self.selected_runs()
        if run_id not in chosen:
            self.select_run(run_id)
        item = self.model.listing_at(index)
        menu = QMenu(self)
        if len(chosen) == 2 and run_id in chosen:
            menu.addAction("Compare the two selected runs", lambda: self.compare_requested.emit(chosen[0], chosen[1]))
        source = self.model.source_of(run_id)
        if source:
            menu.addAction("Compare with its source", lambda: self.compare_requested.emit(source, run_id))
        menu.addAction("Open", lambda: self.open_requested.emit(run_id))
        rerun = menu.addAction("Re-run from the recording", lambda: self.rerun_requested.emit(run_id))
        finished = item is not None and item.summary.status != "running" and run_id not in self.model.live
        rerun.setEnabled(finished)
        rerun.setToolTip("Every model and tool call served from this run's recording: no provider is called")
        menu.addAction(self.export_action)
        menu.addSeparator()
        delete = menu.addAction("Delete…", self._on_delete_clicked)
        delete.setEnabled(run_id not in self.model.live)
        self._menu = menu
        menu.popup(self.view.viewport().mapToGlobal(point))

    def _on_selection_changed(self, *_args: Any) -> None:
        self._update_buttons()

    def _update_buttons(self) -> None:
        run_id = self.selected_run()
        self.open_button.setEnabled(run_id is not None)
        live = run_id is not None and run_id in self.model.live
        self.delete_button.setEnabled(run_id is not None and not live)
        self.export_action.setEnabled(run_id is not None and not live)
        self.delete_button.setToolTip("A live run cannot be deleted: stop it first." if live
                                      else "Delete the selected run from the store")
