"""The zoom band between the far zoom and `LOD_SIMPLE` on a large graph: a pan's or zoom's picture
draws the long edges from one density image and the short ones as lines; at rest every edge is
stroked; edits and run states reach the picture."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF
from PySide6.QtGui import QImage

from engine import events as ev
from engine.projection import RunProjection
from tests.widgets.canvas_render import large_canvas, render
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.coarse_edges import LONG_EDGE
from widgets.canvas.edge_item import edge_style
from widgets.canvas.overview import FAR_ZOOM
from widgets.canvas.run_style import state_color
from widgets.canvas.theme import LOD_LABELS, LOD_SIMPLE
from widgets.canvas.view import SETTLE_MS

BAND = 0.3


@pytest.fixture
def big(qtbot):
    assert FAR_ZOOM < BAND < LOD_SIMPLE
    return large_canvas(qtbot)


def rest_in_band(scene: CanvasScene, view: CanvasView, qtbot) -> None:
    """Zoomed into the band and at rest, with the long edges' image built."""
    view.set_zoom(BAND)
    view.settle_now()
    render(view)  # a frame at rest in the band asks for the image
    qtbot.waitUntil(lambda: not scene.overview.coarse.density.building(), timeout=10_000)
    assert scene.overview.coarse.density.builds == 1


def pan(view: CanvasView, dx: float = 40.0) -> None:
    view.centerOn(view.visible_scene_rect().center() + QPointF(dx, 0))


def near(image: QImage, at: QPoint, colour: str) -> bool:
    return any(image.pixelColor(at.x() + dx, at.y() + dy).name() == colour for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def test_a_pan_in_the_band_draws_long_edges_from_the_image_and_short_ones_as_lines(big, qtbot):
    _, scene, view = big
    overview = scene.overview
    rest_in_band(scene, view, qtbot)
    pan(view)
    assert scene.moving and overview.active
    draws, repaints = overview.coarse.draws, overview.cache.repaints
    image = render(view)
    assert overview.coarse.draws == draws + 1 and overview.cache.repaints == repaints + 1
    visible = view.visible_scene_rect()
    boxes = [i.sceneBoundingRect() for i in scene.node_items.values()]
    short = [e.line() for e in scene.edge_items.values() if e.line().length() <= LONG_EDGE
             and visible.contains(e.line().center()) and not any(b.contains(e.line().center()) for b in boxes)]
    assert short and len(overview.coarse.long_lines(overview._lines)) > len(scene.edge_items) / 10
    edge = scene.theme.edge.name()
    missed = [line for line in short if not near(image, view.mapFromScene(line.center()), edge)]
    assert not missed  # crisp: who joins whom
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)
    assert overview.cache._image is None  # the picture only serves the gesture
    render(view)
    assert overview.coarse.draws == draws + 1  # at rest every edge is stroked


def test_at_fit_the_pictures_use_the_whole_graphs_density_and_the_band_image_is_built_ahead(big, qtbot):
    _, scene, view = big
    overview = scene.overview
    view.fit_to_view()
    view.settle_now()
    render(view)
    assert view.zoom() < FAR_ZOOM and overview.coarse.density.builds == 0  # not built for a view at rest at fit
    view.set_zoom(view.zoom() * 1.2)  # a wheel notch: the gesture may go on into the band
    render(view)
    assert overview.coarse.draws == 0 and overview.coarse.density.building()
    qtbot.waitUntil(lambda: overview.coarse.density.builds == 1, timeout=10_000)
    view.set_zoom(BAND)
    render(view)
    assert overview.coarse.draws == 1


def test_before_the_image_is_built_the_picture_strokes_every_edge(big, qtbot):
    _, scene, view = big
    overview = scene.overview
    view.set_zoom(BAND)
    image = render(view)
    assert overview.coarse.draws == 0 and overview.cache.repaints == 1
    visible = view.visible_scene_rect()
    line = next(e.line() for e in scene.edge_items.values() if e.line().length() > LONG_EDGE
                and visible.contains(e.line().center()))
    assert near(image, view.mapFromScene(line.center()), scene.theme.edge.name())  # a long edge, as a line
    qtbot.waitUntil(lambda: not overview.coarse.density.building(), timeout=10_000)


