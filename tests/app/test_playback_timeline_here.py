"""Playback with the Timeline and Cost & tokens docks in front: a move back is made on the GUI thread (the
Timeline cuts its columns from the whole run's, the Cost dock builds its small view there) — for a stored run
opened and for the run just watched live — and what the Timeline then holds equals a fresh build of the run
at that seq."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, until

from engine.projection import project
from tests.app.test_playback_docks import _landed
from tests.widgets.test_timeline_rewind_cut import assert_same
from widgets.timeline.span_arrays import SpanArrays


@pytest.mark.parametrize("reopened", [True, False])  # a stored run opened, or the run just watched live
def test_a_drag_back_with_the_timeline_in_front_needs_no_worker_after_the_first_move(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path, reopened: bool) -> None:
    window = run_window(qtbot, tmp_path, "research")
    playback = window.runs.playback
    restored: list[int] = []
    restore = playback._restore

    def counted(target: int) -> None:
        restored.append(target)
        restore(target)

    playback._restore = counted

    async def scenario() -> int:
        panels = window.runs.views.panels
        for name in ("timeline", "cost"):
            window.docks[name].show()
            window.docks[name].raise_()
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await until(lambda: all(n in panels and panels[n].isVisible() for n in ("timeline", "cost")))  # in front: mounted once a run is shown
        await window.runs.runs[run_id].task
        if reopened:
            window.runs.close_run(run_id)
            assert await window.runs.open_stored_run(run_id) == run_id
        events: list[Any] = list(window.runs.runs[run_id].projection.events)
        timeline = panels["timeline"]
        assert timeline.arrays.built_whole is reopened  # watched live: its columns were fed as the run went
        track = window.playback_bar.track
        y, moves = track.height() // 2, 0
        QTest.mousePress(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(track.width() - 2, y))
        for x in range(track.width() - 2, 0, -max(8, track.width() // 12)):
            QTest.mouseMove(track, QPoint(x, y))
            await until(lambda: _landed(window))
            if playback.following:
                continue
            moves += 1
            assert timeline.projection is playback.cursor
            assert_same(timeline.arrays, SpanArrays.of(project(events, until_seq=playback.seq)))
        QTest.mouseRelease(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(1, y))
        return moves

    assert drive(gui_loop, scenario()) >= 5
    # at most the first move back goes through a worker (building the checkpoints, when the run did not leave them);
    # every later one is made here, the run before its first event too (named for its run, not taken for another)
    assert len(restored) <= 1
