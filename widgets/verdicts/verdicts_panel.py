"""`VerdictsPanel`: the Verdicts dock — every critic's and verifier's verdict of the selected run.

A table (`VerdictsModel`: time, judge, subject, decision, score, round, claims, reasons), filtered by
node (the canvas selection through `set_node_filter`, or the node box: a node matches as judge or as
subject) and by decision (approve / revise / reject toggles); beside it `VerdictDetails` for the
selected verdict: reasons, claims, the artifact judged and its diff from the previous round.

Signals (intents, `RunPanel`): selecting a row emits `node_selected(judge)` — `node_selected(subject)`
when the subject cell was clicked —; double-click / Enter on a row, or the header's "span" link,
emits `span_selected(verdict.span_id)` (the judge's execution span); the node links in the details
emit `node_selected`. Ctrl+C (and the table's context menu) copies the selected verdict as JSON.

Invariants: live verdicts are appended once per flush (`update_from` → `VerdictsModel.sync`), never
a reset; a rebuild (new projection, new filter) keeps the selected verdict selected when it still
passes the filter, without emitting `node_selected` for it again.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, Qt
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from engine.projection import ProjectionChanges, RunProjection
from widgets.compact_rows import short_views
from widgets.elided_label import ElidedLabel
from widgets.run_panel import RunPanel, same_run
from widgets.verdicts.look import look_for
from widgets.verdicts.verdict_details import VerdictDetails
from widgets.verdicts.verdicts_model import DECISIONS, SUBJECT, VerdictsModel


class VerdictsPanel(RunPanel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = VerdictsModel(self)
        self.node_box = QComboBox(self)
        self.node_box.setMinimumContentsLength(10)
        self.node_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.decision_buttons: dict[str, QToolButton] = {}
        self.summary = ElidedLabel(parent=self)
        bar = QHBoxLayout()  # two rows, the node and the count above the decisions: the dock fits a narrow column
        bar.addWidget(QLabel("Node:", self))
        bar.addWidget(self.node_box)
        bar.addWidget(self.summary, 1)
        decisions = QHBoxLayout()
        for decision in DECISIONS:
            button = QToolButton(self)
            button.setText(decision)
            button.setCheckable(True)
            button.setChecked(True)
            button.setToolTip(f"Show {decision} verdicts")
            button.toggled.connect(self._on_decision_toggled)
            self.decision_buttons[decision] = button
            decisions.addWidget(button)
        decisions.addStretch(1)
        self._style_decision_buttons()
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)
        for column, width in enumerate((64, 110, 110, 70, 52, 52, 74)):
            header.resizeSection(column, width)
        copy = QAction("Copy verdict as JSON", self.table)
        copy.setShortcut(QKeySequence.StandardKey.Copy)
        copy.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        copy.triggered.connect(self._on_copy_triggered)
        show_span = QAction("Show the judge's span", self.table)
        show_span.triggered.connect(self._on_show_span_triggered)
        self.table.addActions([copy, show_span])
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.details = VerdictDetails(self)
        short_views(self.table)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.details)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(bar)
        layout.addLayout(decisions)
        layout.addWidget(self.splitter, 1)
        self._restoring = False
        self._nodes_listed: set[str] = set()
        self._nodes_scanned = 0  # verdicts whose nodes are in the node box
        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_changed)
        self.table.clicked.connect(self._on_table_clicked)
        self.table.activated.connect(self._on_table_activated)
        self.node_box.currentIndexChanged.connect(self._on_node_box_changed)
        self.details.node_clicked.connect(self.node_selected)
        self.details.span_clicked.connect(self.span_selected)
        self.rebuild()

    # -- RunPanel ---------------------------------------------------------------------------------
    def rebuild(self) -> None:
        selected = self.details.verdict.seq if self.details.verdict is not None else None
        self._restoring = True
        try:
            self.model.reset(self.projection, self.node_filter, self._decisions())
            self._nodes_listed.clear()
            self._nodes_scanned = 0
            self.node_box.blockSignals(True)
            self.node_box.clear()
            self.node_box.addItem("All nodes", None)
            self.node_box.blockSignals(False)
            self._list_nodes()
            row = self.model.row_of_seq(selected) if selected is not None else None
            if row is None:
                self.table.clearSelection()
                self.details.show_verdict(self.projection, None)
            else:
                self.table.selectionModel().setCurrentIndex(
                    self.model.index(row, 0),
                    QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        finally:
            self._restoring = False
        self._count()

    def update_from(self, changes: ProjectionChanges) -> None:
        if changes.verdicts:
            self.model.sync()
            self._list_nodes()
            self._count()
        elif changes.nodes and self.projection is not None:
            self._list_nodes()  # a title may have arrived (RunPlanned)

    def set_projection(self, projection: RunProjection | None) -> None:
        """Show `projection`; the selection stays when it is the same run again (playback at another seq)."""
        if not same_run(self.projection, projection):
            self.details.show_verdict(None, None)
        super().set_projection(projection)

    # -- filters ----------------------------------------------------------------------------------
    def set_decisions(self, decisions: set[str] | frozenset[str]) -> None:
        for decision, button in self.decision_buttons.items():
            button.blockSignals(True)
            button.setChecked(decision in decisions)
            button.blockSignals(False)
        self.rebuild()

    def _decisions(self) -> frozenset[str]:
        return frozenset(d for d, b in self.decision_buttons.items() if b.isChecked())

    def _list_nodes(self) -> None:
        p = self.projection
        wanted: list[str] = []
        if p is not None:
            for v in p.verdicts[self._nodes_scanned:]:
                wanted.extend(n for n in dict.fromkeys((v.node_id, v.subject_node_id)) if n not in self._nodes_listed)
                self._nodes_listed.update((v.node_id, v.subject_node_id))
            self._nodes_scanned = len(p.verdicts)
        if self.node_filter is not None and self.node_filter not in self._nodes_listed:
            wanted.append(self.node_filter)
            self._nodes_listed.add(self.node_filter)
        self.node_box.blockSignals(True)
        for node_id in wanted:
            self.node_box.addItem(self.model.title(node_id), node_id)
        self.node_box.setCurrentIndex(max(0, self.node_box.findData(self.node_filter)))
        self.node_box.blockSignals(False)

    def _count(self) -> None:
        total = len(self.projection.verdicts) if self.projection is not None else 0
        shown = self.model.rowCount()
        noun = "verdict" if total == 1 else "verdicts"
        self.summary.setText(f"{total} {noun}" if shown == total else f"{shown} of {total} {noun}")

    # -- slots ------------------------------------------------------------------------------------
    def _on_decision_toggled(self, _checked: bool) -> None:
        self.rebuild()

    def _on_node_box_changed(self, index: int) -> None:
        self.set_node_filter(self.node_box.itemData(index))

    def _on_table_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        verdict = self.model.verdict_at(current.row()) if current.isValid() else None
        self.details.show_verdict(self.projection, verdict)
        by_keyboard = QApplication.mouseButtons() == Qt.MouseButton.NoButton  # a click says so in `clicked`
        if verdict is not None and not self._restoring and by_keyboard:
            self.node_selected.emit(verdict.node_id)

    def _on_table_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            verdict = self.model.verdict_at(index.row())
            self.node_selected.emit(verdict.subject_node_id if index.column() == SUBJECT else verdict.node_id)

    def _on_copy_triggered(self) -> None:
        verdict = self.details.verdict
        if verdict is not None:
            QApplication.clipboard().setText(json.dumps(verdict.to_record(), indent=2, ensure_ascii=False, default=str))

    def _on_show_span_triggered(self) -> None:
        self._on_table_activated(self.table.currentIndex())

    def _on_table_activated(self, index: QModelIndex) -> None:
        verdict = self.model.verdict_at(index.row()) if index.isValid() else None
        if verdict is not None and verdict.span_id:
            self.span_selected.emit(verdict.span_id)

    def _style_decision_buttons(self) -> None:
        look = look_for(self)
        for decision, button in self.decision_buttons.items():
            colour = look.decision(decision).name()
            button.setStyleSheet(f"QToolButton:checked {{ color: {colour}; font-weight: bold; }}"
                                 f"QToolButton:!checked {{ color: {look.muted.name()}; }}")

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # a theme switch: decision colours follow
            self._style_decision_buttons()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        wide = event.size().width() > 1.3 * event.size().height()
        orientation = Qt.Orientation.Horizontal if wide else Qt.Orientation.Vertical
        if self.splitter.orientation() != orientation:
            self.splitter.setOrientation(orientation)
            total = event.size().width() if wide else event.size().height()
            self.splitter.setSizes([int(total * 0.45), int(total * 0.55)])
