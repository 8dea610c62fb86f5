"""The canvas on large graphs: edges at fit, drags that repaint only what moved, the minimap, settling."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QMouseEvent
from PySide6.QtWidgets import QApplication

from tests.widgets.canvas_render import large_canvas, render
from widgets.canvas import CanvasScene, CanvasView, Minimap
from widgets.canvas.node_item import NodeItem
from widgets.canvas.overview import FAR_ZOOM
from widgets.canvas.scene import BSP_DEPTH


@pytest.fixture
def big(qtbot):
    wf, scene, view = large_canvas(qtbot)
    view.fit_to_view()
    view.settle_now()
    assert view.zoom() < FAR_ZOOM
    return wf, scene, view


def gap_pixels(view: CanvasView, scene: CanvasScene, image: QImage) -> list[QColor]:
    """The pixels down the gap between the first two columns of nodes (only edges cross it)."""
    first = min(item.x() + item.body_rect().right() for item in scene.node_items.values() if item.x() == 280.0)
    x = (first + 560.0) / 2  # between column 1's right edge and column 2's left edge
    rect = scene.content_rect()
    top, bottom = view.mapFromScene(QPointF(x, rect.top() + 100)), view.mapFromScene(QPointF(x, rect.bottom() - 100))
    return [image.pixelColor(top.x(), y) for y in range(max(0, top.y()), min(image.height(), bottom.y()))]


def test_edges_are_drawn_at_fit_on_a_large_graph(big):
    _, scene, view = big
    background = scene.theme.background.rgb()
    pixels = gap_pixels(view, scene, render(view))
    crossed = [p for p in pixels if p.rgb() != background]
    assert scene.overview.density.builds >= 1
    assert len(crossed) > len(pixels) / 3  # the gaps between columns carry the edges' density


def test_a_drag_at_fit_repaints_only_the_dragged_nodes_area(big, qtbot):
    _, scene, view = big
    item = next(i for i in scene.node_items.values() if len(scene.edges_of(i.node_id)) >= 3)
    viewport = view.viewport()
    pos = QPointF(view.mapFromScene(item.pos() + item.body_rect().center()))

    def send(kind: QEvent.Type, at: QPointF) -> None:
        held = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseButtonRelease else Qt.MouseButton.LeftButton
        QApplication.sendEvent(viewport, QMouseEvent(kind, at, viewport.mapToGlobal(at), Qt.MouseButton.LeftButton,
                                                     held, Qt.KeyboardModifier.NoModifier))

    render(view)
    qtbot.waitUntil(lambda: not scene.overview.density.building(), timeout=5000)
    images = scene.overview.density.builds
    send(QEvent.Type.MouseButtonPress, pos)
    assert item.isSelected()
    for step in range(1, 4):  # the drag starts; the batch is rebuilt once without the dragged node
        send(QEvent.Type.MouseMove, pos + QPointF(step * 4, step * 3))
        render(view)
    # the density image keeps the dragged edges where they were: no build on the worker slows the drag
    assert scene.overview.density.builds == images and not scene.overview.density.building()
    qtbot.wait(20)
    builds, density_builds = scene.overview.builds, scene.overview.density.builds
    updates: list[QRectF] = []
    scene.changed.connect(lambda rects: updates.extend(rects))
    for step in range(4, 12):
        send(QEvent.Type.MouseMove, pos + QPointF(step * 4, step * 3))
        qtbot.wait(1)
        render(view)
    qtbot.wait(20)
    scene.changed.disconnect()
    send(QEvent.Type.MouseButtonRelease, pos + QPointF(48, 36))
    assert scene.overview.builds == builds and scene.overview.density.builds == density_builds
    whole = scene.content_rect()
    area = QRectF()
    for edge in scene.edges_of(item.node_id):
        area = area.united(edge.bounds)
    assert updates and all(r.width() * r.height() < whole.width() * whole.height() / 2 for r in updates)
    assert all(area.adjusted(-200, -200, 200, 200).contains(r) for r in updates)


def test_the_minimap_shows_a_moved_node_where_it_now_is(big, qtbot):
    wf, scene, view = big
    minimap = Minimap(view)
    qtbot.addWidget(minimap)
    minimap.resize(400, 260)
    minimap.show()
    minimap.redraw()
    node_id = next(iter(wf.nodes))
    item = scene.node_items[node_id]
    old = item.sceneBoundingRect().center()
    wf.move_node(node_id, item.x() + 140.0, item.y() + 70.0)  # into the empty space right of column 0
    full = minimap.picture.full_redraws
    qtbot.waitUntil(lambda: minimap.picture.partial_redraws > 0, timeout=2000)
    scale, dx, dy = minimap.picture.transform()
    new = item.sceneBoundingRect().center()
    image = minimap.picture.image
    assert image.pixelColor(round(new.x() * scale + dx), round(new.y() * scale + dy)) == item.flat_color(scene.theme)
    assert image.pixelColor(round(old.x() * scale + dx), round(old.y() * scale + dy)) != item.flat_color(scene.theme)
    assert minimap.picture.full_redraws == full


def test_a_slow_frame_does_not_end_a_zoom_gesture(big, qtbot):
    _, scene, view = big
    view.set_zoom(view.zoom() * 1.2)
    assert scene.moving
    time.sleep(0.2)  # a frame slower than the settle time, the next notch queued behind it
    view.viewport().repaint()
    qtbot.wait(30)
    assert scene.moving  # the frame just ended: the gesture is not over
    qtbot.waitUntil(lambda: not scene.moving, timeout=2000)


def test_the_scene_index_has_a_deliberate_depth(big):
    _, scene, _ = big
    assert scene.bspTreeDepth() == BSP_DEPTH


def test_a_selection_or_a_drag_starting_at_fit_measures_only_the_changed_boxes_again(big, monkeypatch):
    _, scene, view = big
    render(view)
    measured: list[object] = []
    original = NodeItem.flat_color
    monkeypatch.setattr(NodeItem, "flat_color", lambda item, theme: measured.append(item) or original(item, theme))
    first, second = list(scene.node_items.values())[:2]
    first.setSelected(True)
    render(view)
    assert measured == []  # a selected node's box takes the selection colour: nothing else is measured
    second.setSelected(True)
    first.setSelected(False)
    render(view)
    assert measured == [first]
    measured.clear()
    scene.set_fast_mode(True)  # a drag starts: the selected node is drawn live, the others keep their boxes
    render(view)
    scene.set_fast_mode(False)
    render(view)
    assert measured == []
