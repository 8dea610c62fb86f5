"""The form shown when no node is selected: the workflow's run settings (budgets, concurrency, seed).

Every edit emits `settings_change_requested(RunSettings)` with a complete new settings object;
`refresh()` re-reads the model (after undo, open, ...).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDoubleSpinBox, QFormLayout, QLabel, QSpinBox, QWidget

from engine.graph.model import Budget, RunSettings, Workflow

_INT_MAX = 2_147_483_647


def _int_spin(parent: QWidget, low: int, high: int, tip: str) -> QSpinBox:
    spin = QSpinBox(parent)
    spin.setRange(low, high)
    spin.setKeyboardTracking(False)
    spin.setToolTip(tip)
    return spin


def _float_spin(parent: QWidget, high: float, decimals: int, tip: str) -> QDoubleSpinBox:
    spin = QDoubleSpinBox(parent)
    spin.setRange(0.0, high)
    spin.setDecimals(decimals)
    spin.setKeyboardTracking(False)
    spin.setToolTip(tip)
    return spin


class RunSettingsForm(QWidget):
    settings_change_requested = Signal(object)  # RunSettings

    def __init__(self, workflow: Workflow, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workflow = workflow
        layout = QFormLayout(self)
        layout.addRow(QLabel("<b>Run settings</b> (select a node to edit it)", self))
        self.max_tokens = _int_spin(self, 0, _INT_MAX, "Token budget of a whole run (0 = none)")
        self.max_cost = _float_spin(self, 1e6, 4, "Cost budget of a run in USD (0 = none)")
        self.deadline = _float_spin(self, 1e7, 1, "Wall-clock deadline in seconds (0 = none)")
        self.max_model_calls = _int_spin(self, 0, _INT_MAX, "Most model calls in a run (0 = none)")
        self.concurrency = _int_spin(self, 1, 1000, "Most nodes running at once")
        self.seed = _int_spin(self, -_INT_MAX, _INT_MAX, "Seed of the simulated provider and sampling")
        for budget in (self.max_tokens, self.max_cost, self.deadline, self.max_model_calls):
            budget.setSpecialValueText("none")  # 0 is no limit: say so
        layout.addRow("Max tokens", self.max_tokens)
        layout.addRow("Max cost (USD)", self.max_cost)
        layout.addRow("Deadline (s)", self.deadline)
        layout.addRow("Max model calls", self.max_model_calls)
        layout.addRow("Concurrency", self.concurrency)
        layout.addRow("Seed", self.seed)
        self._loading = False
        self.refresh()
        for spin in (self.max_tokens, self.max_cost, self.deadline, self.max_model_calls, self.concurrency, self.seed):
            spin.valueChanged.connect(self._on_edited)

    def refresh(self) -> None:
        settings = self.workflow.settings
        self._loading = True
        try:
            self.max_tokens.setValue(settings.budget.max_tokens)
            self.max_cost.setValue(settings.budget.max_cost_usd)
            self.deadline.setValue(settings.budget.deadline_s)
            self.max_model_calls.setValue(settings.budget.max_model_calls)
            self.concurrency.setValue(settings.concurrency)
            self.seed.setValue(settings.seed)
        finally:
            self._loading = False

    def current(self) -> RunSettings:
        budget = Budget(self.max_tokens.value(), float(self.max_cost.value()),
                        float(self.deadline.value()), self.max_model_calls.value())
        return RunSettings(budget, self.concurrency.value(), self.seed.value())

    def _on_edited(self, *_args: object) -> None:
        if not self._loading and self.current() != self.workflow.settings:
            self.settings_change_requested.emit(self.current())