def test_an_edge_edit_reaches_the_coarse_picture(big, qtbot):
    wf, scene, view = big
    overview = scene.overview
    rest_in_band(scene, view, qtbot)
    long_edge = next(e for e in scene.edge_items.values() if e.line().length() > LONG_EDGE)
    gone = long_edge.line()
    wf.remove_edge(long_edge.edge_id)
    pan(view)
    render(view)  # the stand-in (the image from before the edit) is drawn while the new one builds
    assert gone not in overview.coarse.long_lines(overview._lines)
    assert overview.coarse.density.building()
    qtbot.waitUntil(lambda: overview.coarse.density.builds == 2, timeout=10_000)


def test_a_run_state_reaches_the_picture_while_the_view_moves(big, qtbot):
    wf, scene, view = big
    overview = scene.overview
    rest_in_band(scene, view, qtbot)
    projection = RunProjection()
    projection.apply_many([
        ev.RunStarted(run_id="r", seq=1, ts=0.0, workflow_id="w", workflow_name="big", workflow_hash="h"),
        ev.RunPlanned(run_id="r", seq=2, ts=0.0, nodes=[[n.id, n.title, n.role] for n in wf.nodes.values()]),
    ])
    scene.run.show(projection)
    projection.take_changes()
    pan(view)
    render(view)
    visible = view.visible_scene_rect()
    item = next(i for i in scene.node_items.values() if visible.contains(i.sceneBoundingRect()))
    repaints = overview.cache.repaints
    projection.apply(ev.NodeStateChanged(run_id="r", seq=3, ts=1.0, node_id=item.node_id, state="failed"))
    scene.run.apply(projection.take_changes())
    image = render(view)
    assert scene.moving and overview.cache.repaints == repaints + 1 and overview.coarse.draws >= 2
    centre = view.mapFromScene(item.pos() + item.body_rect().center())
    assert image.pixelColor(centre).name() == state_color("failed", False).name()


def test_the_edge_layers_zoom_picture_past_the_band_takes_long_edges_from_the_image(big, qtbot):
    _, scene, view = big
    overview, layer = scene.overview, scene.edge_layer
    rest_in_band(scene, view, qtbot)
    selected = next(e for e in scene.edge_items.values() if e.line().length() > LONG_EDGE)
    view.centerOn(selected.line().center())
    view.settle_now()
    selected.setSelected(True)
    draws = overview.coarse.draws
    view.set_zoom(LOD_SIMPLE * 1.1)  # a notch across LOD_SIMPLE: the edge layer's zoom picture
    assert scene.zooming and scene.paused.active and not overview.active
    image = render(view)
    assert overview.coarse.draws == draws + 1 and layer.cache.repaints == 1
    colour = edge_style(selected.port_type, False, True)[0].color().name()
    assert near(image, view.mapFromScene(selected.line().center()), colour)  # a selected long edge stays a line
    view.set_zoom(LOD_LABELS * 1.2)
    render(view)
    assert layer.cache.repaints == 2 and overview.coarse.draws == draws + 1  # above LOD_LABELS: real lines


def test_after_an_edit_the_zoom_picture_strokes_long_edges_until_their_image_is_rebuilt(big, qtbot):
    wf, scene, view = big
    overview, layer = scene.overview, scene.edge_layer
    rest_in_band(scene, view, qtbot)
    view.set_zoom(LOD_SIMPLE * 1.1)
    view.settle_now()
    wf.remove_edge(next(e for e in scene.edge_items.values() if e.long).edge_id)
    draws = overview.coarse.draws
    view.set_zoom(LOD_SIMPLE * 1.15)
    render(view)  # the image shows the removed edge: not used, every edge in view stroked
    assert layer.cache.repaints == 1 and overview.coarse.draws == draws
    qtbot.waitUntil(lambda: overview.coarse.density.builds == 2, timeout=10_000)
    view.set_zoom(LOD_SIMPLE * 1.1)  # the next gesture
    render(view)
    assert overview.coarse.draws == draws + 1
