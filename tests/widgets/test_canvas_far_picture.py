"""The overview's picture at rest below the far zoom on a large graph: F again (or any repaint at the
same view) is a blit of the picture, which is the same pixels as painting the overview directly, and
a change of what it shows (a selection, the mode switch is not one) paints a new one."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage

from engine.graph.generate import generate_workflow
from tests.widgets.canvas_render import large_canvas, render
from widgets.canvas import CanvasView
from widgets.canvas.overview import FAR_ZOOM


@pytest.fixture
def big(qtbot):
    return large_canvas(qtbot)


def painted_directly(view: CanvasView, monkeypatch: pytest.MonkeyPatch) -> QImage:
    """The view as the overview paints it without its picture."""
    with monkeypatch.context() as patch:
        patch.setattr(view.canvas_scene().overview.far_picture, "draw",
                      lambda painter, area, key, paint, scaled: paint(painter, area))
        return render(view)


def test_fit_again_is_drawn_from_the_picture_with_the_same_pixels(big, monkeypatch):
    _, scene, view = big
    picture = scene.overview.far_picture
    view.fit_to_view()
    assert view.zoom() < FAR_ZOOM
    first = render(view)
    assert picture.repaints == 1
    assert first == painted_directly(view, monkeypatch)
    view.set_zoom(1.0)  # out of overview mode and back: the picture stays
    view.settle_now()
    render(view)
    view.fit_to_view()
    assert render(view) == first and picture.repaints == 1


def test_a_selection_at_fit_paints_a_new_picture_showing_it(big, monkeypatch):
    _, scene, view = big
    picture = scene.overview.far_picture
    view.fit_to_view()
    before = render(view)
    view.select_nodes([next(iter(scene.node_items))])
    after = render(view)
    assert picture.repaints == 2 and after != before
    assert after == painted_directly(view, monkeypatch)


def test_an_edit_made_zoomed_in_has_the_fitted_picture_made_again_at_idle_so_f_is_a_blit(big, monkeypatch, qtbot):
    wf, scene, view = big
    overview = scene.overview
    picture = overview.far_picture
    view.fit_to_view()
    before = render(view)
    view.set_zoom(1.0)
    view.settle_now()
    render(view)
    content = scene.content_rect()
    node = next(n for n in wf.nodes.values()  # moved well inside the content: F fits the same view
                if content.adjusted(200, 200, -200, -200).contains(scene.node_items[n.id].sceneBoundingRect()))
    node.ui.x += 30.0
    node.ui.y += 20.0
    scene.sync_node_positions([node.id])
    qtbot.waitUntil(lambda: overview.fit_ahead.pictures == 1, timeout=5000)
    repaints, images = picture.repaints, overview.density.builds
    view.fit_to_view()
    after = render(view)
    assert picture.repaints == repaints and overview.density.builds == images  # a blit of what was made ahead
    assert after != before  # the node (and its edges) where they are now
    assert after == painted_directly(view, monkeypatch)


def test_nothing_is_made_ahead_while_the_overview_shows_or_before_the_view_was_ever_fitted(big, qtbot):
    _, scene, view = big
    overview = scene.overview
    view.set_zoom(1.0)
    view.settle_now()
    render(view)
    view.select_nodes([next(iter(scene.node_items))])
    qtbot.wait(400)
    assert overview.fit_ahead.pictures == 0  # no fitted view to paint ahead for
    view.fit_to_view()
    render(view)
    view.select_nodes([list(scene.node_items)[1]])
    qtbot.wait(400)
    assert overview.fit_ahead.pictures == 0  # the overview's own paint shows it


def test_a_new_workflow_is_not_painted_ahead_for_the_last_ones_fitted_view(big, qtbot):
    _, scene, view = big
    view.fit_to_view()
    render(view)
    view.set_zoom(1.0)
    view.settle_now()
    render(view)
    scene.set_workflow(generate_workflow(1300, edges_per_node=3, seed=4))
    qtbot.waitUntil(lambda: not scene.building, timeout=5000)
    view.select_nodes([next(iter(scene.node_items))])
    qtbot.wait(400)
    assert scene.overview.fit_ahead.pictures == 0
