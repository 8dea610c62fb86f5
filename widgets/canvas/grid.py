"""The canvas background: a plain fill with a 24 px grid of 1 px lines from zoom 0.5 up.

At zoom 1 (the usual one) the grid is one fill with a brush of a single grid cell, cached per
theme; at other zooms it is drawn in device pixels (`_paint_scaled_grid`), never as ~150
hairlines a frame. Both give the same pixels as hairlines would: at zoom 1 a cell is the
background with the grid colour on its top and left edges.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QBrush, QImage, QPainter, QPen, QTransform

from widgets.canvas.theme import CanvasTheme

GRID = 24.0
_TILES: dict[bool, tuple[CanvasTheme, QBrush]] = {}


def paint_grid(painter: QPainter, rect: QRectF, theme: CanvasTheme) -> None:
    """Fill `rect` (scene coordinates) with the background and, from zoom 0.5, the grid."""
    scale = painter.worldTransform().m11()
    if abs(scale - 1.0) < 1e-6:  # zoom 1 up to float error (a zoom in then out lands near 1)
        painter.fillRect(rect, _tile(theme))
        return
    if scale < 0.5:
        painter.fillRect(rect, theme.background)
        return
    _paint_scaled_grid(painter, rect, theme)


def _paint_scaled_grid(painter: QPainter, rect: QRectF, theme: CanvasTheme) -> None:
    """The grid at a zoom other than 1, in device pixels, with the same pixels as 1 px hairlines.

    Hairlines are slow here: a steep one costs ~60 ns a pixel on the raster engine (~7 ms a frame
    for the vertical grid lines alone). Instead one row holding the background and the vertical
    lines' pixels is tiled down the area (a plain copy per row) and the horizontal lines are
    filled as 1 px rows.
    """
    transform = painter.worldTransform()
    scale = transform.m11()
    device = transform.mapRect(rect).toAlignedRect()
    if device.isEmpty():
        return
    left = int(rect.left() // GRID) * GRID
    top = int(rect.top() // GRID) * GRID
    row = QImage(device.width(), 1, QImage.Format.Format_RGB32)
    row.fill(theme.background)
    grid = theme.grid.rgb()
    for x in _steps(left, rect.right()):
        column = math.floor(x * scale + transform.dx()) - device.left()
        if 0 <= column < device.width():
            row.setPixel(column, 0, grid)
    brush = QBrush(row)
    brush.setTransform(QTransform.fromTranslate(device.left(), 0))
    painter.save()
    painter.resetTransform()
    painter.fillRect(device, brush)
    for y in _steps(top, rect.bottom()):
        painter.fillRect(QRect(device.left(), math.floor(y * scale + transform.dy()), device.width(), 1), theme.grid)
    painter.restore()


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
