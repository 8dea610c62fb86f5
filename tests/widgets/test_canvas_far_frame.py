"""The overview's frame without Qt's walk over the node and edge items (`widgets.canvas.far_frame`): Qt is
given only the area where an item that draws lies, and the frame, whole or a drag's partial repaints, is
the very picture Qt paints walking every item (comments, selections, problem marks, a run's states)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QImage, QRegion
from PySide6.QtWidgets import QGraphicsView

from engine.graph.problems import error
from tests.widgets.canvas_render import grab, large_canvas, mouse, node_center, on_screen
from tests.widgets.test_canvas_run_moments import _moment, _shown
from widgets.canvas import CanvasView
from widgets.canvas.far_frame import GROW, drawn_region
from widgets.canvas.overview import FAR_ZOOM


@pytest.fixture
def big(qtbot):
    return fitted_large_canvas(qtbot)


def fitted_large_canvas(qtbot):
    wf, scene, view = large_canvas(qtbot)
    view.fit_to_view()
    qtbot.waitExposed(view)
    assert view.zoom() < FAR_ZOOM and scene.overview.active
    return wf, scene, view


def grab_walking_every_item(view: CanvasView, monkeypatch: pytest.MonkeyPatch) -> QImage:
    """The viewport as Qt paints it when it gathers every item of the exposed area (the code before)."""
    with monkeypatch.context() as patch:
        patch.setattr("widgets.canvas.view.drawn_region", lambda view, exposed: exposed)
        view.resetCachedContent()
        return grab(view)


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


def test_without_a_cached_background_qt_is_given_the_whole_exposed_area(big, monkeypatch):
    """Qt paints an uncached background only for the area it is given: then it is given all of it."""
    view = big[2]
    cached = grab(view)
    view.setCacheMode(QGraphicsView.CacheModeFlag.CacheNone)
    assert grab(view) == cached == grab_walking_every_item(view, monkeypatch)


def test_a_runs_node_states_at_fit_are_the_picture_qt_paints_walking_every_item(qtbot, monkeypatch):
    scene, view = _shown(qtbot, None)
    assert scene.overview.active
    before = grab(view)
    scene.run.show(_moment(40))
    frame = grab(view)
    assert frame != before and frame == grab_walking_every_item(view, monkeypatch)


def test_what_the_window_holds_through_a_drag_at_fit_is_as_before(qtbot, monkeypatch):
    """A drag step repaints only the dragged node's area: those partial paints leave the pixels they left
    when Qt gathered every item of the area (the same drag on a second canvas, painted that way)."""
    held = drag_at_fit(qtbot)
    with monkeypatch.context() as patch:
        patch.setattr("widgets.canvas.view.drawn_region", lambda view, exposed: exposed)
        assert drag_at_fit(qtbot) == held


def drag_at_fit(qtbot) -> list[QImage]:
    """What the window holds after each step of a node's drag at fit, next to a comment."""
    wf, scene, view = fitted_large_canvas(qtbot)
    center = scene.content_rect().center()
    wf.set_ui("comments", [{"id": "c1", "x": center.x() - 1500, "y": center.y() - 400, "w": 3000, "h": 800}])
    comment = scene.comment_items["c1"].sceneBoundingRect()
    item = min((i for i in scene.node_items.values() if len(scene.edges_of(i.node_id)) >= 3),
               key=lambda i: abs(i.sceneBoundingRect().bottom() - comment.top()) + abs(i.x() - center.x()))
    pos = node_center(view, item)
    held = [on_screen(view)]
    mouse(view, QEvent.Type.MouseButtonPress, pos, Qt.MouseButton.LeftButton)
    for step in range(1, 6):  # down over the comment
        mouse(view, QEvent.Type.MouseMove, pos + QPointF(step * 3, step * 5), Qt.MouseButton.LeftButton)
        held.append(on_screen(view))
    mouse(view, QEvent.Type.MouseButtonRelease, pos + QPointF(15, 25), Qt.MouseButton.LeftButton)
    held.append(on_screen(view))
    assert held[2] != held[0]  # the node moved on screen
    view.close()
    return held
