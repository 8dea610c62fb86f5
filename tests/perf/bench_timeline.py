"""Timeline and Cost & tokens docks benchmark (offscreen, 1600×900).

Timeline, on a stored-run projection of 100,000 spans on 200 lanes (5,000 node executions with 19
model calls each; see `synthetic_run.big_run`):
- first picture: `set_projection` of the already-projected run → the first rendered frame (building
  the projection from the events is reported beside, it is shared by every dock);
- full render: the whole run in view, the cached picture (and kept coverage strips) dropped before every
  frame (coverage mode),
  and the same zoomed to ~2 % of the run (exact rectangles);
- pan: drags of 12 px a frame at three zooms (whole run, 10 %, 1 %), each frame rendered;
- wheel zoom: real wheel notches (120, ~20 % each) in and out at the view's centre, each frame rendered:
  with the event loop running 50 ms between notches (the worker's pictures arrive as they would under
  a hand on the wheel), and with no events between frames (`_no_loop`: stand-ins run out, rebuilds).
Each frame renders the plot's viewport 1:1 into a QImage (`QGraphicsView.render`), no events processed
between frames (the worker's exact picture is not waited for). Medians and p95 over repeated frames;
wall and CPU time.
Cost & tokens: a live run emitting 10,000 events/s (model calls with 20 streamed deltas each, budget
updates, verdicts, memory writes across 200 nodes) folded in flushes of 300 events 30 ms apart (real
time): the panel's `apply_changes` per flush, and the GUI work per flush (that, then the loop's own
work: the timers due — the rate-limited redraws — and the paints); the Timeline's the same.
`loadavg_1m` is printed beside every figure: the machine is shared.

Run: `.venv/bin/python -m tests.perf.bench_timeline`
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QPainter, QWheelEvent
from PySide6.QtWidgets import QApplication

from engine.projection import RunProjection, project
from tests.perf.synthetic_spans import big_run, live_stream
from widgets.cost import CostPanel
from widgets.timeline import TimelinePanel

SIZE = (1600, 900)
FRAMES = 120
NOTCH_GAP_S = 0.05
FLUSH_S = 0.03


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    load = round(os.getloadavg()[0], 2)
    print(json.dumps({"name": name, "value": round(value, 2), "unit": unit, **extra, "loadavg_1m": load}), flush=True)


def stats(name: str, samples: list[tuple[float, float]], **extra: object) -> None:
    wall = sorted(w for w, _ in samples)
    cpu = sorted(c for _, c in samples)
    p95 = wall[min(len(wall) - 1, int(len(wall) * 0.95))]
    emit(name, statistics.median(wall), "ms", p95_ms=round(p95, 2), cpu_median_ms=round(statistics.median(cpu), 2),
         frames=len(wall), target_ms=16, **extra)


def timed(action: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def render(panel: TimelinePanel, image: QImage) -> None:
    painter = QPainter(image)
    panel.plot.render(painter, source=panel.plot.viewport().rect())
    painter.end()


def timeline_panel() -> tuple[TimelinePanel, QImage]:
    panel = TimelinePanel()
    panel.show()
    panel.resize(*SIZE)
    plot = panel.plot
    extra = panel.size() - plot.viewport().size()
    panel.resize(SIZE[0] + extra.width(), SIZE[1] + extra.height())  # the plot's viewport itself is 1600×900
    QApplication.processEvents()
    vp = plot.viewport().size()
    return panel, QImage(vp.width(), vp.height(), QImage.Format.Format_ARGB32_Premultiplied)


def zoom_to(panel: TimelinePanel, fraction: float, centre: float) -> None:
    lo, hi = panel.arrays.extent(panel.item.now)
    width = (hi - lo) * fraction
    panel.view_box.setXRange(centre - width / 2, centre + width / 2, padding=0)


def bench_timeline() -> None:
    events = big_run()
    wall = time.perf_counter()
    projection = project(events)
    emit("timeline_projection_build_100k_spans", (time.perf_counter() - wall) * 1000, "ms",
         events=len(events), spans=len(projection.span_table.spans), note="shared by every dock")
    panel, image = timeline_panel()
    first = timed(lambda: (panel.set_projection(projection), render(panel, image)))
    emit("timeline_first_picture_100k_spans", first[0], "ms", cpu_ms=round(first[1], 2),
         spans=panel.arrays.count, lanes=len(panel.arrays.lane_ids), target_ms=1000)
    lo, hi = panel.arrays.extent(panel.item.now)
    mid = (lo + hi) / 2

    def fresh() -> None:
        panel.item._picture = None
        panel.item.strip_source = None  # nor the coverage strips kept for a run that no longer changes
        render(panel, image)

    for label, fraction in (("whole_run", 1.0), ("2pct", 0.02)):
        zoom_to(panel, fraction, mid) if fraction < 1 else panel._on_fit_clicked()
        render(panel, image)
        samples = [timed(fresh) for _ in range(FRAMES // 4)]
        stats(f"timeline_full_render_{label}_100k_spans", samples, exact=bool(panel.item._picture.exact))

    for label, fraction in (("whole_run", 1.0), ("10pct", 0.1), ("1pct", 0.01)):
        if fraction < 1:
            zoom_to(panel, fraction, mid)
        else:
            panel._on_fit_clicked()
        render(panel, image)
        panel.item.wait_idle()
        QApplication.processEvents()
        step = panel.view_box.viewPixelSize()[0] * 12
        before = panel.item.rebuilds

        def pan_frame(step: float = step) -> None:
            panel.view_box.translateBy(x=step)
            render(panel, image)

        samples = [timed(pan_frame) for _ in range(FRAMES)]
        stats(f"timeline_pan_frame_{label}_100k_spans", samples, rebuilds=panel.item.rebuilds - before)

    panel._on_fit_clicked()
    render(panel, image)
    centre = QPointF(panel.plot.viewport().width() / 2, panel.plot.viewport().height() / 2)
    samples = []
    deepest = hi - lo
    before, stretched = panel.item.rebuilds, panel.item.stretched
    for direction in [1] * 20 + [-1] * 20 + [1] * 20 + [-1] * 20:
        def wheel(direction: int = direction) -> None:
            event = QWheelEvent(centre, panel.plot.viewport().mapToGlobal(centre), QPoint(0, 0),
                                QPoint(0, 120 * direction), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                                Qt.ScrollPhase.NoScrollPhase, False)
            QApplication.sendEvent(panel.plot.viewport(), event)
            render(panel, image)

        samples.append(timed(wheel))
        x_range = panel.view_box.viewRange()[0]
        deepest = min(deepest, x_range[1] - x_range[0])
    stats("timeline_wheel_zoom_frame_no_loop_100k_spans", samples, notches=len(samples), rebuilds=panel.item.rebuilds - before,
          stretched=panel.item.stretched - stretched,
          note=f"20 notches in, 20 out, twice; deepest view {deepest:.2f} s of {hi - lo:.0f} s")
    samples = []
    before, stretched = panel.item.rebuilds, panel.item.stretched
    for direction in [1] * 20 + [-1] * 20 + [1] * 20 + [-1] * 20:
        def notch(direction: int = direction) -> None:
            event = QWheelEvent(centre, panel.plot.viewport().mapToGlobal(centre), QPoint(0, 0),
                                QPoint(0, 120 * direction), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                                Qt.ScrollPhase.NoScrollPhase, False)
            QApplication.sendEvent(panel.plot.viewport(), event)
            panel.plot.viewport().repaint()  # the window's own paint, as the loop would do it

        samples.append(timed(notch))
        until = time.perf_counter() + NOTCH_GAP_S  # the loop runs between notches, as under a hand on the wheel
        while time.perf_counter() < until:
            QApplication.processEvents()
            time.sleep(0.002)
    stats("timeline_wheel_zoom_frame_100k_spans", samples, notches=len(samples), rebuilds=panel.item.rebuilds - before,
          stretched=panel.item.stretched - stretched, note=f"event loop running {NOTCH_GAP_S * 1000:.0f} ms between notches")
    panel.close()


def bench_live(make: Callable[[], CostPanel | TimelinePanel], name: str) -> None:
    """10 s of a run at 10,000 events/s, flushed every 30 ms in real time: per flush, the panel's
    `apply_changes`, then the loop's own work for it (its timers: rate-limited redraws; the paints)."""
    panel = make()
    panel.resize(*SIZE)
    panel.show()
    QApplication.processEvents()
    projection = RunProjection()
    panel.set_projection(projection)
    per_flush = 300  # 10,000 events/s in 30 ms flushes
    batch: list[object] = []
    updates, totals = [], []
    next_flush = time.perf_counter() + FLUSH_S
    for event in live_stream(seconds=10.0, rate=10_000):
        batch.append(event)
        if len(batch) < per_flush:
            continue
        projection.apply_many(batch)  # type: ignore[arg-type]
        batch.clear()
        changes = projection.take_changes()
        wall, cpu = time.perf_counter(), time.process_time()
        panel.apply_changes(changes)
        updates.append(((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000))
        QApplication.processEvents()  # what the loop does next: timers due (rate-limited redraws), paints
        totals.append(((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000))
        pause = next_flush - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        next_flush += FLUSH_S
    stats(f"{name}_apply_changes_per_flush_10k_events_s", updates, events_per_flush=per_flush,
          flushes=len(updates), events=projection.last_seq)
    stats(f"{name}_gui_work_per_flush_10k_events_s", totals, flushes=len(totals),
          max_ms=round(max(w for w, _ in totals), 2),
          note="apply_changes + the loop's work after it (timers due, paints of the 1600x900 panel), flushes 30 ms apart")
    panel.close()


def main() -> None:
    QApplication.instance() or QApplication([])
    bench_timeline()
    bench_live(CostPanel, "cost_panel")
    bench_live(TimelinePanel, "timeline_live")


if __name__ == "__main__":
    main()
