"""`PlaybackController`: the selected run shown as it was at one event — the scrubber's model.

It keeps, for the run the views follow, the seq shown (`seq`) and whether the views follow the run's
own projection (`following`: at the end, the full run as it is now; for a live run, "live"). Away from
the end the views are given a playback projection (`cursor`): the shared projection stopped at that
seq (`engine.projection`), never a second fold of another kind. `seek`, `seek_time` and `step` only
note where to go: how the run there is made and shown is `playback_moves.PlaybackMovesMixin`'s; play /
pause and the speed are `playback_clock.PlaybackClockMixin`'s. The marks `step` jumps to (spans,
verdicts, errors, human gates) are found once per run, a long past run's in a worker.
Hidden docks are not updated while the position moves; they catch up when shown (`RunViews`).

A live run keeps recording while the view is scrubbed back: its changes are not shown (`showing_live`
is False) until "back to live".

Invariants: the cursor is None exactly when `following`; the checkpoints and marks belong to the run
in `live` and are dropped with it.
"""

from __future__ import annotations

import asyncio
from bisect import bisect_right
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.controllers.playback_clock import PlaybackClockMixin
from app.controllers.playback_moves import PlaybackMovesMixin
from engine.projection.checkpoints import ProjectionCheckpoints, position_after
from engine.projection.marks import PlaybackMarks

if TYPE_CHECKING:
    from app.controllers.live_run import LiveRun
    from app.controllers.run_controller import RunController
    from engine.projection import RunProjection

PLAY_TICK_MS = 30
MARKS_OFF_THREAD = 5_000  # a past run with more events has its marks found in a worker
SPEEDS = (1.0, 2.0, 5.0, 10.0, 100.0, 0.0)  # 0: as fast as possible


class PlaybackController(PlaybackMovesMixin, PlaybackClockMixin, QObject):
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

    def current_ts(self) -> float:
        """The recorded time (seconds from the run's start) of the event shown last."""
        events = self.events
        i = position_after(events, self.seq)
        return float(events[i - 1].ts) if i > 0 else 0.0


def _marks_of(events: list[Any]) -> PlaybackMarks:
    marks = PlaybackMarks()
    marks.add(events)
    return marks


def _ts_of(event: Any) -> float:
    return float(event.ts)
