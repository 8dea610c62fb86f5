"""An edge on the canvas: a curve from an output port to an input port, coloured by port type.

Invariants:
- the item only displays its `Edge`; `update_path()` is called by the scene when one of its two
  nodes moves or changes ports, and is the only place the path is recomputed;
- it holds the geometry (`curve`, `line()`, `arrow`, `port_type`) and takes part in the index,
  hit tests and selection, but paints nothing itself (`ItemHasNoContents`): the scene's
  `EdgeLayer` draws every visible edge in one batched call; so the item's area is repainted
  explicitly (`repaint`) when its path changes, and by the scene when it is added, removed,
  selected or deselected;
- it is a `QGraphicsRectItem` whose rect is the curve's control-point box, computed from numbers,
  so Qt reads its bounds in C++ per frame; the curve, straight line, arrow and `shape` (a 10 px
  stroke, for clicks and rubber bands) are built in Python only when first asked for (an open of
  15,000 edges builds none of them: 0.4x the time of building every path up front);
- a validation mark (`set_mark`) draws the edge dashed in the error or warning colour (the
  selection colour wins) and gives it a tooltip listing the problems; the layer reads `severity`.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QPainterPath, QPainterPathStroker, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

from engine.graph.model import Edge
from engine.graph.problems import Severity
from widgets.canvas.node_item import PORT_RADIUS, NodeItem
from widgets.canvas.problem_marks import ItemMark, mark_color, with_mark
from widgets.canvas.theme import theme_for
from widgets.role_style import port_color

_ARROW = 7.0
LONG_EDGE = 1200.0  # scene px: a line longer than ~4 columns of nodes (coarse pictures draw it from an image)
_REACH = 40.0  # how far an edge runs straight out of / into its port


class EdgeItem(QGraphicsRectItem):
    # attributes in slots, not a per-item dict: ~0.3 KB less an edge (15,000 edges: ~5 MB)
    __slots__ = (
        "_arrow",
        "_arrow_box",
        "_curve",
        "_ends",
        "_hit",
        "_line",
        "bounds",
        "box",
        "edge",
        "edge_id",
        "long",
        "mark",
        "port_type",
        "severity",
        "source",
        "target",
    )
    Z = -1.0  # under the nodes, over the comments

    def __init__(self, edge: Edge, source: NodeItem, target: NodeItem) -> None:
        super().__init__()
        self.edge = edge
        self.edge_id = edge.id
        self.source = source
        self.target = target
        self.setFlags(_FLAGS)
        self.setZValue(self.Z)
        self.mark: ItemMark | None = None  # the edge's validation problems, if any
        self.severity: Severity | None = None  # the mark's severity (looked up per frame by the layer)
        self._place()

    def update_path(self) -> None:
        """Recompute the curve from the current port positions of both nodes."""
        self.repaint()
        self._place()
        self.repaint()

    def _place(self) -> None:
        """Where the edge runs, as numbers: its ends, how far its curve bends, the depth of a loop back;
        the item's rect is the curve's control-point box (its index entry). The curve, line, arrow and hit
        shape are built from these when first asked for (most edges are never drawn as a curve)."""
        source, target = self.source, self.target
        px, py, self.port_type = source.port_place(self.edge.source_port, True)
        qx, qy, _ = target.port_place(self.edge.target_port, False)
        sx, sy, ex, ey = source.x() + px, source.y() + py, target.x() + qx, target.y() + qy
        if ex >= sx + 10:
            dx = max((ex - sx) / 2, min(_REACH, abs(ey - sy) / 2))
            low = None
            left, right = min(sx, ex - dx), max(sx + dx, ex)
            top, bottom = min(sy, ey), max(sy, ey)
        else:  # a loop back (revise) or a target behind the source: go around under both nodes
            dx = _REACH
            low = max(source.y() + source.rect().bottom(), target.y() + target.rect().bottom()) + 24
            left, right = min(ex - _REACH, ex), max(sx + _REACH, sx)
            top, bottom = min(sy, ey), max(sy, ey, low)
        self._ends = (sx, sy, ex, ey, dx, low)
        self.long = math.hypot(ex - sx, ey - sy) > LONG_EDGE  # its line is longer than `LONG_EDGE`
        self._curve: QPainterPath | None = None
        self._line: QLineF | None = None
        self._arrow: QPolygonF | None = None
        self._arrow_box: QRectF | None = None
        self._hit: QPainterPath | None = None
        self.setRect(left, top, right - left, bottom - top)
        # scene bounds (the item sits at the origin; a level edge has no height: widen it) for batch look-ups
        self.bounds = QRectF(left - 1, top - 1, right - left + 2, bottom - top + 2)
        self.box = (left - 1, top - 1, right + 1, bottom + 1)  # the same as numbers: batch look-ups in Python

    @property
    def curve(self) -> QPainterPath:
        """The edge's curve in scene coordinates (built when first drawn)."""
        if self._curve is None:
            sx, sy, ex, ey, dx, low = self._ends
            path = QPainterPath(QPointF(sx, sy))
            if low is None:
                path.cubicTo(sx + dx, sy, ex - dx, ey, ex, ey)
            else:
                path.cubicTo(sx + dx, sy, sx + dx, low, sx + dx, low)
                path.lineTo(ex - dx, low)
                path.cubicTo(ex - dx, low, ex - dx, ey, ex, ey)
            self._curve = path
        return self._curve

    @property
    def arrow_box(self) -> QRectF:
        """The box of the arrow head at the target port."""
        if self._arrow_box is None:
            ex, ey = self._ends[2], self._ends[3]
            tip_x = ex - PORT_RADIUS
            self._arrow_box = QRectF(tip_x - _ARROW - 1, ey - _ARROW / 2 - 1, _ARROW + 1, _ARROW + 2)
        return self._arrow_box

    @property
    def arrow(self) -> QPolygonF:
        """The arrow head at the target port (built when first drawn: most edges never show one)."""
        if self._arrow is None:
            box = self.arrow_box
            self._arrow = QPolygonF([QPointF(box.right(), box.center().y()), box.topLeft(), box.bottomLeft()])
        return self._arrow

    def set_mark(self, mark: ItemMark | None) -> None:
        """Show these validation problems on the edge (None: no problems) and redraw it."""
        self.mark = mark
        self.severity = mark.severity if mark else None
        self.setToolTip(with_mark("", mark))
        self.repaint()

    def repaint(self) -> None:
        """Ask the scene to redraw this edge's area (Qt skips items without contents)."""
        scene = self.scene()
        if scene is not None:
            scene.repaint_edge_area(self.bounds.adjusted(-2, -2, 2, 2))  # type: ignore[attr-defined]

    def shape(self) -> QPainterPath:
        if self._hit is None:
            stroker = QPainterPathStroker()
            stroker.setWidth(10)
            self._hit = stroker.createStroke(self.curve)
        return self._hit

    def line(self) -> QLineF:
        """The straight segment between the two ports (low level of detail, minimap)."""
        if self._line is None:
            sx, sy, ex, ey = self._ends[:4]
            self._line = QLineF(sx, sy, ex, ey)
        return self._line


_FLAGS = QGraphicsItem.GraphicsItemFlag.ItemIsSelectable | QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
NO_PEN = QPen(Qt.PenStyle.NoPen)
NO_BRUSH = QBrush(Qt.BrushStyle.NoBrush)
_STYLES: dict[tuple[str, bool, bool, Severity | None], tuple[QPen, QBrush]] = {}


def edge_style(port_type: str, dark: bool, selected: bool, severity: Severity | None = None) -> tuple[QPen, QBrush]:
    """Pen and arrow brush of an edge, cached (looked up for every visible edge each frame)."""
    key = (port_type, dark, selected, severity)
    style = _STYLES.get(key)
    if style is None:
        theme = theme_for(dark)
        if selected:
            color = theme.selection
        elif severity:
            color = mark_color(theme, severity)
        else:
            color = port_color(port_type, dark)
        pen = QPen(color, 2.5 if selected else 2.0 if severity else 1.0)
        if severity and not selected:
            pen.setStyle(Qt.PenStyle.DashLine)  # a broken line: not mistaken for a red (verdict) port colour
        pen.setCosmetic(True)  # a 1 px cosmetic pen takes Qt's fast stroker: ~6x faster on long curves
        style = _STYLES[key] = (pen, QBrush(color))
    return style
