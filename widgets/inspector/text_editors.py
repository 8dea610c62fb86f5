"""Editors for text parameters: one-line strings, multi-line prompt templates, JSON.

Text editors commit when they lose focus or on Ctrl+Enter (not on every keystroke); a template
editor shows the `{variables}` its text uses; JSON is parsed first and invalid JSON is shown in red
with the parser's message and not committed.
"""

from __future__ import annotations

import json
import re
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QWidget

from engine.graph.specs import ParamSpec
from widgets.inspector.editor_base import ParamEditor

_VARIABLE = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})")


def template_variables(text: str) -> list[str]:
    """The `{variables}` a prompt template uses, in order of first use."""
    return list(dict.fromkeys(_VARIABLE.findall(text)))


class _FocusCommit(QObject):
    """Commits a text widget's editor when it loses focus or on Ctrl+Enter."""

    def __init__(self, editor: ParamEditor, watched: QWidget) -> None:
        super().__init__(editor)
        self._editor = editor
        watched.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FocusOut:
            self._editor.commit()  # type: ignore[attr-defined]
        elif (isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress
              and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
              and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            self._editor.commit()  # type: ignore[attr-defined]
            return True
        return False


class LineEditor(ParamEditor):
    def __init__(self, spec: ParamSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.edit = QLineEdit(self)
        self.edit.setMaxLength(spec.max_length)
        self._layout.addWidget(self.edit)
        self.edit.editingFinished.connect(self.commit)
        self._shown = ""

    def commit(self) -> None:
        if self.edit.text() != self._shown:
            self._shown = self.edit.text()
            self._emit()

    def value(self) -> Any:
        return self.edit.text()

    def _show(self, value: Any) -> None:
        self._shown = "" if value is None else str(value)
        self.edit.setText(self._shown)


class TextEditor(ParamEditor):
    """Multi-line text (prompt templates): shows the `{variables}` the text uses."""

    def __init__(self, spec: ParamSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.edit = QPlainTextEdit(self)
        self.edit.setMinimumHeight(70)
        self.edit.setTabChangesFocus(True)
        self.variables = QLabel(self)
        self.variables.setObjectName("templateVariables")
        self._layout.addWidget(self.edit)
        self._layout.addWidget(self.variables)
        self.edit.textChanged.connect(self._update_variables)
        _FocusCommit(self, self.edit)
        self._shown = ""

    def commit(self) -> None:
        text = self.edit.toPlainText()
        if text != self._shown:
            self._shown = text
            self._emit()

    def value(self) -> Any:
        return self.edit.toPlainText()

    def _show(self, value: Any) -> None:
        self._shown = "" if value is None else str(value)
        self.edit.setPlainText(self._shown)

    def _update_variables(self) -> None:
        names = template_variables(self.edit.toPlainText())
        self.variables.setText("Variables: " + ", ".join(f"{{{n}}}" for n in names) if names else "")
        self.variables.setVisible(bool(names))


class JsonEditor(ParamEditor):
    def __init__(self, spec: ParamSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.edit = QPlainTextEdit(self)
        self.edit.setMinimumHeight(60)
        self.edit.setTabChangesFocus(True)
        self.error = QLabel(self)
        self.error.setObjectName("jsonError")
        self.error.setStyleSheet("color: #d63031;")
        self.error.hide()
        self._layout.addWidget(self.edit)
        self._layout.addWidget(self.error)
        _FocusCommit(self, self.edit)
        self._shown: Any = None

    def commit(self) -> None:
        try:
            parsed = json.loads(self.edit.toPlainText() or "null")
        except ValueError as exc:
            self.error.setText(f"Invalid JSON: {exc}")
            self.error.show()
            return
        self.error.hide()
        if parsed != self._shown:
            self._shown = parsed
            if not self._loading:
                self.committed.emit(parsed)

    def value(self) -> Any:
        return json.loads(self.edit.toPlainText() or "null")

    def _show(self, value: Any) -> None:
        self._shown = value
        self.error.hide()
        self.edit.setPlainText(json.dumps(value, indent=2, ensure_ascii=False))
