"""`render(view)`: what a canvas view shows, painted into an image (the canvas tests' shared helper)."""

from __future__ import annotations

from PySide6.QtGui import QImage, QPainter

from widgets.canvas import CanvasView


def render(view: CanvasView) -> QImage:
    """The view's viewport as a person sees it, painted through `QGraphicsView.render`."""
    image = QImage(view.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    view.render(painter)
    painter.end()
    return image
