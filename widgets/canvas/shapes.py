"""Outline paths of node boxes, one per role shape name (see `widgets.role_style`).

Invariant: every path fits inside the given rectangle, so the node's bounding rect stays exact;
an unknown shape name gives a plain rectangle.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainterPath, QPolygonF


def _polygon(points: list[tuple[float, float]]) -> QPainterPath:
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
    path.closeSubpath()
    return path


def outline_path(shape: str, r: QRectF) -> QPainterPath:
    """The outline of a node box of `shape` filling rectangle `r`."""
    x0, y0, x1, y1 = r.left(), r.top(), r.right(), r.bottom()
    cut = min(14.0, r.height() / 3)
    path = QPainterPath()
    if shape == "rounded":
        path.addRoundedRect(r, 10, 10)
    elif shape == "pill":
        radius = min(r.height() / 2, 22.0)
        path.addRoundedRect(r, radius, radius)
    elif shape in ("octagon", "hexagon"):
        side = cut if shape == "octagon" else 0.0
        mid = (y0 + y1) / 2
        if shape == "hexagon":
            return _polygon([(x0 + cut, y0), (x1 - cut, y0), (x1, mid), (x1 - cut, y1), (x0 + cut, y1), (x0, mid)])
        return _polygon([(x0 + side, y0), (x1 - side, y0), (x1, y0 + side), (x1, y1 - side),
                         (x1 - side, y1), (x0 + side, y1), (x0, y1 - side), (x0, y0 + side)])
    elif shape == "shield":
        return _polygon([(x0, y0), (x1, y0), (x1, y1 - cut), ((x0 + x1) / 2, y1), (x0, y1 - cut)])
    elif shape == "arrow":
        mid = (y0 + y1) / 2
        return _polygon([(x0, y0), (x1 - cut, y0), (x1, mid), (x1 - cut, y1), (x0, y1)])
    elif shape == "fan_out":
        return _polygon([(x0, y0 + cut / 2), (x1, y0), (x1, y1), (x0, y1 - cut / 2)])
    elif shape == "fan_in":
        return _polygon([(x0, y0), (x1, y0 + cut / 2), (x1, y1 - cut / 2), (x0, y1)])
    elif shape == "cut_corner":
        return _polygon([(x0, y0), (x1 - cut, y0), (x1, y0 + cut), (x1, y1), (x0, y1)])
    elif shape == "tab":
        return _polygon([(x0, y0), (x0 + r.width() * 0.4, y0), (x0 + r.width() * 0.4 + 6, y0 + 5),
                         (x1, y0 + 5), (x1, y1), (x0, y1)])
    elif shape == "cylinder":
        rim = 6.0
        path.moveTo(x0, y0 + rim)
        path.cubicTo(x0, y0 - rim / 3, x1, y0 - rim / 3, x1, y0 + rim)
        path.lineTo(x1, y1 - rim)
        path.cubicTo(x1, y1 + rim / 3, x0, y1 + rim / 3, x0, y1 - rim)
        path.closeSubpath()
    else:  # rect, double and anything unknown
        path.addRect(r)
    return path
