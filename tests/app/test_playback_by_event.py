"""The playback track "by event" in the window: a press on the track scaled by event shows that event
(the docks at that seq), and the scale chosen is remembered for the next window."""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_then_open, run_window, until

from app.settings_store import playback_by_event


def test_a_press_by_event_shows_that_event_and_the_scale_is_remembered(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    bar, playback = window.playback_bar, window.runs.playback
    assert not bar.by_event and not playback_by_event()

    async def scenario() -> tuple[int, int]:
        await run_then_open(window)
        bar.by_event_action.trigger()
        end = playback.end_seq
        assert bar.track.extent == end
        target = end // 3
        QTest.mousePress(bar.track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         QPoint(round(bar.track.x_of(target)), bar.track.height() // 2))
        await until(lambda: playback.cursor is not None and playback.shown is playback.cursor
                    and playback._target is None and not playback._move.isActive())
        return target, playback.shown.last_seq

    target, shown = drive(gui_loop, scenario())
    assert abs(shown - target) <= 1 and bar.track.position == playback.seq
    assert playback_by_event()
    (tmp_path / "again").mkdir()
    again = run_window(qtbot, tmp_path / "again", "triad")
    assert again.playback_bar.by_event
