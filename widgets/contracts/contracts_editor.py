"""`ContractsEditor`: the workflow's trace contracts in the inspector (shown when no node is selected).

The contracts are edited as their JSON form in the file (the list under ``"contracts"``); Apply checks
the text — JSON errors by line and column, each malformed field by its location
(``contracts[1].max_calls: expected a whole number``) — and only a valid list is sent out, as
`contracts_change_requested(tuple[Contract, ...])`, which the window turns into one undoable command.
Add appends a contract of the chosen kind (with a starting figure) to what the text holds and applies.
Below the text, the validation problems of the contracts as they are in the workflow (a node, role,
gate or tool they name that the workflow lacks).

Invariants: the model is never changed here; `refresh()` re-reads it (after undo, redo, open) and
drops unapplied text; a text that does not check stays as typed, with the reason shown, so nothing
typed is lost.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.graph.contract_checks import callable_tools, contract_problems
from engine.graph.contract_form import KINDS, contracts_to_data, read_contracts
from engine.graph.model import Workflow

_STARTING_FIGURES: dict[str, float] = {"max_calls": 50, "max_cost": 1.0, "max_tokens": 100_000, "min_score": 0.7,
                                       "max_seconds": 300}


def starting_contract(kind: str, workflow: Workflow) -> dict[str, Any]:
    """A contract of `kind` as Add puts it in: its figure at a usual value, the workflow's own tools."""
    spec = KINDS[kind]
    out: dict[str, Any] = {"kind": kind}
    if spec.limit_field is not None:
        out[spec.limit_field] = _STARTING_FIGURES[spec.limit_field]
    if spec.tools:
        out["tools"] = sorted(callable_tools(workflow))[:1] or ["calculator"]
    return out


class ContractsEditor(QWidget):
    contracts_change_requested = Signal(object)  # tuple[Contract, ...]

    def __init__(self, workflow: Workflow, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workflow = workflow
        self.text = QPlainTextEdit(self)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setPlaceholderText('[\n  {"kind": "max_calls", "max_calls": 50}\n]')
        self.text.setMinimumHeight(140)
        self.kind_box = QComboBox(self)
        for kind, spec in KINDS.items():
            self.kind_box.addItem(kind, kind)
            self.kind_box.setItemData(self.kind_box.count() - 1, spec.label, 3)  # tooltip role
        self.add_button = QPushButton("Add", self)
        self.add_button.setToolTip("Add a contract of this kind and apply")
        self.revert_button = QPushButton("Revert", self)
        self.apply_button = QPushButton("Apply", self)
        self.apply_button.setToolTip("Check the contracts and put them in the workflow (undoable)")
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        bar = QHBoxLayout()
        bar.addWidget(self.kind_box, 1)
        bar.addWidget(self.add_button)
        bar.addStretch(0)
        bar.addWidget(self.revert_button)
        bar.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("<b>Trace contracts</b> — checked over every run's trace", self))
        layout.addWidget(self.text)
        layout.addLayout(bar)
        layout.addWidget(self.message)
        self.add_button.clicked.connect(self._on_add_clicked)
        self.revert_button.clicked.connect(self.refresh)
        self.apply_button.clicked.connect(self.apply)
        self.refresh()

    def refresh(self) -> None:
        data = contracts_to_data(self.workflow.contracts)
        self.text.setPlainText(json.dumps(data, indent=2, ensure_ascii=False) if data else "")
        self._show_problems()

    def apply(self) -> bool:
        """Check the text and, when it holds valid contracts that differ from the workflow's, ask for them."""
        data = self._parsed()
        if data is None:
            return False
        return self._request(data)

    def _parsed(self) -> list[Any] | None:
        source = self.text.toPlainText().strip()
        if not source:
            return []
        try:
            data = json.loads(source)
        except json.JSONDecodeError as exc:
            self._say(f"Not valid JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}.", error=True)
            return None
        if isinstance(data, dict):  # one contract typed on its own
            data = [data]
        return data if isinstance(data, list) else self._not_a_list(data)

    def _not_a_list(self, data: Any) -> None:
        self._say(f"contracts: expected a list of contracts, not {type(data).__name__}.", error=True)
        return None

    def _request(self, data: list[Any]) -> bool:
        contracts, problems = read_contracts(data)
        if problems:
            self._say("\n".join(p.message for p in problems), error=True)
            return False
        if tuple(contracts) != self.workflow.contracts:
            self.contracts_change_requested.emit(tuple(contracts))
        else:
            self._show_problems()
        return True

    def _on_add_clicked(self) -> None:
        data = self._parsed()
        if data is not None:
            self._request([*data, starting_contract(str(self.kind_box.currentData()), self.workflow)])

    def _show_problems(self) -> None:
        problems = contract_problems(self.workflow)
        if problems:
            self._say("\n".join(f"{p.severity}: {p.message}" for p in problems), error=True)
        else:
            count = len(self.workflow.contracts)
            self._say(f"{count} contract(s)." if count else "No contracts: add one to check every run against it.",
                      error=False)

    def _say(self, text: str, *, error: bool) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("color: #c62828;" if error else "")
