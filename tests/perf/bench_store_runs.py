"""Benchmark of the trace store's size for 1,000 runs of the bundled examples (target < 100 MB) and
its bytes per event.

The six bundled examples run live on the simulated provider (latency off: the figure is about what is
stored, not about time), in turn, each run with its own seed so the simulated answers vary as a real
model's do, four runs at a time, every run recorded in one store exactly as `triadic run` records it.
Then the store is checkpointed (WAL folded into the file) and its size is taken: `value` is MB for the
1,000 runs, `bytes_per_event` the file's bytes over every event stored. The machine's load is printed
beside the figure.

Run: `.venv/bin/python -m tests.perf.bench_store_runs` (`RUNS=200` for a shorter pass)
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.graph.format import load_workflow
from engine.llm.sim import SimGateway
from engine.runtime import Run, compile_workflow
from engine.store import TraceStore

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
NAMES = ("triad", "research", "code_fix", "text_to_sql", "hanoi", "tools")
RUNS = int(os.environ.get("RUNS", "1000"))
AT_ONCE = 4
TARGET_MB = 100


def _emit(name: str, value: float, unit: str, **extra: Any) -> None:
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit, "load": os.getloadavg()[0],
                      "loadavg": Path("/proc/loadavg").read_text().strip(), **extra}), flush=True)


async def _one(store: TraceStore, index: int) -> tuple[str, int]:
    name = NAMES[index % len(NAMES)]
    wf = load_workflow(EXAMPLES / f"{name}.triadic.json")
    wf.settings.seed = index
    run = Run(compile_workflow(wf, base_dir=EXAMPLES), gateway=SimGateway(), store=store)
    result = await run.wait()
    return result.status, len(run.hub.history)


async def _fill(store: TraceStore) -> tuple[int, dict[str, int]]:
    events, statuses = 0, {}
    for start in range(0, RUNS, AT_ONCE):
        done = await asyncio.gather(*(_one(store, i) for i in range(start, min(start + AT_ONCE, RUNS))))
        for status, count in done:
            events += count
            statuses[status] = statuses.get(status, 0) + 1
    return events, statuses


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.db"
        t0 = time.perf_counter()
        with TraceStore(path) as store:
            events, statuses = asyncio.run(_fill(store))
            stored = len(store.list_runs(limit=RUNS + 1))
        seconds = time.perf_counter() - t0
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = path.stat().st_size + sum(p.stat().st_size for p in Path(tmp).glob("t.db-*"))
        _emit(f"store_size_{RUNS}_runs", size / 1e6, "MB", target_mb=TARGET_MB * RUNS / 1000, runs=stored,
              events=events, bytes_per_event=round(size / max(events, 1), 1),
              events_per_run=round(events / max(RUNS, 1), 1), statuses=statuses, wall_s=round(seconds, 1),
              examples=list(NAMES))


if __name__ == "__main__":
    main()
