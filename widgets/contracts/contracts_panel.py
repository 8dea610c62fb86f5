"""`ContractsPanel`: the Contracts dock — how the selected run fared against its workflow's trace contracts.

One row per contract, as the run's `ContractsChecked` event recorded it: holds / broken, what it
asserts, the first violating event (seq) and why. A broken contract's "Go to event" (the button, a
double-click or Enter on its row) emits `event_requested(seq)`: the window selects that event in the
Events dock and its span in the Trace (`RunViews.show_event`). The line above says how many hold,
or that the run is still going (contracts are checked as it ends), or that it had none.

Invariants: reads only `projection.contracts` (the projection's fold of the event); the rows are
rebuilt only when the projection changes or `changes.contracts` says the check arrived; a few rows,
so a plain tree widget. The node filter does not apply: a contract is about the whole run.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.contracts import ContractResult, results_from_event
from engine.projection import ProjectionChanges
from widgets.run_panel import RunPanel

_HOLDS, _BROKEN = "holds", "broken"
_COLOURS = {_HOLDS: "#2e7d32", _BROKEN: "#c62828"}
SEQ_ROLE = Qt.ItemDataRole.UserRole


class ContractsPanel(RunPanel):
    event_requested = Signal(int)  # seq of the event to show

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.goto_button = QPushButton("Go to event", self)
        self.goto_button.setToolTip("Select the first violating event in the Events dock and its span in the Trace")
        self.goto_button.setEnabled(False)
        self.tree = QTreeWidget(self)
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setHeaderLabels(["", "Contract", "Event", "Why"])
        for column, width in enumerate((64, 280, 60)):
            self.tree.setColumnWidth(column, width)
        bar = QHBoxLayout()
        bar.addWidget(self.summary, 1)
        bar.addWidget(self.goto_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.tree, 1)
        self.results: list[ContractResult] = []
        self.goto_button.clicked.connect(self.go_to_selected)
        self.tree.itemActivated.connect(lambda _item, _column: self.go_to_selected())
        self.tree.currentItemChanged.connect(lambda _now, _before: self._sync_button())

    # -- RunPanel -------------------------------------------------------------------------------------
    def rebuild(self) -> None:
        p = self.projection
        checked = p.contracts if p is not None else None
        self.results = results_from_event(checked) if checked is not None else []
        self.tree.clear()
        for result in self.results:
            self.tree.addTopLevelItem(self._item(result))
        self.summary.setText(self._summary())
        first_broken = next((i for i, r in enumerate(self.results) if not r.passed), None)
        if first_broken is not None:
            self.tree.setCurrentItem(self.tree.topLevelItem(first_broken))
        self._sync_button()

    def update_from(self, changes: ProjectionChanges) -> None:
        if changes.contracts or (changes.run and not self.results):
            self.rebuild()

    def set_node_filter(self, node_id: str | None) -> None:
        self.node_filter = node_id  # a contract is about the whole run: nothing to filter

    # -- going to an event ----------------------------------------------------------------------------
    def selected_seq(self) -> int | None:
        item = self.tree.currentItem()
        seq = item.data(0, SEQ_ROLE) if item is not None else None
        return seq if isinstance(seq, int) else None

    def go_to_selected(self) -> None:
        seq = self.selected_seq()
        if seq is not None:
            self.event_requested.emit(seq)

    def _sync_button(self) -> None:
        self.goto_button.setEnabled(self.selected_seq() is not None)

    # -- rows -------------------------------------------------------------------------------------------
    def _item(self, result: ContractResult) -> QTreeWidgetItem:
        state = _HOLDS if result.passed else _BROKEN
        seq = "" if result.seq is None else str(result.seq)
        item = QTreeWidgetItem([state, result.title, seq, result.reason])
        item.setForeground(0, QBrush(QColor(_COLOURS[state])))
        item.setData(0, SEQ_ROLE, result.seq)
        item.setToolTip(1, f"{result.kind}: {result.contract}")
        item.setToolTip(3, result.reason)
        return item

    def _summary(self) -> str:
        p = self.projection
        if p is None:
            return "No run selected."
        if not self.results:
            if not p.finished:
                return "The run is going on: its contracts are checked as it ends."
            return "This run checked no trace contracts (its workflow had none when it ran)."
        broken = sum(not r.passed for r in self.results)
        held = len(self.results) - broken
        if broken:
            return f"{broken} of {len(self.results)} contracts broken, {held} hold."
        return f"All {held} contracts hold."
