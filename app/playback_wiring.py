"""Puts the playback bar under the canvas and connects it to the `PlaybackController` both ways.

The bar is always under the canvas and enabled while a run is selected (a live run or a past one
opened): its room is kept, so selecting a run never resizes the canvas (measured: hiding it until then
cost the open of a 100,000-event run ~200 ms more, the canvas laid out and painted again). Its intents go to the controller (seek by time or by event, steps, play / pause, speed, start, end / back to live);
the track's scale (by time / by event) is remembered in the settings;
the controller's position and state come back to it. When a step or `RunController.show_at` lands on
an event, the Events dock selects its row and the Trace dock its span.

Invariant: one function, no state of its own beyond the bar; the canvas view stays the window's
central content, with the bar beneath it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.settings_store import playback_by_event, set_playback_by_event
from widgets.playback import PlaybackBar

if TYPE_CHECKING:
    from app.main_window import MainWindow

TRACK_REDRAW_S = 0.5  # a live run's track (duration, marks) is redrawn at most this often


def install_playback(window: MainWindow) -> PlaybackBar:
    playback = window.runs.playback
    bar = PlaybackBar()
    view = window.takeCentralWidget()
    centre = QWidget(window)
    centre.setObjectName("canvas_and_playback")
    layout = QVBoxLayout(centre)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    layout.addWidget(view, 1)
    layout.addWidget(bar)
    window.setCentralWidget(centre)
    bar.setEnabled(False)
    bar.set_by_event(playback_by_event())
    bar.scale_changed.connect(set_playback_by_event)
    shown_run: list[Any] = [0, -1, 0.0]  # the marks drawn, the last seq then, when (a live run: ≤ 2× a second)
    redraw_later = QTimer(bar, singleShot=True, interval=int(TRACK_REDRAW_S * 1000))  # what a throttled redraw left

    def on_position_changed() -> None:
        end_ts, end_seq = playback.end_ts, playback.end_seq
        marks = playback.marks
        now = time.monotonic()
        if shown_run[0] != id(marks) or (end_seq != shown_run[1] and now - shown_run[2] >= TRACK_REDRAW_S):
            shown_run[:] = [id(marks), end_seq, now]
            bar.show_run(end_ts, end_seq, marks.times, marks.seqs)
        elif end_seq != shown_run[1] and not redraw_later.isActive():
            redraw_later.start()  # the run's last events are drawn even when nothing moves after them
        bar.show_position(playback.seq, playback.end_seq, playback.current_ts() if not playback.following
                          else end_ts, end_ts)

    def on_state_changed() -> None:
        live = playback.live
        bar.setEnabled(live is not None)
        bar.show_state(playing=playback.playing, live_run=live is not None and live.live,
                       following=playback.following)

    def on_event_shown(event: Any) -> None:
        panels = window.runs.views.panels
        events = panels.get("events")
        if events is not None and hasattr(events, "select_seq"):
            events.select_seq(event.seq, reveal=False)
        trace = panels.get("trace")
        if trace is not None and event.span_id and event.span_id in (playback.shown.span_table.spans
                                                                     if playback.shown else {}):
            trace.select_span(event.span_id)  # type: ignore[attr-defined]

    def on_run_finished(run_id: str, _status: str) -> None:
        if playback.live is not None and playback.live.run_id == run_id:
            on_state_changed()  # no longer "● live"
            on_position_changed()

    redraw_later.timeout.connect(on_position_changed)
    window.runs.run_finished.connect(on_run_finished)
    bar.seek_requested.connect(playback.seek_time)
    bar.seek_event_requested.connect(playback.seek)
    bar.step_requested.connect(playback.step)
    bar.play_requested.connect(playback.toggle_play)
    bar.speed_changed.connect(playback.set_speed)
    bar.start_requested.connect(lambda: playback.seek(0, select=True))
    bar.end_requested.connect(playback.go_live)
    playback.position_changed.connect(on_position_changed)
    playback.state_changed.connect(on_state_changed)
    playback.event_shown.connect(on_event_shown)
    return bar
