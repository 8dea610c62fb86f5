"""Model → canvas: the scene follows every model change through WorkflowSignals."""

from __future__ import annotations

import pytest

from engine.graph.generate import generate_workflow
from engine.graph.model import Edge, Node, NodeUi, Workflow
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.edge_layer import EdgeLayer
from widgets.canvas.run_layer import RunLayer


def triad() -> Workflow:
    wf = Workflow("triad")
    wf.add_node(Node("goal", "input", "Goal", ui=NodeUi(0, 0)))
    wf.add_node(Node("plan", "planner", "Plan", ui=NodeUi(300, 0)))
    wf.add_node(Node("run", "executor", "Run", ui=NodeUi(600, 0)))
    wf.add_node(Node("review", "critic", "Review", ui=NodeUi(900, 0)))
    wf.add_edge(Edge("e1", "goal", "value", "plan", "goal"))
    wf.add_edge(Edge("e2", "plan", "plan", "run", "task"))
    wf.add_edge(Edge("e3", "run", "result", "review", "subject"))
    return wf


@pytest.fixture
def canvas(qtbot):
    wf = triad()
    scene = CanvasScene(wf)
    view = CanvasView(scene)
    qtbot.addWidget(view)
    return wf, scene, view


def test_scene_builds_one_item_per_node_and_edge(canvas):
    wf, scene, _ = canvas
    assert set(scene.node_items) == set(wf.nodes)
    assert set(scene.edge_items) == set(wf.edges)
    assert scene.node_items["plan"].pos().x() == 300


def test_add_and_remove_follow_the_model(canvas):
    wf, scene, _ = canvas
    wf.add_node(Node("out", "output", ui=NodeUi(1200, 0)))
    wf.add_edge(Edge("e4", "review", "approved", "out", "value"))
    assert "out" in scene.node_items and "e4" in scene.edge_items
    assert scene.edge_items["e4"].scene() is scene
    wf.remove_edge("e4")
    wf.remove_node("out")
    assert "out" not in scene.node_items and "e4" not in scene.edge_items
    assert len([i for i in scene.items() if i not in scene.node_items.values()
                and i not in scene.edge_items.values() and not isinstance(i, EdgeLayer | RunLayer)]) == 0


def test_move_updates_item_and_attached_edge_paths(canvas):
    wf, scene, _ = canvas
    edge = scene.edge_items["e2"]
    before = edge.line().p2()
    wf.move_node("run", 600, 400)
    assert scene.node_items["run"].pos().y() == 400
    after = edge.line().p2()
    assert after.y() - before.y() == pytest.approx(400)
    assert edge.line().p1() == scene.node_items["plan"].port_scene_pos("plan", True)


def test_param_change_redraws_badge_and_ports(canvas):
    wf, scene, _ = canvas
    wf.set_param("plan", "model", "sim/gpt-4o-mini")
    assert scene.node_items["plan"].badge == "sim/gpt-4o-mini"
    wf.set_title("plan", "Planner A")
    assert scene.node_items["plan"].title == "Planner A"
    wf.add_node(Node("route", "router", params={"routes": ["a"]}))
    wf.set_param("route", "routes", ["a", "b", "c"])
    assert [p.name for p in scene.node_items["route"].outputs] == ["a", "b", "c"]


def test_comments_follow_ui_changes(canvas):
    wf, scene, _ = canvas
    wf.set_ui("comments", [{"id": "c1", "x": 5, "y": 6, "w": 200, "h": 90, "text": "hi", "color": "#ffeeaa"}])
    item = scene.comment_items["c1"]
    assert (item.pos().x(), item.text) == (5, "hi")
    wf.set_ui("comments", [{"id": "c1", "x": 50, "y": 6, "w": 300, "h": 90, "text": "bye"}])
    assert (item.pos().x(), item.size()[0], item.text) == (50, 300, "bye")
    wf.set_ui("comments", [])
    assert scene.comment_items == {}


def test_set_workflow_switches_documents(canvas):
    _, scene, _ = canvas
    other = generate_workflow(30, edges_per_node=2, seed=3)
    scene.set_workflow(other)
    assert len(scene.node_items) == 30 and len(scene.edge_items) == len(other.edges)
    other.move_node(next(iter(other.nodes)), -500, -500)
    assert scene.node_items[next(iter(other.nodes))].pos().x() == -500


def test_dark_theme_switch(canvas):
    _, scene, _view = canvas
    scene.set_dark(True)
    assert scene.theme.dark and scene.backgroundBrush().color() == scene.theme.background
    scene.set_dark(False)
    assert not scene.theme.dark
