"""The Timeline and Cost & tokens docks re-shown at earlier moments of a 100,000-event run, as playback
does on each move back (`app.controllers.playback`): the run at a seq is made from the checkpoints, each
dock's `RunPanel.prepare` builds from it (in the worker, timed apart), then on the GUI thread the dock is
given it (`use_prepared`, `clock_running = False`, `set_projection`) and the loop's next pass paints it.

The run is the synthetic 100,000-event one (`tests.perf.synthetic_run`: 5,000 executions on 200 lanes)
stored and read back as `bench_open_run` / `bench_playback` do; each dock is a shown top-level panel of
the size it has in a roomy window (Timeline 1400×420, Cost 700×640), offscreen. The docks are first given
the whole run (as an opened run), then 20 seqs from 95 % down to 5 % of the run, in rounds: each seq is
shown in one dock, then the other.

Figures (JSON lines, `/proc/loadavg` beside), per dock, median / p95 / max over the 20 moves:
- `playback_reshow_<dock>_gui_ms`: GUI thread, from `use_prepared` to the paint done (`set_projection`
  then one `processEvents` pass: posted updates and the paint) — target ≤ 10 ms (six other docks share
  the 50 ms frame); `set_ms` and `paint_ms` beside, and `cpu_ms`: the GUI thread's CPU time for the
  same (steadier than wall time on a shared machine);
- `playback_reshow_<dock>_prepare_ms`: the dock's `prepare` of that moment (worker thread);
- `playback_step_forward_<dock>_gui_ms`: from each of those moments, a step forward as playback makes it
  (the moment folded on `STEP_EVENTS` events on the GUI thread, the fold not counted, then the dock's
  `apply_changes` and the paint): wall and CPU, median / p95.

Run: `.venv/bin/python -m tests.perf.bench_playback_docks` (prints JSON lines).
"""

from __future__ import annotations

import gc
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from engine.projection import RunProjection
from engine.projection.checkpoints import ProjectionCheckpoints, position_after
from tests.perf.bench_open_run import RUN_ID, store_run
from tests.perf.open_run_frames import emit
from widgets.cost import CostPanel
from widgets.run_panel import RunPanel
from widgets.timeline import TimelinePanel

MOVES = 20
STEP_EVENTS = 1_500  # a forward step of playing at 100x (the run's pace ~1,400 events/s) in a 10 ms tick
SIZES = {"timeline": (1400, 420), "cost": (700, 640)}


def stored_events() -> list[object]:
    """The synthetic run stored and read back, as an opened run's events are."""
    from engine.store.store import TraceStore

    db = Path(tempfile.mkdtemp(prefix="triadic-bench-docks-")) / "trace.db"
    store_run(db)
    store = TraceStore(db)
    events = list(store.iter_events(RUN_ID))
    store.close()
    return events


def show(panel: RunPanel, projection: RunProjection) -> tuple[float, float, float, float]:
    """(prepare ms in the worker's place, set_projection ms, paint ms, GUI-thread CPU ms of both) of `panel`
    given `projection` (what the other dock left for the loop is done first, untimed: each dock's figure is
    its own)."""
    QApplication.processEvents()
    t0 = time.perf_counter()
    prepared = type(panel).prepare(projection)
    t1, cpu = time.perf_counter(), time.thread_time()
    panel.use_prepared(prepared)
    panel.clock_running = False
    panel.set_projection(projection)
    t2 = time.perf_counter()
    QApplication.processEvents()  # the loop's pass: posted scene updates, layouts, the paint
    t3 = time.perf_counter()
    return (t1 - t0) * 1000, (t2 - t1) * 1000, (t3 - t2) * 1000, (time.thread_time() - cpu) * 1000


def step_forward(panel: RunPanel, moment: RunProjection, events: list[object]) -> tuple[float, float, float, float]:
    """(0, apply_changes ms, paint ms, GUI-thread CPU ms of both) of `panel` following `moment` folded on."""
    start = position_after(events, moment.last_seq)  # type: ignore[arg-type]
    moment.apply_many(events[start:start + STEP_EVENTS])  # type: ignore[arg-type]
    changes = moment.take_changes()
    QApplication.processEvents()
    t1, cpu = time.perf_counter(), time.thread_time()
    panel.apply_changes(changes)
    t2 = time.perf_counter()
    QApplication.processEvents()
    t3 = time.perf_counter()
    return 0.0, (t2 - t1) * 1000, (t3 - t2) * 1000, (time.thread_time() - cpu) * 1000


def figures(name: str, samples: list[tuple[float, float, float, float]], **common: object) -> None:
    gui = sorted(s + p for _, s, p, _ in samples)
    cpu = sorted(c for *_, c in samples)
    sets = sorted(s for _, s, _, _ in samples)
    paints = sorted(p for _, _, p, _ in samples)
    prepares = sorted(w for w, *_ in samples)

    def p95(values: list[float]) -> float:
        return round(values[min(len(values) - 1, int(len(values) * 0.95))], 2)

    emit(f"{name}_gui_ms", statistics.median(gui), "ms", p95_ms=p95(gui), max_ms=round(gui[-1], 2),
         set_ms=round(statistics.median(sets), 2), set_p95_ms=p95(sets), paint_ms=round(statistics.median(paints), 2),
         paint_p95_ms=p95(paints), cpu_ms=round(statistics.median(cpu), 2), cpu_p95_ms=p95(cpu), target_ms=10,
         moves=len(samples), **common)
    if any(prepares):
        emit(f"{name}_prepare_ms", statistics.median(prepares), "ms", p95_ms=p95(prepares),
             thread="worker", moves=len(samples), **common)


def main() -> None:
    app = QApplication.instance() or QApplication([])
    events = stored_events()
    whole = RunProjection()
    whole.apply_many(events)  # type: ignore[arg-type]
    whole.take_changes()
    checkpoints = ProjectionCheckpoints()
    checkpoints.extend(events)  # type: ignore[arg-type]
    gc.freeze()  # as playback does once its checkpoints are built: the run's objects out of the collector's passes
    panels: dict[str, RunPanel] = {"timeline": TimelinePanel(), "cost": CostPanel()}
    for name, panel in panels.items():
        panel.resize(*SIZES[name])
        panel.show()
        app.processEvents()
        show(panel, whole)  # the opened run, whole
    last = whole.last_seq
    seqs = [int(last * (0.95 - 0.9 * i / (MOVES - 1))) for i in range(MOVES)]
    samples: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name in panels}
    steps: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name in panels}
    for seq in seqs:
        for name, panel in panels.items():
            moment = checkpoints.at(events, seq)  # type: ignore[arg-type]
            samples[name].append(show(panel, moment))
            steps[name].append(step_forward(panel, moment, events))
    common = {"events": len(events), "spans": len(whole.span_table.spans), "lanes": 200}
    for name, panel in panels.items():
        size = "x".join(map(str, SIZES[name]))
        figures(f"playback_reshow_{name}", samples[name], size=size, **common)
        figures(f"playback_step_forward_{name}", steps[name], size=size, step_events=STEP_EVENTS, **common)
        panel.close()


if __name__ == "__main__":
    main()
