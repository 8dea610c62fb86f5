"""Canvas → intents: gestures and keys on the view emit the contract's signals and never touch the model."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtTest import QTest

from engine.graph.format import workflow_to_dict
from engine.graph.model import Edge, Node, NodeUi, Workflow
from widgets.canvas import ROLE_MIME, CanvasScene, CanvasView


def build() -> Workflow:
    wf = Workflow("t")
    wf.add_node(Node("goal", "input", "Goal", ui=NodeUi(0, 0)))
    wf.add_node(Node("plan", "planner", "Plan", ui=NodeUi(260, 0)))
    wf.add_node(Node("run", "executor", "Run", ui=NodeUi(520, 0)))
    wf.add_node(Node("run2", "executor", "Run 2", ui=NodeUi(520, 200)))
    wf.add_node(Node("review", "critic", "Review", ui=NodeUi(780, 0)))
    wf.add_edge(Edge("e1", "goal", "value", "plan", "goal"))
    wf.add_edge(Edge("e2", "plan", "plan", "run", "task"))
    return wf


@pytest.fixture
def canvas(qtbot):
    wf = build()
    scene = CanvasScene(wf)
    view = CanvasView(scene)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    view.set_zoom(1.0)
    view.centerOn(500, 150)
    return wf, scene, view


def at_port(view: CanvasView, node_id: str, port: str, output: bool) -> QPoint:
    item = view.canvas_scene().node_items[node_id]
    return view.mapFromScene(item.port_scene_pos(port, output))


def at_node(view: CanvasView, node_id: str) -> QPoint:
    item = view.canvas_scene().node_items[node_id]
    return view.mapFromScene(item.pos() + QPointF(90, 12))  # the header


def drag(view: CanvasView, start: QPoint, end: QPoint, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    port = view.viewport()
    QTest.mousePress(port, Qt.MouseButton.LeftButton, modifier, start)
    for step in range(1, 6):
        QTest.mouseMove(port, start + (end - start) * step / 5)
    QTest.mouseRelease(port, Qt.MouseButton.LeftButton, modifier, end)


def test_drag_output_to_compatible_input_requests_edge(canvas, qtbot):
    wf, _, view = canvas
    before = workflow_to_dict(wf)
    with qtbot.waitSignal(view.edge_connect_requested, timeout=1000) as blocker:
        drag(view, at_port(view, "plan", "plan", True), at_port(view, "run2", "task", False))
    assert blocker.args == ["plan", "plan", "run2", "task"]
    assert workflow_to_dict(wf) == before  # the canvas never edits the model


def test_drag_from_input_backwards_requests_same_edge(canvas, qtbot):
    _, _, view = canvas
    with qtbot.waitSignal(view.edge_connect_requested, timeout=1000) as blocker:
        drag(view, at_port(view, "review", "subject", False), at_port(view, "run2", "result", True))
    assert blocker.args == ["run2", "result", "review", "subject"]


def test_incompatible_drop_is_refused_with_a_reason(canvas, qtbot):
    _, _, view = canvas
    requested, messages = [], []
    view.edge_connect_requested.connect(lambda *a: requested.append(a))
    view.status_message.connect(messages.append)
    drag(view, at_port(view, "review", "verdict", True), at_port(view, "run2", "task", False))
    assert requested == []
    assert len(messages) == 1 and "task" in messages[0]


def test_ports_are_highlighted_while_connecting_then_cleared(canvas):
    _, scene, view = canvas
    port = view.viewport()
    QTest.mousePress(port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     at_port(view, "review", "verdict", True))
    run2 = scene.node_items["run2"]
    assert ("feedback", False) in run2.highlighted and ("task", False) not in run2.highlighted
    QTest.mouseRelease(port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(5, 5))
    assert run2.highlighted is None


def test_dragging_a_selection_emits_one_move_request_and_follows_the_model(canvas, qtbot):
    wf, scene, view = canvas
    view.select_nodes(["plan", "run"])
    moves = []
    view.nodes_move_requested.connect(lambda old, new: moves.append((old, new)))
    drag(view, at_node(view, "plan"), at_node(view, "plan") + QPoint(40, 60))
    assert len(moves) == 1
    old, new = moves[0]
    assert old == {"plan": (260.0, 0.0), "run": (520.0, 0.0)}
    assert new == {"plan": (300.0, 60.0), "run": (560.0, 60.0)}
    # nobody applied the move: the canvas follows the model and snaps back
    assert scene.node_items["plan"].pos().x() == 260
    # an app that applies it: the items end where the model says
    view.nodes_move_requested.connect(lambda _old, new: [wf.move_node(i, *p) for i, p in new.items()])
    drag(view, at_node(view, "plan"), at_node(view, "plan") + QPoint(40, 60))
    assert scene.node_items["run"].pos().y() == 60 and wf.nodes["run"].ui.y == 60
    assert scene.edge_items["e2"].line().p1() == scene.node_items["plan"].port_scene_pos("plan", True)


def test_click_selects_and_ctrl_click_toggles(canvas):
    _, _, view = canvas
    port = view.viewport()
    QTest.mouseClick(port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at_node(view, "plan"))
    assert view.selected_node_ids() == ["plan"]
    QTest.mouseClick(port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, at_node(view, "run"))
    assert sorted(view.selected_node_ids()) == ["plan", "run"]
    QTest.mouseClick(port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, at_node(view, "plan"))
    assert view.selected_node_ids() == ["run"]


def test_rubber_band_selects_the_nodes_it_touches(canvas):
    _, _, view = canvas
    top_left = view.mapFromScene(QPointF(490, -40))
    bottom_right = view.mapFromScene(QPointF(700, 330))
    drag(view, top_left, bottom_right)
    assert sorted(view.selected_node_ids()) == ["run", "run2"]


def test_delete_key_requests_deletion_of_the_selection(canvas, qtbot):
    _, _, view = canvas
    view.select_nodes(["run2"])
    view.canvas_scene().edge_items["e1"].setSelected(True)
    with qtbot.waitSignal(view.delete_requested, timeout=1000) as blocker:
        QTest.keyClick(view, Qt.Key.Key_Delete)
    assert blocker.args == [["run2"], ["e1"]]
    with qtbot.waitSignal(view.delete_requested, timeout=1000):
        QTest.keyClick(view, Qt.Key.Key_Backspace)


def test_clipboard_shortcuts_emit_intents(canvas, qtbot):
    _, _, view = canvas
    view.select_nodes(["plan"])
    for key, signal in ((Qt.Key.Key_C, view.copy_requested), (Qt.Key.Key_X, view.cut_requested),
                        (Qt.Key.Key_D, view.duplicate_requested), (Qt.Key.Key_V, view.paste_requested)):
        with qtbot.waitSignal(signal, timeout=1000):
            QTest.keyClick(view, key, Qt.KeyboardModifier.ControlModifier)


def test_dropping_a_role_requests_a_node_at_the_drop_point(canvas, qtbot):
    _, _, view = canvas
    mime = QMimeData()
    mime.setData(ROLE_MIME, b"critic")
    where = QPointF(300, 200)
    event = QDropEvent(where, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(view.node_add_requested, timeout=1000) as blocker:
        view.dropEvent(event)
    role, scene_pos = blocker.args
    assert role == "critic"
    assert scene_pos == view.mapToScene(where.toPoint())


def test_double_click_on_node_activates_it(canvas, qtbot):
    _, _, view = canvas
    with qtbot.waitSignal(view.node_activated, timeout=1000) as blocker:
        QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                          at_node(view, "run"))
    assert blocker.args == ["run"]


def test_comment_drag_and_text_edit_become_requests(canvas, qtbot):
    wf, scene, view = canvas
    wf.set_ui("comments", [{"id": "c1", "x": 0, "y": 250, "w": 200, "h": 80, "text": "note"}])
    edits = []
    view.comment_edit_requested.connect(lambda cid, fields: edits.append((cid, fields)))
    start = view.mapFromScene(QPointF(50, 270))
    drag(view, start, start + QPoint(30, 10))
    assert edits == [("c1", {"x": 30, "y": 260})]
    assert scene.comment_items["c1"].pos().x() == 0  # follows the model, which did not change
    view.edit_comment(scene.comment_items["c1"])
    view._editor.setPlainText("new text")
    view._editor.finish(view._editor.toPlainText())
    assert edits[-1] == ("c1", {"text": "new text"})
    scene.comment_items["c1"].setSelected(True)
    with qtbot.waitSignal(view.comment_delete_requested, timeout=1000) as blocker:
        QTest.keyClick(view, Qt.Key.Key_Delete)
    assert blocker.args == ["c1"]
