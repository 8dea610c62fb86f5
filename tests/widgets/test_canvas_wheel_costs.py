"""What a wheel notch on a large graph costs, as behaviour: only the items in view are paused, the
pictures never miss a node the view grows into, a zoom-out picture is no wider than the view may grow
before it is replaced, the snapshots the next notch wants are painted between notches, and the band's
edge image is built while the view rests far out."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor

from tests.widgets.canvas_render import large_canvas, render
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.node_item import NodeItem
from widgets.canvas.overview import FAR_ZOOM, PREPARE_AT_REST_MS
from widgets.canvas.snapshot_prefetch import NOTCH
from widgets.canvas.theme import LOD_LABELS
from widgets.canvas.view import SETTLE_MS


@pytest.fixture
def big(qtbot):
    return large_canvas(qtbot)


def rest_at(scene: CanvasScene, view: CanvasView, qtbot, zoom: float) -> None:
    view.set_zoom(zoom)
    render(view)
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)


def meets(item: NodeItem, area: QRectF) -> bool:
    return item.sceneBoundingRect().intersects(area)


def header(item: NodeItem) -> QPointF:
    """A point in the node's header (its accent colour, clear of the title and of a shaped right end), in the scene."""
    return item.pos() + QPointF(item.body_rect().width() * 0.7, 8)


def near(seen: QColor, wanted: QColor) -> bool:
    """The same colour, give or take a scaled snapshot's smoothing."""
    return max(abs(seen.red() - wanted.red()), abs(seen.green() - wanted.green()), abs(seen.blue() - wanted.blue())) < 24


def test_a_notch_pauses_the_items_in_view_only_and_rest_shows_every_one(big, qtbot):
    _, scene, view = big
    rest_at(scene, view, qtbot, 0.9)
    nodes = list(scene.node_items.values())
    inside = [i for i in nodes if meets(i, view.visible_scene_rect())]
    inside[0].setSelected(True)
    view.set_zoom(0.75)  # a notch out
    visible = view.visible_scene_rect()
    assert scene.paused.active
    assert all(not i.isVisible() for i in nodes if meets(i, visible) and not i.isSelected())
    assert inside[0].isVisible() and inside[0].isSelected()  # a selected item is never hidden
    far = [i for i in nodes if not meets(i, visible.adjusted(-2000, -2000, 2000, 2000))]
    assert far and all(i.isVisible() for i in far)  # Qt never gathers them: left alone
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)
    assert all(i.isVisible() for i in nodes) and all(e.isVisible() for e in scene.edge_items.values())


def test_a_view_showing_most_of_the_graph_pauses_everything(big, qtbot):
    _, scene, view = big
    view.fit_to_view()
    view.set_zoom(view.zoom() * 1.2)
    assert not any(i.isVisible() for i in scene.node_items.values())
    assert not any(e.isVisible() for e in scene.edge_items.values())
    view.settle_now()
    assert all(i.isVisible() for i in scene.node_items.values())


def test_zooming_out_notch_by_notch_every_node_the_view_grows_into_is_drawn(big, qtbot):
    _, scene, view = big
    rest_at(scene, view, qtbot, 0.95)
    seen, checked = view.visible_scene_rect(), 0
    for _ in range(4):  # 0.95 → 0.49: across LOD_LABELS, the picture repainted and reused
        view.set_zoom(view.zoom() / 1.2)
        image = render(view)
        area = view.visible_scene_rect().adjusted(10, 10, -10, -10)
        new = [i for i in scene.node_items.values() if not meets(i, seen) and not i.isVisible()
               and area.contains(header(i))]
        missed = [i for i in new if not near(image.pixelColor(view.mapFromScene(header(i))), i.accent(False))]
        assert not missed
        checked += len(new)
        seen = view.visible_scene_rect()
    assert checked >= 3


