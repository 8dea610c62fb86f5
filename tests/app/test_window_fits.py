"""The window fits an ordinary laptop screen and stays put: its minimum size is at most 1024×700 in every
state (fresh, a run live, a finished run shown read-only with the playback bar, every dock shown), it never
widens by itself (a run starting and ending, the bar showing a run, the hand dragging the track), and at
its minimum size each dock's key controls are still there to be used (shown, not squeezed to nothing)."""

from __future__ import annotations

from pathlib import Path

import qasync
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_to_end, run_window, settle, shown_panel, until

from app.main_window import MainWindow

MAX_WIDTH, MAX_HEIGHT = 1024, 700


def _assert_fits(window: MainWindow, state: str) -> None:
    QApplication.processEvents()
    hint = window.minimumSizeHint()
    assert hint.width() <= MAX_WIDTH and hint.height() <= MAX_HEIGHT, f"{state}: minimum {hint.width()}×{hint.height()}"


def _show_every_dock(window: MainWindow) -> None:
    for name in window.docks:
        if name in window.runs.views.panels or name in ("runs", "compare", "timeline", "cost", "verdicts",
                                                         "memory", "contracts"):
            shown_panel(window, name)
        else:
            window.docks[name].show()


def _drag_track(window: MainWindow) -> None:
    track = window.playback_bar.track
    y = track.height() // 2
    QTest.mousePress(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(track.width() - 2, y))
    for x in range(track.width() - 2, 2, -max(1, track.width() // 12)):
        QTest.mouseMove(track, QPoint(x, y))
        QApplication.processEvents()
    QTest.mouseRelease(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(2, y))


def test_the_window_fits_and_never_widens_through_a_run_and_its_playback(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    _assert_fits(window, "fresh start")
    width = window.width()
    widths: list[int] = []
    minimum = window.minimumSizeHint().width()
    minimums: list[int] = []  # through a run and its playback, nothing a run shows moves the window's minimum

    async def scenario() -> None:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await settle(0.15)
        _assert_fits(window, "a run live")
        widths.append(window.width())
        minimums.append(window.minimumSizeHint().width())
        await window.runs.runs[run_id].task
        await settle()
        _assert_fits(window, "a run ended")
        widths.append(window.width())
        minimums.append(window.minimumSizeHint().width())
        window.runs.close_run(run_id)
        assert await window.runs.open_stored_run(run_id) == run_id
        await until(lambda: window.playback_bar.isEnabled() and window.playback_bar.position.text() != "")
        _assert_fits(window, "a finished run shown read-only with the playback bar")
        widths.append(window.width())
        minimums.append(window.minimumSizeHint().width())
        _drag_track(window)
        await settle()
        _assert_fits(window, "the track dragged")
        widths.append(window.width())
        minimums.append(window.minimumSizeHint().width())
        _show_every_dock(window)
        await settle()
        _assert_fits(window, "every dock shown")
        widths.append(window.width())
        long = "a model name or a status much longer than any dock or bar gives it room for " * 4
        for label in (window.run_status, window.counts_label, window.docks["call"].widget().title,
                      window.docks["runs"].widget().housekeeping.size_label):
            label.setText(long)
        await settle()
        _assert_fits(window, "long labels")
        widths.append(window.width())

    drive(gui_loop, scenario())
    assert widths == [width] * len(widths)
    assert minimums == [minimum] * len(minimums)


def _usable(widget: QWidget) -> bool:
    return widget.isVisible() and widget.width() > 0 and widget.height() > 0


def test_at_its_minimum_size_each_dock_keeps_its_key_controls(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    drive(gui_loop, run_to_end(window))
    _show_every_dock(window)
    window.resize(window.minimumSizeHint())
    QApplication.processEvents()
    bar = window.playback_bar
    for control in (bar.track, bar.position, bar.controls, window.view):
        assert _usable(control), control.objectName()
    assert bar.track.width() >= bar.track.minimumWidth()
    panels = {name: shown_panel(window, name) for name in ("events", "runs", "call", "human", "compare", "trace")}
    keys = {"events": ("search", "kinds_button", "copy_button", "count_label", "view"),
            "runs": ("filter_edit", "open_button", "delete_button", "view"),
            "call": ("title", "copy_button", "tabs"),
            "human": ("open_table", "form"),
            "compare": ("summary",),
            "trace": ()}
    for name, attributes in keys.items():
        shown_panel(window, name)
        QApplication.processEvents()
        assert _usable(panels[name]), name
        for attribute in attributes:
            control = getattr(panels[name], attribute)
            assert _usable(control), f"{name}.{attribute}"
            assert control.width() >= min(control.minimumSizeHint().width(), 20), f"{name}.{attribute} squeezed"
    housekeeping = panels["runs"].housekeeping  # type: ignore[attr-defined]
    assert _usable(housekeeping.prune_button) and _usable(housekeeping.compact_button)
