"""The canvas background: a plain fill with a 24 px grid of hairlines from zoom 0.5 up.

At zoom 1 (the usual one) the grid is one fill with a brush of a single grid cell, cached per
theme, instead of ~100 hairlines a frame; at other zooms the hairlines are drawn. Both give the
same pixels at zoom 1: a cell is the background with the grid colour on its top and left edges.
"""

from __future__ import annotations

from PySide6.QtCore import QLineF, QRectF
from PySide6.QtGui import QBrush, QImage, QPainter, QPen

from widgets.canvas.theme import CanvasTheme

GRID = 24.0
_TILES: dict[bool, tuple[CanvasTheme, QBrush]] = {}


def paint_grid(painter: QPainter, rect: QRectF, theme: CanvasTheme) -> None:
    """Fill `rect` (scene coordinates) with the background and, from zoom 0.5, the grid."""
    scale = painter.worldTransform().m11()
    if abs(scale - 1.0) < 1e-6:  # zoom 1 up to float error (a zoom in then out lands near 1)
        painter.fillRect(rect, _tile(theme))
        return
    painter.fillRect(rect, theme.background)
    if scale < 0.5:
        return
    left = int(rect.left() // GRID) * GRID
    top = int(rect.top() // GRID) * GRID
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)  # axis-aligned hairlines
    painter.setPen(QPen(theme.grid, 0))
    lines = [QLineF(x, rect.top(), x, rect.bottom()) for x in _steps(left, rect.right())]
    lines += [QLineF(rect.left(), y, rect.right(), y) for y in _steps(top, rect.bottom())]
    painter.drawLines(lines)


def _tile(theme: CanvasTheme) -> QBrush:
    cached = _TILES.get(theme.dark)
    if cached is None or cached[0] is not theme:
        cell = int(GRID)
        image = QImage(cell, cell, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(theme.background)
        painter = QPainter(image)
        painter.setPen(QPen(theme.grid, 0))
        painter.drawLine(0, 0, cell - 1, 0)
        painter.drawLine(0, 0, 0, cell - 1)
        painter.end()
        cached = _TILES[theme.dark] = (theme, QBrush(image))
    return cached[1]


def _steps(start: float, stop: float) -> list[float]:
    count = max(0, int((stop - start) // GRID) + 1)
    return [start + i * GRID for i in range(count)]
