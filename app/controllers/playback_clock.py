"""`PlaybackClockMixin`: playing a run back — the `PlaybackController`'s play / pause and speed.

Play advances a virtual clock by the wall time × the speed against the recorded timestamps (1×–100×)
and shows the run at that moment (`seek_time`); speed 0 is "as fast as possible": each tick moves on by
as many events as the last move showed within `FRAME_BUDGET_MS` (growing while frames stay under it,
shrinking when one did not). A tick never queues work: it moves only when the last move has landed.
Playing a finished run from its end starts it over; reaching the end stops (a live run: follows it).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from engine.projection.checkpoints import position_after

if TYPE_CHECKING:
    from app.controllers.live_run import LiveRun

FORWARD_MAX = 6_000  # events folded on the GUI thread in one move (~6 ms); further: a worker
FRAME_BUDGET_MS = 25.0
MIN_STEP = 50  # events a tick of "as fast as possible" moves at least


class PlaybackClockMixin:
    live: LiveRun | None
    following: bool
    seq: int
    playing: bool
    speed: float
    frame_ms: list[float]
    _target: int | None
    _job: Any
    _play: Any  # QTimer
    _play_ts: float
    _play_step: int
    _played_at: float
    state_changed: Any

    if TYPE_CHECKING:
        @property
        def events(self) -> list[Any]: ...
        def seek(self, seq: int, *, select: bool = False) -> None: ...
        def seek_time(self, ts: float) -> None: ...
        def current_ts(self) -> float: ...

    def set_speed(self, speed: float) -> None:
        self.speed = speed
        self.state_changed.emit()

    def play(self) -> None:
        if self.live is None or self.playing:
            return
        if self.following and not self.live.live:
            self.seek(0)  # a finished run played from its end starts over
        self.playing = True
        self._play_ts = self.current_ts()
        self._played_at = time.perf_counter()
        self._play_step = MIN_STEP  # as fast as possible starts small and grows while frames allow
        self._play.start()
        self.state_changed.emit()

    def pause(self) -> None:
        if self.playing:
            self.playing = False
            self._play.stop()
            self.state_changed.emit()

    def toggle_play(self) -> None:
        self.pause() if self.playing else self.play()

    def _on_play_timeout(self) -> None:
        if self.live is None or self.following:
            self.pause()
            return
        now = time.perf_counter()
        elapsed, self._played_at = now - self._played_at, now
        if self.speed > 0:
            self._play_ts += elapsed * self.speed
            self.seek_time(self._play_ts)
            return
        last = self.frame_ms[-1] if self.frame_ms else 0.0  # as fast as possible: as many events as a frame holds
        grow = 1.5 if last < FRAME_BUDGET_MS else 0.6
        self._play_step = max(MIN_STEP, min(FORWARD_MAX, int(self._play_step * grow)))
        if self._target is None and (self._job is None or self._job.done()):
            events = self.events
            i = min(len(events), position_after(events, self.seq) + self._play_step)
            self.seek(events[i - 1].seq if i else 0)
