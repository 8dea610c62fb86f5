"""Validation marks on the canvas: a node or edge with a problem is drawn in the error / warning colour,
its tooltip lists the problems, the marks follow edits, and only the items whose mark changed are touched."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from engine.graph.model import Edge, Node, NodeUi, Workflow
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.edge_item import edge_style
from widgets.canvas.node_item import NodeItem
from widgets.canvas.problem_marks import ItemMark
from widgets.canvas.theme import DARK, LIGHT
from widgets.problems import ProblemsPanel
from widgets.problems.problems_panel import DEBOUNCE_MS

BROKEN = {"check": "regex", "expression": "fullmatch:(abc"}
WAIT = DEBOUNCE_MS * 20


def _workflow() -> Workflow:
    """Goal → Check (a regex verifier) → Result, valid."""
    wf = Workflow("marks")
    wf.add_node(Node("goal", "input", "Goal", {}, NodeUi(0, 0)))
    wf.add_node(Node("check", "verifier", "Check", {"check": "regex", "expression": "fullmatch:abc"}, NodeUi(300, 0)))
    wf.add_node(Node("result", "output", "Result", {}, NodeUi(600, 0)))
    wf.add_edge(Edge("e1", "goal", "value", "check", "subject"))
    wf.add_edge(Edge("e2", "check", "passed", "result", "value"))
    return wf


def _canvas(qtbot: QtBot, wf: Workflow) -> tuple[CanvasScene, CanvasView, ProblemsPanel]:
    """Scene, view and the problems panel whose model feeds the scene's marks (as the window wires them)."""
    scene = CanvasScene(wf)
    view = CanvasView(scene)
    panel = ProblemsPanel(wf)
    qtbot.addWidget(view)
    qtbot.addWidget(panel)
    panel.model.problems_changed.connect(scene.marks.show)
    scene.marks.show(panel.model.problems)
    view.resize(1000, 400)
    view.show()
    view.set_zoom(1.0)
    view.centerOn(scene.node_items["check"])
    return scene, view, panel


def _render(view: CanvasView) -> QImage:
    """What the viewport shows (its own paint: an item's device cache is kept per paint device)."""
    return view.viewport().grab().toImage()


def _has_colour(image: QImage, colour: QColor) -> bool:
    name = colour.name()
    return any(image.pixelColor(x, y).name() == name
               for y in range(0, image.height(), 2) for x in range(image.width()))


def test_valid_workflow_has_no_marks(qtbot: QtBot) -> None:
    scene, view, panel = _canvas(qtbot, _workflow())
    assert panel.model.problems == []
    assert all(item.mark is None for item in scene.node_items.values())
    assert all(edge.mark is None and edge.severity is None for edge in scene.edge_items.values())
    assert not _has_colour(_render(view), LIGHT.error)


def test_node_with_an_error_is_marked_then_unmarked_when_fixed(qtbot: QtBot) -> None:
    wf = _workflow()
    scene, view, panel = _canvas(qtbot, wf)
    item = scene.node_items["check"]
    wf.set_param("check", "expression", BROKEN["expression"])
    qtbot.waitUntil(lambda: item.mark is not None, timeout=WAIT)
    assert item.mark is not None and item.mark.severity == "error" and item.mark.count == 1
    message = next(p.message for p in panel.model.problems if p.node_id == "check")
    assert "does not compile" in message
    assert message in item.toolTip() and item.toolTip().startswith("Check (check)")
    assert item.flat_color(LIGHT) == LIGHT.error  # far zoom and minimap boxes
    assert _has_colour(_render(view), LIGHT.error)
    assert all(other.mark is None for key, other in scene.node_items.items() if key != "check")

    wf.set_param("check", "expression", "fullmatch:abc")
    qtbot.waitUntil(lambda: item.mark is None, timeout=WAIT)
    assert message not in item.toolTip() and "error" not in item.toolTip()
    assert not _has_colour(_render(view), LIGHT.error)


