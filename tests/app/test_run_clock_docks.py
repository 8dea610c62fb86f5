"""In the window, the docks read the live run's time on the app's clock (`RunPanel.run_clock`, the
toolbar's): a run held at a breakpoint on its first node, its Cost dock raised a while later, says the
whole hold under its Deadline gauge (it counted from when the dock was shown), and the Trace's running run
span lasts as long; a dock first built while playback shows an earlier moment of the live run stands
still at that moment, as the other docks do."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import qasync
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, settle, shown_panel, until

from widgets.trace.trace_cells import duration


def test_a_dock_raised_during_a_hold_reads_the_runs_time(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    window.runs.toggle_breakpoints(["goal"])

    async def scenario() -> None:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        live = window.runs.runs[run_id]
        await until(lambda: live.projection.hold is not None)
        await asyncio.sleep(0.6)  # held; the Cost dock is not shown yet
        window.docks["cost"].raise_()
        window.docks["cost"].show()
        await settle()
        cost, trace = window.runs.views.panels["cost"], window.runs.views.panels["trace"]
        now = live.elapsed_s()
        assert cost.run_time() == pytest.approx(now, abs=0.05) and now > 0.6
        p = live.projection
        gauge = cost.gauges["deadline_s"]
        assert gauge.used == pytest.approx(p.deadline_elapsed(now), abs=0.05)  # the start-up time only
        assert p.deadline_clock.held(now) >= 0.6 and gauge.note.startswith("+ ")  # the hold, all of it
        run_span = p.span_table.spans["run"]
        assert duration(run_span, trace.model.now()) == pytest.approx(now - run_span.start_ts, abs=0.05)
        window.actions_by_name["pause"].trigger()  # resume
        await live.task

    drive(gui_loop, scenario())


def test_a_dock_built_during_playback_of_a_live_run_stands_at_the_moment(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    window.runs.toggle_breakpoints(["critic"])
    playback = window.runs.playback

    async def scenario() -> None:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        live = window.runs.runs[run_id]
        await until(lambda: live.projection.hold is not None)
        await settle()
        playback.seek(len(live.projection.events) // 2)
        await until(lambda: window.runs.views.panels["trace"].projection is playback.cursor)
        await asyncio.sleep(0.3)
        cost = shown_panel(window, "cost")
        assert cost.projection is playback.cursor and not cost.clock_running
        assert cost.run_time() == playback.cursor.elapsed_s < live.elapsed_s() - 0.3
        window.actions_by_name["pause"].trigger()  # resume
        await live.task

    drive(gui_loop, scenario())
