"""EditorController: view intents become exactly one undoable command; the clipboard holds JSON."""

from __future__ import annotations

import json

from doc_fixtures import FakeView, snapshot
from PySide6.QtCore import QPointF
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from app.controllers.clipboard import WORKFLOW_MIME
from app.controllers.editor_controller import EditorController
from app.document import Document
from engine.graph.model import Budget, RunSettings, Workflow


def _setup(triad: Workflow) -> tuple[Document, FakeView, EditorController, list[str]]:
    doc = Document(triad)
    view = FakeView()
    controller = EditorController(doc, view)
    messages: list[str] = []
    controller.status_message.connect(messages.append)
    return doc, view, controller, messages


def test_view_intents_push_commands(qtbot: QtBot, triad: Workflow) -> None:
    doc, view, _controller, _ = _setup(triad)
    start = snapshot(triad)
    view.node_add_requested.emit("executor", QPointF(10, 20))
    assert triad.nodes["executor_1"].ui.x == 10 and view.selected == ["executor_1"]
    view.edge_connect_requested.emit("plan", "plan", "executor_1", "task")
    view.nodes_move_requested.emit({"plan": (240.0, 0.0)}, {"plan": (260.0, 30.0)})
    view.delete_requested.emit(["review"], [])
    assert "review" not in triad.nodes and doc.undo_stack.count() == 4
    assert doc.undo_stack.undoText().startswith("Delete")
    while doc.undo_stack.canUndo():
        doc.undo()
    assert snapshot(triad) == start


def test_refused_connection_pushes_nothing_and_says_why(qtbot: QtBot, triad: Workflow) -> None:
    doc, view, _controller, messages = _setup(triad)
    view.edge_connect_requested.emit("result", "value", "plan", "goal")  # output has no output ports
    assert doc.undo_stack.count() == 0 and messages and messages[0].startswith("Cannot connect")
    view.status_message.emit("from the canvas")
    assert messages[-1] == "from the canvas"


def test_align_auto_layout_group_ungroup_and_comments(qtbot: QtBot, triad: Workflow) -> None:
    doc, view, controller, messages = _setup(triad)
    start = snapshot(triad)
    view.selected = ["goal", "plan"]
    triad.move_node("plan", 240.0, 100.0)
    start = snapshot(triad)
    view.align_requested.emit("top")
    assert triad.nodes["plan"].ui.y == 0.0 and doc.undo_stack.undoText().startswith("Align top")
    view.auto_layout_requested.emit([])
    view.group_requested.emit(["plan", "exec"])
    assert view.selected == ["subgraph_1"]
    view.ungroup_requested.emit("subgraph_1")
    assert {"plan", "exec"} <= set(triad.nodes) and set(view.selected) == {"plan", "exec"}
    view.comment_add_requested.emit(QPointF(5, 5))
    view.comment_edit_requested.emit("c1", {"text": "hi"})
    assert triad.ui["comments"][0]["text"] == "hi"
    view.comment_delete_requested.emit("c1")
    view.selected = ["goal"]
    controller.align("left")
    assert messages[-1].startswith("Select two or more")
    controller.ungroup("goal")
    assert messages[-1].startswith("Select a sub-graph")
    while doc.undo_stack.canUndo():
        doc.undo()
    assert snapshot(triad) == start


def test_inspector_requests(qtbot: QtBot, triad: Workflow) -> None:
    doc, _view, controller, _ = _setup(triad)
    controller.set_param("plan", "max_tasks", 4)
    controller.set_title("plan", "P")
    controller.set_title("plan", "P")  # no change, no command
    controller.set_settings(RunSettings(Budget(max_cost_usd=2.0), 4, 1))
    assert doc.undo_stack.count() == 3 and triad.settings.budget.max_cost_usd == 2.0


def test_reveal_selects_and_centres(qtbot: QtBot, triad: Workflow) -> None:
    _doc, view, controller, _ = _setup(triad)
    controller.reveal("exec", None)
    assert view.selected == ["exec"] and view.centred == ["exec"]
    controller.reveal(None, "e2")
    assert view.selected_edges == ["e2"] and view.centred[-1] == "plan"


def test_copy_paste_between_documents_via_json_clipboard(qtbot: QtBot, triad: Workflow) -> None:
    doc, view, _controller, _ = _setup(triad)
    view.selected = ["plan", "exec"]
    view.copy_requested.emit()
    mime = QGuiApplication.clipboard().mimeData()
    assert mime.hasFormat(WORKFLOW_MIME) and mime.hasText()
    fragment = json.loads(mime.text())
    assert {n["id"] for n in fragment["nodes"]} == {"plan", "exec"} and len(fragment["edges"]) == 1
    other_doc, other_view, _other, _ = _setup(Workflow("other"))
    other_view.paste_requested.emit(QPointF(1000, 500))
    pasted = other_doc.workflow
    assert len(pasted.nodes) == 2 and len(pasted.edges) == 1
    assert min(n.ui.x for n in pasted.nodes.values()) == 1000 and set(other_view.selected) == set(pasted.nodes)
    # a text editor round trip: plain text only
    QGuiApplication.clipboard().setText(mime.text())
    view.paste_requested.emit(QPointF(0, 0))
    assert len(triad.nodes) == 7 and doc.undo_stack.undoText().startswith("Paste")
    view.duplicate_requested.emit()
    assert len(triad.nodes) == 9
    view.cut_requested.emit()
    assert len(triad.nodes) == 7 and doc.undo_stack.undoText().startswith("Delete")


def test_paste_of_garbage_is_refused(qtbot: QtBot, triad: Workflow) -> None:
    doc, view, _controller, messages = _setup(triad)
    QGuiApplication.clipboard().setText("hello world")
    view.paste_requested.emit(QPointF(0, 0))
    QGuiApplication.clipboard().setText('{"format": "triadic.fragment", "nodes": 3}')
    view.paste_requested.emit(QPointF(0, 0))
    assert doc.undo_stack.count() == 0 and len(messages) == 2
    assert "no workflow nodes" in messages[0] and "paste" in messages[1].lower()
