"""`ContractsPanel`: the Contracts dock — how the selected run fared against its workflow's trace contracts.

One row per contract, as the run's `ContractsChecked` event recorded it (those of a sub-graph's own
file named with their sub-graph): holds / broken, what it asserts, the first violating event (seq)
and why. A broken contract's "Go to event" (the button, a double-click or Enter on its row) emits
`event_requested(seq)`: the window selects that event in the Events dock and its span in the Trace
(`RunViews.show_event`). The line above says how many hold, or that the run is still going (contracts
are checked as it ends), or that it had none.

At a playback moment (a projection of a finished run stopped before its end: `clock_running` False)
the rows are the verdicts as of that moment (`contract_rows.rows_at`): a contract first broken after it
is not shown broken yet, and what only the end can tell is said to be checked there. The end's
results come from the last whole projection of that run the panel was given — `RunViews` shows a run
whole when it is selected, before any playback move.

Invariants: reads only `projection.contracts` (the projection's fold of the event) and `last_seq`; the
rows are rebuilt only when the projection changes, `changes.contracts` says the check arrived, or a
playback moment moved; a few rows, so a plain tree widget. The node filter does not apply: a contract
is about the whole run.
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
from engine.projection import ProjectionChanges, RunProjection
from widgets.contracts.contract_rows import BROKEN, HOLDS, SO_FAR, ContractRow, rows_at, summary_at
from widgets.run_panel import RunPanel

_COLOURS = {HOLDS: "#2e7d32", BROKEN: "#c62828", SO_FAR: "#616161"}
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
        self.rows: list[ContractRow] = []
        self.moment: int | None = None  # the seq a playback shows (None: the run's end, or live)
        self._end: tuple[str, list[ContractResult]] = ("", [])  # the last finished run shown: its results
        self.goto_button.clicked.connect(self.go_to_selected)
        self.tree.itemActivated.connect(lambda _item, _column: self.go_to_selected())
        self.tree.currentItemChanged.connect(lambda _now, _before: self._sync_button())

    # -- RunPanel -------------------------------------------------------------------------------------
    def rebuild(self) -> None:
        p = self.projection
        checked = p.contracts if p is not None else None
        if p is not None and checked is not None and p.finished:
            self._end = (p.run_id, results_from_event(checked))
        self.moment = self._moment_of(p)
        if checked is not None:
            self.results = results_from_event(checked)
        elif self.moment is not None:
            self.results = self._end[1]
        else:
            self.results = []
        keep = self.tree.indexOfTopLevelItem(self.tree.currentItem()) if self.tree.currentItem() else -1
        self.tree.clear()
        self.rows = rows_at(self.results, self.moment)
        for row in self.rows:
            self.tree.addTopLevelItem(self._item(row))
        self.summary.setText(self._summary())
        first_broken = next((i for i, r in enumerate(self.rows) if r.state == BROKEN), None)
        chosen = keep if 0 <= keep < len(self.rows) and self.moment is not None else first_broken
        if chosen is not None:
            self.tree.setCurrentItem(self.tree.topLevelItem(chosen))
        self._sync_button()

    def _moment_of(self, p: RunProjection | None) -> int | None:
        """The seq a playback shows, when `p` is a finished run stopped before its end; None otherwise."""
        if p is None or self.clock_running or p.finished:
            return None
        return p.last_seq if p.contracts is not None or self._end[0] == p.run_id else None

    def update_from(self, changes: ProjectionChanges) -> None:
        if changes.contracts or (changes.run and not self.results) or self.moment is not None:
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
    def _item(self, row: ContractRow) -> QTreeWidgetItem:
        seq = "" if row.seq is None else str(row.seq)
        item = QTreeWidgetItem([row.state, row.title, seq, row.why])
        item.setForeground(0, QBrush(QColor(_COLOURS[row.state])))
        item.setData(0, SEQ_ROLE, row.seq)
        item.setToolTip(1, f"{row.result.kind}: {row.result.contract}")
        item.setToolTip(3, row.why)
        return item

    def _summary(self) -> str:
        p = self.projection
        if p is None:
            return "No run selected."
        if not self.rows:
            if not p.finished and self.clock_running:
                return "The run is going on: its contracts are checked as it ends."
            if not p.finished:
                return f"At event {p.last_seq}: the contracts are checked at the run's end."
            return "This run checked no trace contracts (its workflow had none when it ran)."
        return summary_at(self.rows, self.moment)
