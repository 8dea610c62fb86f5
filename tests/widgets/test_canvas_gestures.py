"""More gestures: comment resize, panning, wheel zoom, and the context menu's intents."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest

from engine.graph.model import Node, NodeUi, Workflow
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.context_menu import build_context_menu


@pytest.fixture
def canvas(qtbot):
    wf = Workflow("g")
    for i, role in enumerate(["executor", "executor", "executor", "subgraph"]):
        wf.add_node(Node(f"n{i}", role, ui=NodeUi(i * 260.0, 0)))
    wf.set_ui("comments", [{"id": "c1", "x": 0, "y": 200, "w": 200, "h": 100, "text": "note"}])
    scene = CanvasScene(wf)
    view = CanvasView(scene)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    view.set_zoom(1.0)
    view.centerOn(400, 150)
    return wf, scene, view


def test_dragging_the_comment_grip_requests_a_resize(canvas):
    _, scene, view = canvas
    scene.comment_items["c1"].setSelected(True)
    edits = []
    view.comment_edit_requested.connect(lambda cid, fields: edits.append((cid, fields)))
    grip = view.mapFromScene(QPointF(195, 295))
    port = view.viewport()
    QTest.mousePress(port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, grip)
    QTest.mouseMove(port, grip + QPoint(50, 20))
    QTest.mouseRelease(port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, grip + QPoint(50, 20))
    assert edits == [("c1", {"w": 245, "h": 115})]
    assert scene.comment_items["c1"].size() == (200, 100)  # follows the model until the app applies it


def test_middle_drag_pans_the_view(canvas):
    _, _, view = canvas
    before = view.mapToScene(view.viewport().rect().center())
    port = view.viewport()
    QTest.mousePress(port, Qt.MouseButton.MiddleButton, Qt.KeyboardModifier.NoModifier, QPoint(600, 350))
    QTest.mouseMove(port, QPoint(500, 300))
    QTest.mouseRelease(port, Qt.MouseButton.MiddleButton, Qt.KeyboardModifier.NoModifier, QPoint(500, 300))
    after = view.mapToScene(view.viewport().rect().center())
    assert (after.x() - before.x(), after.y() - before.y()) == pytest.approx((100, 50), abs=1)


def test_space_drag_pans_instead_of_selecting(canvas):
    _, _, view = canvas
    before = view.mapToScene(view.viewport().rect().center())
    QTest.keyPress(view, Qt.Key.Key_Space)
    port = view.viewport()
    QTest.mousePress(port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(600, 350))
    QTest.mouseMove(port, QPoint(560, 350))
    QTest.mouseRelease(port, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(560, 350))
    QTest.keyRelease(view, Qt.Key.Key_Space)
    after = view.mapToScene(view.viewport().rect().center())
    assert after.x() - before.x() == pytest.approx(40, abs=1)
    assert view.selected_node_ids() == []


def test_context_menu_offers_intents_for_the_selection(canvas, qtbot):
    _, _, view = canvas
    view.select_nodes(["n0", "n1", "n2"])
    menu = build_context_menu(view, QPointF(10, 20))
    actions = {a.text().split("\t")[0]: a for a in menu.actions()}
    align = {a.text(): a for a in actions["Align"].menu().actions()}
    with qtbot.waitSignal(view.align_requested, timeout=1000) as blocker:
        align["Distribute horizontally"].trigger()
    assert blocker.args == ["hdistribute"]
    with qtbot.waitSignal(view.group_requested, timeout=1000) as blocker:
        actions["Group into sub-graph"].trigger()
    assert sorted(blocker.args[0]) == ["n0", "n1", "n2"]
    with qtbot.waitSignal(view.auto_layout_requested, timeout=1000) as blocker:
        actions["Auto-layout all"].trigger()
    assert blocker.args == [[]]
    with qtbot.waitSignal(view.comment_add_requested, timeout=1000) as blocker:
        actions["Add comment"].trigger()
    assert blocker.args == [QPointF(10, 20)]
    view.select_nodes(["n3"])
    menu = build_context_menu(view, QPointF(0, 0))
    ungroup = next(a for a in menu.actions() if a.text() == "Ungroup")
    with qtbot.waitSignal(view.ungroup_requested, timeout=1000) as blocker:
        ungroup.trigger()
    assert blocker.args == ["n3"]


def test_right_click_on_a_node_outside_the_selection_makes_it_the_selection(canvas, monkeypatch):
    _, scene, view = canvas
    offered: list[tuple[list[str], list[str]]] = []

    class Shown:  # the menu as built, without a blocking exec()
        def __init__(self, view, scene_pos):
            self.texts = [a.text() for a in build_context_menu(view, scene_pos).actions()]

        def exec(self, _at):
            offered.append((view.selected_node_ids(), self.texts))

    monkeypatch.setattr("widgets.canvas.view_popups.build_context_menu", Shown)
    view.select_nodes(["n0", "n1"])
    on_n2 = QPointF(view.mapFromScene(scene.node_items["n2"].sceneBoundingRect().center()))
    view.show_context_menu(on_n2, QPoint(0, 0))
    assert offered[-1][0] == ["n2"]  # the clicked node, not the two selected before
    assert "Group into sub-graph" not in offered[-1][1]
    view.select_nodes(["n0", "n2"])
    view.show_context_menu(on_n2, QPoint(0, 0))
    assert sorted(offered[-1][0]) == ["n0", "n2"]  # inside the selection: the selection stays
    view.show_context_menu(QPointF(5, 690), QPoint(0, 0))  # empty canvas: the selection stays too
    assert sorted(offered[-1][0]) == ["n0", "n2"]
