"""Rendering: edges batched by the edge layer, cheap painting while the view moves (cached pictures,
paused items), smooth at rest."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QGraphicsItem

from engine.graph.generate import generate_workflow
from engine.graph.model import Edge, Node, NodeUi, Workflow
from tests.widgets.canvas_render import render
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.edge_item import edge_style
from widgets.canvas.grid import GRID
from widgets.canvas.theme import LOD_SIMPLE
from widgets.canvas.view import SETTLE_MS


@pytest.fixture
def canvas(qtbot):
    scene = CanvasScene(generate_workflow(120, edges_per_node=2, seed=3))
    view = CanvasView(scene)
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    return scene, view


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
    snapshotted = set(scene.snapshots)
    assert snapshotted  # visible nodes were drawn from their zoom-1 snapshot
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)
    assert set(scene.snapshots) == snapshotted  # kept for the next gesture (within the budget)
    scene.snapshots.clear()
    render(view)
    assert not scene.snapshots  # at rest nodes are painted for real


def test_panning_marks_the_view_moving(canvas, qtbot):
    scene, view = canvas
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)
    view.centerOn(view.visible_scene_rect().center() + QPointF(200, 0))
    assert scene.moving
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)


@pytest.mark.parametrize("zoom", [0.75, 1.0, 1.25])
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


def settle(scene: CanvasScene, qtbot) -> None:
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)


def test_a_pan_blits_the_edge_picture_with_the_same_pixels(canvas, qtbot):
    scene, view = canvas
    view.set_zoom(1.0)
    settle(scene, qtbot)
    centre = view.visible_scene_rect().center()
    view.centerOn(centre + QPointF(40, 16))
    assert scene.moving and not scene.zooming
    render(view)
    painted = scene.edge_layer.cache.repaints
    view.centerOn(centre + QPointF(80, 32))
    from_picture = render(view)
    assert scene.edge_layer.cache.repaints == painted  # the second frame reused the picture
    scene.edge_layer.cache.invalidate()
    assert render(view) == from_picture  # a picture painted right here gives the same pixels
    settle(scene, qtbot)
    assert scene.edge_layer.cache.repaints > painted and scene.edge_layer.cache._image is None  # freed at rest


def test_an_edge_change_repaints_the_picture(qtbot):
    scene, view = pair(qtbot)
    view.centerOn(view.visible_scene_rect().center() + QPointF(5, 0))
    render(view)
    painted = scene.edge_layer.cache.repaints
    view.centerOn(view.visible_scene_rect().center() + QPointF(5, 0))
    scene.edge_items["e"].setSelected(True)
    row = view.viewport().height() // 2
    selected = edge_style(scene.edge_items["e"].port_type, False, True)[0].color().name()
    assert selected in colours(render(view), row)
    assert scene.edge_layer.cache.repaints == painted + 1


def test_zooming_pauses_the_items_and_a_click_brings_them_back(canvas, qtbot):
    scene, view = canvas
    view.set_zoom(1.0)
    settle(scene, qtbot)
    first, second = list(scene.node_items.values())[:2]
    view.centerOn(first)
    second.setSelected(True)
    view.set_zoom(0.8)
    assert scene.zooming and scene.paused.active
    assert not first.isVisible() and second.isVisible() and second.isSelected()  # selection is kept
    assert not next(iter(scene.edge_items.values())).isVisible()
    image = render(view)  # the edge layer's picture draws the paused nodes from their snapshots
    assert first in scene.snapshots
    header = view.mapFromScene(first.pos() + QPointF(first.body_rect().width() - 12, 6))
    assert image.pixelColor(header).name() == first.accent(False).name()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=header)
    assert not scene.moving and not scene.paused.active and first.isVisible()
    assert view.selected_node_ids() == [first.node_id]  # the hit test found the node


def test_moving_in_overview_pauses_the_items_until_rest(canvas, qtbot):
    scene, view = canvas
    item = next(iter(scene.node_items.values()))
    view.set_zoom(LOD_SIMPLE / 2)
    assert scene.overview.active and scene.paused.active and not item.isVisible()
    image = render(view)
    colours_seen = {image.pixelColor(x, y).name() for x in range(0, image.width(), 5) for y in range(0, image.height(), 5)}
    assert item.accent(False).name() in colours_seen
    settle(scene, qtbot)
    assert not scene.paused.active and item.isVisible()
    view.select_nodes([item.node_id])
    view.centerOn(view.visible_scene_rect().center() + QPointF(50, 0))
    assert scene.paused.active and item.isVisible() and item.isSelected()
