"""The edges of the view at rest, painted ahead on a worker once input goes quiet: the frame at rest after
a zoom or a pan copies that picture, and shows the very pixels a fresh full paint shows; an edit, a
selection, a resize or new input before the copy means a direct paint, never a stale picture."""

from __future__ import annotations

import time

import pytest
from PySide6.QtGui import QImage

from tests.widgets.canvas_render import large_canvas
from widgets.canvas import CanvasView
from widgets.canvas.rest_picture import RestPicture, stroke
from widgets.canvas.view import SETTLE_MS, WAIT_MS


@pytest.fixture
def big(qtbot):
    return large_canvas(qtbot)


def grab(view: CanvasView) -> QImage:
    """The viewport as its paint event paints it (the settle frame's code path)."""
    return view.viewport().grab().toImage()


def fresh(view: CanvasView) -> QImage:
    """The viewport painted in full without any picture painted ahead."""
    view.canvas_scene().cancel_rest()
    return grab(view)


def assert_copied_with_fresh_pixels(view: CanvasView, rest: RestPicture) -> None:
    """The frame painted now copies `rest`'s picture (no stroke) and has a fresh full paint's pixels."""
    drawn = rest.drawn
    shown = grab(view)
    assert rest.drawn == drawn + 1
    assert shown == fresh(view)


def rest_after(qtbot, view: CanvasView, gesture, overview: bool = False) -> None:
    """Do `gesture`, then wait until the view is at rest and its picture painted ahead is ready (the
    edge layer's, or the overview's)."""
    scene = view.canvas_scene()
    rest = scene.overview.rest if overview else scene.edge_layer.rest
    painted = rest.painted
    gesture()
    assert view.canvas_scene().moving
    qtbot.waitUntil(lambda: not view.canvas_scene().moving and rest.painted > painted, timeout=3000)


@pytest.mark.parametrize("zoom", [0.87, 1.0, 0.55, 1.6])
def test_the_frame_at_rest_after_a_zoom_is_the_picture_with_a_fresh_paints_pixels(qtbot, big, zoom):
    _, scene, view = big
    rest = scene.edge_layer.rest
    rest_after(qtbot, view, lambda: view.set_zoom(zoom))
    assert_copied_with_fresh_pixels(view, rest)


def test_the_frame_at_rest_after_pans_is_the_picture_with_a_fresh_paints_pixels(qtbot, big):
    _, scene, view = big
    view.set_zoom(1.0)
    view.settle_now()
    rest = scene.edge_layer.rest
    bar_x, bar_y = view.horizontalScrollBar(), view.verticalScrollBar()

    def scroll_by(dx: int, dy: int) -> None:
        bar_x.setValue(bar_x.value() + dx)
        bar_y.setValue(bar_y.value() + dy)

    for dx, dy in ((137, 41), (-260, 93), (5, -300)):
        rest_after(qtbot, view, lambda dx=dx, dy=dy: scroll_by(dx, dy))
        assert_copied_with_fresh_pixels(view, rest)


def test_selected_edges_in_the_picture_look_as_painted(qtbot, big):
    _, scene, view = big
    edges = list(scene.edge_items.values())
    for edge in edges[::9]:
        edge.setSelected(True)
    rest_after(qtbot, view, lambda: view.set_zoom(0.8))
    shown = grab(view)
    assert scene.edge_layer.rest.drawn and shown == fresh(view)


def test_an_edit_during_the_gesture_is_shown_not_the_picture_painted_before_it(qtbot, big):
    wf, scene, view = big
    rest = scene.edge_layer.rest
    view.set_zoom(0.9)
    qtbot.waitUntil(lambda: rest.painted >= 1, timeout=3000)  # the picture is ready, the view still moving
    assert scene.moving
    center = view.mapToScene(view.viewport().rect().center())
    node_id = min(scene.node_items, key=lambda i: (scene.node_items[i].pos() - center).manhattanLength())
    wf.move_node(node_id, center.x() - 300, center.y() + 120)  # its edges run elsewhere now
    drawn = rest.drawn
    qtbot.waitUntil(lambda: not scene.moving, timeout=3000)
    shown = grab(view)
    assert rest.drawn == drawn  # stale: painted directly
    assert shown == fresh(view)


