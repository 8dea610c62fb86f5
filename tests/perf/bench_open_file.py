"""Open a 5,000-node file and edit it, as a person feels it, in the real window with its docks.

- open: File → Open (the controller's `open_path`, what the dialog's OK runs) of a saved 5,000-node
  workflow (~15,000 edges, many long-range, every role, critics looping back) in the shown main
  window, until the first full picture: the file parsed and schema-checked (on the file-reading
  thread, the loop running meanwhile), the scene built, the inspector and minimap updated, the
  Problems panel holding this file's validation, and the window painted (`grab`). Phases are split
  out (parse + schema check + build the model, scene, inspector, validation, paint;
  `document_replaced_ms` is when the open was done — the canvas showing the file whole;
  `scene_built_ms` when the scene's items were all built, from the open's start; `scene_ms` the time
  inside `set_workflow`, its first slice when the build is sliced); `open_loop_stall_max_ms` is the
  longest the event loop could not run a 5 ms ticker from the open's start until the Problems panel
  was current. Median of REPEATS (`first`: the first open in the process, as `triadic gui FILE` does it:
  numpy imported, the first density image built), with the CPU time of the process beside the wall time (the machine
  is shared).
- edits: a burst of EDITS edits (moves, renames, connects), one every EDIT_GAP_MS through the loop,
  on the open file: each edit's GUI-thread cost (the edit call until it returns), the time until
  the Problems panel and canvas marks show a validation of the edited graph, and the loop's
  longest stall during the burst;
- memory: the process's resident size RESTED_S after each open (`open_rss_after_mb`, median; what the
  window holds with the file open once the open's aftermath is done: validation, minimap, the
  band's edge image built at rest, freed memory given back; until 2026-11-26 it was read right
  after the open, in the middle of that aftermath; `each` lists the REPEATS values: a rise from open to
  open is something a replaced document left behind) and its peak over the whole bench
  (`open_rss_peak_mb`: it includes generating and writing the file in this process). Each open
  follows a File ▸ New, and the bench waits with the event loop running (`settle`), as the window
  does between a person's actions: until 2026-11-26 it only processed events, and Qt never deleted the
  views New retired, nor the document they held.
- the real window's memory (`window_rss_after_open_mb`, median of REPEATS fresh processes,
  `tests/perf/window_rss.py`): `triadic gui FILE` as a person starts it the first time (the store
  opened, the default layout), its resident size RESTED_WINDOW_S after the file is open; the figure the
  target is about. The in-window figure above has no store and no loop of `launch`.
Targets: open < 1 s, each edit ≤ 16 ms on the GUI thread, Problems/marks current ≤ 200 ms, RSS < 250 MB.

Run: `.venv/bin/python -m tests.perf.bench_open_file` (JSON lines). Cold start: `tests.perf.bench_startup`.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from engine.graph.format import dumps_workflow
from engine.graph.model import Workflow
from tests.perf.large_workflow import large_workflow
from tests.perf.open_file_probes import Phases, ProblemsWatch, Ticker, settle
from tests.perf.window_rss import RESTED_S as RESTED_WINDOW_S
from tests.perf.window_rss import measure as measure_window

NODES = 5000
REPEATS = 3
EDITS = 30
EDIT_GAP_MS = 120
RESTED_S = 1.5


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": round(value, 2), "unit": unit, **extra}), flush=True)


def open_once(app: QApplication, window: Any, path: str, watch: ProblemsWatch) -> dict[str, float]:
    window.document.replace(Workflow())
    settle(app, 0.3)
    import app.controllers.background_open as background_open

    phases = Phases()
    phases.wrap(background_open, "load_workflow", "parse_schema_build_ms")  # on the file-reading thread
    phases.wrap(window.scene, "set_workflow", "scene_ms")  # the first slice (before slicing: the whole build)
    built: list[float] = []
    on_built = window.scene.workflow_replaced.connect(lambda: built.append(time.perf_counter()))
    phases.wrap(window.inspector, "set_workflow", "inspector_ms")
    phases.wrap(window.minimap, "redraw", "minimap_ms")
    ticker = Ticker()
    ticker.start()
    cpu, start = time.process_time(), time.perf_counter()
    window.files.open_path(path)
    returned = time.perf_counter()
    while window.files.opening:  # read off the GUI thread, the canvas built in slices; the loop runs meanwhile
        app.processEvents()
        time.sleep(0.001)
    assert window.document.path == path, "the open failed"
    replaced = time.perf_counter()
    validated = start + watch.wait_after(start, app)
    app.processEvents()
    paint = time.perf_counter()
    window.grab()
    done = time.perf_counter()
    stall = ticker.stop()
    phases.restore()
    window.scene.workflow_replaced.disconnect(on_built)
    figures = {name: value * 1000 for name, value in phases.spent.items()}
    figures["scene_built_ms"] = (built[-1] - start) * 1000
    figures.update(open_total_ms=(done - start) * 1000, open_cpu_ms=(time.process_time() - cpu) * 1000,
                   open_call_ms=(returned - start) * 1000, document_replaced_ms=(replaced - start) * 1000,
                   validation_done_ms=(validated - start) * 1000,
                   paint_ms=(done - paint) * 1000, open_loop_stall_max_ms=stall)
    return figures


def edit_burst(app: QApplication, window: Any, watch: ProblemsWatch) -> dict[str, list[float]]:
    """EDITS edits in turn (move, rename, connect), EDIT_GAP_MS apart; per-edit cost and latency."""
    workflow = window.document.workflow
    editor = window.editor
    nodes = list(workflow.nodes.values())
    executors = [n for n in nodes if n.role == "executor"]
    sources = [n for n in nodes if n.role == "executor"]
    costs: list[float] = []
    latencies: list[float] = []
    ticker = Ticker()
    ticker.start()
    for index in range(EDITS):
        kind = index % 3
        start = time.perf_counter()
        if kind == 0:
            node = nodes[(index * 131) % len(nodes)]
            old = {node.id: (node.ui.x, node.ui.y)}
            editor.move_nodes(old, {node.id: (node.ui.x + 37.0, node.ui.y + 11.0)})
        elif kind == 1:
            node = nodes[(index * 197) % len(nodes)]
            editor.set_title(node.id, f"Renamed {index}")
        else:
            source = sources[(index * 17) % len(sources)]
            target = executors[-1 - (index * 29) % (len(executors) // 2)]
            assert editor.connect_ports(source.id, "result", target.id, "context") is not None
        costs.append((time.perf_counter() - start) * 1000)
        latencies.append(watch.wait_after(start, app, limit_s=5.0) * 1000)
        settle(app, max(0.0, EDIT_GAP_MS / 1000 - (time.perf_counter() - start)))
    stall = ticker.stop()
    return {"cost": costs, "latency": latencies, "stall": [stall]}


def current_rss_mb() -> float:
    """The process's resident size now (Linux: /proc/self/statm), in MB."""
    resident_pages = int(Path("/proc/self/statm").read_text().split()[1])
    return resident_pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp(prefix="triadic-bench-open-"))
    from app.gui import application, open_window

    app = application()
    window = open_window(None)
    settle(app, 0.5)
    watch = ProblemsWatch(window)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "large.triadic.json")
        workflow = large_workflow(NODES)
        Path(path).write_text(dumps_workflow(workflow), encoding="utf-8")
        edges = len(workflow.edges)
        del workflow
        runs, rss_after = [], []
        for _ in range(REPEATS):
            runs.append(open_once(app, window, path, watch))
            settle(app, RESTED_S)  # the open's aftermath (validation, minimap, the band's image, freed memory) is done
            rss_after.append(current_rss_mb())
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        settle(app, 0.5)
        burst = edit_burst(app, window, watch)
        windows = [measure_window(path) for _ in range(REPEATS)]
    shape = {"nodes": NODES, "edges": edges, "repeats": REPEATS}
    for name in runs[0]:
        target = {"open_total_ms": 1000.0}.get(name)
        extra = {"target": target} if target else {}
        emit(f"open_{name}" if not name.startswith("open_") else name,
             statistics.median(r[name] for r in runs), "ms", **shape, **extra, first=round(runs[0][name], 1))
    emit("open_rss_after_mb", statistics.median(rss_after), "MB", target=250,
         each=[round(value, 1) for value in rss_after], **shape)  # growing from open to open: something kept
    emit("open_rss_peak_mb", rss, "MB", **shape)
    emit("window_rss_after_open_mb", statistics.median(w["rss_mb"] for w in windows), "MB", target=250,
         each=[w["rss_mb"] for w in windows], anon_mb=[w["rss_anon_mb"] for w in windows],
         shared_libraries_mb=[w["rss_file_mb"] for w in windows], rested_s=RESTED_WINDOW_S,
         run_modules_loaded=sorted({m for w in windows for m in w["run_modules_loaded"]}), **shape)
    emit("edit_gui_cost_median_ms", statistics.median(burst["cost"]), "ms", edits=EDITS, **shape)
    emit("edit_gui_cost_max_ms", max(burst["cost"]), "ms", target=16, edits=EDITS, **shape)
    emit("edit_problems_current_median_ms", statistics.median(burst["latency"]), "ms", edits=EDITS, **shape)
    emit("edit_problems_current_p95_ms", p95(burst["latency"]), "ms", target=200, edits=EDITS, **shape)
    emit("edit_loop_stall_max_ms", burst["stall"][0], "ms", edits=EDITS, gap_ms=EDIT_GAP_MS, **shape)
    emit("load_average_1min", os.getloadavg()[0], "", note="uptime's 1-minute load while this ran")
    window.document.undo_stack.setClean()
    window.close()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
