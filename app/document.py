"""The open document: one Workflow, its file path and its undo stack.

Invariants:
- the Document is the ONLY object that pushes undo commands (`push`); views and controllers ask it;
- `modified_changed(bool)` follows `QUndoStack.isClean()` (saving marks the stack clean);
- `open_file` parses the whole file before touching anything: on a broken file it raises
  `WorkflowFileError` and the current workflow, path and undo history stay as they were; the file
  on disk is only read, never written;
- `replace` (new / open) clears the undo history and announces `workflow_replaced(workflow)`.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from engine.graph.format import load_workflow, save_workflow
from engine.graph.model import Workflow


class Document(QObject):
    modified_changed = Signal(bool)
    path_changed = Signal(object)  # str | None
    workflow_replaced = Signal(object)  # Workflow

    def __init__(self, workflow: Workflow | None = None, path: str | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._workflow = workflow if workflow is not None else Workflow()
        self._path = path
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

    # -- state ---------------------------------------------------------------------------------
    @property
    def workflow(self) -> Workflow:
        return self._workflow

    @property
    def path(self) -> str | None:
        return self._path

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    def display_name(self) -> str:
        if self._path:
            return Path(self._path).name
        return self._workflow.name or "Untitled"

    # -- edits -----------------------------------------------------------------------------------
    def push(self, command: QUndoCommand) -> None:
        self.undo_stack.push(command)

    def undo(self) -> None:
        self.undo_stack.undo()

    def redo(self) -> None:
        self.undo_stack.redo()

    # -- documents -----------------------------------------------------------------------------
    def replace(self, workflow: Workflow, path: str | None = None) -> None:
        """Show another workflow (new / open): history cleared, document clean."""
        self.undo_stack.clear()  # emits cleanChanged(True) -> modified_changed(False) if it was modified
        self._workflow = workflow
        self._set_path(path)
        self.workflow_replaced.emit(workflow)

    def open_file(self, path: str) -> None:
        """Load `path`; raises WorkflowFileError (with `.problems`) and changes nothing on failure."""
        workflow = load_workflow(path)
        self.replace(workflow, str(path))

    def save(self, path: str | None = None) -> None:
        """Save to `path` (or the current path) and mark the document clean."""
        target = path or self._path
        if not target:
            raise ValueError("the document has no file name yet: use Save As")
        save_workflow(self._workflow, target)
        self._set_path(str(target))
        self.undo_stack.setClean()

    def _set_path(self, path: str | None) -> None:
        if path != self._path:
            self._path = path
            self.path_changed.emit(path)

    def _on_clean_changed(self, clean: bool) -> None:
        self.modified_changed.emit(not clean)
