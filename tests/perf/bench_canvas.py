"""Canvas benchmark: frame times of the real window, driven through its event loop as a person would.

The window is `MainWindow` (palette, inspector, problems panel, minimap) at 1600×1000 on a graph of
5,000 nodes of every role with ~3 edges a node, a third of them long-range (`canvas_graphs`).
Gestures (`canvas_window.WindowDriver`: real events to the canvas, the loop running between them):
- `wheel`: notches of `angleDelta` 120 (the app's 20 % step), 40–80 ms apart, 16 in from fit then
  16 out, under three mouse positions;
- `trackpad`: pixel-delta scrolls in phases (begin, 40 updates 12 ms apart, end), in then out;
- `pan_1` / `pan_025`: middle-button drags (60 moves 16 ms apart) at zoom 1 and 0.25;
- `fit`: the F key from zoom 1 at several places; `fit_after_edit`: the same right after a node was
  moved there;
- `drag_1`, `drag_05`, `drag_025`, `drag_fit`: a node with many edges dragged (60 moves 16 ms apart)
  at zoom 1, 0.5, 0.25 and at fit.
For each: median, p95 and max frame (input → painted, busy loop time), the first full-quality frame
after the gesture (`settle`), and the longest busy period in the 0.9 s after it (`after_max`,
e.g. validation after a drag). Targets: ≤ 16 ms median, ≤ 33 ms p95, settle ≤ 33 ms.

Run: `.venv/bin/python -m tests.perf.bench_canvas [nodes ...]` (default 5000; prints JSON lines).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QPointF, QSettings, Qt
from PySide6.QtWidgets import QApplication

from tests.perf.canvas_graphs import long_edge_workflow
from tests.perf.canvas_window import Gesture, WindowDriver, open_window

_PRESS, _MOVE, _RELEASE = QEvent.Type.MouseButtonPress, QEvent.Type.MouseMove, QEvent.Type.MouseButtonRelease
_SPOTS = (QPointF(0.5, 0.5), QPointF(0.3, 0.35), QPointF(0.7, 0.65))  # where the mouse is, of the viewport


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": round(value, 2), "unit": unit, **extra}), flush=True)


def loadavg() -> str:
    path = Path("/proc/loadavg")
    return " ".join(path.read_text().split()[:3]) if path.exists() else ""


def spot(driver: WindowDriver, fraction: QPointF) -> QPointF:
    rect = driver.viewport.rect()
    return QPointF(rect.width() * fraction.x(), rect.height() * fraction.y())


def wheel(driver: WindowDriver, gesture: Gesture) -> None:
    for fraction in _SPOTS:
        driver.view.fit_to_view()
        driver.idle(600)
        pos = spot(driver, fraction)
        driver.hover(pos)
        for direction in (120, -120):
            for i in range(16):
                gesture.frames.append(driver.wheel(pos, direction))
                driver.gap(40 if i % 2 else 80, gesture)
            driver.rest(gesture)


def trackpad(driver: WindowDriver, gesture: Gesture) -> None:
    begin, update, end = Qt.ScrollPhase.ScrollBegin, Qt.ScrollPhase.ScrollUpdate, Qt.ScrollPhase.ScrollEnd
    for fraction in _SPOTS[:2]:
        driver.view.fit_to_view()
        driver.idle(600)
        pos = spot(driver, fraction)
        driver.hover(pos)
        for sign in (1, -1):
            driver.wheel(pos, 0, 0, begin)
            for _ in range(40):
                gesture.frames.append(driver.wheel(pos, 16 * sign, 8 * sign, update))
                driver.gap(12, gesture)
            driver.wheel(pos, 0, 0, end)
            driver.rest(gesture)


def pan_at(zoom: float) -> Callable[[WindowDriver, Gesture], None]:
    def pan(driver: WindowDriver, gesture: Gesture) -> None:
        view = driver.view
        for fraction in _SPOTS:
            view.set_zoom(zoom)
            view.centerOn(view.canvas_scene().content_rect().center())
            driver.idle(600)
            pos = spot(driver, fraction)
            driver.mouse(_PRESS, pos, Qt.MouseButton.MiddleButton, paints=False)
            for i in range(60):
                pos = pos + QPointF(-12 if i < 30 else 12, -5)
                gesture.frames.append(driver.mouse(_MOVE, pos, Qt.MouseButton.MiddleButton))
                driver.gap(16, gesture)
            driver.mouse(_RELEASE, pos, Qt.MouseButton.MiddleButton, paints=False)
            driver.rest(gesture)
    return pan


def fit(driver: WindowDriver, gesture: Gesture) -> None:
    view = driver.view
    center = view.canvas_scene().content_rect().center()
    for i in range(8):
        view.set_zoom(1.0)
        view.centerOn(center + QPointF((i - 4) * 1500.0, (i % 3 - 1) * 1200.0))
        driver.idle(600)
        gesture.frames.append(driver.key(Qt.Key.Key_F, "f"))
        driver.rest(gesture)


def fit_after_edit(driver: WindowDriver, gesture: Gesture) -> None:
    """F right after a person moved a node at zoom 1 (the edit's validation and minimap done meanwhile)."""
    view = driver.view
    scene = view.canvas_scene()
    window = driver.window
    nodes = list(window.document.workflow.nodes.values())  # type: ignore[attr-defined]
    for i in range(8):
        node = nodes[(i * 613) % len(nodes)]
        view.set_zoom(1.0)
        view.centerOn(scene.node_items[node.id])
        driver.idle(300)
        window.editor.move_nodes({node.id: (node.ui.x, node.ui.y)},  # type: ignore[attr-defined]
                                 {node.id: (node.ui.x + 30.0, node.ui.y + 20.0)})
        driver.idle(600)
        gesture.frames.append(driver.key(Qt.Key.Key_F, "f"))
        driver.rest(gesture)


def drag_at(zoom: float | None) -> Callable[[WindowDriver, Gesture], None]:
    def drag(driver: WindowDriver, gesture: Gesture) -> None:
        view = driver.view
        scene = view.canvas_scene()
        hubs = sorted(scene.node_items, key=lambda i: -len(scene.edges_of(i)))[:3]
        for node_id in hubs:
            if zoom is None:
                view.fit_to_view()
            else:
                view.set_zoom(zoom)
                view.centerOn(scene.node_items[node_id])
            driver.idle(600)
            item = scene.node_items[node_id]
            pos = QPointF(view.mapFromScene(item.body_rect().center() + item.pos()))
            gesture.frames.append(driver.mouse(_PRESS, pos, Qt.MouseButton.LeftButton))
            for i in range(60):
                pos = pos + QPointF(4 if i < 40 else -4, 3 if i % 2 else -2)
                gesture.frames.append(driver.mouse(_MOVE, pos, Qt.MouseButton.LeftButton))
                driver.gap(16, gesture)
            gesture.frames.append(driver.mouse(_RELEASE, pos, Qt.MouseButton.LeftButton))
            driver.rest(gesture)
    return drag


GESTURES: dict[str, Callable[[WindowDriver, Gesture], None]] = {
    "wheel": wheel, "trackpad": trackpad, "pan_1": pan_at(1.0), "pan_025": pan_at(0.25), "fit": fit,
    "fit_after_edit": fit_after_edit,
    "drag_1": drag_at(1.0), "drag_05": drag_at(0.5), "drag_025": drag_at(0.25), "drag_fit": drag_at(None),
}


def report(name: str, n: int, gesture: Gesture) -> None:
    frames = sorted(gesture.frames)
    p95 = frames[min(len(frames) - 1, int(len(frames) * 0.95))]
    settle = gesture.settle or [0.0]
    emit(f"canvas_{name}_frame_median_{n}", statistics.median(frames), "ms", target_ms=16, p95_ms=round(p95, 1),
         p95_target_ms=33, max_ms=round(frames[-1], 1), frames=len(frames),
         settle_median_ms=round(statistics.median(settle), 1), settle_max_ms=round(max(settle), 1),
         settle_target_ms=33, after_max_ms=round(max(gesture.after or [0.0]), 1), loadavg=loadavg())


def main(argv: list[str]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="triadic-bench-canvas-"))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    wanted = [a for a in argv if not a.isdigit()]
    for n in [int(a) for a in argv if a.isdigit()] or [5000]:
        workflow = long_edge_workflow(n)
        started = time.perf_counter()
        window = open_window(workflow, folder)
        driver = WindowDriver(window)
        driver.idle(50)
        emit(f"canvas_window_shown_{n}", (time.perf_counter() - started) * 1000, "ms",
             edges=len(workflow.edges), loadavg=loadavg())
        driver.idle(1500)  # start-up timers (validation, minimap, preloads) have fired
        for name, run in GESTURES.items():
            if wanted and name not in wanted:
                continue
            gesture = Gesture()
            run(driver, gesture)
            report(name, n, gesture)
        window.document.undo_stack.setClean()  # type: ignore[attr-defined]
        window.close()  # type: ignore[attr-defined]
    del app


if __name__ == "__main__":
    main(sys.argv[1:])
