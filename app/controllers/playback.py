"""`PlaybackController`: the selected run shown as it was at one event — the scrubber's model.

It keeps, for the run the views follow, the seq shown (`seq`) and whether the views follow the run's
own projection (`following`: at the end, the full run as it is now; for a live run, "live"). Away from
the end the views are given a playback projection (`cursor`): the shared projection stopped at that
seq (`engine.projection`), never a second fold of another kind.

How a move is made (one per event-loop pass, however many drag events came: `seek` only notes the
target and arms a zero timer):
- forward by at most `FORWARD_MAX` events: the cursor folds on from its seq on the GUI thread and the
  views take its `take_changes()` (panels update incrementally);
- backward, or further forward: the run at the target is made from the nearest checkpoint
  (`engine.projection.checkpoints`, built off the GUI thread on the first move back) — on the GUI
  thread (a copy and ≤ `FORWARD_MAX` events folded, a few ms) when no job is in flight and each shown
  dock with a `RunPanel.prepare` makes its part here (`prepare_here`: the Timeline cuts its columns from
  the whole run's); else in a worker, where each shown dock's `prepare` builds from it
  too; one job at a time, the newest target wins, and a job for it starts as soon as the one in flight
  lands (before the landed moment is shown); the views are then given the new cursor.
Hidden docks are not updated while the position moves; they catch up when shown (`RunViews`).

Play / pause and the speed are in `playback_clock.PlaybackClockMixin`. A live run keeps recording while the view is
scrubbed back: its changes are not shown (`showing_live` is False) until "back to live".

Invariants: the cursor is None exactly when `following`; the checkpoints and marks belong to the run
in `live` and are dropped with it; no nested event loop, no blocking work on the GUI thread beyond
one checkpoint copy and one fold of ≤ `FORWARD_MAX` events a move.
"""

from __future__ import annotations

import asyncio
import gc
import time
from bisect import bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.controllers.playback_clock import FORWARD_MAX, PlaybackClockMixin
from engine.projection.checkpoints import ProjectionCheckpoints, position_after
from engine.projection.marks import PlaybackMarks
from widgets.run_panel import RunPanel

if TYPE_CHECKING:
    from app.controllers.live_run import LiveRun
    from app.controllers.run_controller import RunController
    from engine.projection import RunProjection

PLAY_TICK_MS = 30
MARKS_OFF_THREAD = 5_000  # a past run with more events has its marks found in a worker
SPEEDS = (1.0, 2.0, 5.0, 10.0, 100.0, 0.0)  # 0: as fast as possible


