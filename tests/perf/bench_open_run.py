"""Open a past run, as a person feels it: a stored run of ~100,000 events (5,000 node executions on 200
lanes, `tests.perf.synthetic_run`) opened in the REAL window (`MainWindow`, every dock of
`app.run_docks.RUN_DOCKS` shown, offscreen 1600×900, the qasync loop running) through
`window.runs.open_stored_run(run_id)`, the workflow version it ran with stored beside it.

Figures (medians over REPEATS opens of the same run, closed between; `/proc/loadavg` beside):
- `open_run_first_picture_ms`: from the call to the open's end, then every dock painted (the window's
  `grab()` and each run dock's widget grabbed, the tabbed-away ones too) (target < 1000 ms);
- `open_run_loop_stall_max_ms`: how late a 5 ms ticker on the GUI loop woke during the open (target ≤ 50 ms),
  the forced paint of every dock included (it is one GUI-thread block); `..._before_paint_ms`: the same until
  the open returned (read + project in the worker, the docks given the run); `open_run_paint_every_dock_ms`:
  that forced paint alone (the window and all 13 docks, the tabbed-away ones too: more than a person sees);
- `open_run_peak_rss_mb`: the process's peak RSS sampled every 5 ms by a thread (target < 500 MB), with
  the RSS before the first open beside;
- then, in that window, on the open run: `open_run_trace_scroll_frame_ms` (the Trace dock, every execution
  expanded, a page step a frame, the viewport rendered; median and p95, target ≤ 16 ms) and
  `open_run_timeline_pan_frame_ms` / `open_run_timeline_zoom_frame_ms[_no_loop]` (the Timeline dock: 12 px
  drags, wheel notches of 120 at the centre, each frame rendered; see `open_run_frames`); each docked in
  the window's own layout (the bottom area ~140 px tall with every dock shown) and again `_floating`
  (the dock pulled out to 1600×600).

Run: `.venv/bin/python -m tests.perf.bench_open_run` (prints JSON lines).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from engine.graph.convert import workflow_to_dict
from engine.graph.generate import generate_workflow
from tests.perf.open_run_frames import bench_timeline, bench_trace, emit
from tests.perf.synthetic_run import synthetic_run

REPEATS = 3
SIZE = (1600, 900)
RUN_ID = "bench-open-run"


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def store_run(db: Path) -> int:
    from engine.store.store import TraceStore

    events = synthetic_run(RUN_ID)
    store = TraceStore(db)
    store.save_workflow(workflow_to_dict(generate_workflow(200, seed=1)), workflow_hash="cd" * 32)
    writer = store.writer()
    writer.append_many(events)
    writer.close()
    store.close()
    return len(events)


async def one_open(window: Any) -> dict[str, float]:
    """Open the run, wait for it, paint every dock; the loop's stalls and the peak RSS meanwhile."""
    stalls: list[float] = []
    peak = [rss_mb()]
    done = asyncio.Event()
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], rss_mb())
            time.sleep(0.005)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()

    async def ticker() -> None:
        while not done.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.005)
            stalls.append((time.perf_counter() - start - 0.005) * 1000)

    tick = asyncio.ensure_future(ticker())
    await asyncio.sleep(0.05)
    t0 = time.perf_counter()
    opened = await window.runs.open_stored_run(RUN_ID)
    assert opened == RUN_ID, opened
    open_stall = max(stalls, default=0.0)  # the open itself (read + project in the worker, then shown)
    t_paint = time.perf_counter()
    await asyncio.sleep(0)  # the loop's pass: Qt's posted events (layouts, updates) — never a nested processEvents
    window.grab()
    for dock in window.docks.values():
        dock.widget().grab()
    first_picture = (time.perf_counter() - t0) * 1000
    paint_all = (time.perf_counter() - t_paint) * 1000
    await asyncio.sleep(0.05)  # a stall left for just after the picture counts too
    done.set()
    await tick
    stop.set()
    sampler.join()
    return {"first_picture": first_picture, "stall_max": max(stalls), "open_stall": open_stall,
            "paint_all": paint_all, "peak_rss": peak[0]}


def window_with_stored_run(prefix: str) -> tuple[Any, Any, int]:
    """(window, its qasync loop, events stored): the real main window, every dock shown, with the collection
    policy the app runs it with, over a fresh store (settings in a throwaway folder) holding the synthetic
    100k-event run."""
    folder = tempfile.mkdtemp(prefix=prefix)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, folder)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    db = Path(folder) / "trace.db"
    count = store_run(db)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    from app.document import Document
    from app.event_loop import create_event_loop
    from app.gui_collector import GuiThreadCollector
    from app.main_window import MainWindow
    from engine.graph.model import Workflow

    GuiThreadCollector(app)  # the window's own collection policy (`app.gui.launch`): cycles collected on its timer
    loop = create_event_loop(app)  # type: ignore[arg-type]
    window = MainWindow(Document(Workflow()), db=str(db))
    window.resize(*SIZE)
    window.show()
    for dock in window.docks.values():
        dock.show()
    return window, loop, count


def main() -> None:
    window, loop, count = window_with_stored_run("triadic-bench-open-")
    base_rss = rss_mb()

    async def opens() -> list[dict[str, float]]:
        await window.runs.store()
        await asyncio.sleep(0.3)
        results = []
        for repeat in range(REPEATS):
            if repeat:
                window.runs.close_run(RUN_ID)
                await asyncio.sleep(0.3)
            results.append(await one_open(window))
        return results

    results = loop.run_until_complete(opens())
    common = {"events": count, "executions": 5000, "lanes": 200, "repeats": REPEATS,
              "window": f"{SIZE[0]}x{SIZE[1]}", "docks": len(window.docks)}
    for key, name, unit, target in (("first_picture", "open_run_first_picture_ms", "ms", 1000),
                                    ("stall_max", "open_run_loop_stall_max_ms", "ms", 50),
                                    ("open_stall", "open_run_loop_stall_before_paint_ms", "ms", 50),
                                    ("paint_all", "open_run_paint_every_dock_ms", "ms", 1000),
                                    ("peak_rss", "open_run_peak_rss_mb", "MB", 500)):
        values = [r[key] for r in results]
        extra = {"rss_before_mb": round(base_rss, 1)} if key == "peak_rss" else {}
        emit(name, statistics.median(values), unit, target=target, runs=[round(v, 1) for v in values],
             **common, **extra)
    for floating in (False, True):
        bench_trace(window, floating)
        bench_timeline(window, floating)
        window.docks["trace"].setFloating(False)
        window.docks["timeline"].setFloating(False)
    window.document.undo_stack.setClean()
    window.close()
    loop.close()


if __name__ == "__main__":
    main()
