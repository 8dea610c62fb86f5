""""Press Run" benchmark (offscreen): from Run to the first node lit on the canvas, in the real window.

Each sample is a fresh process (what a person meets the first time they press Run after opening the
app): the window opens on the triad example as `triadic gui` opens it (`app.gui.open_window`, the store
warmed as `launch` does), a 5 ms ticker watches the GUI loop, and Run is pressed — F5, the inputs
dialog, its Run button — either `after_hover` (the pointer rests on the Run button 1 s first, which
starts loading what a run needs: `app.preload.RunWarmup`) or `at_once` (F5 right after the window
shows: the load starts with the dialog and the run waits for the rest of it). The clock runs from the dialog's Run button to the canvas's run layer painting a node in a
state other than queued (the planner running).

Figures (medians over SAMPLES processes each; `/proc/loadavg` beside):
- `press_run_first_node_ms` (`after_hover`, target ≤ 150 ms) and `press_run_first_node_at_once_ms`;
- `press_run_loop_stall_max_ms`: the longest the ticker was late from pressing Run to the run's end;
- `preload_loop_stall_max_ms`: the longest it was late while the tokenizer tables loaded in the
  background after the hover (the tables are built in one C call holding the GIL).

Run: `.venv/bin/python -m tests.perf.bench_gui_run` (prints JSON lines).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SAMPLES = 5
TRIAD = Path(__file__).resolve().parents[2] / "resources" / "examples" / "triad.triadic.json"


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": round(value, 2), "unit": unit, **extra}), flush=True)


class Ticker:
    """How late a 5 ms asyncio sleep wakes on the GUI loop, per window of time."""

    def __init__(self) -> None:
        self.late: list[tuple[float, float]] = []  # (when, ms late)
        self.task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            self.late.append((now, (now - start - 0.005) * 1000))

    def worst(self, start: float, end: float) -> float:
        return max((ms for when, ms in self.late if start <= when <= end), default=0.0)


def one_sample(mode: str) -> dict[str, Any]:
    from PySide6.QtCore import QSettings

    folder = tempfile.mkdtemp(prefix="triadic-bench-run-")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, folder)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    from app.event_loop import create_event_loop
    from app.gui import application, open_window
    app = application()
    loop = create_event_loop(app)
    window = open_window(str(TRIAD), db=str(Path(folder) / "trace.db"))
    while window.files.opening:  # the file is read off the GUI thread: the run starts on it
        app.processEvents()
        time.sleep(0.001)
    window.resize(1500, 950)
    layer = window.scene.run.layer
    lit: list[float] = []
    paint = type(layer).paint

    def watched_paint(painter: Any, option: Any, widget: Any = None) -> None:
        paint(layer, painter, option, widget)
        if not lit and any(d.state != "queued" for d in window.scene.run.decor.values()):
            lit.append(time.perf_counter())

    layer.paint = watched_paint  # type: ignore[method-assign]

    async def scenario() -> dict[str, Any]:
        ticker = Ticker()
        shown = time.perf_counter()
        window.runs.warm_up()  # as `app.gui.launch` does once the window shows
        if mode == "after_hover":
            window.actions_by_name["run"].hover()  # the pointer on Run: what a run needs starts loading
            await asyncio.sleep(1.0)
        loading = window.runs.warmup.loading
        preloaded_by = time.perf_counter() if loading is not None and loading.done() else None
        window.actions_by_name["run"].trigger()
        dialog = window.inputs_dialog
        assert dialog is not None
        pressed = time.perf_counter()
        dialog.accept()
        while not lit:
            await asyncio.sleep(0.001)
        first = (lit[0] - pressed) * 1000
        live = window.runs.selected
        assert live is not None
        await live.task
        ended = time.perf_counter()
        loading = window.runs.warmup.loading
        spent = await loading if loading is not None else {}
        ticker.task.cancel()
        return {"first_node_ms": first, "run_stall_ms": ticker.worst(pressed, ended),
                "preload_stall_ms": ticker.worst(shown, preloaded_by or pressed) if mode == "after_hover" else None,
                "status": live.projection.status, "preload_s": spent}

    result = loop.run_until_complete(scenario())
    window.document.undo_stack.setClean()
    window.close()
    return result


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        print(json.dumps(one_sample(sys.argv[2])), flush=True)
        return
    results: dict[str, list[dict[str, Any]]] = {"after_hover": [], "at_once": []}
    for _ in range(SAMPLES):
        for mode in results:
            done = subprocess.run([sys.executable, "-m", "tests.perf.bench_gui_run", "--one", mode],
                                  capture_output=True, text=True, check=True)
            results[mode].append(json.loads(done.stdout.strip().splitlines()[-1]))
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else ""
    idle, at_once = results["after_hover"], results["at_once"]
    common = {"samples": SAMPLES, "loadavg": load, "example": "triad"}
    emit("press_run_first_node_ms", statistics.median(r["first_node_ms"] for r in idle), "ms", target=150,
         runs=[round(r["first_node_ms"], 1) for r in idle], **common)
    emit("press_run_first_node_at_once_ms", statistics.median(r["first_node_ms"] for r in at_once), "ms",
         runs=[round(r["first_node_ms"], 1) for r in at_once], **common)
    emit("press_run_loop_stall_max_ms", statistics.median(r["run_stall_ms"] for r in idle), "ms",
         runs=[round(r["run_stall_ms"], 1) for r in idle], **common)
    emit("preload_loop_stall_max_ms", statistics.median(r["preload_stall_ms"] for r in idle), "ms",
         runs=[round(r["preload_stall_ms"], 1) for r in idle],
         tokenizer_s=[{k: round(v, 3) for k, v in r["preload_s"].items()} for r in idle[:1]], **common)


if __name__ == "__main__":
    main()
