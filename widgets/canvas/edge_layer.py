"""All edges of the canvas painted in one batched call per frame.

Painting edges one Python `paint()` per item costs ~10 µs of call overhead each before any pixel
is drawn (≈5 ms a frame for the ~500 long edges crossing the viewport of a 5,000-node graph).
`EdgeItem`s therefore stay in the scene (index, hit tests, selection, shape) but are flagged
`ItemHasNoContents`; this one item, stacked at the edges' z value, looks up the edges whose
bounds meet the area being painted and draws them in a single loop, then their arrows.

Invariants:
- at rest it draws the curve in the port type's colour (the selection colour when selected, the
  error / warning colour when the edge has a validation mark) and
  the arrow at `LOD_LABELS` and above (only when its tip is in the painted area); a straight
  line below `LOD_SIMPLE` or in fast mode (a drag); while the view moves (`scene.moving`) no
  antialiasing, and straight lines below `LOD_MOVING_CURVES` — the view redraws smooth at rest;
- while the view pans or zooms it draws from a `LayerCache` picture; while it zooms the node
  items are paused (`ItemPause`) and the picture also holds their zoom-1 snapshots, so a zoom
  step is one scaled image instead of one Python `paint` and one scaled pixmap per node;
- it draws nothing in overview mode (`OverviewPainter` draws the edges then);
- edges announce their own repaints (`EdgeItem.repaint`): Qt does not repaint items without
  contents, so the layer itself is updated only when everything changes (theme, modes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from widgets.canvas.edge_item import NO_BRUSH, NO_PEN, EdgeItem, edge_style
from widgets.canvas.layer_cache import LayerCache
from widgets.canvas.theme import LOD_LABELS, LOD_MOVING_CURVES, LOD_SIMPLE

if TYPE_CHECKING:
    from widgets.canvas.scene import CanvasScene

_EVERYWHERE = QRectF(-1e7, -1e7, 2e7, 2e7)
_BOUNDS = Qt.ItemSelectionMode.IntersectsItemBoundingRect
_KEY_ZOOMS = (LOD_MOVING_CURVES, LOD_LABELS, LOD_SIMPLE)  # the picture changes there (at LOD_SIMPLE the overview takes over)


class EdgeLayer(QGraphicsItem):
    def __init__(self) -> None:
        super().__init__()
        self.cache = LayerCache()  # the edges as a picture while the view pans or zooms
        self.setZValue(EdgeItem.Z)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)  # a real exposedRect

    def boundingRect(self) -> QRectF:
        return _EVERYWHERE

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scene: CanvasScene = self.scene()  # type: ignore[assignment]
        if scene is None or scene.overview.active:
            return
        area: QRectF = option.exposedRect  # type: ignore[attr-defined]
        if painter.hasClipping():
            area = area.intersected(painter.clipBoundingRect())
        if scene.moving and not scene.fast_mode:  # a pan or zoom: no antialiasing, drawn from a picture
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            lod = painter.worldTransform().m11()
            key = (scene.theme.dark, lod < LOD_MOVING_CURVES, lod < LOD_LABELS, scene.paused.active)
            floor = max((zoom for zoom in _KEY_ZOOMS if zoom <= lod), default=0.0)
            self.cache.draw(painter, area, key, self._paint_picture, scaled=scene.zooming, floor=floor)
            return
        self.cache.invalidate()
        self._paint_edges(painter, area)

    def _paint_picture(self, painter: QPainter, area: QRectF) -> None:
        """What the picture shows: the edges and, while the node items are paused, the nodes. A zoom
        picture below `LOD_LABELS` on a large graph takes the plain long edges from the overview's
        coarse image (stroking ~2,500 of them as the zoom crosses `LOD_SIMPLE` cost 32–47 ms)."""
        scene: CanvasScene = self.scene()  # type: ignore[assignment]
        coarse = scene.paused.active and painter.worldTransform().m11() < LOD_LABELS
        self._paint_edges(painter, area, skip_long=coarse and scene.overview.draw_long_edges(painter))
        if not scene.paused.active:
            return
        theme = scene.theme
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        for node in scene.paused.nodes_in(area):
            node.draw_snapshot(painter, theme)

    def _paint_edges(self, painter: QPainter, area: QRectF, skip_long: bool = False) -> None:
        """The edges meeting `area`; `skip_long`: not the plain (unselected, unmarked) long ones."""
        scene: CanvasScene = self.scene()  # type: ignore[assignment]
        if scene.paused.active:  # the index skips hidden items: look the edges up directly
            edges = _edges_in(scene, area)
            if skip_long:  # they are in the coarse image already drawn
                selected = set(scene.selectedItems())
                edges = [e for e in edges if not e.long or e.severity is not None or e in selected]
        else:
            edges = [i for i in scene.items(area, _BOUNDS, Qt.SortOrder.AscendingOrder) if type(i) is EdgeItem]
        if not edges:
            return
        dark = scene.theme.dark
        lod = painter.worldTransform().m11()
        straight = lod < LOD_SIMPLE or scene.fast_mode or (scene.moving and lod < LOD_MOVING_CURVES)
        painter.setBrush(NO_BRUSH)
        if straight:
            _draw_lines(painter, edges, dark)
            return
        last = None
        for edge in edges:
            pen = edge_style(edge.port_type, dark, edge.isSelected(), edge.severity)[0]
            if pen is not last:
                painter.setPen(pen)
                last = pen
            painter.drawPath(edge.curve)
        if lod < LOD_LABELS:
            return
        painter.setPen(NO_PEN)
        for edge in edges:
            if area.intersects(edge.arrow_box):
                painter.setBrush(edge_style(edge.port_type, dark, edge.isSelected(), edge.severity)[1])
                painter.drawConvexPolygon(edge.arrow)


def _edges_in(scene: CanvasScene, area: QRectF) -> list[EdgeItem]:
    """The edges whose bounds meet `area`, from their boxes (~2 ms for 15,000 edges; ~5 ms with `QRectF`s)."""
    left, top, right, bottom = area.getCoords()
    return [edge for edge in scene.edge_items.values()
            if (box := edge.box)[0] <= right and box[2] >= left and box[1] <= bottom and box[3] >= top]


def _draw_lines(painter: QPainter, edges: list[EdgeItem], dark: bool) -> None:
    """Every edge as a straight line, one `drawLines` call per pen."""
    groups: dict[int, tuple[QPen, list[QLineF]]] = {}
    for edge in edges:
        pen = edge_style(edge.port_type, dark, edge.isSelected(), edge.severity)[0]
        group = groups.get(id(pen))
        if group is None:
            group = groups[id(pen)] = (pen, [])
        group[1].append(edge.line())
    for pen, lines in groups.values():
        painter.setPen(pen)
        painter.drawLines(lines)
