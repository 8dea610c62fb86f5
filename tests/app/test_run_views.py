"""The window's views of runs: docks fed coalesced through the RunPanel contract, the canvas selection
filtering them and theirs selecting on the canvas, several live runs in the picker, a human gate answered
through the controller, a stored run shown read-only against its workflow version, the inputs dialog,
the canvas-edited note, and closing the window with a live run."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import ClassVar

import pytest
import qasync
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from run_fixtures import RecordingPanel, drive, run_window, settle, until

from app import run_actions
from engine.graph.model import Edge, Node, NodeUi, Workflow
from engine.store.store import TraceStore


def _gate_workflow() -> Workflow:
    wf = Workflow("Gate")
    for i, (node_id, role, params) in enumerate([("goal", "input", {"name": "goal", "default": "ship it"}),
                                                 ("gate", "human_gate", {"prompt": "Ship this?"}),
                                                 ("result", "output", {"name": "result"})]):
        wf.add_node(Node(node_id, role, node_id.title(), params, NodeUi(i * 260.0, 0.0)))
    wf.add_edge(Edge("e1", "goal", "value", "gate", "subject"))
    wf.add_edge(Edge("e2", "gate", "approved", "result", "value"))
    return wf


def test_panels_are_fed_coalesced_and_follow_the_selection(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "research")
    panel = RecordingPanel()
    qtbot.addWidget(panel)
    window.runs.views.mount("call", panel)
    assert panel.projection is None and panel.resets == 1

    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        await settle()
        return run_id

    run_id = drive(gui_loop, scenario())
    p = window.runs.runs[run_id].projection
    assert panel.projection is p
    applied = sum(c.events for c in panel.flushes)
    assert applied == len(p.events)  # every event reached the panel, in far fewer calls than events
    assert 0 < len(panel.flushes) < len(p.events) / 3
    window.view.select_nodes(["answer"])
    assert panel.node_filter == "answer"
    window.view.select_nodes([])
    assert panel.node_filter is None
    panel.node_selected.emit("report")
    assert window.view.selected_node_ids() == ["report"]
    assert panel.node_filter is None  # picked in a panel: the panels keep their filter
    span = next(s for s in p.span_table.spans.values() if s.kind == "llm" and s.node_id == "review")
    panel.span_selected.emit(span.span_id)
    assert panel.spans == [span.span_id] and window.view.selected_node_ids() == ["review"]


def test_several_live_runs_each_selectable_in_the_picker(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    panel = RecordingPanel()
    qtbot.addWidget(panel)
    window.runs.views.mount("trace", panel)
    window.runs.toggle_breakpoints(["critic"])

    async def scenario() -> tuple[str, str]:
        first = await window.runs.start_run({"goal": "one"}, {})
        second = await window.runs.start_run({"goal": "two"}, {})
        assert first and second
        await until(lambda: all(r.held for r in window.runs.runs.values()))
        await settle()
        return first, second

    first, second = drive(gui_loop, scenario())
    picker = window.run_toolbar.picker
    assert picker.count() == 2 and picker.currentData() == second
    assert len(window.runs.live_runs()) == 2
    picker.activated.emit(0)
    assert window.runs.selected is window.runs.runs[first]
    assert panel.projection is window.runs.runs[first].projection
    assert window.scene.run.projection is window.runs.runs[first].projection
    assert window.runs.runs[first].projection.inputs == {"goal": "one"}

    async def finish() -> None:
        window.runs.toggle_breakpoints(["critic"])
        for live in window.runs.live_runs():
            live.source.resume()  # type: ignore[union-attr]
        await window.runs.runs[first].task
        await window.runs.runs[second].task
        await settle()

    drive(gui_loop, finish())
    assert [r.projection.status for r in window.runs.runs.values()] == ["succeeded", "succeeded"]
    assert window.runs.close_run(first) and picker.count() == 1


def test_a_human_gate_is_announced_and_answered_through_the_controller(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, None, _gate_workflow())
    asked: list[tuple[str, str, str]] = []
    window.runs.human_requested.connect(lambda r, n, prompt: asked.append((r, n, prompt)))

    async def scenario(decision: str) -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        live = window.runs.runs[run_id]
        await until(lambda: bool(asked) and asked[-1][0] == run_id)
        assert live.status() == "waiting" and window.scene.run.state_of("gate") == "waiting"
        assert "Ship this?" in window.statusBar().currentMessage()
        assert window.runs.submit_human_decision("gate", decision, None, "checked")
        await live.task
        await settle()
        return run_id

    approved = drive(gui_loop, scenario("approve"))
    assert window.human_questions == []  # the window's own question went away once the gate was answered
    p = window.runs.runs[approved].projection
    assert p.status == "succeeded" and p.questions[0].decision == "approve" and p.questions[0].reason == "checked"
    assert not window.runs.submit_human_decision("gate", "approve", None, "")  # nothing waits now


def test_a_stored_run_opens_read_only_against_its_workflow_version(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    panel = RecordingPanel()
    qtbot.addWidget(panel)
    window.runs.views.mount("trace", panel)

    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        window.runs.close_run(run_id)
        window.view.select_nodes(["critic"])
        window.actions_by_name["delete"].trigger()  # today's file lost its critic
        assert "critic" not in window.document.workflow.nodes
        opened = await window.runs.open_stored_run(run_id[:10])
        assert opened == run_id
        return run_id

    run_id = drive(gui_loop, scenario())
    scene = window.scene
    assert scene.workflow is not window.document.workflow and "critic" in scene.node_items
    assert scene.run.state_of("critic") == "done"
    assert panel.projection is window.runs.runs[run_id].projection and panel.projection.status == "succeeded"
    assert window.runs.views.read_only and window.run_toolbar.banner_action.isVisible()
    assert not window.actions_by_name["delete"].isEnabled()
    assert window.view.signalsBlocked()
    window.actions_by_name["back_to_editing"].trigger()
    assert scene.workflow is window.document.workflow and "critic" not in scene.node_items
    assert not window.runs.views.read_only and window.actions_by_name["delete"].isEnabled()
    assert not window.view.signalsBlocked() and panel.projection is None


class PreparingPanel(RecordingPanel):
    """Builds a token off the GUI thread for a stored run, and keeps what `rebuild` was handed."""

    threads: ClassVar[list[str]] = []

    @staticmethod
    def prepare(projection: object) -> object | None:
        PreparingPanel.threads.append(threading.current_thread().name)
        return ("built for", projection)

    def rebuild(self) -> None:
        super().rebuild()
        self.got = self.take_prepared()


def test_a_stored_runs_panels_get_what_they_prepared_in_the_worker(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    panel = PreparingPanel()
    qtbot.addWidget(panel)
    window.runs.views.mount("prepared", panel)

    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        window.runs.close_run(run_id)
        PreparingPanel.threads.clear()
        assert await window.runs.open_stored_run(run_id) == run_id
        return run_id

    run_id = drive(gui_loop, scenario())
    live = window.runs.runs[run_id]
    assert panel.got == ("built for", live.projection) and not live.prepared  # handed over once
    assert PreparingPanel.threads and threading.main_thread().name not in PreparingPanel.threads
    window.runs.select_run(None)
    window.runs.select_run(run_id)
    assert panel.got is None  # shown again: built on the GUI thread as usual


def test_an_unknown_stored_run_is_said(qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    said: list[str] = []
    window.runs.error_reported.connect(lambda title, text: said.append(text))
    assert drive(gui_loop, window.runs.open_stored_run("feedbeef")) is None
    assert said and "feedbeef" in said[0]


def test_the_inputs_dialog_starts_the_run_with_what_was_typed(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    window.actions_by_name["run"].trigger()  # F5
    dialog = window.inputs_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.fields["goal"].text().startswith("Write a short guide")  # type: ignore[union-attr]
    assert set(dialog.overrides) == {"planner", "executor", "critic"}
    dialog.fields["goal"].setText("Plan a garden")  # type: ignore[union-attr]
    dialog.overrides["executor"].setCurrentText("sim/gpt-4o-mini")
    dialog.accept()

    async def scenario() -> None:
        await until(lambda: window.runs.selected is not None)
        await window.runs.selected.task  # type: ignore[union-attr]

    drive(gui_loop, scenario())
    p = window.runs.selected.projection  # type: ignore[union-attr]
    assert p.inputs == {"goal": "Plan a garden"} and p.status == "succeeded"
    assert {c.name for c in p.calls_of("executor")} == {"sim/gpt-4o-mini"}
    window.actions_by_name["run"].trigger()  # offered again with what was run
    assert window.inputs_dialog.fields["goal"].text() == "Plan a garden"  # type: ignore[union-attr]
    window.inputs_dialog.reject()  # type: ignore[union-attr]


def test_editing_during_a_run_says_the_canvas_changed(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    window.runs.toggle_breakpoints(["critic"])

    async def scenario() -> None:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await until(lambda: window.runs.runs[run_id].held)
        assert not window.run_toolbar.edited_action.isVisible()
        window.editor.set_title("executor", "Do it")
        await settle()
        assert window.runs.canvas_edited() and window.run_toolbar.edited_action.isVisible()
        window.runs.stop()
        await window.runs.runs[run_id].task

    drive(gui_loop, scenario())


def test_closing_with_a_live_run_asks_then_records_it_cancelled(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        qapp: QApplication) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    window.document.undo_stack.setClean()
    window.runs.toggle_breakpoints(["executor"])
    asked: list[int] = []

    def confirm(_window: object, count: int, on_yes: object) -> None:
        asked.append(count)
        on_yes()  # type: ignore[operator]

    monkeypatch.setattr(run_actions, "confirm_stop_runs", confirm)
    monkeypatch.setattr("app.main_window.confirm_stop_runs", confirm)

    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await until(lambda: window.runs.runs[run_id].held)
        assert not window.close()  # asks first, closes once the run is recorded
        await until(lambda: not window.isVisible(), 15)
        return run_id

    qapp.setQuitOnLastWindowClosed(False)  # the test's loop must outlive the window
    try:
        run_id = drive(gui_loop, scenario())
    finally:
        qapp.setQuitOnLastWindowClosed(True)
    assert asked == [1]
    with TraceStore(tmp_path / "trace.db") as store:
        stored = store.get_run(run_id)
        assert stored is not None and stored.status == "cancelled"


def test_opening_another_file_leaves_a_past_runs_read_only_view(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")

    async def scenario() -> None:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        window.runs.close_run(run_id)
        assert await window.runs.open_stored_run(run_id) == run_id

    drive(gui_loop, scenario())
    assert window.runs.views.read_only
    from doc_fixtures import open_in
    from run_fixtures import example

    open_in(qtbot, window, example("research"))  # e.g. from File ▸ Open Recent
    assert not window.runs.views.read_only and not window.view.signalsBlocked()
    assert window.scene.workflow is window.document.workflow and "answer" in window.scene.node_items


def test_without_a_human_gate_panel_the_window_asks_and_the_answer_goes_to_that_run(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, None, _gate_workflow())
    window.runs.views.unmount("human")

    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await until(lambda: bool(window.human_questions))
        box = window.human_questions[0]
        assert "Ship this?" in box.text() and box.isVisible()
        window.runs.select_run(None)  # the person looked elsewhere meanwhile: the answer still goes to its run
        next(b for b in box.buttons() if b.text() == "Reject").click()
        await window.runs.runs[run_id].task
        return run_id

    run_id = drive(gui_loop, scenario())
    question = window.runs.runs[run_id].projection.questions[0]
    assert question.decision == "reject" and question.reason == "answered in the window"
    assert window.human_questions == []
