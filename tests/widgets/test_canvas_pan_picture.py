"""A pan's picture of the edges at a fixed zoom: when the view leaves it, the new picture copies the old
one's overlap and paints only the strips it does not cover; what it shows is what a full repaint of the
picture shows (but for an aliased line stepping a pixel where it crosses a strip's border), and an
edit in between repaints it whole."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QImage

from tests.widgets.canvas_render import large_canvas
from widgets.canvas import CanvasView
from widgets.canvas.layer_cache import LayerCache


@pytest.fixture
def big(qtbot):
    return large_canvas(qtbot)


def pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.width(), 4).astype(int)


def moving_frames(view: CanvasView, steps: int):
    """Scroll by (97, -41) px `steps` times; yield the frame shown and the same frame with a whole new picture."""
    scene = view.canvas_scene()
    bar_x, bar_y = view.horizontalScrollBar(), view.verticalScrollBar()
    for _ in range(steps):
        bar_x.setValue(bar_x.value() + 97)
        bar_y.setValue(bar_y.value() - 41)
        assert scene.moving
        shown = view.viewport().grab().toImage()
        layer = scene.edge_layer
        kept, layer.cache = layer.cache, LayerCache()  # a whole new picture, the pan's own left as it is
        repainted = view.viewport().grab().toImage()
        layer.cache = kept
        yield shown, repainted


def test_a_pan_shifts_its_picture_and_shows_what_a_full_repaint_shows(big):
    _, scene, view = big
    view.set_zoom(1.0)
    view.settle_now()
    cache = scene.edge_layer.cache
    for shown, repainted in moving_frames(view, 8):
        differ = (np.abs(pixels(shown) - pixels(repainted)).max(axis=2) > 0).sum()
        assert differ < shown.width() * shown.height() * 0.001  # a pixel step where a line crosses a seam
    assert cache.shifted >= 1


def test_an_edit_during_a_pan_repaints_the_picture_whole(big):
    wf, scene, view = big
    view.set_zoom(1.0)
    view.settle_now()
    cache = scene.edge_layer.cache
    frames = moving_frames(view, 3)
    next(frames)
    center = view.mapToScene(view.viewport().rect().center())
    node_id = min(scene.node_items, key=lambda i: (scene.node_items[i].pos() - center).manhattanLength())
    wf.move_node(node_id, center.x() + 200, center.y() - 150)
    shifted = cache.shifted
    shown, repainted = next(frames)
    assert cache.shifted == shifted and shown == repainted
