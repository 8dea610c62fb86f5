"""`PreparedCatchUp`: during playback, the shown docks that build from a whole projection off the GUI thread
(a `RunPanel.prepare` of their own: the Timeline) catch up with the moment shown from a worker, so a move
made on the GUI thread never waits for them nor builds their part there.

A move made on the GUI thread shows the canvas and the other docks at once and leaves these docks
behind (`RunViews.show_projection(defer=…)`: not told, nor given the moves forward after it). `follow()`
then has a worker make the run at the cursor's seq from the checkpoints and each such dock's `prepare`
from it — one job at a time. When it lands, a dock is given the cursor itself (with what was prepared,
which fits it: the same seq) if the cursor is still at that seq, and is up to date again; if the cursor
moved on meanwhile, it is given the job's own projection — the moment the worker reached, a step behind
the hand — and another job starts for where the cursor is now `CATCH_UP_GAP_MS` later (taking one such
dock in costs the GUI thread 10–40 ms: back to back they would slow every move). So while the hand
moves these docks follow it several times a second, and when it rests they show exactly its moment.

Invariants: a job only reads the checkpoints (`at`), and is started only when they hold the whole run
(no `extend` runs beside the GUI thread's `at`); a job for a run no longer shown, or landing once the
views follow the run again, changes nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer

from engine.projection.checkpoints import ProjectionCheckpoints
from widgets.run_panel import RunPanel

if TYPE_CHECKING:
    from app.controllers.playback import PlaybackController
    from engine.projection import RunProjection

CATCH_UP_GAP_MS = 120  # between a catch-up that landed behind the cursor and the next one
Preparers = dict[str, Callable[["RunProjection"], object]]


class PreparedCatchUp:
    def __init__(self, playback: PlaybackController) -> None:
        self.playback = playback
        self.job: asyncio.Future[Any] | None = None
        self._pause = QTimer(playback, singleShot=True, interval=CATCH_UP_GAP_MS)
        self._pause.timeout.connect(self.follow)

    def preparers(self) -> Preparers:
        """The shown docks that prepare off the GUI thread, by name, with their `prepare`."""
        return {name: type(panel).prepare for name, panel in self.playback.controller.views.panels.items()
                if panel.isVisible() and type(panel).prepare is not RunPanel.prepare}

    def busy(self) -> bool:
        """A job is in flight."""
        return self.job is not None and not self.job.done()

    def pending(self) -> bool:
        """A job is in flight or due after its pause: the docks left behind are not up to the cursor yet."""
        return self.busy() or self._pause.isActive()

    def drop(self) -> None:
        """Forget the job in flight (the run changed, or the views follow it again): its result is not shown."""
        self.job = None
        self._pause.stop()

    def follow(self) -> None:
        """Bring the docks left behind up to the cursor, from a worker (now, or when the job in flight lands)."""
        playback, views = self.playback, self.playback.controller.views
        cursor, live = playback.cursor, playback.live
        if self.busy() or self._pause.isActive() or playback.worker_busy() or cursor is None or live is None \
                or not views.behind:
            return  # (a worker move in flight may extend the checkpoints: it shows these docks itself)
        preparers = {name: prepare for name, prepare in self.preparers().items() if name in views.behind}
        if not preparers:
            return
        job = asyncio.get_running_loop().run_in_executor(
            None, _prepared_at, playback.checkpoints, live.projection.events, cursor.last_seq, preparers)
        self.job = job
        job.add_done_callback(lambda done: self._on_landed(live, done))

    def _on_landed(self, live: Any, job: asyncio.Future[Any]) -> None:
        playback = self.playback
        if job is not self.job:
            return
        self.job = None
        if live is not playback.live or playback.following or job.cancelled():
            playback.move_on()
            return
        if job.exception() is not None:
            playback.controller.error_reported.emit("Playback cannot show that moment", str(job.exception()))
            return
        projection, prepared = job.result()
        cursor = playback.cursor
        shown = cursor if cursor is not None and cursor.last_seq == projection.last_seq else projection
        for name, built in prepared.items():
            playback.controller.views.catch_up(name, shown, built)
        if shown is not cursor:
            self._pause.start()  # the cursor moved on meanwhile: the next job after a pause (the GUI thread's share)
        playback.move_on()  # a move that needed the worker waited for this job


def _prepared_at(checkpoints: ProjectionCheckpoints, events: list[Any], seq: int, preparers: Preparers
                 ) -> tuple[RunProjection, dict[str, object]]:
    """In a worker: the run at `seq` from the checkpoints (which hold the whole run) and each dock's `prepare`."""
    projection = checkpoints.at(events, seq)
    return projection, {name: prepare(projection) for name, prepare in preparers.items()}
