"""The playback bar's "By event" scale: the track's x is the event's number, its marks drawn by seq; a
press or drag asks for that event (by time: for that moment), and switching redraws the track at once."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from widgets.playback import PlaybackBar

# 100 events: 90 of them in the first 0.1 s, then ten more over 10 s (a burst, then slow work)
TIMES = {"span": [0.01, 0.05, 9.0], "verdict": [0.08], "human": [], "error": []}
SEQS = {"span": [10, 50, 99], "verdict": [80], "human": [], "error": []}


def _bar(qtbot: QtBot) -> PlaybackBar:
    bar = PlaybackBar()
    qtbot.addWidget(bar)
    bar.resize(1200, 30)
    bar.show()
    bar.show_run(10.0, 100, TIMES, SEQS)
    bar.show_position(50, 100, 0.05, 10.0)
    return bar


def test_by_event_the_track_is_the_events_numbers_and_a_press_asks_for_an_event(qtbot: QtBot) -> None:
    bar = _bar(qtbot)
    track = bar.track
    assert (track.extent, track.position, track.marks) == (10.0, 0.05, TIMES)
    burst_width = track.x_of(0.1) - track.x_of(0.0)
    assert burst_width < 10  # by time, the first 90 events share a few pixels
    with qtbot.waitSignal(bar.scale_changed) as changed:
        bar.by_event_action.trigger()
    assert changed.args == [True] and bar.by_event
    assert (track.extent, track.position, track.marks) == (100.0, 50, SEQS)
    assert track.x_of(90) - track.x_of(0) > 0.8 * (track.width() - 12)  # by event, they take 90 % of it
    x = round(track.x_of(42))
    with qtbot.waitSignal(bar.seek_event_requested) as asked:
        QTest.mousePress(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(x, 10))
    assert abs(asked.args[0] - 42) <= 1
    with qtbot.waitSignal(bar.seek_event_requested) as dragged:
        QTest.mouseMove(track, QPoint(round(track.x_of(77)), 10))
    assert abs(dragged.args[0] - 77) <= 1


def test_by_time_a_press_asks_for_a_moment_and_switching_back_redraws(qtbot: QtBot) -> None:
    bar = _bar(qtbot)
    bar.set_by_event(True)
    bar.set_by_event(False)
    track = bar.track
    assert (track.extent, track.position) == (10.0, 0.05)
    with qtbot.assertNotEmitted(bar.seek_event_requested), qtbot.waitSignal(bar.seek_requested) as asked:
        QTest.mousePress(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         QPoint(round(track.x_of(5.0)), 10))
    assert abs(asked.args[0] - 5.0) < 0.05