def test_a_zoom_out_picture_covers_what_the_view_may_grow_into_before_its_look_changes(big, qtbot):
    _, scene, view = big
    rest_at(scene, view, qtbot, 0.87)
    view.set_zoom(0.725)
    render(view)
    cache = scene.edge_layer.cache
    width = cache._scene_rect.width() / view.visible_scene_rect().width()
    assert 0.725 / LOD_LABELS - 0.02 <= width < 1.3  # down to LOD_LABELS, not the 1.6 of a pan's picture
    repaints = cache.repaints
    view.set_zoom(0.61)  # still above LOD_LABELS: the same picture, scaled
    render(view)
    assert cache.repaints == repaints
    view.set_zoom(0.5)  # below it the picture changes (coarse long edges, snapshots without labels)
    render(view)
    assert cache.repaints == repaints + 1


def test_the_snapshots_the_next_notch_wants_are_painted_between_notches(big, qtbot):
    _, scene, view = big
    rest_at(scene, view, qtbot, 1.0)
    scene.snapshots.clear()
    for item in scene.node_items.values():
        item.drop_snapshot()
    view.set_zoom(LOD_LABELS * 1.1)  # the next notch out crosses LOD_LABELS
    render(view)
    prefetch = scene.prefetch
    qtbot.waitUntil(lambda: not prefetch._todo, timeout=5_000)
    assert prefetch.painted > 0
    grown = view.visible_scene_rect()
    grown = grown.adjusted(-grown.width() * (NOTCH - 1) / 2, -grown.height() * (NOTCH - 1) / 2,
                           grown.width() * (NOTCH - 1) / 2, grown.height() * (NOTCH - 1) / 2)
    wanted = [i for i in scene.node_items.values() if meets(i, grown.adjusted(5, 5, -5, -5))]
    theme = scene.theme
    assert wanted and all(i.has_snapshot(theme, 1.0) and i.has_snapshot(theme, 0.5) for i in wanted)
    assert all(i in scene.snapshots for i in wanted)  # counted against the budget
    below = {i: i.snapshot(theme, 0.5) for i in wanted[:3]}
    assert all(s.width() < i.snapshot(theme, 1.0).width() for i, s in below.items())  # painted smaller, no labels
    view.settle_now()
    painted = prefetch.painted
    view.set_zoom(view.zoom() * 1.2)
    view.settle_now()  # the gesture ended before its frame: nothing is painted ahead at rest
    qtbot.wait(30)
    assert prefetch.painted == painted


def test_the_band_image_is_built_while_the_view_rests_far_out(big, qtbot):
    _, scene, view = big
    overview = scene.overview
    view.fit_to_view()
    render(view)
    assert view.zoom() < FAR_ZOOM and overview.coarse.density.builds == 0
    qtbot.wait(PREPARE_AT_REST_MS // 2)
    assert overview.coarse.density.builds == 0 and not overview.coarse.density.building()  # not at once
    qtbot.waitUntil(lambda: overview.coarse.density.builds == 1, timeout=10_000)
    view.set_zoom(0.3)  # the first notches into the band find it
    render(view)
    assert overview.coarse.draws == 1 and not overview.coarse.density.building()


def test_a_moved_node_is_measured_again_alone_and_the_content_follows_it(qtbot):
    """After an edit moves a node, its box is measured again in place (not all 5,000, which F would pay
    for after every edit) and the content — what F fits — includes where it went."""
    from engine.graph.generate import generate_workflow

    wf = generate_workflow(200, seed=2)
    scene = CanvasScene(wf)
    boxes = scene.node_boxes()
    node = next(iter(wf.nodes.values()))
    far = scene.content_rect().right() + 5000.0
    node.ui.x = far
    scene.sync_node_positions([node.id])
    after = scene.node_boxes()
    assert after is boxes  # the same list, updated in place
    item = scene.node_items[node.id]
    assert [b for b in after if b[4] is item] == [(*item.sceneBoundingRect().getCoords(), item)]
    assert after == [(*i.sceneBoundingRect().getCoords(), i) for i in scene.node_items.values()]
    assert scene.content_rect().right() >= far
