"""The form that answers one open human question: its prompt, the artifact, Approve / Reject / Edit.

Reject needs a reason (the run records why); Edit turns the artifact view into an editor pre-filled
with it — plain text for a text artifact, JSON otherwise, checked as it is typed (Submit stays
disabled while the JSON does not parse, and the error says where). The form emits
`decided(decision, edited, reason)`; it never talks to the run.

Invariants: while read-only (`set_read_only(why)`) or after a decision is sent (`mark_sent`) no
button answers, and the status line says why; `show_question(None)` empties the form.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.projection import HumanQuestion
from widgets.compact_rows import compact_buttons
from widgets.human_gate.artifact_text import artifact_to_text, parse_edit


class DecisionForm(QWidget):
    decided = Signal(str, object, str)  # decision, edited value (None unless "edit"), reason

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.question: HumanQuestion | None = None
        self._read_only = ""
        self._sent = False
        self._editing = False
        self.title = QLabel(self)
        bold = QFont(self.title.font())
        bold.setBold(True)
        self.title.setFont(bold)
        self.prompt = QLabel(self)
        self.prompt.setWordWrap(True)
        self.artifact = QPlainTextEdit(self)
        self.artifact.setReadOnly(True)
        self.artifact.setFont(QFont("monospace"))
        self.as_json = QCheckBox("JSON", self)
        self.as_json.setToolTip("Check the edit as JSON (the artifact is structured data)")
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText("Reason (required to reject; kept in the trace)")
        self.reason.setClearButtonEnabled(True)
        self.approve_button = QPushButton("Approve", self)
        self.reject_button = QPushButton("Reject", self)
        self.edit_button = QPushButton("Edit…", self)
        self.submit_button = QPushButton("Submit edit", self)
        self.cancel_button = QPushButton("Cancel edit", self)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        buttons = QHBoxLayout()
        for button in (self.approve_button, self.reject_button, self.edit_button, self.submit_button,
                       self.cancel_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.as_json)
        compact_buttons(self.approve_button, self.reject_button, self.edit_button, self.submit_button,
                        self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.title, self.prompt, self.artifact, self.reason):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        self.approve_button.clicked.connect(self._on_approve_clicked)
        self.reject_button.clicked.connect(self._on_reject_clicked)
        self.edit_button.clicked.connect(self._on_edit_clicked)
        self.submit_button.clicked.connect(self._on_submit_clicked)
        self.cancel_button.clicked.connect(self._on_cancel_clicked)
        self.reason.textChanged.connect(self._on_input_changed)
        self.artifact.textChanged.connect(self._on_input_changed)
        self.as_json.toggled.connect(self._on_input_changed)
        self.show_question(None)

    # -- what the panel tells it -----------------------------------------------------------------
    def show_question(self, question: HumanQuestion | None, title: str = "", *, sent: bool = False) -> None:
        same = question is not None and self.question is not None and question.seq == self.question.seq
        self.question, self._sent = question, sent
        if not same:
            self._editing = False
            self.reason.clear()
            text, is_json = artifact_to_text(question.artifact) if question is not None else ("", False)
            self.artifact.setPlainText(text)
            self.as_json.setChecked(is_json)
        self.title.setText(f"{title} asks:" if question is not None else "No question waiting")
        self.prompt.setText(question.prompt if question is not None else "")
        self._refresh()

    def set_read_only(self, why: str) -> None:
        """`why` non-empty: nothing can be answered here, and the form says so."""
        self._read_only = why
        if why:
            self._editing = False
        self._refresh()

    def mark_sent(self) -> None:
        self._sent = True
        self._refresh()

    # -- slots -----------------------------------------------------------------------------------
    def _on_approve_clicked(self) -> None:
        self._send("approve", None)

    def _on_reject_clicked(self) -> None:
        if self.reason.text().strip():
            self._send("reject", None)

    def _on_edit_clicked(self) -> None:
        self._editing = True
        self._refresh()
        self.artifact.setFocus()

    def _on_cancel_clicked(self) -> None:
        self._editing = False
        if self.question is not None:
            self.artifact.setPlainText(artifact_to_text(self.question.artifact)[0])
        self._refresh()

    def _on_submit_clicked(self) -> None:
        value, error = parse_edit(self.artifact.toPlainText(), self.as_json.isChecked())
        if not error:
            self._send("edit", value)

    def _on_input_changed(self, *_args: Any) -> None:
        self._refresh()

    # -- internals -------------------------------------------------------------------------------
    def _send(self, decision: str, edited: Any) -> None:
        if self.question is None or self._read_only or self._sent:
            return
        self._editing = False
        self.mark_sent()
        self.decided.emit(decision, edited, self.reason.text().strip())

    def _refresh(self) -> None:
        has = self.question is not None
        live = has and not self._read_only and not self._sent
        editing = live and self._editing
        self.artifact.setReadOnly(not editing)
        self.artifact.setEnabled(has)
        self.reason.setEnabled(live)
        for button in (self.approve_button, self.reject_button, self.edit_button):
            button.setVisible(not editing)
        for widget in (self.submit_button, self.cancel_button, self.as_json):
            widget.setVisible(editing)
        self.approve_button.setEnabled(live)
        self.edit_button.setEnabled(live)
        has_reason = bool(self.reason.text().strip())
        self.reject_button.setEnabled(live and has_reason)
        error = parse_edit(self.artifact.toPlainText(), self.as_json.isChecked())[1] if editing else ""
        self.submit_button.setEnabled(editing and not error)
        self.status.setText(self._status_text(has, error, has_reason))

    def _status_text(self, has: bool, error: str, has_reason: bool) -> str:
        if self._read_only:
            return self._read_only
        if not has:
            return ""
        if self._sent:
            return "Answer sent; waiting for the run to take it."
        if error:
            return error
        if self._editing:
            return "Edit the artifact, then Submit edit: the run goes on with your version."
        return "" if has_reason else "Reject needs a reason."
