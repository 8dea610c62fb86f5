"""File commands of a window: new (blank or from an example), open, save, save as, recent files.

Invariants: every command that would drop unsaved changes asks first (`confirm_discard`: Save /
Discard / Cancel; Cancel aborts); opening a broken file shows its problems, leaves the file
untouched and keeps the current document open; a failed save keeps the document modified.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from app import dialogs
from app.document import Document
from app.settings_store import add_recent_file, recent_files
from engine.graph.format import load_workflow
from engine.graph.model import Workflow
from engine.graph.problems import WorkflowFileError


class FileController(QObject):
    recent_changed = Signal(list)
    status_message = Signal(str)

    def __init__(self, document: Document, window: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.window = window

    def confirm_discard(self) -> bool:
        """True when it is fine to drop the current document (saved, discarded or unmodified)."""
        if not self.document.is_modified():
            return True
        choice = dialogs.ask_save_changes(self.window, self.document.display_name())
        if choice == "save":
            return self.save()
        return choice == "discard"

    def new(self) -> bool:
        if not self.confirm_discard():
            return False
        self.document.replace(Workflow())
        return True

    def new_from_example(self, example: str | Path) -> bool:
        """A new, unsaved document holding a copy of a bundled example."""
        if not self.confirm_discard():
            return False
        try:
            workflow = load_workflow(example)
        except WorkflowFileError as exc:
            dialogs.show_file_problems(self.window, exc)
            return False
        self.document.replace(workflow)
        return True

    def open(self, path: str | None = None) -> bool:
        if not self.confirm_discard():
            return False
        if path is None:
            folder = str(Path(self.document.path).parent) if self.document.path else str(Path.cwd())
            path = dialogs.ask_open_path(self.window, folder)
            if path is None:
                return False
        return self.open_path(path)

    def open_path(self, path: str) -> bool:
        """Open without asking about unsaved changes (the caller did)."""
        try:
            self.document.open_file(path)
        except WorkflowFileError as exc:
            dialogs.show_file_problems(self.window, exc)
            return False
        self._remember(path)
        self.status_message.emit(f"Opened {path}")
        return True

    def save(self) -> bool:
        if not self.document.path:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        suggested = self.document.path or f"{self.document.workflow.name or 'workflow'}.triadic.json"
        path = dialogs.ask_save_path(self.window, suggested)
        return self._save_to(path) if path else False

    def _save_to(self, path: str) -> bool:
        try:
            self.document.save(path)
        except WorkflowFileError as exc:
            dialogs.show_file_problems(self.window, exc)
            return False
        except OSError as exc:
            dialogs.show_error(self.window, "Cannot save workflow", f"Cannot write {path}: {exc.strerror or exc}")
            return False
        self._remember(path)
        self.status_message.emit(f"Saved {path}")
        return True

    def _remember(self, path: str) -> None:
        self.recent_changed.emit(add_recent_file(path))

    @staticmethod
    def recent() -> list[str]:
        return recent_files()
