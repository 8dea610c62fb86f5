"""Reading workflow files off the GUI thread, newest request wins.

`BackgroundOpen.request(path)` reads, parses, schema-checks and builds the `Workflow` of `path` on the
process's file-reading thread (`widgets.worker_thread.WorkerThread`, the pattern the validation
thread uses), so the window keeps painting meanwhile (~0.3 s of parsing at 5,000 nodes); the result
comes back on the GUI thread as `loaded(path, workflow)` or `failed(path, WorkflowFileError)`.

Invariants:
- each request gets a revision number; only the newest request's result is delivered — a file
  whose reading was overtaken by another request (or by `cancel()`) is dropped, error included, so
  a slow first file never replaces a second one opened after it; a request overtaken before its
  reading began is not read at all;
- a result is a whole `Workflow` or an error naming the file and the problems: nothing half-read
  ever reaches the window (`load_workflow` builds the model before returning it);
- the reading thread only reads the file and builds new objects; it never touches a Qt object.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from engine.graph.format import load_workflow
from engine.graph.model import Workflow
from engine.graph.problems import WorkflowFileError
from widgets.worker_thread import WorkerThread

Reader = Callable[[str], Workflow]
READING_THREAD = WorkerThread("open-file")


class BackgroundOpen(QObject):
    loaded = Signal(str, object)  # path, Workflow
    failed = Signal(str, object)  # path, WorkflowFileError
    _finished = Signal(int, str, object)  # revision, path, Workflow | Exception: queued from the reading thread

    def __init__(self, reader: Reader | None = None, parent: QObject | None = None) -> None:
        """`reader`: a stand-in for `load_workflow` (tests)."""
        super().__init__(parent)
        self._reader = reader
        self._revision = 0
        self._delivered = 0
        self._finished.connect(self._on_finished)

    @property
    def pending(self) -> bool:
        """True while the newest request has not been delivered."""
        return self._delivered != self._revision

    def request(self, path: str | os.PathLike[str]) -> None:
        """Read `path`; a request still in flight will not be delivered."""
        self._revision += 1
        revision, source = self._revision, os.fspath(path)
        READING_THREAD.post(lambda: self._read(revision, source))

    def cancel(self) -> None:
        """Deliver nothing of the requests made so far (another document took over)."""
        self._revision += 1
        self._delivered = self._revision

    def _read(self, revision: int, path: str) -> None:
        if revision != self._revision:
            return  # overtaken before it began: not worth reading
        try:
            result: object = (self._reader or load_workflow)(path)
        except Exception as exc:  # WorkflowFileError, or a reader bug: either way the window is told
            result = exc
        try:
            self._finished.emit(revision, path, result)
        except RuntimeError:  # the window was closed meanwhile: nobody to tell
            pass

    def _on_finished(self, revision: int, path: str, result: object) -> None:
        if revision != self._revision:
            return
        self._delivered = revision
        if isinstance(result, WorkflowFileError):
            self.failed.emit(path, result)
        elif isinstance(result, Exception):
            raise result
        else:
            self.loaded.emit(path, result)
