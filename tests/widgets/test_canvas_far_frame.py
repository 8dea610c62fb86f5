"""The overview's frame without Qt's walk over the node and edge items (`widgets.canvas.far_frame`): Qt is
given only the area where an item that draws lies, the frame is the very picture Qt paints walking every
item, and hit tests at fit (clicks, tooltips, right-clicks, rubber bands) still find the nodes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QHelpEvent, QImage, QMouseEvent, QRegion
from PySide6.QtWidgets import QApplication, QToolTip

from engine.graph.problems import error
from tests.widgets.canvas_render import large_canvas
from tests.widgets.test_canvas_run_moments import _moment, _shown
from widgets.canvas import CanvasView
from widgets.canvas.context_menu import build_context_menu
from widgets.canvas.far_frame import GROW, drawn_region
from widgets.canvas.node_item import NodeItem
from widgets.canvas.overview import FAR_ZOOM


@pytest.fixture
def big(qtbot):
    wf, scene, view = large_canvas(qtbot)
    view.fit_to_view()
    qtbot.waitExposed(view)
    assert view.zoom() < FAR_ZOOM and scene.overview.active
    return wf, scene, view


def grab(view: CanvasView) -> QImage:
    """The viewport painted through its paint event, as the window paints it."""
    QApplication.processEvents()
    return view.viewport().grab().toImage()


def grab_walking_every_item(view: CanvasView, monkeypatch: pytest.MonkeyPatch) -> QImage:
    """The viewport as Qt paints it when it gathers every item of the exposed area (the code before)."""
    with monkeypatch.context() as patch:
        patch.setattr("widgets.canvas.view.drawn_region", lambda view, exposed: exposed)
        view.resetCachedContent()
        return grab(view)


def mouse(view: CanvasView, kind: QEvent.Type, at: QPointF, button: Qt.MouseButton) -> None:
    viewport = view.viewport()
    held = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseButtonRelease else button
    QApplication.sendEvent(viewport, QMouseEvent(kind, at, viewport.mapToGlobal(at), button, held,
                                                 Qt.KeyboardModifier.NoModifier))


def on(view: CanvasView, item: NodeItem) -> QPointF:
    return QPointF(view.mapFromScene(item.sceneBoundingRect().center()))


def test_at_fit_qt_gathers_items_only_where_a_comment_or_a_gesture_item_lies(big, qtbot):
    wf, scene, view = big
    whole = QRegion(view.viewport().rect())
    assert drawn_region(view, whole).isEmpty()  # nodes, edges and the two layers draw nothing there
    center = scene.content_rect().center()
    wf.set_ui("comments", [{"id": "c1", "x": center.x(), "y": center.y(), "w": 900, "h": 500, "text": "note"}])
    comment = scene.comment_items["c1"]
    box = view.viewportTransform().mapRect(comment.sceneBoundingRect()).toAlignedRect()
    assert drawn_region(view, whole) == QRegion(box.adjusted(-GROW, -GROW, GROW, GROW))
    assert drawn_region(view, QRegion(0, 0, 5, 5)).isEmpty()  # only the part of the area painted
    comment.setVisible(False)
    assert drawn_region(view, whole).isEmpty()
    wf.set_ui("comments", [])
    assert scene.drawn_items() == []  # a removed item is forgotten


def test_the_fit_frame_is_the_picture_qt_paints_walking_every_item(big, qtbot, monkeypatch):
    wf, scene, view = big
    center = scene.content_rect().center()
    wf.set_ui("comments", [{"id": "c1", "x": center.x() - 2000, "y": center.y(), "w": 1800, "h": 900, "text": "a"},
                           {"id": "c2", "x": center.x() + 600, "y": center.y() - 900, "w": 1500, "h": 700}])
    nodes = list(scene.node_items)
    edge = next(iter(scene.edge_items))
    scene.marks.show([error("x", "broken", node_id=nodes[5]), error("y", "dangling", edge_id=edge)])
    view.select_nodes([nodes[40]])
    scene.comment_items["c2"].setSelected(True)
    frame = grab(view)
    assert frame == grab_walking_every_item(view, monkeypatch)
    view.set_zoom(1.0)  # out of overview mode and F again: the same frame
    view.settle_now()
    grab(view)
    view.fit_to_view()
    assert grab(view) == frame


def test_a_runs_node_states_at_fit_are_the_picture_qt_paints_walking_every_item(qtbot, monkeypatch):
    scene, view = _shown(qtbot, None)
    assert scene.overview.active
    before = grab(view)
    scene.run.show(_moment(40))
    frame = grab(view)
    assert frame != before and frame == grab_walking_every_item(view, monkeypatch)


def test_a_click_at_fit_selects_the_node_under_it(big):
    _, scene, view = big
    item = list(scene.node_items.values())[300]
    mouse(view, QEvent.Type.MouseButtonPress, on(view, item), Qt.MouseButton.LeftButton)
    mouse(view, QEvent.Type.MouseButtonRelease, on(view, item), Qt.MouseButton.LeftButton)
    assert view.selected_node_ids() == [item.node_id]


def test_a_tooltip_at_fit_is_the_nodes_under_the_mouse(big):
    _, scene, view = big
    item = list(scene.node_items.values())[700]
    item.setToolTip("the node under the mouse")
    pos = on(view, item).toPoint()
    event = QHelpEvent(QEvent.Type.ToolTip, pos, view.viewport().mapToGlobal(pos))
    QApplication.sendEvent(view.viewport(), event)
    assert QToolTip.text() == "the node under the mouse"
    QToolTip.hideText()


def test_a_right_click_at_fit_offers_the_menu_of_the_node_under_it(big, monkeypatch):
    _, scene, view = big
    offered: list[list[str]] = []

    class Shown:  # the menu as built, without a blocking exec()
        def __init__(self, view, scene_pos):
            build_context_menu(view, scene_pos)

        def exec(self, _at):
            offered.append(view.selected_node_ids())

    monkeypatch.setattr("widgets.canvas.view_popups.build_context_menu", Shown)
    item = list(scene.node_items.values())[900]
    view.show_context_menu(on(view, item), QPoint(0, 0))
    assert offered == [[item.node_id]]


def test_a_rubber_band_at_fit_selects_what_it_touches_and_shows(big, monkeypatch):
    _, scene, view = big
    rect = scene.content_rect()
    start = QPointF(view.mapFromScene(rect.topLeft())) + QPointF(-4, -4)
    end = QPointF(view.mapFromScene(rect.center()))
    before = grab(view)
    mouse(view, QEvent.Type.MouseButtonPress, start, Qt.MouseButton.LeftButton)
    mouse(view, QEvent.Type.MouseMove, (start + end) / 2, Qt.MouseButton.LeftButton)
    mouse(view, QEvent.Type.MouseMove, end, Qt.MouseButton.LeftButton)
    band = grab(view)
    assert band != before and band == grab_walking_every_item(view, monkeypatch)  # the band shows
    mouse(view, QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.LeftButton)
    area = view.mapToScene(QRect(start.toPoint(), end.toPoint()).normalized()).boundingRect()
    touched = {i.node_id for i in scene.nodes_meeting(area)}
    assert touched and set(view.selected_node_ids()) == touched


def test_what_the_window_holds_through_a_drag_at_fit_is_as_before(qtbot, monkeypatch):
    """A drag step repaints only the dragged node's area: those partial paints leave the pixels they left
    when Qt gathered every item of the area (the same drag on a second canvas, painted that way)."""
    held = drag_at_fit(qtbot)
    with monkeypatch.context() as patch:
        patch.setattr("widgets.canvas.view.drawn_region", lambda view, exposed: exposed)
        assert drag_at_fit(qtbot) == held


def drag_at_fit(qtbot) -> list[QImage]:
    """What the window holds after each step of a node's drag at fit, next to a comment."""
    wf, scene, view = large_canvas(qtbot)
    view.fit_to_view()
    qtbot.waitExposed(view)
    center = scene.content_rect().center()
    wf.set_ui("comments", [{"id": "c1", "x": center.x() - 1500, "y": center.y() - 400, "w": 3000, "h": 800}])
    comment = scene.comment_items["c1"].sceneBoundingRect()
    item = min((i for i in scene.node_items.values() if len(scene.edges_of(i.node_id)) >= 3),
               key=lambda i: abs(i.sceneBoundingRect().bottom() - comment.top()) + abs(i.x() - center.x()))
    pos = on(view, item)
    held = [window(view)]
    mouse(view, QEvent.Type.MouseButtonPress, pos, Qt.MouseButton.LeftButton)
    for step in range(1, 6):  # down over the comment
        mouse(view, QEvent.Type.MouseMove, pos + QPointF(step * 3, step * 5), Qt.MouseButton.LeftButton)
        held.append(window(view))
    mouse(view, QEvent.Type.MouseButtonRelease, pos + QPointF(15, 25), Qt.MouseButton.LeftButton)
    held.append(window(view))
    view.close()
    return held


def window(view: CanvasView) -> QImage:
    """What the window holds on screen now: its backing store after the pending paints."""
    for _ in range(3):
        QApplication.processEvents()
    viewport = view.viewport()
    image = view.screen().grabWindow(view.winId()).toImage()
    return image.copy(QRect(viewport.mapTo(view, QPoint(0, 0)), viewport.size()))
