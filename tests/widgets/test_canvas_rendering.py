"""Rendering: edges batched by the edge layer, cheap painting while the view moves, smooth at rest."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem

from engine.graph.generate import generate_workflow
from engine.graph.model import Edge, Node, NodeUi, Workflow
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.edge_item import edge_style
from widgets.canvas.grid import GRID
from widgets.canvas.view import SETTLE_MS


@pytest.fixture
def canvas(qtbot):
    scene = CanvasScene(generate_workflow(120, edges_per_node=2, seed=3))
    view = CanvasView(scene)
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    return scene, view


def render(view: CanvasView) -> QImage:
    image = QImage(view.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    view.render(painter)
    painter.end()
    return image


def colours(image: QImage, y: int) -> set[str]:
    return {image.pixelColor(x, y).name() for x in range(image.width())}


def pair(qtbot) -> tuple[CanvasScene, CanvasView]:
    """Two nodes far apart with one edge whose middle crosses the view's centre row."""
    wf = Workflow("pair")
    wf.add_node(Node("a", "input", ui=NodeUi(0, 0)))
    wf.add_node(Node("b", "output", ui=NodeUi(900, 0)))
    wf.add_edge(Edge("e", "a", "value", "b", "value"))
    scene = CanvasScene(wf)
    view = CanvasView(scene)
    qtbot.addWidget(view)
    view.resize(500, 300)
    view.show()
    view.set_zoom(1.0)
    line = scene.edge_items["e"].line()
    view.centerOn((line.p1() + line.p2()) / 2)
    return scene, view


def test_edges_are_drawn_by_the_layer_and_show_selection(qtbot):
    scene, view = pair(qtbot)
    edge = scene.edge_items["e"]
    assert edge.flags() & QGraphicsItem.GraphicsItemFlag.ItemHasNoContents  # the item paints nothing itself
    row = view.viewport().height() // 2
    normal, selected = (edge_style(edge.port_type, False, s)[0].color().name() for s in (False, True))
    assert normal in colours(render(view), row)
    view.select_edge("e")
    assert selected in colours(render(view), row)
    assert view.selected_edge_ids() == ["e"]  # still hit-testable and selectable


def test_zooming_paints_cheaply_then_smooth_after_settling(canvas, qtbot):
    scene, view = canvas
    view.set_zoom(1.0)
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)
    view.set_zoom(0.8)
    assert scene.moving
    render(view)
    snapshotted = set(scene.snapshotted)
    assert snapshotted  # visible nodes were drawn from their zoom-1 snapshot
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)
    assert not scene.snapshotted and all(item._snap is None for item in snapshotted)
    render(view)
    assert not scene.snapshotted  # at rest nodes are painted for real


def test_panning_marks_the_view_moving(canvas, qtbot):
    scene, view = canvas
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)
    view.centerOn(view.visible_scene_rect().center() + QPointF(200, 0))
    assert scene.moving
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)


@pytest.mark.parametrize("zoom", [1.0, 1.25])
def test_grid_lines_sit_on_multiples_of_the_grid_step(qtbot, zoom):
    scene = CanvasScene(Workflow("empty"))
    view = CanvasView(scene)
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    view.set_zoom(zoom)
    view.centerOn(QPointF(0, 0))
    image = render(view)
    on_line = view.mapFromScene(QPointF(GRID * 2, GRID / 2 + 1))
    off_line = view.mapFromScene(QPointF(GRID * 2 + GRID / 2, GRID / 2 + 1))
    assert image.pixelColor(on_line).name() == scene.theme.grid.name()
    assert image.pixelColor(off_line).name() == scene.theme.background.name()
