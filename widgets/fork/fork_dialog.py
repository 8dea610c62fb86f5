"""`ForkDialog`: fork a past run at a node's execution with that node's prompt, model or parameters
changed. Non-modal (shown with `show()`, never `exec()`); shows the recorded values and emits `fork_requested(model, prompt,
params)` with only what the person changed (None / {} for what stays as recorded). Everything before
the fork point is served from the recording; the node and what follows it run live. `notice` (plain text)
says how today's workflow differs from the versions the run ran, when it does.

Parameters are edited as `key = value` lines (a value that reads as JSON is taken as JSON: numbers,
true/false, lists); a line without "=" is refused in the dialog, naming the line.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

PROMPT_KEYS = ("prompt", "system_prompt")
HIDDEN = frozenset({"model", *PROMPT_KEYS})


class ForkDialog(QDialog):
    fork_requested = Signal(object, object, dict)  # model (str | None), prompt (str | None), params {key: text}

    def __init__(self, run_id: str, node_id: str, execution: int, seq: int, params: dict[str, Any],
                 parent: QWidget | None = None, *, notice: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Fork run {run_id[:8]} at {node_id}")
        self.recorded = dict(params)
        self.prompt_key = next((k for k in PROMPT_KEYS if k in params), "prompt")
        intro = QLabel(f"Fork run <b>{run_id[:8]}</b> at <b>{node_id}</b>, execution {execution} (event {seq}). "
                       "Everything before is served from the recording; this node and what follows run live.", self)
        intro.setWordWrap(True)
        self.notice = QLabel(notice, self)  # what today's workflow changes in the recorded versions
        self.notice.setWordWrap(True)
        self.notice.setTextFormat(Qt.TextFormat.PlainText)
        self.notice.setVisible(bool(notice))
        self.model_edit = QLineEdit(str(params.get("model") or ""), self)
        self.model_edit.setPlaceholderText("the workflow's default model")
        self.prompt_edit = QPlainTextEdit(str(params.get(self.prompt_key) or ""), self)
        self.params_edit = QPlainTextEdit("\n".join(f"{k} = {json.dumps(v)}" for k, v in params.items()
                                                    if k not in HIDDEN), self)
        self.params_edit.setPlaceholderText("temperature = 0.2")
        self.problem = QLabel(self)
        self.problem.setStyleSheet("color: #d9534f")
        form = QFormLayout()
        form.addRow("Model", self.model_edit)
        form.addRow("Prompt", self.prompt_edit)
        form.addRow("Parameters", self.params_edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.fork_button = buttons.addButton("Fork and Run", QDialogButtonBox.ButtonRole.AcceptRole)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.notice)
        layout.addLayout(form, 1)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        buttons.accepted.connect(self._on_fork_clicked)
        buttons.rejected.connect(self.reject)
        self.resize(620, 480)

    def edits(self) -> tuple[str | None, str | None, dict[str, str]]:
        """(model, prompt, params) that differ from the recording; raises ValueError naming a bad line."""
        model = self.model_edit.text().strip()
        prompt = self.prompt_edit.toPlainText()
        params: dict[str, str] = {}
        for number, line in enumerate(self.params_edit.toPlainText().splitlines(), start=1):
            if not line.strip():
                continue
            key, sep, value = line.partition("=")
            if not sep or not key.strip():
                raise ValueError(f"Parameters, line {number}: expected key = value, got {line.strip()!r}")
            key, value = key.strip(), value.strip()
            if json.dumps(self.recorded.get(key)) != value and self.recorded.get(key) != value:
                params[key] = value
        return (model if model and model != str(self.recorded.get("model") or "") else None,
                prompt if prompt != str(self.recorded.get(self.prompt_key) or "") else None, params)

    def _on_fork_clicked(self) -> None:
        try:
            model, prompt, params = self.edits()
        except ValueError as exc:
            self.problem.setText(str(exc))
            return
        self.fork_requested.emit(model, prompt, params)
        self.accept()
