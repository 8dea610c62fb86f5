"""`EventsPanel`: the Events dock — a run's raw event stream as a virtual table, live, filterable, copyable.

A `RunPanel`. Each flush takes the new events in with one batched insert; the view follows the end
only when it was already at the bottom. Filters (kinds, multi-select; node — the canvas's node
filter too; text over kind, node and summary) start a new scan that runs on a timer, at most
`SCAN_BUDGET_S` of matching per tick, so filtering 100,000 events never freezes the window. Ctrl+C / "Copy" puts
the selected rows on the clipboard as JSON lines (`Event.to_record()`). Double-clicking a call's
event says `span_selected`, any other event with a node `node_selected`.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMenu,
    QPushButton,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from engine import events as ev
from engine.projection import ProjectionChanges, RunProjection
from widgets.compact_rows import compact_buttons
from widgets.elided_label import ElidedLabel
from widgets.events_view.event_text import event_node, event_summary
from widgets.events_view.events_model import EventsModel, Matcher
from widgets.run_panel import RunPanel

SCAN_CHUNK = 20_000  # more events than this not looked at yet are scanned on a timer
SCAN_BUDGET_S = 0.012  # the most one timer tick spends matching
SEARCH_DEBOUNCE_MS = 250
ALL_NODES = "All nodes"


class EventsPanel(RunPanel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = EventsModel(self)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setWordWrap(False)
        self.view.setAlternatingRowColors(True)
        vertical = self.view.verticalHeader()
        vertical.setVisible(False)
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.view.horizontalHeader()
        for column, width in enumerate((64, 70, 110, 120, 80)):
            header.resizeSection(column, width)
        header.setStretchLastSection(True)
        self.kinds_button = QToolButton(self)
        self.kinds_button.setText("Kinds: all")
        self.kinds_button.setMinimumWidth(self.fontMetrics().horizontalAdvance("Kinds: all ") + 28)
        self.kinds_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.kinds_menu = QMenu(self.kinds_button)
        self.kind_actions: dict[str, QAction] = {}
        for kind in ev.EVENT_TYPES:
            action = self.kinds_menu.addAction(kind)
            action.setCheckable(True)
            action.setChecked(True)
            action.toggled.connect(self._on_kind_toggled)
            self.kind_actions[kind] = action
        self.kinds_menu.addSeparator()
        self.kinds_menu.addAction("Show all kinds").triggered.connect(lambda: self.set_kinds(None))
        self.kinds_menu.addAction("Hide token deltas").triggered.connect(
            lambda: self.set_kinds(set(ev.EVENT_TYPES) - {"llm_delta"}))
        self.kinds_button.setMenu(self.kinds_menu)
        self.node_box = QComboBox(self)
        self.node_box.addItem(ALL_NODES)
        self.node_box.setMinimumContentsLength(8)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search kind, node, summary…")
        self.search.setClearButtonEnabled(True)
        self.copy_button = QPushButton("Copy", self)
        self.copy_button.setToolTip("Copy the selected events as JSON lines (Ctrl+C)")
        self.count_label = ElidedLabel(parent=self)
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        # a steady width (elided when the dock is narrow): its text changes every flush, which must not lay the
        # bar out again
        self.count_label.set_width_text("000,000 of 000,000 (filtering…)")
        compact_buttons(self.copy_button)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        for widget, stretch in ((self.kinds_button, 0), (self.node_box, 0), (self.search, 1),
                                (self.count_label, 0), (self.copy_button, 0)):
            bar.addWidget(widget, stretch)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)
        copy = QAction("Copy as JSON lines", self.view)
        copy.setShortcut(QKeySequence.StandardKey.Copy)
        copy.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        copy.triggered.connect(self.copy_selected)
        self.view.addAction(copy)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self._known_nodes: set[str] = set()
        self._scan_timer = QTimer(self, interval=0)
        self._scan_timer.timeout.connect(self._on_scan_timer_timeout)
        self._search_timer = QTimer(self, singleShot=True, interval=SEARCH_DEBOUNCE_MS)
        self._search_timer.timeout.connect(self._refilter)
        self.search.textChanged.connect(self._search_timer.start)
        self.node_box.currentTextChanged.connect(self._on_node_box_changed)
        self.copy_button.clicked.connect(self.copy_selected)
        self.view.doubleClicked.connect(self._on_view_double_clicked)

    # -- RunPanel -------------------------------------------------------------------------------------
    def rebuild(self) -> None:
        self._known_nodes.clear()
        self.node_box.blockSignals(True)
        self.node_box.clear()
        self.node_box.addItem(ALL_NODES)
        self.node_box.blockSignals(False)
        self._add_nodes()
        self._select_node_box(self.node_filter)
        self.model.reset(self.projection, self._matcher())
        self._take_in()

    def update_from(self, changes: ProjectionChanges) -> None:
        if changes.nodes:
            self._add_nodes()
        self._take_in()

    def set_node_filter(self, node_id: str | None) -> None:
        if node_id != self.node_filter:
            self.node_filter = node_id
            self._add_nodes()
            self._select_node_box(node_id)
            self._refilter()

    def set_kinds(self, kinds: set[str] | None) -> None:
        """Show only events of `kinds` (None: all)."""
        for kind, action in self.kind_actions.items():
            action.blockSignals(True)
            action.setChecked(kinds is None or kind in kinds)
            action.blockSignals(False)
        self._refilter()

    def select_seq(self, seq: int, *, reveal: bool = True) -> bool:
        """Select and show the event `seq`: another dock's "go to event" (`reveal`: filters that hide it are
        cleared), or a playback step (`reveal=False`: the person's filters stay; a hidden event is not shown)."""
        self._finish_scan()
        row = self.model.row_of_seq(seq)
        if row is None and reveal and self.model.matcher is not None:
            self.search.blockSignals(True)
            self.search.clear()
            self.search.blockSignals(False)
            self.node_filter = None
            self._select_node_box(None)
            self.set_kinds(None)
            self._finish_scan()
            row = self.model.row_of_seq(seq)
        if row is None:
            return False
        index = self.model.index(row, 0)
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        return True

    def _finish_scan(self) -> None:
        self._scan_timer.stop()
        self.model.scan(None)
        self._update_count()

    def scanning(self) -> bool:
        return self.model.pending() > 0

    def copy_selected(self) -> None:
        rows = sorted({index.row() for index in self.view.selectionModel().selectedRows()})
        lines = []
        for row in rows:
            e = self.model.event_at(row)
            if e is not None:
                lines.append(json.dumps(e.to_record(), ensure_ascii=False, default=str))
        if lines:
            QGuiApplication.clipboard().setText("\n".join(lines) + "\n")

    # -- filtering ------------------------------------------------------------------------------------
    def _matcher(self) -> Matcher | None:
        kinds = {kind for kind, action in self.kind_actions.items() if action.isChecked()}
        all_kinds = len(kinds) == len(self.kind_actions)
        self.kinds_button.setText("Kinds: all" if all_kinds else f"Kinds: {len(kinds)}")
        node = self.node_filter
        needle = self.search.text().strip().casefold()
        if all_kinds and node is None and not needle:
            return None

        def match(p: RunProjection, e: ev.Event) -> bool:
            if not all_kinds and e.kind not in kinds:
                return False
            if node is not None and event_node(p, e) != node:
                return False
            if needle:
                text = f"{e.kind}\n{event_node(p, e)}\n{e.span_id or ''}\n{event_summary(e)}".casefold()
                return needle in text
            return True

        return match

    def _refilter(self) -> None:
        self.model.set_filter(self._matcher())
        self._take_in()

    def _take_in(self) -> None:
        """Take in the events not looked at yet: at once when few, else in chunks on a timer."""
        if self.model.pending() <= SCAN_CHUNK:
            self._scan(None)
        elif not self._scan_timer.isActive():
            self._scan(SCAN_CHUNK)
            self._scan_timer.start()
        self._update_count()

    def _scan(self, limit: int | None) -> None:
        bar = self.view.verticalScrollBar()
        at_bottom = bar.value() >= bar.maximum() - 1
        budget = None if limit is None else SCAN_BUDGET_S
        if self.model.scan(limit, budget_s=budget) and at_bottom and self.model.rowCount() > 0:
            self.view.scrollToBottom()

    def _update_count(self) -> None:
        total = len(self.projection.events) if self.projection is not None else 0
        shown = self.model.rowCount()
        busy = " (filtering…)" if self._scan_timer.isActive() else ""
        self.count_label.setText(f"{shown:,} of {total:,}{busy}" if shown != total else f"{total:,} events")

    def _add_nodes(self) -> None:
        p = self.projection
        wanted = set(p.nodes) if p is not None else set()
        if self.node_filter:
            wanted.add(self.node_filter)
        new = sorted(wanted - self._known_nodes)
        if new:
            self._known_nodes.update(new)
            self.node_box.blockSignals(True)
            self.node_box.addItems(new)
            self.node_box.blockSignals(False)

    def _select_node_box(self, node_id: str | None) -> None:
        self.node_box.blockSignals(True)
        self.node_box.setCurrentText(node_id or ALL_NODES)
        self.node_box.blockSignals(False)

    # -- slots ------------------------------------------------------------------------------------------
    def _on_scan_timer_timeout(self) -> None:
        self._scan(SCAN_CHUNK)
        if self.model.pending() == 0:
            self._scan_timer.stop()
        self._update_count()

    def _on_kind_toggled(self, _checked: bool) -> None:
        self._refilter()

    def _on_node_box_changed(self, text: str) -> None:
        node = None if text == ALL_NODES else text
        if node != self.node_filter:
            self.node_filter = node
            self._refilter()

    def _on_view_double_clicked(self, index: QModelIndex) -> None:
        e = self.model.event_at(index.row())
        if e is None or self.projection is None:
            return
        if e.span_id is not None and e.span_id in self.projection.calls:
            self.span_selected.emit(e.span_id)
        node = event_node(self.projection, e)
        if node:
            self.node_selected.emit(node)