def test_a_selection_right_after_the_gesture_is_painted_directly(qtbot, big):
    _, scene, view = big
    rest = scene.edge_layer.rest
    rest_after(qtbot, view, lambda: view.set_zoom(0.9))
    before = grab(view)
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    edge = next(e for e in scene.edge_items.values() if visible.contains(e.bounds))
    edge.setSelected(True)
    drawn = rest.drawn
    after = grab(view)
    assert rest.drawn == drawn and after != before
    assert after == fresh(view)


def test_new_input_cancels_the_picture_and_a_resize_never_copies_it(qtbot, big):
    _, scene, view = big
    rest = scene.edge_layer.rest
    rest_after(qtbot, view, lambda: view.set_zoom(0.9))
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + 40)  # new input: the picture goes
    view.settle_now()
    drawn = rest.drawn
    grab(view)
    assert rest.drawn == drawn
    rest_after(qtbot, view, lambda: view.set_zoom(0.8))
    view.resize(view.width() + 120, view.height() + 60)  # same transform, a larger viewport
    qtbot.wait(50)
    drawn = rest.drawn
    shown = grab(view)
    assert rest.drawn == drawn and shown == fresh(view)


def test_a_comment_under_the_edges_is_never_covered_by_the_picture(qtbot, big):
    wf, scene, view = big
    rest = scene.edge_layer.rest
    center = view.mapToScene(view.viewport().rect().center())
    wf.set_ui("comments", [{"id": "c1", "x": center.x() - 100, "y": center.y() - 60, "w": 260, "h": 140,
                            "text": "under the edges"}])
    rest_after(qtbot, view, lambda: view.set_zoom(0.9))
    drawn = rest.drawn
    shown = grab(view)
    assert rest.drawn == drawn and shown == fresh(view)


@pytest.mark.parametrize("zoom", [0.3, 0.44, 0.21])
def test_the_overview_at_rest_in_the_band_is_its_picture_with_a_fresh_paints_pixels(qtbot, big, zoom):
    _, scene, view = big
    rest = scene.overview.rest
    rest_after(qtbot, view, lambda: view.set_zoom(zoom), overview=True)
    assert scene.overview.active
    overview = scene.overview  # a density image finished on its worker changes the batch: let them finish first
    qtbot.waitUntil(lambda: not overview.density.building() and not overview.coarse.density.building(), timeout=5000)
    bar = view.horizontalScrollBar()
    rest_after(qtbot, view, lambda: bar.setValue(bar.value() + 211), overview=True)
    assert_copied_with_fresh_pixels(view, rest)


def test_a_selection_in_overview_mode_right_after_the_gesture_is_painted_directly(qtbot, big):
    _, scene, view = big
    rest = scene.overview.rest
    rest_after(qtbot, view, lambda: view.set_zoom(0.3), overview=True)
    before = grab(view)
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    node_id = next(i for i, item in scene.node_items.items() if visible.contains(item.sceneBoundingRect()))
    view.select_nodes([node_id])
    drawn = rest.drawn
    after = grab(view)
    assert rest.drawn == drawn and after != before
    assert after == fresh(view)


def test_stroking_stops_when_asked():
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QBrush, QPainter, QPainterPath, QPen

    image = QImage(40, 40, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    path = QPainterPath(QPointF(0, 0))
    path.lineTo(39, 39)
    painter = QPainter(image)
    asked = []
    finished = stroke(painter, [(QPen(), path)] * 3, [(QBrush(), path.toFillPolygon())], lambda: asked.append(1) or True)
    painter.end()
    assert not finished and asked == [1]


def test_the_gesture_ends_a_little_later_while_its_picture_is_still_being_painted(qtbot, big, monkeypatch):
    _, scene, view = big
    monkeypatch.setattr(scene, "rest_pending", lambda: True)  # a worker that never finishes
    started = time.monotonic()
    view.set_zoom(0.9)
    qtbot.waitUntil(lambda: not scene.moving, timeout=3000)
    assert (time.monotonic() - started) * 1000 >= SETTLE_MS + WAIT_MS  # waited, then painted directly
    assert grab(view) == fresh(view)