def test_node_with_warnings_only_is_amber_in_both_themes(qtbot: QtBot) -> None:
    wf = _workflow()
    scene, view, _panel = _canvas(qtbot, wf)
    wf.add_node(Node("note", "input", "Note", {"name": "note"}, NodeUi(300, 150)))
    qtbot.waitUntil(lambda: "note" in scene.node_items and scene.node_items["note"].mark is not None, timeout=WAIT)
    mark = scene.node_items["note"].mark
    assert mark is not None and mark.severity == "warning"
    assert "not connected" in scene.node_items["note"].toolTip()
    image = _render(view)
    assert _has_colour(image, LIGHT.warning) and not _has_colour(image, LIGHT.error)
    scene.set_dark(True)
    image = _render(view)
    assert _has_colour(image, DARK.warning) and not _has_colour(image, LIGHT.warning)
    wf.remove_node("note")
    qtbot.waitUntil(lambda: not scene.marks.nodes, timeout=WAIT)


def test_edge_with_a_problem_is_drawn_in_the_error_colour(qtbot: QtBot) -> None:
    wf = _workflow()
    scene, view, _panel = _canvas(qtbot, wf)
    wf.add_edge(Edge("bad", "goal", "value", "result", "nope"))  # drawn (both nodes exist), but no such port
    qtbot.waitUntil(lambda: "bad" in scene.edge_items and scene.edge_items["bad"].mark is not None, timeout=WAIT)
    edge = scene.edge_items["bad"]
    assert edge.severity == "error" and "has no input 'nope'" in edge.toolTip()
    assert scene.edge_items["e1"].severity is None and scene.edge_items["e1"].toolTip() == ""
    pen = edge_style(edge.port_type, False, False, "error")[0]
    assert pen.color() == LIGHT.error and pen.widthF() > edge_style(edge.port_type, False, False)[0].widthF()
    assert edge_style(edge.port_type, False, True, "error")[0].color() == LIGHT.selection  # selection wins
    view.centerOn(edge.curve.pointAtPercent(0.5))
    assert _has_colour(_render(view), LIGHT.error)
    assert scene.node_items["result"].mark is None  # the problem names the edge only

    wf.remove_edge("bad")
    qtbot.waitUntil(lambda: not scene.marks.edges, timeout=WAIT)
    assert not _has_colour(_render(view), LIGHT.error)


def test_only_items_whose_mark_changed_are_touched(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    wf = _workflow()
    _scene, _view, panel = _canvas(qtbot, wf)
    wf.set_param("check", "expression", BROKEN["expression"])
    panel.revalidate()
    touched: list[str] = []
    original = NodeItem.set_mark

    def counting(self: NodeItem, mark: ItemMark | None) -> None:
        touched.append(self.node_id)
        original(self, mark)

    monkeypatch.setattr(NodeItem, "set_mark", counting)
    panel.revalidate()  # the same result: nothing repaints
    assert touched == []
    wf.add_node(Node("note", "input", "Note", {"name": "note"}, NodeUi(300, 150)))
    panel.revalidate()
    assert touched == ["note"]


def test_a_rebuilt_item_gets_its_mark_back(qtbot: QtBot) -> None:
    wf = _workflow()
    scene, _view, panel = _canvas(qtbot, wf)
    wf.set_param("check", "expression", BROKEN["expression"])
    panel.revalidate()
    edges = [wf.remove_edge(e) for e in ("e1", "e2")]  # what deleting the node and undoing does
    node = wf.remove_node("check")
    wf.add_node(node)
    for edge in edges:
        wf.add_edge(edge)
    assert scene.node_items["check"].mark is None  # a new item: not yet re-validated
    panel.revalidate()
    mark = scene.node_items["check"].mark
    assert mark is not None and mark.severity == "error"


def test_marks_sort_errors_first_and_count_every_problem() -> None:
    from engine.graph.problems import error, warning
    from widgets.canvas.problem_marks import marks_by_item

    nodes, edges = marks_by_item([warning("w", "lonely", node_id="a"), error("e", "broken", node_id="a", edge_id="x"),
                                  error("g", "whole workflow")])
    assert nodes["a"] == ItemMark("error", (("error", "broken"), ("warning", "lonely")))
    assert edges["x"].severity == "error" and edges["x"].count == 1 and set(nodes) == {"a"}
    assert nodes["a"].tooltip().splitlines() == ["✖ error: broken", "⚠ warning: lonely"]
