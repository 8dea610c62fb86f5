"""The playback bar when a run started in the window ends: its track shows the whole run (the last events
came within the track's redraw throttle, and nothing moves after them) and "● live" goes away."""

from __future__ import annotations

from pathlib import Path

import qasync
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_to_end, run_window, until


def test_a_short_run_ends_with_its_whole_track_drawn_and_no_live_mark(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    bar, playback = window.playback_bar, window.runs.playback

    async def scenario() -> None:
        await run_to_end(window)  # ~0.4 s: within the track's redraw throttle of its start
        await until(lambda: bar.track.extent == playback.end_ts and not bar.live_label.isVisibleTo(bar),
                    timeout=5)

    drive(gui_loop, scenario())
    assert playback.end_seq > 100
    assert bar.track.extent == playback.end_ts > 0
    assert bar.track.position == playback.end_ts  # the hand at the end of the track, not at its start
    assert not bar.live_label.isVisibleTo(bar) and not bar.live_button.isVisibleTo(bar)
