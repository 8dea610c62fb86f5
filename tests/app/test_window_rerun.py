"""Re-run from the recording in the window: the Runs dock's and Run menu's re-run start a normal run
through the engine's replay path — it plays in the window, is listed under its source, and calls no
provider; a workflow changed since the run is named first and the recorded version runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qasync
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, settle, sub_graph_caller_window, until

from app.controllers.replay_runs import divergences
from app.run_panel_wiring import confirm_replay_changes
from engine.replay import RunChanges
from engine.store.store import TraceStore
from tests.engine.replay.sub_graph_files import edit_node
from widgets.runs import RunsPanel


class NoProvider:
    """A gateway that fails the test if any model call reaches it."""

    calls = 0

    def __getattr__(self, name: str) -> Any:
        NoProvider.calls += 1
        raise AssertionError(f"a provider was asked ({name}) during a re-run")


def _recorded(window: Any, gui_loop: qasync.QEventLoop) -> str:
    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        return str(run_id)

    return drive(gui_loop, scenario())


def test_rerun_from_the_runs_dock_plays_in_the_window_without_a_provider(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    source = _recorded(window, gui_loop)
    window.runs.gateway_factory = NoProvider
    dock = window.docks["runs"].widget()
    assert isinstance(dock, RunsPanel)

    async def scenario() -> str:
        await until(lambda: dock.model.index_of(source).isValid())
        started: list[str] = []
        window.runs.run_started.connect(started.append)
        dock.rerun_requested.emit(source)  # what the context menu's "Re-run from the recording" sends
        await until(lambda: started)
        live = window.runs.runs[started[0]]
        assert window.runs.selected is live and live.source is not None  # followed like any run
        await live.task
        await until(lambda: dock.model.source_of(started[0]) == source)
        await settle()
        return started[0]

    rerun = drive(gui_loop, scenario())
    live = window.runs.runs[rerun]
    assert live.status() == "succeeded" and not divergences(live) and NoProvider.calls == 0
    assert "re-run of" in live.name and live.workflow is None  # the document's workflow: unchanged
    assert dock.model.source_of(rerun) == source and dock.model.index_of(rerun).data().startswith("└ ")
    with TraceStore(tmp_path / "trace.db") as store:
        replay, original = store.get_run(rerun), store.get_run(source)
        assert replay is not None and original is not None
        assert replay.replay_of == source and replay.outputs == original.outputs


def test_a_changed_workflow_is_named_before_the_recorded_version_reruns(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    source = _recorded(window, gui_loop)
    window.document.workflow.nodes["executor"].params["prompt"] = "A different prompt"
    asked: list[tuple[str, list[str]]] = []
    window.runs.replay_changes_handler = lambda run_id, changes, start: (asked.append((run_id, changes.lines)),
                                                                         start())

    async def scenario() -> str:
        started: list[str] = []
        window.runs.run_started.connect(started.append)
        window.runs.select_run(source)
        window.actions_by_name["rerun"].trigger()  # Run ▸ Re-run from Recording
        await until(lambda: started)
        await window.runs.runs[started[0]].task
        await settle()
        return started[0]

    rerun = drive(gui_loop, scenario())
    assert asked and asked[0][0] == source and any("executor" in line for line in asked[0][1])
    live = window.runs.runs[rerun]
    assert live.status() == "succeeded" and live.workflow is not None  # shown on the recorded version
    assert live.workflow.nodes["executor"].params["prompt"] != "A different prompt"
    assert window.runs.views.read_only


def test_a_run_that_cannot_be_rerun_says_why(qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    errors: list[tuple[str, str]] = []
    window.runs.error_reported.connect(lambda title, text: errors.append((title, text)))
    assert drive(gui_loop, window.runs.rerun_stored("nosuchrun")) is None
    assert errors and errors[0][0] == "The run cannot be re-run" and "nosuchrun" in errors[0][1]


def test_a_changed_sub_graph_file_is_named_by_node_path_and_the_recorded_version_reruns(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window, sub = sub_graph_caller_window(qtbot, tmp_path)
    source = _recorded(window, gui_loop)
    edit_node(sub, "critic", max_rounds=1)  # today's file: one round
    asked: list[Any] = []
    window.runs.replay_changes_handler = lambda run_id, changes, start: (asked.append(changes), start())
    window.runs.gateway_factory = NoProvider

    async def scenario() -> str:
        started: list[str] = []
        window.runs.run_started.connect(started.append)
        window.runs.select_run(source)
        window.actions_by_name["rerun"].trigger()
        await until(lambda: started)
        await window.runs.runs[started[0]].task
        return started[0]

    live = window.runs.runs[drive(gui_loop, scenario())]
    assert asked and asked[0].lines == ["research/critic: params changed"] and not asked[0].unchecked
    assert live.status() == "succeeded" and not divergences(live) and NoProvider.calls == 0
    assert any(key.startswith("research/critic") for key in live.projection.nodes)  # the recorded version ran


def test_the_dialog_names_what_differs_or_says_the_sub_graph_files_cannot_be_checked(
        qtbot: QtBot, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, None)
    started: list[str] = []
    changed = confirm_replay_changes(window, "abcdef123", RunChanges(["research/critic: params changed"]),
                                     lambda: started.append("go"))
    assert changed.windowTitle() == "The workflow changed since this run"
    assert "• research/critic: params changed" in changed.text() and "recorded versions" in changed.text()
    old = confirm_replay_changes(window, "abcdef123", RunChanges(unchecked=["research"]), lambda: None)
    assert old.windowTitle() == "Sub-graph files cannot be checked"
    assert "cannot be checked against today's files" in old.text() and "today's sub-graph files" in old.text()
    next(b for b in changed.buttons() if b.text() == "Re-run Recorded Version").click()
    assert started == ["go"]
    old.reject()
