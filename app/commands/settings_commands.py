"""Undo commands for workflow-wide data: run settings, trace contracts and keys of the free-form `ui` dict."""

from __future__ import annotations

import copy
from typing import Any

from PySide6.QtGui import QUndoCommand

from engine.graph.contract_form import Contract
from engine.graph.model import RunSettings, Workflow


class SetRunSettingsCommand(QUndoCommand):
    def __init__(self, workflow: Workflow, settings: RunSettings) -> None:
        super().__init__("Change run settings")
        self._workflow = workflow
        self._new = copy.deepcopy(settings)
        self._old = copy.deepcopy(workflow.settings)

    def redo(self) -> None:
        self._workflow.set_settings(copy.deepcopy(self._new))

    def undo(self) -> None:
        self._workflow.set_settings(copy.deepcopy(self._old))


class SetContractsCommand(QUndoCommand):
    """Replace the workflow's trace contracts (frozen values: no copy needed); undo puts the old ones back."""

    def __init__(self, workflow: Workflow, contracts: tuple[Contract, ...]) -> None:
        super().__init__("Change trace contracts")
        self._workflow = workflow
        self._new = tuple(contracts)
        self._old = workflow.contracts

    def redo(self) -> None:
        self._workflow.set_contracts(self._new)

    def undo(self) -> None:
        self._workflow.set_contracts(self._old)


class SetUiCommand(QUndoCommand):
    """Replace one key of `workflow.ui` (None removes it); undo puts the old value back."""

    def __init__(self, workflow: Workflow, key: str, value: Any, text: str) -> None:
        super().__init__(text)
        self._workflow = workflow
        self._key = key
        self._new = copy.deepcopy(value)
        self._old = copy.deepcopy(workflow.ui.get(key))

    def redo(self) -> None:
        self._workflow.set_ui(self._key, copy.deepcopy(self._new))

    def undo(self) -> None:
        self._workflow.set_ui(self._key, copy.deepcopy(self._old))
