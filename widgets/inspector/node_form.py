"""The form for one node: its title and one editor per parameter of its role.

Invariant: the form shows the model (`refresh` re-reads a field after any change, including undo)
and only asks for changes through the signals; it never writes to the Node itself. A node that runs
code (a verifier) also shows, read-only, how strong the check sandbox is on this machine.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout, QLabel, QLineEdit, QWidget

from engine.graph.model import Node
from engine.graph.roles import role_spec
from widgets.inspector.param_editors import ParamEditor, editor_for

_RUNS_CODE = frozenset({"verifier"})


class NodeForm(QWidget):
    param_change_requested = Signal(str, str, object)
    title_change_requested = Signal(str, str)

    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.node = node
        spec = role_spec(node.role)
        layout = QFormLayout(self)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        header = QLabel(f"<b>{spec.label if spec else node.role}</b> · {node.id}", self)
        header.setToolTip(spec.summary if spec else f"Unknown role {node.role!r}")
        layout.addRow(header)
        if spec is None:
            layout.addRow(QLabel(f"Unknown role {node.role!r}: parameters cannot be edited.", self))
        self.title_edit = QLineEdit(self)
        self.title_edit.setPlaceholderText(node.id)
        self.title_edit.editingFinished.connect(self._on_title_edited)
        layout.addRow("Title", self.title_edit)
        self.editors: dict[str, ParamEditor] = {}
        for param in spec.params if spec else ():
            editor = editor_for(param, self)
            editor.committed.connect(lambda value, name=param.name: self._on_param_committed(name, value))
            label = QLabel(param.label, self)
            label.setToolTip(param.help)
            layout.addRow(label, editor)
            self.editors[param.name] = editor
        self.sandbox_label: QLabel | None = None
        if node.role in _RUNS_CODE:
            from engine.checks.sandbox import sandbox_strength  # the checks package: not at start-up

            self.sandbox_label = QLabel(sandbox_strength(), self)
            self.sandbox_label.setWordWrap(True)
            self.sandbox_label.setToolTip("Where python, regex, command and sql checks run. "
                                          "Install bubblewrap for the strong level.")
            layout.addRow("Sandbox", self.sandbox_label)
        self.refresh()

    def refresh(self, field: str | None = None) -> None:
        """Re-read the model: one field ("title", "params.<name>") or everything."""
        if field in (None, "title"):
            self.title_edit.setText(self.node.title)
        for name, editor in self.editors.items():
            if field is None or field == f"params.{name}":
                editor.set_value(self.node.param(name))

    def _on_title_edited(self) -> None:
        title = self.title_edit.text()
        if title != self.node.title:
            self.title_change_requested.emit(self.node.id, title)

    def _on_param_committed(self, name: str, value: Any) -> None:
        if value != self.node.param(name) or name not in self.node.params:
            self.param_change_requested.emit(self.node.id, name, value)
