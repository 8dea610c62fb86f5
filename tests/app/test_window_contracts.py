"""Trace contracts in the window: edited in the inspector (no node selected) as one undoable command,
checked after a run started from the window, shown in the Contracts dock, and "go to event" selecting
the violating event in the Events dock, its span in the Trace and its node on the canvas."""

from __future__ import annotations

from pathlib import Path

import qasync
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_then_open, run_to_end, run_window, shown_panel, until

from app.main_window import MainWindow
from engine import events as ev
from widgets.contracts import ContractsPanel
from widgets.events_view import EventsPanel
from widgets.trace import TracePanel


def test_contracts_are_edited_in_the_inspector_with_undo(qtbot: QtBot, gui_loop: qasync.QEventLoop,
                                                         tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    window.view.select_nodes([])
    editor = window.inspector.contracts_editor
    assert editor is not None and editor.isVisibleTo(window.inspector)
    before = window.document.workflow.contracts
    editor.text.setPlainText('[{"kind": "max_calls", "max_calls": "many"}]')
    assert not editor.apply() and "contracts[0].max_calls: expected a whole number" in editor.message.text()
    assert window.document.workflow.contracts == before and not window.document.is_modified()
    editor.text.setPlainText('[{"kind": "max_calls", "max_calls": 2}]')
    assert editor.apply()
    assert [c.limit for c in window.document.workflow.contracts] == [2.0] and window.document.is_modified()
    window.document.undo()
    assert window.document.workflow.contracts == before
    assert '"max_seconds": 120' in editor.text.toPlainText()  # the editor follows the undo


def _with_two_contracts(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """The triad in a window, its contracts set in the inspector: one its runs break, one they keep."""
    window = run_window(qtbot, tmp_path, "triad")
    window.view.select_nodes([])
    editor = window.inspector.contracts_editor
    assert editor is not None
    editor.text.setPlainText('[{"kind": "max_calls", "max_calls": 3}, {"kind": "reviewed_before_output"}]')
    assert editor.apply()
    return window


def test_a_window_run_shows_its_contracts_and_goes_to_the_violating_event(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = _with_two_contracts(qtbot, tmp_path)
    run_id = drive(gui_loop, run_to_end(window))
    panel = shown_panel(window, "contracts")  # a hidden tab until now: built when first shown
    events_panel = window.docks["events"].widget()
    trace = window.docks["trace"].widget()
    assert isinstance(panel, ContractsPanel) and isinstance(events_panel, EventsPanel)
    assert isinstance(trace, TracePanel)
    assert panel.summary.text() == "1 of 2 contracts broken, 1 hold."
    seq = panel.selected_seq()
    projection = window.runs.runs[run_id].projection
    violating = next(e for e in projection.events if e.seq == seq)
    assert isinstance(violating, ev.LLMCallStarted) and violating.node_id == "executor"
    events_panel.search.setText("nothing matches this")  # a filter that hides the event is cleared
    events_panel.set_kinds({"verdict"})
    panel.goto_button.click()
    shown = events_panel.model.event_at(events_panel.view.currentIndex().row())
    assert shown is violating
    span = trace.model.span_at(trace._to_source(trace.view.currentIndex()))
    assert span is not None and span.span_id == violating.span_id
    assert window.view.selected_node_ids() == ["executor"]


def test_the_contracts_dock_at_a_playback_moment_shows_the_verdicts_as_of_then(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = _with_two_contracts(qtbot, tmp_path)
    panel = shown_panel(window, "contracts")
    assert isinstance(panel, ContractsPanel)
    playback = window.runs.playback

    async def scenario() -> int:
        await run_then_open(window)
        broken_at = panel.selected_seq()
        assert broken_at is not None and panel.summary.text() == "1 of 2 contracts broken, 1 hold."
        window.docks["contracts"].raise_()
        playback.seek(broken_at - 1)
        await until(lambda: panel.projection is playback.cursor and panel.moment == broken_at - 1)
        return broken_at

    broken_at = drive(gui_loop, scenario())
    states = [panel.tree.topLevelItem(i).text(0) for i in range(panel.tree.topLevelItemCount())]
    assert states == ["so far", "so far"] and not panel.goto_button.isEnabled()
    assert panel.summary.text().startswith(f"At event {broken_at - 1}: all 2 contracts hold so far")
