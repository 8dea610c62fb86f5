"""The frames of the open-run benchmark (`bench_open_run`), in the window that opened the run: the Trace
dock scrolled a page a frame (every execution expanded) and the Timeline dock panned (12 px drags) and
zoomed (wheel notches of 120 at the centre), each frame rendered; docked in the window's own layout and
floating at 1600×600. Zoom twice: with no events between notches (stand-ins run out, rebuilds land in
a frame) and with the event loop running 50 ms between them, as under a hand on the wheel.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QPainter, QWheelEvent
from PySide6.QtWidgets import QApplication

FRAMES = 120
NOTCH_GAP_S = 0.05


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(json.dumps({"name": name, "value": round(value, 2), "unit": unit, **extra, "loadavg": " ".join(load)}),
          flush=True)


def frame_stats(name: str, frames: list[float], **extra: object) -> None:
    ordered = sorted(frames)
    emit(name, statistics.median(ordered), "ms", p95_ms=round(ordered[int(len(ordered) * 0.95)], 2),
         frames=len(ordered), target_ms=16, **extra)


def give_room(window: Any, name: str, floating: bool) -> None:
    """Raise the dock and give it room: docked, the bottom area as tall as the window's layout lets it
    (every dock shown at 1600×900 leaves it ~140 px); floating, pulled out to 1600×600."""
    dock = window.docks[name]
    build = getattr(dock.widget(), "build", None)  # a dock whose panel is built on first show (app.lazy_dock)
    if callable(build):
        build()
    dock.setFloating(floating)
    dock.show()
    dock.raise_()
    if floating:
        dock.resize(1600, 600)
    else:
        window.resizeDocks([dock], [450], Qt.Orientation.Vertical)
    QApplication.processEvents()


def bench_trace(window: Any, floating: bool) -> None:
    give_room(window, "trace", floating)
    panel = window.runs.views.panels["trace"]
    panel.model.fetch_all()
    panel.view.expandAll()
    QApplication.processEvents()
    viewport, bar = panel.view.viewport(), panel.view.verticalScrollBar()
    image = QImage(viewport.size(), QImage.Format.Format_ARGB32_Premultiplied)
    step, value, frames, cpu = max(1, bar.pageStep()), 0, [], []
    for _ in range(FRAMES):
        value = value + step if value + step <= bar.maximum() else 0
        t0, c0 = time.perf_counter(), time.process_time()
        bar.setValue(value)
        viewport.render(image)
        frames.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    frame_stats(f"open_run_trace_scroll_frame_ms{'_floating' if floating else ''}", frames,
                cpu_median_ms=round(statistics.median(cpu), 2), rows=panel.model.rows_known,
                viewport=f"{viewport.width()}x{viewport.height()}")


def bench_timeline(window: Any, floating: bool) -> None:
    give_room(window, "timeline", floating)
    panel = window.runs.views.panels["timeline"]
    QApplication.processEvents()
    plot = panel.plot
    image = QImage(plot.viewport().size(), QImage.Format.Format_ARGB32_Premultiplied)

    def render() -> None:
        painter = QPainter(image)
        plot.render(painter, source=plot.viewport().rect())
        painter.end()

    panel._on_fit_clicked()
    render()
    panel.item.wait_idle()
    QApplication.processEvents()
    step = panel.view_box.viewPixelSize()[0] * 12
    pans = []
    for _ in range(FRAMES):
        t0 = time.perf_counter()
        panel.view_box.translateBy(x=step)
        render()
        pans.append((time.perf_counter() - t0) * 1000)
    suffix = "_floating" if floating else ""
    frame_stats(f"open_run_timeline_pan_frame_ms{suffix}", pans, spans=panel.arrays.count,
                viewport=f"{plot.viewport().width()}x{plot.viewport().height()}")
    centre = QPointF(plot.viewport().width() / 2, plot.viewport().height() / 2)
    for looping in (False, True):
        panel._on_fit_clicked()
        render()
        zooms = []
        for direction in [1] * 20 + [-1] * 20:
            event = QWheelEvent(centre, plot.viewport().mapToGlobal(centre), QPoint(0, 0),
                                QPoint(0, 120 * direction), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                                Qt.ScrollPhase.NoScrollPhase, False)
            t0 = time.perf_counter()
            QApplication.sendEvent(plot.viewport(), event)
            render()
            zooms.append((time.perf_counter() - t0) * 1000)
            until = time.perf_counter() + (NOTCH_GAP_S if looping else 0.0)
            while time.perf_counter() < until:  # the loop runs between notches, as under a hand on the wheel
                QApplication.processEvents()
                time.sleep(0.002)
        frame_stats(f"open_run_timeline_zoom_frame_ms{suffix}{'' if looping else '_no_loop'}", zooms,
                    notches=len(zooms), loop_between_notches_ms=NOTCH_GAP_S * 1000 if looping else 0)
