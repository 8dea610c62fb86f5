"""The inspector dock: the selected node's form, or the run settings and the trace contracts when
nothing is selected.

Signals (intents, turned into undo commands by the controller): `param_change_requested(node_id,
name, value)`, `title_change_requested(node_id, title)`, `settings_change_requested(RunSettings)`,
`contracts_change_requested(tuple[Contract, ...])`.
Invariant: the form follows the model through one `WorkflowSignals` bridge, so undo, redo and
edits from elsewhere update it; a removed node's form is replaced by the run settings.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QScrollArea, QVBoxLayout, QWidget

from engine.graph.model import Workflow
from widgets.contracts.contracts_editor import ContractsEditor
from widgets.inspector.node_form import NodeForm
from widgets.inspector.settings_form import RunSettingsForm
from widgets.workflow_signals import WorkflowSignals


class InspectorWidget(QWidget):
    param_change_requested = Signal(str, str, object)
    title_change_requested = Signal(str, str)
    settings_change_requested = Signal(object)
    contracts_change_requested = Signal(object)

    def __init__(self, workflow: Workflow, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspector")
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.scroll_area)
        self.form: NodeForm | RunSettingsForm | None = None
        self.contracts_editor: ContractsEditor | None = None  # shown with the run settings
        self._signals: WorkflowSignals | None = None
        self.workflow = workflow
        self.set_workflow(workflow)

    @property
    def node_id(self) -> str | None:
        return self.form.node.id if isinstance(self.form, NodeForm) else None

    def set_workflow(self, workflow: Workflow) -> None:
        if self._signals is not None:
            self._signals.detach()
            self._signals.deleteLater()
        self.workflow = workflow
        self._signals = WorkflowSignals(workflow, self)
        self._signals.node_changed.connect(self._on_node_changed)
        self._signals.node_removed.connect(self._on_node_removed)
        self._signals.settings_changed.connect(self._on_settings_changed)
        self._signals.contracts_changed.connect(self._on_contracts_changed)
        self.show_node(None)

    def show_node(self, node_id: str | None) -> None:
        """Show `node_id`'s form (None or an unknown id: the run settings)."""
        node = self.workflow.node(node_id) if node_id else None
        if node is not None and isinstance(self.form, NodeForm) and self.form.node is node:
            return
        form: NodeForm | RunSettingsForm
        page: QWidget
        self.contracts_editor = None
        if node is None:
            settings_form = RunSettingsForm(self.workflow)
            settings_form.settings_change_requested.connect(self.settings_change_requested)
            form = settings_form
            page = self._workflow_page(settings_form)
        else:
            node_form = NodeForm(node)
            node_form.param_change_requested.connect(self.param_change_requested)
            node_form.title_change_requested.connect(self.title_change_requested)
            form = page = node_form
        old = self.scroll_area.takeWidget()
        if old is not None:
            old.deleteLater()
        self.form = form
        self.scroll_area.setWidget(page)

    def _workflow_page(self, settings_form: RunSettingsForm) -> QWidget:
        """The run settings above the trace contracts: what the inspector shows with no node selected."""
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        settings_form.setParent(page)
        layout.addWidget(settings_form)
        editor = ContractsEditor(self.workflow, page)
        editor.setContentsMargins(9, 0, 9, 9)
        editor.contracts_change_requested.connect(self.contracts_change_requested)
        layout.addWidget(editor, 1)
        self.contracts_editor = editor
        return page

    def _on_node_changed(self, node_id: str, field: str) -> None:
        if isinstance(self.form, NodeForm) and node_id == self.form.node.id and field != "ui":
            self.form.refresh(field)

    def _on_node_removed(self, node_id: str) -> None:
        if node_id == self.node_id:
            self.show_node(None)

    def _on_contracts_changed(self) -> None:
        if self.contracts_editor is not None:
            self.contracts_editor.refresh()

    def _on_settings_changed(self) -> None:
        if isinstance(self.form, RunSettingsForm):
            self.form.refresh()
