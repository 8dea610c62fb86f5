"""Editors for value parameters: int / float spin boxes with the spec's range, check boxes, choice
combos, the model picker (editable, lists litellm's models on first use) and editable lists.

They commit on every finished change (spin boxes do not track keystrokes).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QWidget,
)

from engine.graph.specs import ParamSpec
from widgets.inspector.editor_base import ParamEditor
from widgets.inspector.model_catalog import BUILTIN_MODELS, known_models

_INT_LIMIT = 2_147_483_647


def _zero_text(spec: ParamSpec) -> str:
    """What a spin box shows at 0 for limits whose help says what 0 means: "none" for budgets
    ("0 = none"), "run's cap" for a node's own concurrency ("0 = only the run's cap"); "" (the
    number) otherwise."""
    if spec.minimum != 0:
        return ""
    if "0 = none" in spec.help:
        return "none"
    return "run's cap" if "0 = only the run's cap" in spec.help else ""


class IntEditor(ParamEditor):
    def __init__(self, spec: ParamSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.spin = QSpinBox(self)
        low = -_INT_LIMIT if spec.minimum is None else max(int(spec.minimum), -_INT_LIMIT)
        high = _INT_LIMIT if spec.maximum is None else min(int(spec.maximum), _INT_LIMIT)
        self.spin.setRange(low, high)
        self.spin.setSpecialValueText(_zero_text(spec))  # a budget of 0 is no budget: say so
        self.spin.setKeyboardTracking(False)
        self._layout.addWidget(self.spin)
        self.spin.valueChanged.connect(self._emit)

    def value(self) -> Any:
        return self.spin.value()

    def _show(self, value: Any) -> None:
        self.spin.setValue(int(value) if isinstance(value, int | float) else 0)


class FloatEditor(ParamEditor):
    def __init__(self, spec: ParamSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.spin = QDoubleSpinBox(self)
        self.spin.setDecimals(3)
        self.spin.setRange(-1e12 if spec.minimum is None else spec.minimum,
                           1e12 if spec.maximum is None else spec.maximum)
        self.spin.setSingleStep(0.1 if (spec.maximum or 10) <= 10 else 1.0)
        self.spin.setSpecialValueText(_zero_text(spec))
        self.spin.setKeyboardTracking(False)
        self._layout.addWidget(self.spin)
        self.spin.valueChanged.connect(self._emit)

    def value(self) -> Any:
        return float(self.spin.value())

    def _show(self, value: Any) -> None:
        self.spin.setValue(float(value) if isinstance(value, int | float) else 0.0)


class BoolEditor(ParamEditor):
    def __init__(self, spec: ParamSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        # The row label names the parameter and the tooltip explains it: a long checkbox text would
        # force the inspector wider than its dock.
        self.check = QCheckBox(self)
        self.check.setToolTip(spec.help or spec.name)
        self._layout.addWidget(self.check)
        self.check.toggled.connect(self._emit)

    def value(self) -> Any:
        return self.check.isChecked()

    def _show(self, value: Any) -> None:
        self.check.setChecked(bool(value))


class ChoiceEditor(ParamEditor):
    def __init__(self, spec: ParamSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.combo = QComboBox(self)
        self.combo.addItems(list(spec.choices))
        self._layout.addWidget(self.combo)
        self.combo.currentTextChanged.connect(self._emit)

    def value(self) -> Any:
        return self.combo.currentText()

    def _show(self, value: Any) -> None:
        if self.combo.findText(str(value)) < 0:
            self.combo.addItem(str(value))
        self.combo.setCurrentText(str(value))


class _ModelCombo(QComboBox):
    """An editable combo that loads litellm's model list the first time it is opened or focused."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.setMaxVisibleItems(20)
        self.addItems(list(BUILTIN_MODELS))
        self.loaded = False

    def load_all(self) -> None:
        if not self.loaded:
            self.loaded = True
            text = self.currentText()
            self.blockSignals(True)
            self.addItems(known_models()[len(BUILTIN_MODELS):])
            self.setEditText(text)
            self.blockSignals(False)

    def showPopup(self) -> None:
        self.load_all()
        super().showPopup()

    def focusInEvent(self, event: Any) -> None:
        self.load_all()
        super().focusInEvent(event)


class ModelEditor(ParamEditor):
    def __init__(self, spec: ParamSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.combo = _ModelCombo(self)
        self._layout.addWidget(self.combo)
        self.combo.activated.connect(self.commit)
        line = self.combo.lineEdit()
        if line is not None:
            line.editingFinished.connect(self.commit)
        self._shown = ""

    def commit(self, *_args: object) -> None:
        text = self.combo.currentText().strip()
        if text and text != self._shown:
            self._shown = text
            self._emit()

    def value(self) -> Any:
        return self.combo.currentText().strip()

    def _show(self, value: Any) -> None:
        self._shown = str(value or "")
        self.combo.setEditText(self._shown)


class ListEditor(ParamEditor):
    def __init__(self, spec: ParamSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.items = QListWidget(self)
        self.items.setMaximumHeight(110)
        buttons = QHBoxLayout()
        self.add_button = QPushButton("Add", self)
        self.remove_button = QPushButton("Remove", self)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        self._layout.addWidget(self.items)
        self._layout.addLayout(buttons)
        self.add_button.clicked.connect(self._on_add)
        self.remove_button.clicked.connect(self._on_remove)
        self.items.itemChanged.connect(self._emit)

    def value(self) -> Any:
        return [self.items.item(i).text() for i in range(self.items.count())]

    def _show(self, value: Any) -> None:
        self.items.clear()
        for entry in value if isinstance(value, list) else []:
            self._append(str(entry))

    def _append(self, text: str) -> QListWidgetItem:
        item = QListWidgetItem(text, self.items)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        return item

    def _on_add(self) -> None:
        self._loading = True
        item = self._append(f"item{self.items.count() + 1}")
        self._loading = False
        self._emit()
        self.items.editItem(item)

    def _on_remove(self) -> None:
        row = self.items.currentRow()
        if row >= 0:
            self.items.takeItem(row)
            self._emit()
