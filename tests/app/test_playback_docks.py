"""Playback, as a person sees it: each run dock at a moment reached by dragging the scrubber back (with
real mouse moves, the docks re-shown move after move) shows exactly what the same dock shows when it is
given a fresh projection of the run at that seq — every row and cell of its tables and trees (all rows
read), its labels and its boxes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qasync
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, shown_panel, until

from engine.projection import project
from tests.widgets.dock_contents import what_it_shows
from widgets.run_panel import RunPanel

MY_DOCKS = ("trace", "events", "memory", "verdicts", "call", "human")


def fresh(panel: RunPanel, projection: Any) -> dict[str, Any]:
    """What a new panel of `panel`'s kind shows given `projection` (the call inspector: the same call picked)."""
    other = type(panel)()
    other.clock_running = False
    other.set_projection(projection)
    if getattr(panel, "span_id", None) is not None:
        other.show_call(panel.span_id)  # type: ignore[attr-defined]
    shown = what_it_shows(other)
    other.deleteLater()
    return shown


def _landed(window: Any) -> bool:
    playback = window.runs.playback
    return playback.following or (playback.cursor is not None and playback.cursor.last_seq == playback.seq and playback._target is None
            and not playback._move.isActive() and (playback._job is None or playback._job.done()))


def test_each_dock_dragged_back_to_a_moment_shows_what_a_fresh_dock_at_that_seq_shows(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "research")
    playback = window.runs.playback

    async def scenario() -> int:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        window.runs.close_run(run_id)
        assert await window.runs.open_stored_run(run_id) == run_id
        events = list(window.runs.runs[run_id].projection.events)
        track = window.playback_bar.track
        y = track.height() // 2
        checked = 0
        for name in MY_DOCKS:  # each dock in front in turn, so the drag re-shows it move after move
            shown_panel(window, name)
            panel = window.runs.views.panels[name]
            assert panel.isVisible(), name
            QTest.mousePress(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                             QPoint(track.width() - 2, y))
            for x in range(track.width() - 2, 0, -max(8, track.width() // 12)):
                QTest.mouseMove(track, QPoint(x, y))
                await until(lambda: _landed(window))
                if playback.following:
                    continue
                seq = playback.seq
                assert panel.projection is playback.cursor, name
                assert what_it_shows(panel) == fresh(panel, project(events, until_seq=seq)), (name, seq)
                checked += 1
            QTest.mouseRelease(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(1, y))
        return checked

    assert drive(gui_loop, scenario()) >= 3 * len(MY_DOCKS)
