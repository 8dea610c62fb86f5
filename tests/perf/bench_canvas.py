"""Canvas benchmark (offscreen): open time, frame times while panning / zooming / dragging, memory.

For 1,000 and 5,000 generated nodes (2 edges per node):
- open: read and parse a saved generated workflow file → build the scene → first paint of a 1600×1000
  viewport (generating and saving the file happens before the clock);
- frames: each frame renders the whole 1600×1000 viewport 1:1 into a 1600×1000 QImage (the view
  is sized so that its viewport, inside the scroll bars, is exactly that; no on-screen caches help),
  median and p95 over FRAMES frames of a pan at zoom 1, a zoom sweep from 1.5 down to the fit
  zoom and back, and a node drag at zoom 1 (the node moves, its edges are recomputed);
  no events are processed between frames, so — as during a real gesture — the view stays in its
  `moving` state (edges without antialiasing, straight below zoom 1; zoomed nodes drawn from
  snapshots); `pan_rest` is the same pan with the view brought to rest before every frame (the
  full-quality frame a user sees once the gesture stops);
- each figure is a wall-clock median with the CPU-time median beside it (the machines are shared);
- auto layout: `layered_layout` of the whole generated graph (grandalf Sugiyama), median of 3;
- memory: tracemalloc peak of Python allocations while opening, and ru_maxrss after.
Targets: open < 2 s at 5,000 nodes; ≤ 16 ms median frame.

Run: `.venv/bin/python -m tests.perf.bench_canvas` (prints JSON lines).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from engine.graph.format import dumps_workflow, load_workflow
from engine.graph.generate import generate_workflow
from engine.graph.layout import layered_layout
from widgets.canvas import CanvasScene, CanvasView

FRAMES = 240
SIZE = (1600, 1000)


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": round(value, 2), "unit": unit, **extra}), flush=True)


class Clock:
    """Wall and CPU time of one frame: the box is shared, so CPU time is the steadier figure."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def stop(self) -> tuple[float, float]:
        return (time.perf_counter() - self.wall) * 1000, (time.process_time() - self.cpu) * 1000


def render(view: CanvasView, image: QImage) -> float:
    started = time.perf_counter()
    painter = QPainter(image)
    view.render(painter)
    painter.end()
    return (time.perf_counter() - started) * 1000


def workflow_file(n: int, folder: Path) -> Path:
    """A generated workflow of `n` nodes saved as a file (made before the clock starts: not part of opening)."""
    path = folder / f"generated-{n}.triadic.json"
    path.write_text(dumps_workflow(generate_workflow(n, edges_per_node=2, seed=1)), encoding="utf-8")
    return path


def open_canvas(path: Path) -> tuple[CanvasView, float, float, float]:
    """What File → Open does: read and parse the file, build the scene and the view, paint the first frame."""
    clock = Clock()
    workflow = load_workflow(path)
    scene = CanvasScene(workflow)
    view = CanvasView(scene)
    view.resize(*SIZE)
    view.show()
    frame = view.size() - view.viewport().size()  # scroll bars and frame around the viewport
    view.resize(SIZE[0] + frame.width(), SIZE[1] + frame.height())  # the viewport itself is SIZE
    view.fit_to_view()
    QApplication.processEvents()
    image = QImage(*SIZE, QImage.Format.Format_ARGB32_Premultiplied)
    first_paint = render(view, image)
    wall, cpu = clock.stop()
    return view, wall, cpu, first_paint


def frame_stats(name: str, n: int, frames: list[tuple[float, float]]) -> None:
    wall = sorted(w for w, _ in frames)
    cpu = sorted(c for _, c in frames)
    p95 = wall[min(len(wall) - 1, int(len(wall) * 0.95))]
    emit(f"canvas_{name}_frame_median_{n}", statistics.median(wall), "ms", p95_ms=round(p95, 2),
         cpu_median_ms=round(statistics.median(cpu), 2), frames=len(wall), target_ms=16)


def pan(view: CanvasView, image: QImage, rest: bool = False) -> list[tuple[float, float]]:
    view.set_zoom(1.0)
    start = view.canvas_scene().content_rect().center()
    times = []
    for i in range(FRAMES):
        clock = Clock()
        view.centerOn(start + QPointF(i * 12.0, i * 5.0))
        if rest:
            view.canvas_scene().set_moving(False)
        render(view, image)
        times.append(clock.stop())
    return times


def zoom(view: CanvasView, image: QImage) -> list[tuple[float, float]]:
    view.fit_to_view()
    low = view.zoom()
    half = FRAMES // 2
    levels = [1.5 * (low / 1.5) ** (i / half) for i in range(half)]
    times = []
    for level in levels + levels[::-1]:
        clock = Clock()
        view.set_zoom(level)
        render(view, image)
        times.append(clock.stop())
    return times


def drag(view: CanvasView, image: QImage) -> list[tuple[float, float]]:
    scene = view.canvas_scene()
    view.set_zoom(1.0)
    node_id = max(scene.node_items, key=lambda i: len(scene.edges_of(i)))
    item = scene.node_items[node_id]
    origin = item.pos()
    view.centerOn(item)
    view.set_fast(True)
    times = []
    for i in range(FRAMES):
        clock = Clock()
        item.setPos(origin + QPointF((i % 60) * 4.0, (i % 40) * 3.0))
        scene.update_edges([node_id])
        render(view, image)
        times.append(clock.stop())
    view.set_fast(False)
    item.setPos(origin)
    scene.update_edges([node_id])
    return times


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv)
    image = QImage(*SIZE, QImage.Format.Format_ARGB32_Premultiplied)
    folder = Path(tempfile.mkdtemp())
    for n in (1000, 5000):
        path = workflow_file(n, folder)
        opens = [open_canvas(path)[1:] for _ in range(3)]
        emit(f"canvas_open_{n}", statistics.median(o[0] for o in opens), "ms", target_ms=2000 if n == 5000 else None,
             cpu_ms=round(statistics.median(o[1] for o in opens), 2),
             first_paint_ms=round(statistics.median(o[2] for o in opens), 2))
        tracemalloc.start()
        view = open_canvas(path)[0]
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        emit(f"canvas_open_python_alloc_peak_{n}", peak / 2**20, "MiB")
        emit(f"canvas_process_maxrss_after_{n}", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "MiB")
        frame_stats("pan", n, pan(view, image))
        frame_stats("pan_rest", n, pan(view, image, rest=True))
        frame_stats("zoom", n, zoom(view, image))
        frame_stats("drag", n, drag(view, image))
        workflow = view.canvas_scene().workflow
        layouts = []
        for _ in range(3):
            clock = Clock()
            layered_layout(workflow)
            layouts.append(clock.stop())
        emit(f"layout_{n}", statistics.median(w for w, _ in layouts), "ms",
             cpu_ms=round(statistics.median(c for _, c in layouts), 2), target_ms=1000 if n == 1000 else None)
    del app


if __name__ == "__main__":
    main()
