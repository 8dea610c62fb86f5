"""`PruneDialog`: the Runs dock's "Prune…" — rules, a preview of what goes, and Remove.

The rules are the CLI's (`triadic prune`): runs started more than N days ago and/or beyond the newest
N of their workflow; a run goes when it meets every rule ticked. The dialog does not read the store:
it emits `rules_changed(older_than_days, keep)` (None for a rule not ticked) and the panel answers
with `show_preview(text, count)` once its worker has planned; Remove is enabled only when the preview
matches the rules shown and removes something. Non-modal (`open()`), never `exec()`.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)


class PruneDialog(QDialog):
    rules_changed = Signal(object, object)  # older-than days (float | None), keep per workflow (int | None)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Prune runs")
        self.older_check = QCheckBox("Runs started more than", self)
        self.older_check.setChecked(True)
        self.days = QSpinBox(self)
        self.days.setRange(0, 36500)
        self.days.setValue(30)
        self.days.setSuffix(" days ago")
        self.keep_check = QCheckBox("Beyond the newest", self)
        self.keep = QSpinBox(self)
        self.keep.setRange(0, 1_000_000)
        self.keep.setValue(20)
        self.keep.setSuffix(" runs of each workflow")
        form = QFormLayout()
        form.addRow(self.older_check, self.days)
        form.addRow(self.keep_check, self.keep)
        note = QLabel("A run goes when it meets every rule ticked. Live runs are never removed; a run that a "
                      "kept replay or fork descends from is kept, so the lineage stays whole.", self)
        note.setWordWrap(True)
        self.preview = QLabel("Counting…", self)
        self.preview.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.remove_button = self.buttons.addButton("Remove", QDialogButtonBox.ButtonRole.AcceptRole)
        self.remove_button.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.preview)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        for box in (self.older_check, self.keep_check):
            box.toggled.connect(self._on_rules_edited)
        for spin in (self.days, self.keep):
            spin.valueChanged.connect(self._on_rules_edited)
        self._shown_rules: tuple[float | None, int | None] | None = None

    def rules(self) -> tuple[float | None, int | None]:
        return (float(self.days.value()) if self.older_check.isChecked() else None,
                self.keep.value() if self.keep_check.isChecked() else None)

    def show_preview(self, rules: tuple[float | None, int | None], text: str, count: int) -> None:
        """The panel's answer for `rules`; ignored when the rules changed meanwhile."""
        if rules != self.rules():
            return
        self._shown_rules = rules
        self.preview.setText(text)
        self.remove_button.setText(f"Remove {count} run{'s' if count != 1 else ''}")
        self.remove_button.setEnabled(count > 0)

    def _on_rules_edited(self, *_args: object) -> None:
        self.days.setEnabled(self.older_check.isChecked())
        self.keep.setEnabled(self.keep_check.isChecked())
        self.remove_button.setEnabled(False)
        older, keep = self.rules()
        if older is None and keep is None:
            self.preview.setText("Tick a rule to choose runs to remove.")
            return
        self.preview.setText("Counting…")
        self.rules_changed.emit(older, keep)
