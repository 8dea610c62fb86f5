"""The canvas tests' shared helpers: `render(view)`, what a canvas view shows painted into an image;
`grab(view)`, its viewport painted through its paint event; `on_screen(view)`, what the window holds;
`mouse(view, …)` and `node_center(view, item)` to press, move and release on it; and
`large_canvas(qtbot)`, a shown view on a graph with more edges than the overview strokes at far zoom."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QImage, QMouseEvent, QPainter
from PySide6.QtWidgets import QApplication

from engine.graph.generate import generate_workflow
from engine.graph.model import Workflow
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.node_item import NodeItem
from widgets.canvas.overview import MAX_FAR_EDGES


def render(view: CanvasView) -> QImage:
    """The view's viewport as a person sees it, painted through `QGraphicsView.render`."""
    image = QImage(view.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    view.render(painter)
    painter.end()
    return image


def grab(view: CanvasView) -> QImage:
    """The viewport painted through its paint event, as the window paints it."""
    QApplication.processEvents()
    return view.viewport().grab().toImage()


def on_screen(view: CanvasView) -> QImage:
    """What the window holds on screen now: its backing store after the pending paints."""
    for _ in range(3):
        QApplication.processEvents()
    viewport = view.viewport()
    image = view.screen().grabWindow(view.winId()).toImage()
    return image.copy(QRect(viewport.mapTo(view, QPoint(0, 0)), viewport.size()))


def mouse(view: CanvasView, kind: QEvent.Type, at: QPointF, button: Qt.MouseButton) -> None:
    viewport = view.viewport()
    held = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseButtonRelease else button
    QApplication.sendEvent(viewport, QMouseEvent(kind, at, viewport.mapToGlobal(at), button, held,
                                                 Qt.KeyboardModifier.NoModifier))


def node_center(view: CanvasView, item: NodeItem) -> QPointF:
    return QPointF(view.mapFromScene(item.sceneBoundingRect().center()))


def large_canvas(qtbot: Any) -> tuple[Workflow, CanvasScene, CanvasView]:
    """1,300 nodes and ~3,900 edges (more than `MAX_FAR_EDGES`) in a shown 900×600 view."""
    wf = generate_workflow(1300, edges_per_node=3, seed=3)
    assert len(wf.edges) > MAX_FAR_EDGES
    scene = CanvasScene(wf)
    view = CanvasView(scene)
    scene.setParent(view)
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    return wf, scene, view
