"""Trace, Call inspector and Events docks benchmark (offscreen), on a synthetic run of ~100,000 events
(5,000 node executions over 200 nodes, each one streamed model call, verdicts and memory writes).

- open: the run stored in a fresh TraceStore; read back (`iter_events`) and projected — both off the
  GUI thread in the window, reported apart — then `set_projection` on the three panels and the first
  paint of each (`repaint()` of a 1000×700 panel): `open_first_paint_ms` is the GUI-thread part;
  memory: RSS growth over the whole open (read + projection + panels) and ru_maxrss after;
- trace scroll: the Trace tree with every node execution expanded (~10,000 rows), a scroll of one
  page per frame down the tree, each frame rendered into a QImage; median and p95 of FRAMES frames
  (target ≤ 16 ms);
- events ingest: the run replayed live in real time at 10,000 events/s — a flush every 30 ms of 300
  events into the three panels (each `apply_changes` and a repaint), the Qt loop running between
  flushes (the Trace inserts a big tree's rows on a timer); median and p95 flush time, and the longest
  stall of the loop (a flush or one pass of the loop); the Events table's own flush time apart.
Medians over REPEATS runs where it makes sense; /proc/loadavg is printed beside the figures.

Run: `.venv/bin/python -m tests.perf.bench_trace_views` (prints JSON lines).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from engine.projection import RunProjection
from engine.store.store import TraceStore
from tests.widgets.trace_run_fixtures import synthetic_events
from widgets.call_inspector import CallInspectorPanel
from widgets.events_view import EventsPanel
from widgets.run_panel import RunPanel
from widgets.trace import TracePanel

FRAMES = 200
REPEATS = 3
FLUSH_EVENTS = 300  # 10,000 events/s in 30 ms flushes
SIZE = (1000, 700)


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": round(value, 2), "unit": unit, **extra}), flush=True)


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().strip()


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def panels() -> list[RunPanel]:
    out: list[RunPanel] = [TracePanel(), CallInspectorPanel(), EventsPanel()]
    for panel in out:
        panel.resize(*SIZE)
        panel.show()
    return out


def bench_open(app: QApplication, store: TraceStore, run_id: str) -> None:
    reads, projects, paints, growths = [], [], [], []
    for _ in range(REPEATS):
        before = rss_mb()
        t0 = time.perf_counter()
        events = list(store.iter_events(run_id))
        t1 = time.perf_counter()
        projection = RunProjection()
        projection.apply_many(events)
        projection.take_changes()
        t2 = time.perf_counter()
        shown = panels()
        app.processEvents()
        t3 = time.perf_counter()
        for panel in shown:
            panel.set_projection(projection)
            panel.repaint()
        t4 = time.perf_counter()
        growths.append(rss_mb() - before)
        reads.append((t1 - t0) * 1000)
        projects.append((t2 - t1) * 1000)
        paints.append((t4 - t3) * 1000)
        events_count = len(events)
        for panel in shown:
            panel.close()
            panel.deleteLater()
        app.processEvents()
    emit("open_read_events", statistics.median(reads), "ms", events=events_count, thread="worker")
    emit("open_project", statistics.median(projects), "ms", events=events_count, thread="worker")
    emit("open_first_paint", statistics.median(paints), "ms", panels=3, thread="gui", loadavg=loadavg())
    emit("open_rss_growth", statistics.median(growths), "MB", maxrss_mb=round(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1))


def bench_scroll(app: QApplication, events: list) -> None:  # type: ignore[type-arg]
    projection = RunProjection()
    projection.apply_many(events)
    panel = TracePanel()
    panel.resize(*SIZE)
    panel.show()
    panel.set_projection(projection)
    panel.model.fetch_all()
    panel.view.expandAll()
    app.processEvents()
    viewport = panel.view.viewport()
    image = QImage(viewport.size(), QImage.Format.Format_ARGB32_Premultiplied)
    bar = panel.view.verticalScrollBar()
    step = max(1, bar.pageStep())
    frames: list[float] = []
    cpu: list[float] = []
    value = 0
    for _ in range(FRAMES):
        value = value + step if value + step <= bar.maximum() else 0
        t0, c0 = time.perf_counter(), time.process_time()
        bar.setValue(value)
        viewport.render(image)
        frames.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    rows = panel.model.rows_known  # every span a row, every execution open
    emit("trace_scroll_frame_median", statistics.median(frames), "ms", p95=round(p95(frames), 2),
         cpu_median=round(statistics.median(cpu), 2), target_ms=16, rows=rows, frames=FRAMES, loadavg=loadavg())
    panel.close()


def bench_ingest(app: QApplication, events: list) -> None:  # type: ignore[type-arg]
    """Real time: a flush every 30 ms; between flushes the Qt loop runs (the Trace's timed inserts)."""
    medians, p95s, stalls, events_only, cpus = [], [], [], [], []
    for _ in range(REPEATS):
        projection = RunProjection()
        shown = panels()
        for panel in shown:
            panel.set_projection(projection)
        flushes, table, loop, cpu = [], [], [], []
        start = time.perf_counter()
        for number, first in enumerate(range(0, len(events), FLUSH_EVENTS)):
            projection.apply_many(events[first:first + FLUSH_EVENTS])
            changes = projection.take_changes()
            t0, c0 = time.perf_counter(), time.process_time()
            for panel in shown:
                t_panel = time.perf_counter()
                panel.apply_changes(changes)
                panel.repaint()
                if isinstance(panel, EventsPanel):
                    table.append((time.perf_counter() - t_panel) * 1000)
            flushes.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
            due = start + (number + 1) * FLUSH_EVENTS / 10_000
            while (now := time.perf_counter()) < due:
                app.processEvents()
                loop.append((time.perf_counter() - now) * 1000)
                time.sleep(0.001)
        medians.append(statistics.median(flushes))
        p95s.append(p95(flushes))
        stalls.append(max(max(flushes), max(loop, default=0.0)))
        events_only.append(statistics.median(table))
        cpus.append(statistics.median(cpu))
        assert shown[2].model.rowCount() == len(events)  # type: ignore[attr-defined]
        for panel in shown:
            panel.close()
            panel.deleteLater()
        app.processEvents()
    emit("ingest_flush_median", statistics.median(medians), "ms", p95=round(statistics.median(p95s), 2),
         cpu_median=round(statistics.median(cpus), 2),
         longest_stall=round(statistics.median(stalls), 2), events_per_flush=FLUSH_EVENTS, rate="10000/s",
         panels=3, budget_ms=30, loadavg=loadavg())
    emit("ingest_events_table_flush_median", statistics.median(events_only), "ms", events_per_flush=FLUSH_EVENTS)


def main() -> None:
    app = QApplication.instance() or QApplication([])
    events = synthetic_events()
    with tempfile.TemporaryDirectory() as tmp:
        store = TraceStore(Path(tmp) / "bench.db")
        writer = store.writer()
        writer.append_many(events)
        writer.flush()
        writer.close()
        emit("synthetic_run", len(events), "events", executions=5000, nodes=200)
        bench_open(app, store, events[0].run_id)  # type: ignore[arg-type]
        store.close()
    bench_scroll(app, events)  # type: ignore[arg-type]
    bench_ingest(app, events)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