class PlaybackController(PlaybackClockMixin, QObject):
    position_changed = Signal()  # seq / time / end moved
    state_changed = Signal()  # playing, speed, following or the run changed
    event_shown = Signal(object)  # the event a `seek(..., select=True)` landed on (the docks select it)

    def __init__(self, controller: RunController) -> None:
        super().__init__(controller)
        self.controller = controller
        self.live: LiveRun | None = None
        self.following = True
        self.seq = 0
        self.cursor: RunProjection | None = None
        self.checkpoints = ProjectionCheckpoints()
        self.marks = PlaybackMarks()
        self.playing = False
        self.speed = 1.0
        self.frame_ms: list[float] = []  # how long each move took on the GUI thread (benchmarks read it)
        self._marked = 0  # events already looked at for marks
        self._target: int | None = None
        self._select_at: int | None = None
        self._job: asyncio.Future[Any] | None = None
        self._play_ts = 0.0
        self._play_step = 200
        self._played_at = 0.0
        self._move = QTimer(self, singleShot=True, interval=0)
        self._move.timeout.connect(self._on_move_timeout)
        self._play = QTimer(self, interval=PLAY_TICK_MS)
        self._play.timeout.connect(self._on_play_timeout)

    # -- the run ---------------------------------------------------------------------------------
    @property
    def events(self) -> list[Any]:
        return self.live.projection.events if self.live is not None else []

    @property
    def end_seq(self) -> int:
        return self.live.projection.last_seq if self.live is not None else 0

    @property
    def end_ts(self) -> float:
        return self.live.projection.elapsed_s if self.live is not None else 0.0

    @property
    def shown(self) -> RunProjection | None:
        """The projection the views show now."""
        return self.cursor if self.cursor is not None else (self.live.projection if self.live else None)

    @property
    def showing_live(self) -> bool:
        """Whether the views follow the run's own projection (its new events are shown as they come)."""
        return self.following

    def attach(self, live: LiveRun | None) -> None:
        """Play back `live` (the run the views now show whole); None: no run."""
        self.pause()
        self.live, self.following, self.cursor = live, True, None
        self.checkpoints, self.marks, self._marked = ProjectionCheckpoints(), PlaybackMarks(), 0
        self._target = self._select_at = None
        self._job = None
        self.seq = self.end_seq
        if live is not None and live.read_only and len(live.projection.events) > MARKS_OFF_THREAD:
            self._mark_in_worker(live)
        else:
            self._take_marks()
        self.state_changed.emit()
        self.position_changed.emit()

    def _mark_in_worker(self, live: LiveRun) -> None:
        """A past run's marks (it no longer changes) found in a worker, shown when found (~30–100 ms for
        100,000 events, kept off the GUI thread at every selection)."""
        events = live.projection.events
        self._marked = len(events)
        try:
            job = asyncio.get_running_loop().run_in_executor(None, _marks_of, events)
        except RuntimeError:  # no loop running (a test driving the controller by hand): here and now
            self.marks = _marks_of(events)
            return

        def found(done: asyncio.Future[Any]) -> None:
            if live is self.live and not done.cancelled() and done.exception() is None:
                self.marks = done.result()
                self.position_changed.emit()

        job.add_done_callback(found)

    def run_grew(self) -> None:
        """The run has new events (a flush): the end, the marks and — when following — the position move."""
        if self.live is None:
            return
        self._take_marks()
        if self.following:
            self.seq = self.end_seq
        self.position_changed.emit()

    def _take_marks(self) -> None:
        events = self.events
        if self._marked < len(events):
            self.marks.add(events[self._marked:])
            self._marked = len(events)

    # -- moving ----------------------------------------------------------------------------------
    def seek(self, seq: int, *, select: bool = False) -> None:
        """Show the run as it was after event `seq` (the end or later: the whole run, following it)."""
        if self.live is None:
            return
        seq = max(0, min(int(seq), self.end_seq))
        self._select_at = seq if select else None
        if seq >= self.end_seq:
            self.go_live()
            return
        self.seq, self._target = seq, seq
        if not self._move.isActive():
            self._move.start()
        if self.following:
            self.following = False  # the views keep the run's own projection until the first move lands
            self.state_changed.emit()
        self.position_changed.emit()

    def seek_time(self, ts: float) -> None:
        """Show the run as it was at time `ts` (seconds from its start): after the last event at or before it."""
        events = self.events
        i = bisect_right(events, ts, key=_ts_of)
        self.seek(events[i - 1].seq if i > 0 else 0)

    def step(self, kind: str, direction: int) -> None:
        """To the next (direction > 0) or previous event, or mark of `kind` ("span", "verdict", "error", "human")."""
        if self.live is None:
            return
        at = self.seq
        if kind == "event":
            i = position_after(self.events, at)
            events = self.events
            target = events[i].seq if direction > 0 and i < len(events) else (
                events[i - 2].seq if direction < 0 and i >= 2 else (0 if direction < 0 else self.end_seq))
        else:
            found = self.marks.next_seq(kind, at) if direction > 0 else self.marks.previous_seq(kind, at)
            if found is None:
                return
            target = found
        self.seek(target, select=True)

    def go_live(self) -> None:
        """Back to the end: the views show the run's own projection again (live: following it). A finished
        run's docks build what they can from it in a worker first (`RunPanel.prepare`), as when it opened."""
        if self.live is None:
            return
        self._target = None
        self._move.stop()
        was_following = self.following
        self.following, self.cursor, self.seq = True, None, self.end_seq
        if not was_following:
            live = self.live
            if live.live:
                self.controller.views.show(live)
            else:
                self._show_whole(live)
        if self._select_at is not None:
            self._announce(self.live.projection)
        if self.playing and not self.live.live:
            self.pause()
        self.state_changed.emit()
        self.position_changed.emit()

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

    def current_ts(self) -> float:
        """The recorded time (seconds from the run's start) of the event shown last."""
        events = self.events
        i = position_after(events, self.seq)
        return float(events[i - 1].ts) if i > 0 else 0.0


def _run_at(checkpoints: ProjectionCheckpoints, events: list[Any], target: int,
            preparers: dict[str, Callable[[RunProjection], object]]) -> tuple[RunProjection, bool, dict[str, object]]:
    """In a worker: extend the checkpoints to what the run holds now, then the run at `target` and what each
    panel's `RunPanel.prepare` builds from it."""
    first = checkpoints.folded == 0
    checkpoints.extend(events)
    projection = checkpoints.at(events, target)
    return projection, first, {name: prepare(projection) for name, prepare in preparers.items()}


def _marks_of(events: list[Any]) -> PlaybackMarks:
    marks = PlaybackMarks()
    marks.add(events)
    return marks


def _prepare_all(projection: RunProjection, preparers: dict[str, Callable[[RunProjection], object]]
                 ) -> dict[str, object]:
    return {name: prepare(projection) for name, prepare in preparers.items()}


def _ts_of(event: Any) -> float:
    return float(event.ts)
