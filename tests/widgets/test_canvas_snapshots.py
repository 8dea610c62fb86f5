"""Node snapshots kept between zoom gestures: bounded by bytes, oldest dropped first, and a node's
change clears its own so the next gesture never shows a stale picture."""

from __future__ import annotations

from PySide6.QtCore import QPointF

from engine.graph.generate import generate_workflow
from tests.widgets.canvas_render import render
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.view import SETTLE_MS


def zoom_and_settle(scene: CanvasScene, view: CanvasView, qtbot, zoom: float) -> None:
    view.set_zoom(zoom)
    render(view)
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)


def shown(qtbot, nodes: int) -> tuple[CanvasScene, CanvasView]:
    """A generated graph of `nodes` nodes in a shown view at zoom 1, at rest."""
    scene = CanvasScene(generate_workflow(nodes, edges_per_node=2, seed=5))
    view = CanvasView(scene)
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    zoom_and_settle(scene, view, qtbot, 1.0)
    return scene, view


def test_at_rest_the_oldest_snapshots_go_first_past_the_budget(qtbot):
    scene, view = shown(qtbot, 60)
    nodes = list(scene.node_items.values())
    view.centerOn(nodes[0])
    zoom_and_settle(scene, view, qtbot, 0.8)
    first_seen = list(scene.snapshots)
    assert first_seen and all(item.snapshot_bytes() > 0 for item in first_seen)
    view.centerOn(nodes[-1])
    zoom_and_settle(scene, view, qtbot, 0.7)
    newest = list(scene.snapshots)[-1]
    scene.snapshots.budget = newest.snapshot_bytes()
    scene.snapshots.trim()
    assert list(scene.snapshots) == [newest] and newest.snapshot_bytes() > 0
    assert all(item.snapshot_bytes() == 0 for item in first_seen if item is not newest)
    assert scene.snapshots.weight() <= scene.snapshots.budget


def test_a_changed_node_is_snapshotted_again(qtbot):
    scene, view = shown(qtbot, 20)
    item = next(iter(scene.node_items.values()))
    view.centerOn(item)
    zoom_and_settle(scene, view, qtbot, 0.8)
    assert item in scene.snapshots and item.snapshot_bytes() > 0
    item.node.title = "Renamed for the snapshot test"
    item.refresh()
    assert item.snapshot_bytes() == 0  # the next gesture paints it afresh
    view.set_zoom(0.7)
    image = render(view)
    assert item.snapshot_bytes() > 0 and scene.moving
    header = view.mapFromScene(item.pos() + QPointF(item.body_rect().width() - 12, 6))
    assert image.pixelColor(header).name() == item.accent(False).name()


def test_after_a_pan_the_nodes_drawn_from_snapshots_repaint_for_real(qtbot):
    scene, view = shown(qtbot, 60)
    zoom_and_settle(scene, view, qtbot, 0.8)
    far = list(scene.node_items.values())[-1]
    view.centerOn(far)  # nodes not painted yet: they paint themselves from their zoom-1 snapshots
    assert scene.moving
    view.viewport().repaint()
    assert far in scene.snapshots
    qtbot.waitUntil(lambda: not scene.moving, timeout=SETTLE_MS * 10)
    settled = view.viewport().grab().toImage()
    for item in scene.node_items.values():
        item.update()  # what a fresh paint at rest shows
    assert view.viewport().grab().toImage() == settled
