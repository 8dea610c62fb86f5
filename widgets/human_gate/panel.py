"""`HumanGatePanel`: the selected run's human gates — answer the open ones, see what was answered.

Open questions are listed on top (oldest first, one row per gate waiting); the selected one is
answered in the `DecisionForm` below it (Approve, Reject with a required reason, Edit the artifact
+ reason). An answer is an intent: `decision_requested(node_id, decision, edited, reason)` — the
run controller answers the live run (`Run.submit_human_decision`). Answered questions are listed at
the bottom with who decided, what and why. A question that appears while the panel follows a live
run emits `attention_requested(message)` once (the controller notifies and raises the dock).

Invariants: the panel never changes the projection or the run; a finished run (or one the controller
marks read-only, e.g. a playback) cannot be answered, and the form says why; a question answered
from here is not offered again while the run takes the answer.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelection, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from engine.projection import ProjectionChanges
from widgets.compact_rows import short_views
from widgets.human_gate.decision_form import DecisionForm
from widgets.human_gate.questions_model import AnsweredModel, OpenQuestionsModel, node_title
from widgets.run_panel import RunPanel


def _table(model: Any, parent: QWidget) -> QTableView:
    table = QTableView(parent)
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setWordWrap(False)
    table.verticalHeader().hide()
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setStretchLastSection(True)
    return table


class HumanGatePanel(RunPanel):
    decision_requested = Signal(str, str, object, str)  # node_id, decision, edited, reason
    attention_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._read_only_reason = ""  # set by the controller (e.g. a playback of a stored run)
        self._seen: set[tuple[str, int]] = set()  # (run id, question seq) already announced
        self._sent: set[tuple[str, int]] = set()  # answered from here, not yet recorded by the run
        self._selecting = False  # the panel (not the person) is selecting a row
        self.open_model = OpenQuestionsModel(self)
        self.answered_model = AnsweredModel(self)
        self.summary = QLabel(self)
        self.open_table = _table(self.open_model, self)
        self.form = DecisionForm(self)
        self.answered_label = QLabel("Answered", self)
        self.answered_table = _table(self.answered_model, self)
        short_views(self.open_table, self.answered_table, self.form.artifact)
        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.summary)
        top_layout.addWidget(self.open_table, 1)
        top_layout.addWidget(self.form, 3)
        bottom = QWidget(self)
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.answered_label)
        bottom_layout.addWidget(self.answered_table)
        top_scroll = QScrollArea(self)  # the question and its form scroll when the dock is short
        top_scroll.setObjectName("human_gate_scroll")
        top_scroll.setWidget(top)
        top_scroll.setWidgetResizable(True)
        top_scroll.setFrameShape(QFrame.Shape.NoFrame)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(top_scroll)
        splitter.addWidget(bottom)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(splitter)
        self.open_table.selectionModel().selectionChanged.connect(self._on_open_selection_changed)
        self.answered_table.activated.connect(self._on_answered_activated)
        self.form.decided.connect(self._on_form_decided)
        self.rebuild()

    # -- RunPanel --------------------------------------------------------------------------------
    def rebuild(self) -> None:
        keep = self.form.question.seq if self.form.question is not None else None
        self.open_model.reset_to(self.projection, self.node_filter)
        self.answered_model.reset_to(self.projection, self.node_filter)
        self._select_open(keep)
        self._announce_new()
        self._refresh_state()

    def update_from(self, changes: ProjectionChanges) -> None:
        if changes.human:
            keep = self.form.question.seq if self.form.question is not None else None
            self.open_model.reset_to(self.projection, self.node_filter)
            self.answered_model.append_new()
            self._select_open(keep)
            self._announce_new()
        if changes.human or changes.run:
            self._refresh_state()

    def set_read_only(self, reason: str | None) -> None:
        """Make the panel read-only for a reason the projection cannot tell (e.g. a playback); None: live."""
        self._read_only_reason = reason or ""
        self._refresh_state()

    # -- reading ---------------------------------------------------------------------------------
    def read_only_reason(self) -> str:
        p = self.projection
        if p is None:
            return "No run selected."
        if self._read_only_reason:
            return self._read_only_reason
        if p.finished:
            return f"Read-only: this run has ended ({p.status}); its gates cannot be answered any more."
        return ""

    # -- slots -----------------------------------------------------------------------------------
    def _on_open_selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = self.open_table.selectionModel().selectedRows()
        question = self.open_model.question(rows[0].row()) if rows else None
        self._show(question)
        if question is not None and not self._selecting:
            self.node_selected.emit(question.node_id)  # the person picked it: the canvas follows

    def _on_form_decided(self, decision: str, edited: object, reason: str) -> None:
        q, p = self.form.question, self.projection
        if q is None or p is None or self.read_only_reason():
            return
        self._sent.add((p.run_id, q.seq))
        self.decision_requested.emit(q.node_id, decision, edited, reason)
        self._refresh_state()

    def _on_answered_activated(self, index: Any) -> None:
        q = self.answered_model.question(index.row())
        if q is not None:
            self.node_selected.emit(q.node_id)

    # -- internals -------------------------------------------------------------------------------
    def _select_open(self, seq: int | None) -> None:
        rows = self.open_model.rows
        row = next((i for i, q in enumerate(rows) if q.seq == seq), 0 if rows else -1)
        self._selecting = True
        try:
            if row >= 0:
                self.open_table.selectRow(row)
            else:
                self.open_table.clearSelection()
        finally:
            self._selecting = False
        self._show(rows[row] if row >= 0 else None)

    def _show(self, question: Any) -> None:
        p = self.projection
        sent = question is not None and p is not None and (p.run_id, question.seq) in self._sent
        self.form.show_question(question, node_title(p, question.node_id) if question else "", sent=sent)

    def _announce_new(self) -> None:
        p = self.projection
        if p is None or self.read_only_reason():
            return
        for q in p.open_questions():
            key = (p.run_id, q.seq)
            if key not in self._seen:
                self._seen.add(key)
                self.attention_requested.emit(f"{node_title(p, q.node_id)} asks: {q.prompt}")

    def _refresh_state(self) -> None:
        why = self.read_only_reason()
        self.form.set_read_only(why)
        waiting = len(self.open_model.rows)
        scope = f" at {self.node_filter}" if self.node_filter else ""
        if self.projection is None:
            text = "No run selected."
        elif waiting and self.projection.finished:
            text = f"{waiting} question{'s' if waiting > 1 else ''} left unanswered when the run ended{scope}."
        elif waiting:
            text = f"{waiting} gate{'s' if waiting > 1 else ''} waiting for a decision{scope}."
        else:
            text = f"No gate is waiting{scope}."
        self.summary.setText(text)
        self.answered_label.setText(f"Answered ({len(self.answered_model.rows)})")
