"""`Background`: run a pure function in a worker thread and get its result back on the GUI thread.

Used for what may be heavy on the GUI thread (a diff of two large artifacts). `submit(fn, *args)`
returns a ticket; `finished(ticket, result)` is emitted on the thread the `Background` lives in
(a queued signal) once `fn` returns — or with the exception it raised. Only the latest ticket
matters to a view: `latest` says which it is, so a slow result for an older selection is dropped.

Invariants: `fn` must not touch Qt objects or the projection while the GUI thread may change it:
callers hand it plain values (the texts to diff), never live rows. `fn` runs with the cycle collector
paused (`engine.gc_pause.gc_paused`): a collection triggered by its allocations would run in the
worker thread and destroy whatever unreachable Qt widgets it finds there, off the GUI thread — a
crash (seen: a dropped, parentless panel collected during a 20,000-line diff). That only narrows the
window: widgets must be deleted on the GUI thread (a parent, or `deleteLater`), never left to the
cycle collector.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, Signal

from engine.gc_pause import gc_paused

_EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="triadic-panel-work")


class Background(QObject):
    finished = Signal(int, object)  # ticket, result (or the exception fn raised)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.latest = 0

    def submit(self, fn: Callable[..., Any], *args: Any) -> int:
        self.latest += 1
        ticket = self.latest
        future = _EXECUTOR.submit(_paused, fn, *args)
        future.add_done_callback(partial(self._deliver, ticket))
        return ticket

    def _deliver(self, ticket: int, done: Future[Any]) -> None:
        error = done.exception()
        try:
            self.finished.emit(ticket, error if error is not None else done.result())
        except RuntimeError:  # the panel was deleted while the work ran
            pass


def _paused(fn: Callable[..., Any], *args: Any) -> Any:
    with gc_paused():
        return fn(*args)
