"""The minimap's picture of the graph: drawn whole, or redrawn only where some nodes changed.

`redraw(size)` fits the graph's content rectangle into an image of `size` and draws every edge
(as a straight line, up to `MAX_EDGES`) and every node (a flat box, batched per colour), keeping
each node's drawn rectangle. `redraw_nodes(ids)` repaints only the dirty rectangle: where those
nodes and their neighbours were drawn and are now — everything their edges could have crossed —
by clearing it and redrawing, clipped to it, the edges and nodes the scene's index finds there.

Invariants: the image is in widget pixels; `world` (the scene area it shows) changes only on a
whole redraw (a node dragged out of it is drawn clipped until the next one); a partial redraw
touches no pixel outside its rectangle.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen

from widgets.canvas.edge_item import EdgeItem
from widgets.canvas.node_item import NodeItem

if TYPE_CHECKING:
    from widgets.canvas.scene import CanvasScene

MAX_EDGES = 4000
_BOUNDS = Qt.ItemSelectionMode.IntersectsItemBoundingRect


class MinimapPicture:
    def __init__(self, scene: CanvasScene) -> None:
        self.scene = scene
        self.image = QImage()
        self.world = QRectF()  # the scene rectangle the image shows
        self._drawn: dict[str, QRectF] = {}  # node id → the scene rectangle its box was drawn at
        self.full_redraws = 0
        self.partial_redraws = 0

    def transform(self) -> tuple[float, float, float]:
        """(scale, dx, dy) mapping scene coordinates into the image, aspect kept and centred."""
        world = self.world
        if not world.isValid() or world.width() <= 0 or world.height() <= 0 or self.image.isNull():
            return 1.0, 0.0, 0.0
        scale = min(self.image.width() / world.width(), self.image.height() / world.height())
        dx = (self.image.width() - world.width() * scale) / 2 - world.left() * scale
        dy = (self.image.height() - world.height() * scale) / 2 - world.top() * scale
        return scale, dx, dy

    def redraw(self, size: QSize) -> None:
        scene = self.scene
        self.world = scene.content_rect().adjusted(-60, -60, 60, 60)
        self.image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
        self.image.fill(scene.theme.background)
        self._drawn = {}
        edges = scene.edge_items.values() if len(scene.edge_items) <= MAX_EDGES else ()
        self._paint(None, edges, scene.node_items.values())
        self.full_redraws += 1

    def redraw_nodes(self, node_ids: Iterable[str]) -> QRectF:
        """Repaint where these nodes (and so their edges) were and are; returns that image area."""
        scene = self.scene
        dirty = QRectF()
        for node_id in node_ids:
            item = scene.node_items.get(node_id)
            ends = {node_id} | {e.edge.source for e in scene.edges_of(node_id)} | {
                e.edge.target for e in scene.edges_of(node_id)}
            for end in ends if len(scene.edge_items) <= MAX_EDGES else {node_id}:
                dirty = dirty.united(self._drawn.get(end, QRectF()))
            if item is not None:
                dirty = dirty.united(item.sceneBoundingRect())
        if dirty.isEmpty() or self.image.isNull():
            return QRectF()
        dirty = dirty.adjusted(-2, -2, 2, 2)
        found = scene.items(dirty, _BOUNDS)
        edges = [i for i in found if type(i) is EdgeItem] if len(scene.edge_items) <= MAX_EDGES else []
        nodes = [i for i in found if type(i) is NodeItem]
        self._paint(dirty, edges, nodes)
        self.partial_redraws += 1
        scale, dx, dy = self.transform()
        return QRectF(dirty.left() * scale + dx, dirty.top() * scale + dy,
                      dirty.width() * scale, dirty.height() * scale).adjusted(-1, -1, 1, 1)

    def _paint(self, clip: QRectF | None, edges: Iterable[EdgeItem], nodes: Iterable[NodeItem]) -> None:
        scene = self.scene
        theme = scene.theme
        scale, dx, dy = self.transform()
        painter = QPainter(self.image)
        painter.translate(dx, dy)
        painter.scale(scale, scale)
        if clip is not None:
            painter.setClipRect(clip)
            painter.fillRect(clip, theme.background)
        painter.setPen(QPen(theme.edge, 0))
        painter.drawLines([e.line() for e in edges])
        for item in scene.comment_items.values():
            if clip is None or clip.intersects(item.sceneBoundingRect()):
                painter.fillRect(item.sceneBoundingRect(), item.color)
        boxes: dict[int, tuple[QColor, list[QRectF]]] = {}
        for node in nodes:
            rect = node.sceneBoundingRect()
            self._drawn[node.node_id] = rect
            color = node.flat_color(theme)
            boxes.setdefault(color.rgba(), (color, []))[1].append(rect)
        painter.setPen(Qt.PenStyle.NoPen)
        for color, rects in boxes.values():
            painter.setBrush(color)
            painter.drawRects(rects)
        painter.end()
