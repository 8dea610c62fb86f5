"""The canvas tests' shared helpers: `render(view)`, what a canvas view shows painted into an image, and
`large_canvas(qtbot)`, a shown view on a graph with more edges than the overview strokes at far zoom."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QImage, QPainter

from engine.graph.generate import generate_workflow
from engine.graph.model import Workflow
from widgets.canvas import CanvasScene, CanvasView
from widgets.canvas.overview import MAX_FAR_EDGES


def render(view: CanvasView) -> QImage:
    """The view's viewport as a person sees it, painted through `QGraphicsView.render`."""
    image = QImage(view.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    view.render(painter)
    painter.end()
    return image


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
