"""`RunLayer`: one scene item that paints a run over the canvas — state outlines, chips, usage badges,
the running nodes' marching outline, breakpoints and the edges data just flowed along.

Like the `EdgeLayer` it is a single item (no child item per node: 5,000 nodes would mean 5,000 more
items and a Python `paint` each); it looks up the nodes under the exposed area through the scene's
index and draws only those its `RunOverlay` has something for. Zoomed out, the chips and badges
grow in scene units (up to `MAX_TEXT_SCALE`) so they stay readable on screen. It never takes part in hit tests
(empty `shape`) and never changes the node items' own painting or cache.

Invariants: reads its state from the overlay at paint time; draws nothing in overview mode (the
overview's flat boxes carry the state colour then) nor while the view zooms (the zoom picture is
repainted at rest); where even scaled text would be too small it draws outlines and markers only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from widgets.canvas.node_item import NodeItem
from widgets.canvas.run_style import NodeDecor, state_color
from widgets.canvas.theme import LOD_LABELS, LOD_SIMPLE

if TYPE_CHECKING:
    from widgets.canvas.run_overlay import RunOverlay
    from widgets.canvas.scene import CanvasScene

_EVERYWHERE = QRectF(-1e7, -1e7, 2e7, 2e7)
_BOUNDS = Qt.ItemSelectionMode.IntersectsItemBoundingRect
CHIP_H = 17.0
MAX_TEXT_SCALE = 2.2  # zoomed out, chips and badges keep a readable size on screen (up to this factor)
MARGIN_TOP = (CHIP_H + 6) * MAX_TEXT_SCALE
MARGIN_BOTTOM = (CHIP_H + 6) * MAX_TEXT_SCALE
MARGIN_SIDE = 8.0
BREAKPOINT_R = 6.0
DIRECT_LOOKUP = 300  # up to this many nodes with something to show, no index query per paint


def decor_rect(item: NodeItem) -> QRectF:
    """The scene area the layer may paint for one node (its box, the chip above, the badge below)."""
    return item.body_rect().translated(item.pos()).adjusted(-MARGIN_SIDE, -MARGIN_TOP, MARGIN_SIDE, MARGIN_BOTTOM)


class RunLayer(QGraphicsItem):
    Z = 0.5  # over the nodes (their own painting is left alone), under nothing else

    def __init__(self, overlay: RunOverlay) -> None:
        super().__init__()
        self.overlay = overlay
        self.setZValue(self.Z)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return _EVERYWHERE

    def shape(self) -> QPainterPath:
        return QPainterPath()  # never under the mouse: clicks, hovers and tooltips go to the nodes

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scene: CanvasScene = self.scene()  # type: ignore[assignment]
        overlay = self.overlay
        if scene is None or scene.overview.active or scene.zooming or not overlay.has_content():
            return
        lod = painter.worldTransform().m11()
        if lod < LOD_SIMPLE:
            return
        area: QRectF = option.exposedRect
        if painter.hasClipping():
            area = area.intersected(painter.clipBoundingRect())
        area = area.intersected(scene.sceneRect())  # the index misses items for a rect as large as ours
        dark = scene.theme.dark
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, not scene.moving)
        self._paint_flows(painter, area, dark)
        scale = min(MAX_TEXT_SCALE, round(1.0 / lod, 1)) if lod < 1.0 else 1.0
        labels = lod * MAX_TEXT_SCALE >= LOD_LABELS
        for item in self._items_in(scene, area, direct=widget is None):
            decor = overlay.decor.get(item.node_id)
            if decor is not None:
                self._paint_node(painter, item, decor, dark, scale if labels else 0.0, scene)
            if item.node_id in overlay.breakpoints:
                self._paint_breakpoint(painter, item, dark)

    def _items_in(self, scene: CanvasScene, area: QRectF, direct: bool) -> list[NodeItem]:
        """The node items under `area` that have something to show: looked up directly for a small run or
        when rendered off screen (no widget: the scene's index answers nothing inside `render()`), else
        through the index."""
        overlay = self.overlay
        if direct or len(overlay.decor) + len(overlay.breakpoints) <= DIRECT_LOOKUP:
            items = scene.node_items
            found = [items.get(n) for n in {*overlay.decor, *overlay.breakpoints}]
            return [i for i in found if i is not None and area.intersects(i.sceneBoundingRect())]
        return [i for i in scene.items(area, _BOUNDS, Qt.SortOrder.AscendingOrder) if type(i) is NodeItem]

    def _paint_flows(self, painter: QPainter, area: QRectF, dark: bool) -> None:
        for edge, strength in self.overlay.flashing_edges():
            if not area.intersects(edge.bounds):
                continue
            color = QColor(state_color("running", dark))
            color.setAlphaF(0.25 + 0.75 * strength)
            pen = QPen(color, 4.0)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(edge.curve)

    def _paint_node(self, painter: QPainter, item: NodeItem, decor: NodeDecor, dark: bool, scale: float,
                    scene: CanvasScene) -> None:
        """The node's state ring; with `scale` (0: no text) its chip above and usage badge below."""
        body = item.body_rect().translated(item.pos())
        color = state_color(decor.state, dark)
        if decor.dimmed:
            wash = QColor(scene.theme.background)
            wash.setAlpha(150)
            painter.fillRect(body, wash)
        ring = body.adjusted(-3.5, -3.5, 3.5, 3.5)
        pen = QPen(color, 3.0 if decor.state in ("running", "waiting", "failed") else 2.0)
        if decor.state == "running":
            pen.setStyle(Qt.PenStyle.DashLine)
            pen.setDashOffset(-self.overlay.phase)
        elif decor.state == "queued":
            pen = QPen(color, 1.5, Qt.PenStyle.DotLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(ring, 7, 7)
        if not scale:
            return
        self._paint_chip(painter, body, decor.chip, color, scene, scale)
        if decor.badge:
            self._paint_badge(painter, body, decor.badge, scene, scale)

    def _paint_chip(self, painter: QPainter, body: QRectF, text: str, color: QColor, scene: CanvasScene,
                    scale: float) -> None:
        font, metrics = _font(True, scale)
        text = metrics.elidedText(text, Qt.TextElideMode.ElideRight, body.width() * (1.0 if scale == 1.0 else 1.35))
        width, height = metrics.horizontalAdvance(text) + 12 * scale, CHIP_H * scale
        box = QRectF(body.right() - width, body.top() - height - 5, width, height)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawRoundedRect(box, height / 2, height / 2)
        painter.setPen(scene.theme.background)
        painter.setFont(font)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_badge(self, painter: QPainter, body: QRectF, text: str, scene: CanvasScene, scale: float) -> None:
        theme = scene.theme
        font, metrics = _font(False, scale)
        text = metrics.elidedText(text, Qt.TextElideMode.ElideRight, body.width() * 1.4)
        width, height = metrics.horizontalAdvance(text) + 12 * scale, CHIP_H * scale
        box = QRectF(body.center().x() - width / 2, body.bottom() + 5, width, height)
        painter.setPen(QPen(theme.node_border, 1.0))
        painter.setBrush(theme.node_body)
        painter.drawRoundedRect(box, height / 2, height / 2)
        painter.setPen(theme.text)
        painter.setFont(font)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_breakpoint(self, painter: QPainter, item: NodeItem, dark: bool) -> None:
        body = item.body_rect().translated(item.pos())
        centre = QPointF(body.left() + 2, body.top() + 2)
        painter.setPen(QPen(QColor("#ffffff"), 1.5))
        painter.setBrush(state_color("failed", dark))
        painter.drawEllipse(centre, BREAKPOINT_R, BREAKPOINT_R)


_FONTS: dict[tuple[bool, float], tuple[QFont, QFontMetricsF]] = {}


def _font(bold: bool, scale: float) -> tuple[QFont, QFontMetricsF]:
    """The chip (bold) or badge font at `scale` (8 pt at zoom 1), with its metrics, made once."""
    key = (bold, scale)
    found = _FONTS.get(key)
    if found is None:
        font = QFont("DejaVu Sans")
        font.setPointSizeF(8 * scale)
        font.setBold(bold)
        found = _FONTS[key] = (font, QFontMetricsF(font))
    return found
