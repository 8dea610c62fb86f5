"""File commands of a window: new (blank or from an example), open, save, save as, recent files.

Opening reads the file off the GUI thread (`BackgroundOpen`): `open_path` starts it and returns; the
document is replaced when the whole workflow is built, and the open is done (`opened(path)`) when
the window says its canvas shows it whole (`on_document_shown`: a large canvas is built in slices),
or the file's problems are shown (`open_failed(path)`). Meanwhile the window paints and answers, and
the status bar says "Opening …".

Invariants: every command that would drop unsaved changes asks first (`confirm_discard`: Save /
Discard / Cancel; Cancel aborts) — and asks again when the document was edited while its
replacement was being read; opening a broken file shows its problems, leaves the file untouched and
keeps the current document open; the newest open wins, and a new document (New, an example)
made while a file is read wins over it; a failed save keeps the document modified.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from app import dialogs
from app.controllers.background_open import BackgroundOpen
from app.document import Document
from app.settings_store import add_recent_file, recent_files
from engine.graph.format import load_workflow
from engine.graph.model import Workflow
from engine.graph.problems import WorkflowFileError


class FileController(QObject):
    recent_changed = Signal(list)
    status_message = Signal(str)
    opened = Signal(str)  # path: the document now shows it
    open_failed = Signal(str)  # path: its problems were shown, the document stayed as it was

    def __init__(self, document: Document, window: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.window = window
        self.reading = BackgroundOpen(parent=self)
        self.reading.loaded.connect(self._on_loaded)
        self.reading.failed.connect(self._on_failed)
        self._edits_when_asked = 0  # the undo stack's index when the open was asked for
        self._showing: tuple[str, Workflow] | None = None  # opened, the canvas not yet built

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
        self.reading.cancel()
        self._showing = None
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
        self.reading.cancel()
        self._showing = None
        self.document.replace(workflow)
        return True

    def open(self, path: str | None = None) -> bool:
        """Ask about unsaved changes (and for a file, when `path` is None), then start opening it;
        False when the person cancelled."""
        if not self.confirm_discard():
            return False
        if path is None:
            folder = str(Path(self.document.path).parent) if self.document.path else str(Path.cwd())
            path = dialogs.ask_open_path(self.window, folder)
            if path is None:
                return False
        self.open_path(path)
        return True

    def open_path(self, path: str) -> None:
        """Start opening `path` without asking about unsaved changes (the caller did); `opened` or
        `open_failed` follows, unless another open or a new document overtakes it."""
        self._edits_when_asked = self.document.undo_stack.index()
        self.reading.request(path)
        self.status_message.emit(f"Opening {path}…")

    @property
    def opening(self) -> bool:
        """True while a file is being read for this document, or its canvas built."""
        return self.reading.pending or self._showing is not None

    def _on_loaded(self, path: str, workflow: Workflow) -> None:
        edited = self.document.undo_stack.index() != self._edits_when_asked
        if edited and not self.confirm_discard():  # edited while it was read: ask again
            self.status_message.emit(f"Did not open {path}")
            return
        self._showing = (path, workflow)
        self._remember(path)
        self.document.replace(workflow, path)  # the window builds its canvas: `on_document_shown` follows

    def on_document_shown(self, workflow: Workflow) -> None:
        """The window's canvas shows `workflow` whole: the open that brought it is done."""
        if self._showing is None or self._showing[1] is not workflow:
            return
        path, self._showing = self._showing[0], None
        self.status_message.emit(f"Opened {path}")
        self.opened.emit(path)

    def _on_failed(self, path: str, error: WorkflowFileError) -> None:
        self.status_message.emit(f"Cannot open {path}")
        dialogs.show_file_problems(self.window, error)
        self.open_failed.emit(path)

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
