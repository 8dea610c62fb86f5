"""Playback with the Timeline and Cost & tokens docks in front, as the screen shows it: after the hand drags the
scrubber back and lets go, what the window holds (its backing store, built from the partial repaints of the
drag) equals what painting each part afresh gives — the Timeline, the Cost dock, the canvas and the bar keep
no stale frame of an earlier moment."""

from __future__ import annotations

import asyncio
from pathlib import Path

import qasync
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, until

from tests.app.test_playback_docks import _landed


def _on_screen(widget: QWidget) -> QImage:
    """The part of the window's backing store `widget` covers."""
    window = widget.window()
    at = widget.mapTo(window, QPoint(0, 0))
    shot = window.screen().grabWindow(window.winId(), at.x(), at.y(), widget.width(), widget.height())
    return shot.toImage().convertToFormat(QImage.Format.Format_RGB32)


def _painted_afresh(widget: QWidget) -> QImage:
    return widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)


def test_after_a_drag_back_the_window_holds_exactly_the_moment(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "research")
    window.resize(1400, 900)
    playback = window.runs.playback
    panels = window.runs.views.panels

    async def scenario() -> None:
        for name in ("timeline", "cost"):
            window.docks[name].show()
            window.docks[name].raise_()
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await until(lambda: all(n in panels and panels[n].isVisible() for n in ("timeline", "cost")))  # in front: mounted once a run is shown
        await window.runs.runs[run_id].task
        await asyncio.sleep(0.2)
        track = window.playback_bar.track
        y = track.height() // 2
        QTest.mousePress(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(track.width() - 2, y))
        for x in range(track.width() - 2, track.width() // 4, -6):  # a hand faster than the moves land
            QTest.mouseMove(track, QPoint(x, y))
            await asyncio.sleep(0.004)
        QTest.mouseRelease(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(track.width() // 4, y))
        await until(lambda: _landed(window))
        assert not playback.following
        panels["timeline"].item.wait_idle()  # the Timeline's exact picture, drawn in its worker, delivered
        for _ in range(5):
            QApplication.processEvents()
            await asyncio.sleep(0.01)

    drive(gui_loop, scenario())
    assert panels["timeline"].projection is playback.cursor and panels["cost"].projection is playback.cursor
    cost = panels["cost"]
    parts = {"timeline": window.docks["timeline"].widget(), "cost plot": cost.cost_plot, "tokens plot": cost.tokens_plot,
             **{f"{name} gauge": gauge for name, gauge in cost.gauges.items()}, "cost total": cost.total,
             "nodes table": cost.node_table.viewport(), "models table": cost.model_table.viewport(),
             "canvas": window.view.viewport(), "bar": window.playback_bar}
    # (the Cost dock by its parts: a table's scroll bar frame may differ by a corner pixel between a partial
    # repaint and a whole one, whatever the moment)
    for name, widget in parts.items():
        assert _on_screen(widget) == _painted_afresh(widget), f"{name} holds a stale frame"
