"""Benchmark of the one projection of a run: fold speed, and opening a stored 100,000-event run.

Figures (JSON lines): events folded per second (live fold of a synthetic ~100k-event run, 200 lanes,
5,000 executions); time to read the stored run back (off the GUI thread in the window) and fold it —
the engine's share of "open a past run"; the run as it was at event N (playback's cost per seek);
tracemalloc peak of the folded projection. Medians over repeats; the machine's load beside them.

Run: `.venv/bin/python -m tests.perf.bench_projection`
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from engine.projection import project
from engine.store import TraceStore
from tests.perf.synthetic_run import synthetic_run

REPEATS = 5


def _emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit, "load": os.getloadavg()[0], **extra}),
          flush=True)


def main() -> None:
    events = synthetic_run("bench-run")
    fold = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        p = project(events)
        fold.append(time.perf_counter() - t0)
    _emit("projection_fold_events_per_s", len(events) / statistics.median(fold), "events/s", events=len(events),
          spans=len(p.span_table.spans))
    tracemalloc.start()
    project(events)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    _emit("projection_peak_memory", peak / 2**20, "MiB", events=len(events))
    seeks = []
    for i in range(REPEATS):
        t0 = time.perf_counter()
        project(events, until_seq=len(events) * (i + 1) // (REPEATS + 1))
        seeks.append(time.perf_counter() - t0)
    _emit("projection_seek_from_start_ms", statistics.median(seeks) * 1000, "ms", note="fold from event 1 to N")
    with tempfile.TemporaryDirectory() as tmp:
        with TraceStore(Path(tmp) / "t.db") as store, store.writer() as writer:
            writer.append_many(events)
        opened = []
        for _ in range(REPEATS):
            t0 = time.perf_counter()
            with TraceStore(Path(tmp) / "t.db") as store:
                project(store.iter_events("bench-run"))
            opened.append(time.perf_counter() - t0)
        _emit("open_stored_run_read_and_fold_ms", statistics.median(opened) * 1000, "ms", events=len(events),
              target="< 1000 ms to the first full picture, views included")


if __name__ == "__main__":
    main()
