"""`InputsDialog`: what a run starts with — one field per Input node, and a model override per LLM role.

Filled from `engine.runtime.launch.input_specs(workflow)` (name, default, description) and from the
LLM roles the workflow uses (`engine.graph.roles.ROLES` whose spec `uses_llm`), each override offered
as an editable list of the models the workflow already names ("as in the workflow" leaves it alone).

Invariants: non-modal-safe — shown with `open()`, never `exec()`; the answer is the signal
`run_requested(inputs: dict, overrides: dict)`, emitted once when the person presses Run (overrides
hold only the roles given another model); the values last run are offered again (`remember`).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from engine.graph.model import Workflow
from engine.graph.roles import ROLES

AS_IN_WORKFLOW = "(as in the workflow)"
_SIM_MODELS = ("sim/default", "sim/gpt-4o-mini")


def llm_roles(workflow: Workflow) -> list[str]:
    """The LLM roles the workflow uses, in palette order."""
    used = {node.role for node in workflow.nodes.values()}
    return [str(role) for role, spec in ROLES.items() if spec.uses_llm and role in used]


def models_named(workflow: Workflow) -> list[str]:
    found = [str(n.param("model")) for n in workflow.nodes.values() if n.param("model")]
    return list(dict.fromkeys([*found, *_SIM_MODELS]))


def _label(role: str) -> str:
    spec = ROLES.get(role)  # type: ignore[call-overload]
    return spec.label if spec is not None else role


def needs_asking(workflow: Workflow) -> bool:
    from engine.runtime.launch import input_specs  # the runtime package: loaded after the window shows

    return bool(input_specs(workflow) or llm_roles(workflow))


class InputsDialog(QDialog):
    run_requested = Signal(dict, dict)  # inputs by name, model overrides by role

    def __init__(self, workflow: Workflow, remembered: dict[str, str] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inputs_dialog")
        self.setWindowTitle(f"Run {workflow.name or 'workflow'}")
        self.setMinimumWidth(520)
        remembered = remembered or {}
        layout = QVBoxLayout(self)
        self.fields: dict[str, QLineEdit | QPlainTextEdit] = {}
        from engine.runtime.launch import input_specs

        specs = input_specs(workflow)
        if specs:
            box = QGroupBox("Inputs", self)
            form = QFormLayout(box)
            for spec in specs:
                value = remembered.get(spec.name, spec.default)
                field: QLineEdit | QPlainTextEdit
                if len(value) > 70 or "\n" in value:
                    field = QPlainTextEdit(value, box)
                    field.setFixedHeight(84)
                else:
                    field = QLineEdit(value, box)
                field.setObjectName(f"input_{spec.name}")
                field.setToolTip(spec.description or spec.name)
                form.addRow(QLabel(f"{spec.name}:", box), field)
                self.fields[spec.name] = field
            layout.addWidget(box)
        self.overrides: dict[str, QComboBox] = {}
        roles = llm_roles(workflow)
        if roles:
            box = QGroupBox("Models for this run", self)
            form = QFormLayout(box)
            for role in roles:
                combo = QComboBox(box)
                combo.setEditable(True)
                combo.setObjectName(f"override_{role}")
                combo.addItems([AS_IN_WORKFLOW, *models_named(workflow)])
                combo.setCurrentText(remembered.get(f"@{role}", AS_IN_WORKFLOW))
                combo.setToolTip(f"Every {_label(role)} node calls this model in this run (the file keeps its own)")
                form.addRow(QLabel(f"{_label(role)}:", box), combo)
                self.overrides[role] = combo
            layout.addWidget(box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        run = buttons.addButton("Run", QDialogButtonBox.ButtonRole.AcceptRole)
        run.setObjectName("run_button")
        run.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.accepted.connect(self._on_dialog_accepted)

    def values(self) -> tuple[dict[str, object], dict[str, str]]:
        inputs: dict[str, object] = {}
        for name, field in self.fields.items():
            inputs[name] = field.toPlainText() if isinstance(field, QPlainTextEdit) else field.text()
        overrides = {role: combo.currentText().strip() for role, combo in self.overrides.items()
                     if combo.currentText().strip() not in ("", AS_IN_WORKFLOW)}
        return inputs, overrides

    def remember(self) -> dict[str, str]:
        """What to offer next time (inputs by name, overrides as "@role")."""
        inputs, overrides = self.values()
        return {**{k: str(v) for k, v in inputs.items()}, **{f"@{k}": v for k, v in overrides.items()}}

    def _on_dialog_accepted(self) -> None:
        inputs, overrides = self.values()
        self.run_requested.emit(inputs, overrides)
