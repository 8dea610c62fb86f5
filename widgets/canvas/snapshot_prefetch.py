"""Node snapshots painted ahead, in the gaps between the notches of a zoom gesture.

A zoom picture draws every node it covers from a snapshot (`NodeItem.snapshot`: the node at zoom 1,
or below `LOD_LABELS` without labels), and painting one costs 0.07–0.2 ms. A notch that brings
~60–90 nodes without one into a new picture (crossing `LOD_LABELS` or `LOD_SIMPLE`, or the first
time a part of the graph is zoomed) paid 10–20 ms of a 30–45 ms frame. A wheel's notches come
tens of milliseconds apart, and a frame takes a few: after each notch `plan` lists the nodes the
next notch in either direction may show (the view grown by one notch) that lack the snapshot for
their zoom — both kinds when that notch may cross `LOD_LABELS` — and, once the view has painted
the notch's frame (`after_frame`), `_work` paints them in slices of at most `SLICE_MS`, `GAP_MS`
apart, until the list is done or the view comes to rest.

Invariants: only while the view moves; a slice never runs longer than one snapshot past
`SLICE_MS`; a painted snapshot is counted against the scene's `SnapshotCache` budget (`keep`);
items that left the scene meanwhile are skipped; selected nodes are not painted ahead (they draw
themselves).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QRectF, QTimer

from widgets.canvas.theme import LOD_LABELS, LOD_SIMPLE

if TYPE_CHECKING:
    from widgets.canvas.node_item import NodeItem
    from widgets.canvas.scene import CanvasScene

NOTCH = 1.25  # one wheel notch's zoom step (the app's 20 %), with a little to spare
SLICE_MS = 3.0
GAP_MS = 2  # before each slice: the notch's own frame is painted first, and input is never kept waiting


class SnapshotPrefetch:
    def __init__(self, scene: CanvasScene) -> None:
        self.scene = scene
        self._todo: list[tuple[NodeItem, float]] = []  # (node, zoom of the snapshot it needs), last first
        self.painted = 0  # snapshots painted ahead (tests, benchmarks)
        self._timer = QTimer()
        self._timer.setSingleShot(True)
        self._timer.setInterval(GAP_MS)
        self._timer.timeout.connect(self._work)

    def plan(self, view_area: QRectF, zoom: float) -> None:
        """The view shows scene `view_area` at `zoom` while zooming: list what the next notch may need."""
        zooms = [z for z in (zoom, zoom * NOTCH, zoom / NOTCH) if z >= LOD_SIMPLE]
        if not zooms:  # the overview draws boxes there
            self._todo = []
            return
        kinds = {z >= LOD_LABELS: z for z in zooms}  # one zoom per kind of snapshot
        dx, dy = view_area.width() * (NOTCH - 1) / 2, view_area.height() * (NOTCH - 1) / 2
        theme = self.scene.theme
        self._todo = [(item, z) for item in self.scene.nodes_meeting(view_area.adjusted(-dx, -dy, dx, dy))
                      if not item.isSelected() for z in kinds.values() if not item.has_snapshot(theme, z)]

    def after_frame(self) -> None:
        """The view painted a frame: paint the listed snapshots in the gaps that follow."""
        if self._todo and not self._timer.isActive():
            self._timer.start()

    def _work(self) -> None:
        scene = self.scene
        if not shiboken6.isValid(scene) or not scene.moving:
            self._todo = []
            return
        todo, theme = self._todo, scene.theme
        deadline = time.perf_counter() + SLICE_MS / 1000
        while todo and time.perf_counter() < deadline:
            item, zoom = todo.pop()
            if shiboken6.isValid(item) and item.scene() is scene and not item.has_snapshot(theme, zoom):
                item.snapshot(theme, zoom)
                scene.snapshots.keep(item)
                self.painted += 1
        if todo:
            self._timer.start()
