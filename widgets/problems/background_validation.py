"""Validation of the open workflow off the GUI thread, newest edit wins.

`BackgroundValidation.follow(workflow)` starts keeping node copies of the workflow as it is edited
(`engine.graph.snapshot.ValidationSnapshots`); `request()` takes a detached copy on the GUI thread
(~1 ms at 5,000 nodes / 15,000 edges) and validates it on a worker thread; the result comes back
on the GUI thread as `validated(problems)`. Validation is incremental: a `ValidationMemo` kept per
followed workflow lets each run re-check only the nodes and edges changed since the last one.

Invariants:
- each request gets a revision number; a result is delivered only if it is of the newest revision,
  so a result never shows over a newer edit (a stale one is dropped, `dropped` counts them);
- at most one validation runs at a time and at most one waits: a request made while one runs
  replaces the waiting one, so a burst of edits costs at most two validations, never a queue;
- `cancel()` makes every result in flight stale (a synchronous validation or another workflow
  took over); validations run one after another on the process's one validation thread
  (`widgets.worker_thread.WorkerThread`), a daemon thread that only reads its copies, so quitting
  never waits on it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from engine.graph.model import Workflow
from engine.graph.problems import Problem
from engine.graph.snapshot import ValidationSnapshots
from engine.graph.validate import ValidationMemo, validate
from widgets.worker_thread import WorkerThread

Validator = Callable[[Workflow], list[Problem]]
_Job = tuple[int, Workflow, ValidationMemo]
VALIDATION_THREAD = WorkerThread("validate")


class BackgroundValidation(QObject):
    validated = Signal(object)  # list[Problem] of the newest request
    _finished = Signal(int, object)  # revision, problems: emitted on the worker thread, queued to this one

    def __init__(self, validator: Validator | None = None, parent: QObject | None = None) -> None:
        """`validator`: a stand-in for `validate` (tests); by default incremental validation."""
        super().__init__(parent)
        self._validator = validator
        self._memo = ValidationMemo()
        self._revision = 0
        self._running = False
        self._waiting: _Job | None = None
        self._snapshots: ValidationSnapshots | None = None
        self.dropped = 0  # stale results thrown away (for tests and benchmarks)
        self._finished.connect(self._on_finished)

    @property
    def pending(self) -> bool:
        """True while a requested result has not been delivered yet."""
        return self._running or self._waiting is not None

    @property
    def following(self) -> Workflow | None:
        return self._snapshots.workflow if self._snapshots is not None else None

    def follow(self, workflow: Workflow) -> None:
        """Validate `workflow` from now on (results for the one before become stale)."""
        self.stop()
        self._snapshots = ValidationSnapshots(workflow)
        self._memo = ValidationMemo()

    def stop(self) -> None:
        """Follow no workflow any more; every result in flight becomes stale."""
        self.cancel()
        if self._snapshots is not None:
            self._snapshots.detach()
            self._snapshots = None

    def request(self) -> None:
        """Validate the followed workflow as it is now."""
        if self._snapshots is None:
            raise RuntimeError("BackgroundValidation.request() before follow(workflow)")
        self._revision += 1
        job = (self._revision, self._snapshots.take(), self._memo)
        if self._running:
            self._waiting = job
        else:
            self._start(job)

    def cancel(self) -> None:
        self._revision += 1
        self._waiting = None

    def _start(self, job: _Job) -> None:
        self._running = True
        VALIDATION_THREAD.post(lambda: self._work(*job))

    def _work(self, revision: int, copy: Workflow, memo: ValidationMemo) -> None:
        try:  # one validation at a time: the memo is never used by two threads at once
            problems: object = validate(copy, memo) if self._validator is None else self._validator(copy)
        except Exception as exc:  # a checker bug must not leave the panel waiting for ever
            problems = exc
        try:
            self._finished.emit(revision, problems)
        except RuntimeError:  # the panel was deleted meanwhile: nobody to tell
            pass

    def _on_finished(self, revision: int, problems: object) -> None:
        self._running = False
        if self._waiting is not None:
            job, self._waiting = self._waiting, None
            self._start(job)
        if revision != self._revision:
            self.dropped += 1
            return
        if isinstance(problems, Exception):
            raise problems
        self.validated.emit(problems)

