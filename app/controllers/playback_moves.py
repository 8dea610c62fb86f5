"""`PlaybackMovesMixin`: how the `PlaybackController` makes a move — the run at the target seq, built and shown.

One move per event-loop pass, however many drag events came (`seek` only notes the target and arms a
zero timer, `_move`); the move is then made
- forward by at most `FORWARD_MAX` events: the cursor folds on from its seq on the GUI thread and the
  views take its `take_changes()` (panels update incrementally);
- backward, or further forward: the run at the target is made from the nearest checkpoint
  (`engine.projection.checkpoints`, built off the GUI thread on the first move back) — on the GUI
  thread (a copy and ≤ `FORWARD_MAX` events folded, a few ms) when no job is in flight and each shown
  dock with a `RunPanel.prepare` makes its part here (`prepare_here`: the Timeline cuts its columns from
  the whole run's); else in a worker, where each shown dock's `prepare` builds from it too; one job at a
  time, the newest target wins, and a job for it starts as soon as the one in flight lands (before the
  landed moment is shown); the views are then given the new cursor (`RunViews.show_projection`).
Back at a finished run's end, its shown docks build what they can from the whole run in a worker first
(`_show_whole`), as when it opened.

Invariants: no nested event loop, no blocking work on the GUI thread beyond one checkpoint copy and one
fold of ≤ `FORWARD_MAX` events a move; `frame_ms` gets one figure per move shown (its GUI-thread time).
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from app.controllers.playback_clock import FORWARD_MAX
from engine.projection.checkpoints import ProjectionCheckpoints, position_after
from widgets.run_panel import RunPanel

if TYPE_CHECKING:
    from app.controllers.live_run import LiveRun
    from app.controllers.run_controller import RunController
    from engine.projection import RunProjection


class PlaybackMovesMixin:
    controller: RunController
    live: LiveRun | None
    following: bool
    cursor: RunProjection | None
    checkpoints: ProjectionCheckpoints
    frame_ms: list[float]
    _target: int | None
    _select_at: int | None
    _job: asyncio.Future[Any] | None
    _move: Any  # QTimer
    position_changed: Any
    event_shown: Any

    if TYPE_CHECKING:
        @property
        def events(self) -> list[Any]: ...

    def _show_whole(self, live: LiveRun) -> None:
        """Show a finished run whole again, its shown docks prepared off the GUI thread (it no longer changes)."""
        preparers = {name: type(panel).prepare for name, panel in self.controller.views.panels.items()
                     if panel.isVisible()}
        job = asyncio.get_running_loop().run_in_executor(None, _prepare_all, live.projection, preparers)
        self._job = job

        def shown(done: asyncio.Future[Any]) -> None:
            if done is not self._job:
                return
            self._job = None
            if live is self.live and self.following and not done.cancelled():
                live.prepared.update(done.result() if done.exception() is None else {})
                self.controller.views.show(live)
                self.position_changed.emit()
            elif self._target is not None and not self._move.isActive():
                self._move.start()  # moved away meanwhile: that move waited for this job

        job.add_done_callback(shown)

    def _on_move_timeout(self) -> None:
        target, self._target = self._target, None
        if target is None or self.live is None or self.following:
            return
        t0 = time.perf_counter()
        cursor = self.cursor
        if self._folds_forward(target):
            assert cursor is not None
            events = self.events
            cursor.apply_many(events[position_after(events, cursor.last_seq):position_after(events, target)])
            self.controller.views.apply(cursor.take_changes(), lazy=True)
            self._landed(cursor, t0)
        elif cursor is not None and cursor.last_seq == target:
            self._landed(cursor, t0)
        elif self._rewinds_here(target):
            projection = self._of_the_run(self.checkpoints.at(self.events, target))
            prepared = self._prepared_here(projection)
            if prepared is None:  # a shown dock cannot make this moment here: the worker, for this move only
                self._restore(target)
                return
            self.cursor = projection
            self.controller.views.show_projection(projection, lazy=True, prepared=prepared)
            self._landed(projection, t0)
        else:
            self._restore(target)

    def _of_the_run(self, projection: RunProjection) -> RunProjection:
        """`projection` named for the run it is a moment of: before the run's first event it has no run id
        yet, and the docks would take it for another run (the Timeline dropping the person's zoom and the
        whole run it cuts moments from)."""
        if not projection.run_id and self.live is not None:
            projection.run_id = self.live.run_id
        return projection

    def _folds_forward(self, target: int) -> bool:
        """Whether the cursor reaches `target` by folding on at most `FORWARD_MAX` events here."""
        cursor = self.cursor
        return cursor is not None and cursor.last_seq <= target and (
            position_after(self.events, target) - position_after(self.events, cursor.last_seq) <= FORWARD_MAX)

    def _rewinds_here(self, target: int) -> bool:
        """Whether the run at `target` is made here on the GUI thread (a checkpoint copied, at most `FORWARD_MAX`
        events folded: a few ms) rather than in a worker: the checkpoints hold the whole run, no job is in
        flight (`extend` and `at` never overlap) and every shown dock that builds from a whole projection off this
        thread (`RunPanel.prepare`, the worker's part of a move) can make it here instead (`prepares_here`).
        A move made here waits behind nothing."""
        if self._job is not None and not self._job.done():
            return False
        if not self.checkpoints.covers(self.events) or self.checkpoints.fold_count(self.events, target) > FORWARD_MAX:
            return False
        return all(panel.prepares_here() for panel in self._preparing_panels().values())

    def _preparing_panels(self) -> dict[str, RunPanel]:
        """The shown docks that build from a whole projection (`RunPanel.prepare`), by name."""
        return {name: panel for name, panel in self.controller.views.panels.items()
                if panel.isVisible() and type(panel).prepare is not RunPanel.prepare}

    def _prepared_here(self, projection: RunProjection) -> dict[str, object] | None:
        """What each shown dock's `prepare` would build from `projection`, made here (`RunPanel.prepare_here`);
        None: one of them cannot."""
        prepared = {}
        for name, panel in self._preparing_panels().items():
            made = panel.prepare_here(projection)
            if made is None:
                return None
            prepared[name] = made
        return prepared

    def _restore(self, target: int) -> None:
        """Make the run at `target` in a worker (one job at a time; a newer target waits for it)."""
        if self._job is not None and not self._job.done():
            self._target = target  # taken when the job in flight lands
            return
        live = self.live
        assert live is not None
        events = live.projection.events if live.read_only else list(live.projection.events)
        checkpoints = self.checkpoints
        preparers = {name: type(panel).prepare for name, panel in self.controller.views.panels.items()
                     if panel.isVisible()}  # what each shown dock builds from a whole projection, off this thread
        loop = asyncio.get_running_loop()
        job = loop.run_in_executor(None, _run_at, checkpoints, events, target, preparers)
        self._job = job
        job.add_done_callback(lambda done: self._on_restored(live, done))

    def _on_restored(self, live: LiveRun, job: asyncio.Future[Any]) -> None:
        if job is not self._job or live is not self.live or job.cancelled():
            return
        self._job = None
        if job.exception() is not None:
            self.controller.error_reported.emit("Playback cannot show that moment", str(job.exception()))
            return
        if self.following:
            return
        t0 = time.perf_counter()
        projection, first_build, prepared = job.result()
        self._of_the_run(projection)
        if first_build:
            gc.freeze()  # the checkpoints stay as long as the run is shown: out of the collector's passes
        self.cursor = projection
        self._next_job()
        self.controller.views.show_projection(projection, lazy=True, prepared=prepared)
        self._landed(projection, t0)
        if self._target is not None and not self._move.isActive():
            self._move.start()  # the position moved on while the worker ran

    def _next_job(self) -> None:
        """The newer target the position moved to while a job ran, when it needs the worker too: its job starts
        now, before the landed moment is shown, so it runs while the docks take that one (it never waits for them)."""
        target = self._target
        if target is None or self._folds_forward(target) or self._rewinds_here(target):
            return  # none, or the next move makes it here
        self._target = None
        self._restore(target)

    def _landed(self, projection: RunProjection, t0: float) -> None:
        self.frame_ms.append((time.perf_counter() - t0) * 1000)
        if self._select_at is not None and self._target is None and (self._job is None or self._job.done()):
            self._announce(projection)
        self.position_changed.emit()

    def _announce(self, projection: RunProjection) -> None:
        seq, self._select_at = self._select_at, None
        events = projection.events
        i = position_after(events, seq if seq is not None else projection.last_seq)
        if i > 0:
            self.event_shown.emit(events[i - 1])


def _run_at(checkpoints: ProjectionCheckpoints, events: list[Any], target: int,
            preparers: dict[str, Callable[[RunProjection], object]]) -> tuple[RunProjection, bool, dict[str, object]]:
    """In a worker: extend the checkpoints to what the run holds now, then the run at `target` and what each
    panel's `RunPanel.prepare` builds from it."""
    first = checkpoints.folded == 0
    checkpoints.extend(events)
    projection = checkpoints.at(events, target)
    return projection, first, {name: prepare(projection) for name, prepare in preparers.items()}



def _prepare_all(projection: RunProjection, preparers: dict[str, Callable[[RunProjection], object]]
                 ) -> dict[str, object]:
    return {name: prepare(projection) for name, prepare in preparers.items()}

