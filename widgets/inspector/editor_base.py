"""The base of every parameter editor in the inspector.

Invariant: `set_value(value)` shows a model value and never emits; `committed(value)` is emitted
only when the person finishes an edit (`_emit` is a no-op while a model value is being shown).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from engine.graph.specs import ParamSpec


class ParamEditor(QWidget):
    committed = Signal(object)

    def __init__(self, spec: ParamSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self._loading = False
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.setToolTip(spec.help)

    def set_value(self, value: Any) -> None:
        self._loading = True
        try:
            self._show(value)
        finally:
            self._loading = False

    def value(self) -> Any:
        raise NotImplementedError

    def _show(self, value: Any) -> None:
        raise NotImplementedError

    def _emit(self, *_args: object) -> None:
        if not self._loading:
            self.committed.emit(self.value())
