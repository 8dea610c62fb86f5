"""Fork at a step in the window: the Trace dock's and the canvas's "Fork from here…" open a non-modal
dialog with the node's recorded values; Fork starts a run through the engine's fork path, played in the
window and recorded with `fork_of` / `fork_at_seq`; a bad parameter line is refused in the dialog."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QPoint, QPointF
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, settle, sub_graph_caller_window, until

from app import fork_actions
from app.lazy_dock import LazyDockPanel
from engine.store.store import TraceStore
from tests.engine.replay.sub_graph_files import edit_node
from widgets.canvas.context_menu import build_context_menu
from widgets.fork import ForkDialog


def _recorded(window: Any, gui_loop: qasync.QEventLoop) -> str:
    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        await settle()
        return str(run_id)

    return drive(gui_loop, scenario())


def test_fork_from_a_trace_span_with_a_changed_prompt(qtbot: QtBot, gui_loop: qasync.QEventLoop,
                                                      tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    source = _recorded(window, gui_loop)
    p = window.runs.runs[source].projection
    node_span = min((s for s in p.span_table.spans.values() if s.kind == "node" and s.node_id == "executor"),
                    key=lambda s: s.seq)
    call = next((s for s in p.span_table.spans.values() if s.parent_id == node_span.span_id), node_span)
    at = fork_actions.execution_of(p, call.span_id)
    assert at is not None and at == fork_actions.execution_of(p, node_span.span_id)

    async def scenario() -> str:
        dialog = await fork_actions.fork_from_span(window, call.span_id)  # type: ignore[misc]
        assert isinstance(dialog, ForkDialog) and dialog.isVisible() and not dialog.isModal()
        assert "executor" in dialog.windowTitle()
        recorded = window.document.workflow.nodes["executor"].params
        assert dialog.prompt_edit.toPlainText() == recorded["prompt"]
        assert dialog.model_edit.text() == str(recorded.get("model") or "")
        dialog.params_edit.setPlainText("no equals sign here")
        dialog.fork_button.click()
        assert "line 1" in dialog.problem.text() and dialog.isVisible()  # refused, nothing started
        dialog.params_edit.setPlainText("")
        dialog.prompt_edit.setPlainText("Answer in one line.")
        started: list[str] = []
        window.runs.run_started.connect(started.append)
        dialog.fork_button.click()
        await until(lambda: started)
        await window.runs.runs[started[0]].task
        await settle()
        return started[0]

    fork = drive(gui_loop, scenario())
    live = window.runs.runs[fork]
    assert live.status() == "succeeded" and "fork of" in live.name and live.workflow is not None
    with TraceStore(tmp_path / "trace.db") as store:
        run = store.get_run(fork)
        assert run is not None and run.fork_of == source
        assert run.fork_at_seq == int(at)  # where that execution of the executor began


def test_the_canvas_offers_fork_on_a_node_of_a_finished_run(qtbot: QtBot, gui_loop: qasync.QEventLoop,
                                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    source = _recorded(window, gui_loop)
    handler = window.view.fork_handler
    assert handler is not None  # a finished run is shown
    offered: list[tuple[list[str], list[str]]] = []

    class Shown:  # the right-click menu as built, without its blocking exec()
        def __init__(self, view: Any, scene_pos: QPointF) -> None:
            self.texts = [a.text() for a in build_context_menu(view, scene_pos).actions()]

        def exec(self, _at: QPoint) -> None:
            offered.append((window.view.selected_node_ids(), self.texts))

    monkeypatch.setattr("widgets.canvas.view_popups.build_context_menu", Shown)
    window.view.canvas_scene().clearSelection()
    critic = window.view.canvas_scene().node_items["critic"]
    window.view.show_context_menu(QPointF(window.view.mapFromScene(critic.sceneBoundingRect().center())), QPoint())
    assert offered == [(["critic"], offered[0][1])] and "Fork from here…" in offered[0][1]  # right-click, no click first

    async def scenario() -> ForkDialog | None:
        task = handler("critic")
        return await task  # type: ignore[no-any-return]

    dialog = drive(gui_loop, scenario())
    assert isinstance(dialog, ForkDialog) and "critic" in dialog.windowTitle() and source[:8] in dialog.windowTitle()
    assert "max_rounds" in dialog.params_edit.toPlainText()
    assert dialog.edits() == (None, None, {})  # nothing changed yet
    dialog.reject()


def test_the_trace_and_timeline_docks_fork_requests_open_the_dialog(qtbot: QtBot, gui_loop: qasync.QEventLoop,
                                                                    tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    source = _recorded(window, gui_loop)
    p = window.runs.runs[source].projection
    critic = min((s for s in p.span_table.spans.values() if s.kind == "node" and s.node_id == "critic"),
                 key=lambda s: s.seq)
    opened: list[str] = []

    async def scenario() -> None:
        for name in ("trace", "timeline"):
            window.fork_dialog = None
            panel = window.docks[name].widget()
            if isinstance(panel, LazyDockPanel):  # the Timeline is built when its dock is first shown
                window.docks[name].show()
                panel = panel.build()
            panel.fork_requested.emit(critic.span_id)  # type: ignore[union-attr]  # what "Fork from here…" sends
            await until(lambda: window.fork_dialog is not None)
            opened.append(window.fork_dialog.windowTitle())  # type: ignore[union-attr]
            window.fork_dialog.reject()  # type: ignore[union-attr]

    drive(gui_loop, scenario())
    assert opened == [f"Fork run {source[:8]} at critic"] * 2


def test_the_fork_dialog_names_what_a_changed_sub_graph_file_differs_in(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window, sub = sub_graph_caller_window(qtbot, tmp_path)
    source = _recorded(window, gui_loop)

    async def scenario() -> tuple[ForkDialog | None, ForkDialog | None]:
        unchanged = await fork_actions.open_fork_dialog(window, source, "research/critic#1")
        edit_node(sub, "critic", max_rounds=1)
        return unchanged, await fork_actions.open_fork_dialog(window, source, "research/critic#1")

    unchanged, dialog = drive(gui_loop, scenario())
    assert unchanged is not None and unchanged.notice.isHidden()
    unchanged.reject()
    assert dialog is not None and not dialog.notice.isHidden()
    assert "• research/critic: params changed" in dialog.notice.text()
    assert dialog.recorded["max_rounds"] == 3  # the recorded version's parameters, not today's file
    dialog.reject()
