"""Navigation: zoom, fit, level of detail, node search, quick insert and the minimap."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QGraphicsItem

from engine.graph.generate import generate_workflow
from tests.widgets.canvas_render import render
from widgets.canvas import CanvasScene, CanvasView, Minimap
from widgets.canvas.minimap import PARTIAL_MS
from widgets.canvas.theme import LOD_SIMPLE


@pytest.fixture
def canvas(qtbot):
    wf = generate_workflow(200, edges_per_node=2, seed=7)
    scene = CanvasScene(wf)
    view = CanvasView(scene)
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    return wf, scene, view


def test_zoom_keys_and_limits(canvas):
    _, _, view = canvas
    view.zoom_reset()
    QTest.keyClick(view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom() == pytest.approx(1.25)
    QTest.keyClick(view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom() == pytest.approx(0.8)
    QTest.keyClick(view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom() == pytest.approx(1.0)
    view.set_zoom(100)
    assert view.zoom() <= 4.0


def test_fit_shows_every_node(canvas):
    _, scene, view = canvas
    QTest.keyClick(view, Qt.Key.Key_F)
    visible = view.visible_scene_rect()
    assert all(visible.contains(item.sceneBoundingRect()) for item in scene.node_items.values())


def test_fit_is_a_jump_painted_at_full_quality_at_once(canvas, qtbot):
    _, scene, view = canvas
    view.set_zoom(2.0)
    qtbot.wait(10)
    view.settle_now()
    QTest.keyClick(view, Qt.Key.Key_F)
    view.resize(900, 650)  # scroll bars coming or going scroll the view: no gesture either
    qtbot.wait(10)
    assert not scene.moving and not scene.zooming and not scene.paused.active
    assert all(item.isVisible() for item in scene.node_items.values())


def test_edits_redraw_only_the_minimap_area_of_the_nodes_they_touch(canvas, qtbot):
    wf, scene, view = canvas
    minimap = Minimap(view)
    qtbot.addWidget(minimap)
    minimap.show()
    qtbot.wait(PARTIAL_MS * 3)
    full, partial = minimap.picture.full_redraws, minimap.picture.partial_redraws
    edge = next(iter(wf.edges.values()))
    curve = scene.edge_items[edge.id].curve
    wf.set_title(edge.source, "Renamed")  # the same box and ports: its edges stay as they are
    assert scene.edge_items[edge.id].curve is curve
    wf.remove_edge(edge.id)
    wf.add_edge(edge)
    qtbot.wait(PARTIAL_MS * 4)
    assert minimap.picture.full_redraws == full and minimap.picture.partial_redraws > partial
    assert edge.id in scene.edge_items


def test_level_of_detail_switches_at_low_zoom(canvas):
    _, scene, view = canvas
    view.set_zoom(1.0)
    assert not scene.overview.active
    assert view.renderHints() & QPainter.RenderHint.Antialiasing
    item = next(iter(scene.node_items.values()))
    assert not item.flags() & QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
    view.set_zoom(LOD_SIMPLE / 2)
    assert scene.overview.active
    assert not view.renderHints() & QPainter.RenderHint.Antialiasing
    assert item.flags() & QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
    image = render(view)  # the batched overview paints the nodes in their role colours
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert item.accent(False).name() in colours
    view.set_zoom(1.0)
    assert not scene.overview.active and not item.flags() & QGraphicsItem.GraphicsItemFlag.ItemHasNoContents


def test_dragging_turns_fast_mode_on_and_off(canvas):
    _, scene, view = canvas
    view.set_zoom(1.0)
    view.set_fast(True)
    assert scene.fast_mode and not view.renderHints() & QPainter.RenderHint.Antialiasing
    view.set_fast(False)
    assert not scene.fast_mode and view.renderHints() & QPainter.RenderHint.Antialiasing


def test_search_popup_finds_centres_and_selects_a_node(canvas, qtbot):
    wf, scene, view = canvas
    target = list(wf.nodes.values())[150]
    view.set_zoom(1.0)
    view.centerOn(-5000, -5000)
    popup = view.open_search()
    QTest.keyClicks(popup.filter, target.id)
    assert popup.list.count() >= 1
    assert target.id in popup.list.item(0).text()
    QTest.keyClick(popup.filter, Qt.Key.Key_Return)
    assert view.selected_node_ids() == [target.id]
    centre = view.mapToScene(view.viewport().rect().center())
    assert scene.node_items[target.id].sceneBoundingRect().adjusted(-5, -5, 5, 5).contains(centre)
    assert not popup.isVisible()


def test_search_by_role_and_escape_closes(canvas):
    wf, _, view = canvas
    popup = view.open_search()
    QTest.keyClicks(popup.filter, "critic")
    critics = [n for n in wf.nodes.values() if n.role == "critic"]
    assert popup.list.count() == min(200, len(critics))
    QTest.keyClick(popup.filter, Qt.Key.Key_Escape)
    assert not popup.isVisible()


def test_quick_insert_requests_the_chosen_role_at_the_cursor(canvas, qtbot):
    _, _, view = canvas
    where = QPointF(123, 456)
    popup = view.open_quick_insert(where)
    QTest.keyClicks(popup.filter, "verif")
    assert popup.list.count() == 1
    with qtbot.waitSignal(view.node_add_requested, timeout=1000) as blocker:
        QTest.keyClick(popup.filter, Qt.Key.Key_Return)
    assert blocker.args == ["verifier", where]


def test_tab_opens_quick_insert(canvas):
    _, _, view = canvas
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Tab)
    assert view.popup is not None and view.popup.isVisible()
    assert view.popup.list.count() == 14


def test_minimap_click_recentres_the_view(canvas, qtbot):
    _, scene, view = canvas
    view.set_zoom(1.0)
    minimap = Minimap(view)
    qtbot.addWidget(minimap)
    minimap.resize(300, 200)
    minimap.show()
    minimap.redraw()
    node = list(scene.node_items.values())[-1]
    goal = node.sceneBoundingRect().center()
    scale, dx, dy = minimap.picture.transform()
    click = QPoint(round(goal.x() * scale + dx), round(goal.y() * scale + dy))
    QTest.mouseClick(minimap, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, click)
    centre = view.mapToScene(view.viewport().rect().center())
    assert abs(centre.x() - goal.x()) < 2 / scale and abs(centre.y() - goal.y()) < 2 / scale


def test_minimap_redraw_of_moved_nodes_is_partial_and_rate_limited(canvas, qtbot):
    wf, _, view = canvas
    minimap = Minimap(view)
    qtbot.addWidget(minimap)
    minimap.show()
    full, partial = minimap.picture.full_redraws, minimap.picture.partial_redraws
    started = time.monotonic()
    for i, node_id in enumerate(list(wf.nodes)[:50]):
        wf.move_node(node_id, i * 3.0, 0.0)
        qtbot.wait(1)
    burst_ms = (time.monotonic() - started) * 1000
    qtbot.wait(200)
    partials = minimap.picture.partial_redraws - partial
    # moves only redraw the moved nodes' area, at most once per PARTIAL_MS (however slow the machine)
    assert minimap.picture.full_redraws == full
    assert 1 <= partials <= burst_ms / PARTIAL_MS + 2
    assert partials < 50
