"""Compare two runs in the window: the Runs dock asks, the diff is computed off the GUI thread and shown
in the Compare dock (outputs side by side, deltas, the first divergence), and the divergence link
selects that event in the Events dock."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import qasync
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, settle, until

from app import compare_actions
from widgets.compare import ComparePanel
from widgets.compare.side_by_side import split
from widgets.events_view import EventsPanel
from widgets.runs import RunsPanel


def _two_runs(window: Any, gui_loop: qasync.QEventLoop) -> tuple[str, str]:
    async def scenario() -> tuple[str, str]:
        ids = []
        for prompt in (None, "Answer in one short sentence, in French."):
            if prompt is not None:
                window.document.workflow.nodes["executor"].params["prompt"] = prompt
            run_id = await window.runs.start_run({}, {})
            assert run_id is not None
            await window.runs.runs[run_id].task
            ids.append(run_id)
        return ids[0], ids[1]

    return drive(gui_loop, scenario())


def test_compare_two_runs_from_the_runs_dock_and_jump_to_the_divergence(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path, monkeypatch: Any) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    a, b = _two_runs(window, gui_loop)
    runs = window.docks["runs"].widget()
    compare = window.docks["compare"].widget()
    assert isinstance(runs, RunsPanel) and isinstance(compare, ComparePanel)
    threads: list[str] = []
    real = compare_actions._diff
    monkeypatch.setattr(compare_actions, "_diff", lambda *args: (threads.append(threading.current_thread().name),
                                                                 real(*args))[1])

    async def scenario() -> None:
        runs.compare_requested.emit(a, b)  # the context menu's "Compare the two selected runs"
        await until(lambda: compare.diff is not None)

    drive(gui_loop, scenario())
    diff = compare.diff
    assert diff is not None and not diff.same and threads and threads[0] != threading.main_thread().name
    assert window.docks["compare"].isVisible()
    assert "executor" in diff.output_diffs and compare.nodes.count() >= 1
    first = compare.nodes.item(0).text()
    assert first.startswith(next(iter(diff.output_diffs))) and "output changed" in first
    assert compare.left.toPlainText() != compare.right.toPlainText()
    assert "First divergence" in compare.summary.text()
    d = diff.first_divergence
    assert d is not None and d.seq_a is not None
    found = drive(gui_loop, compare_actions.show_event(window, a, d.seq_a))
    events = window.docks["events"].widget()
    assert isinstance(events, EventsPanel) and found
    rows = events.view.selectionModel().selectedRows()
    assert rows and events.model.event_at(rows[0].row()).seq == d.seq_a  # type: ignore[union-attr]
    assert window.runs.selected is not None and window.runs.selected.run_id == a


def test_a_run_compared_with_its_replay_shows_no_difference(qtbot: QtBot, gui_loop: qasync.QEventLoop,
                                                            tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")

    async def scenario() -> tuple[str, str]:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        replay = await window.runs.rerun_stored(run_id)
        assert replay is not None
        await window.runs.runs[replay].task
        await settle()
        await compare_actions.compare_runs(window, run_id, replay)
        return run_id, replay

    drive(gui_loop, scenario())
    compare = window.docks["compare"].widget()
    assert isinstance(compare, ComparePanel) and compare.diff is not None and compare.diff.same
    assert "no difference" in compare.summary.text()


def test_side_by_side_pairs_removals_with_additions() -> None:
    unified = ["--- a", "+++ b", "@@ -1,3 +1,3 @@", " same", "-old line", "+new line", "+added", " end"]
    assert split(unified) == [("⋯", "⋯", "same"), ("same", "same", "same"), ("old line", "new line", "changed"),
                              (None, "added", "only_b"), ("end", "end", "same")]
