"""Overview drawing: the whole graph in a few batched paint calls when zoomed far out.

Painting 15,000 items one Python `paint()` at a time costs ~25 µs each (≈400 ms a frame at
5,000 nodes); below `LOD_SIMPLE` the node items are flagged `ItemHasNoContents` (Qt skips their
paint but keeps them in the index for hit tests and selection), the `EdgeLayer` draws nothing,
and this draws every node as a filled box (in its validation mark's colour when it has one) and
every edge as a hairline, grouped by colour.

Edges are left out when there are many of them and the zoom is very low (more than
`MAX_FAR_EDGES` edges below `FAR_ZOOM`): ten thousand hairlines cost ~100 ms a frame and, at
that scale, only paint the screen grey.

While the view pans or zooms in this mode (`scene.moving`) the drawing comes from a
`LayerCache` picture (redrawn only when the view leaves it or the zoom drifts), since ten
thousand hairlines alone cost ~25 ms, and the scene pauses the items (`ItemPause`).

Invariants: the batch is rebuilt lazily after `invalidate()` (any model change, move or
selection change); switching the mode on or off is the only place item flags change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

from widgets.canvas.layer_cache import LayerCache

if TYPE_CHECKING:
    from widgets.canvas.scene import CanvasScene

_NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
FAR_ZOOM = 0.2
MAX_FAR_EDGES = 3000


class OverviewPainter:
    def __init__(self, scene: CanvasScene) -> None:
        self.scene = scene
        self.active = False
        self._boxes: dict[str, list[QRectF]] | None = None
        self._lines: list[QLineF] = []
        self.cache = LayerCache()

    def set_active(self, active: bool) -> None:
        if active == self.active:
            return
        self.active = active
        for item in self.scene.node_items.values():
            item.setFlag(_NO_CONTENTS, active)  # edges never paint themselves: the EdgeLayer stops
        self.scene.follow_gesture()
        self.invalidate()
        self.scene.update()

    def adopt(self, item: QGraphicsItem) -> None:
        """Give a new node item the current mode's flag (edge items never have contents)."""
        if self.active:
            item.setFlag(_NO_CONTENTS, True)
        self.invalidate()

    def invalidate(self) -> None:
        self._boxes = None
        self.cache.invalidate()

    def _build(self) -> dict[str, list[QRectF]]:
        scene = self.scene
        theme = scene.theme
        selection = theme.selection.name()
        boxes: dict[str, list[QRectF]] = {}
        for item in scene.node_items.values():
            key = selection if item.isSelected() else item.flat_color(theme).name()
            boxes.setdefault(key, []).append(item.body_rect().translated(item.pos()))
        self._lines = [edge.line() for edge in scene.edge_items.values()]
        return boxes

    def paint(self, painter: QPainter, exposed: QRectF) -> None:
        if self._boxes is None:
            self._boxes = self._build()
        with_edges = len(self._lines) <= MAX_FAR_EDGES or painter.worldTransform().m11() >= FAR_ZOOM
        if self.scene.moving:
            self.cache.draw(painter, exposed, (self.scene.theme.dark, with_edges), self._paint_batch,
                            scaled=self.scene.zooming)
        else:
            self._paint_batch(painter, exposed)

    def _paint_batch(self, painter: QPainter, exposed: QRectF) -> None:
        boxes = self._boxes or {}
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        if len(self._lines) <= MAX_FAR_EDGES or painter.worldTransform().m11() >= FAR_ZOOM:
            painter.setPen(QPen(self.scene.theme.edge, 0))
            painter.drawLines(self._lines)
        painter.setPen(Qt.PenStyle.NoPen)
        for color, rects in boxes.items():
            painter.setBrush(QColor(color))
            painter.drawRects(rects)
        painter.restore()
