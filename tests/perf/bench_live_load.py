"""Live load benchmark (offscreen): a synthetic run emitting 10,000 events/s for 10 s into the full window.

The run is a `SyntheticRun` — a Run-shaped source (`app.controllers.live_run.RunSource`) with the real
`EventHub` and the real trace writer as its batch sink, exactly as `engine.runtime.run.Run` records —
emitting, across 200 nodes of a generated workflow (the canvas shows them), node executions of ~48
events each, 8 at a time: running, a model call with its streamed deltas (35 a call), its end with
tokens and cost, the node's output, a critic verdict every third execution, a memory write every
fourth, done. The real `MainWindow` follows it through `RunController.attach`, with EVERY dock of the
run docks registry (`app.run_docks.RUN_DOCKS`) open, so after the docks are merged it measures them all.

Figures (medians over REPEATS runs, each in the same window process; `/proc/loadavg` beside):
- `live_loop_stall_max_ms` / `live_loop_stall_p99_ms`: how late a 5 ms ticker on the GUI loop woke
  (targets ≤ 50 ms and ≤ 20 ms);
- `live_lag_max_ms` / `live_lag_p99_ms`: from an event's emission to the flush that handed it to the
  canvas and every dock having returned (target ≤ 100 ms);
- `live_events_shown_ratio`: events handed to the views / events emitted (target 1.0);
- `live_events_stored_ratio`: events in the store once the run ended / events emitted (target 1.0).

Run: `.venv/bin/python -m tests.perf.bench_live_load` (prints JSON lines).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from engine import events as ev
from engine.graph.generate import generate_workflow
from engine.runtime.hub import EventHub

RATE = 10_000  # events a second
SECONDS = 10.0
NODES = 200
DELTAS = 35
CONCURRENT = 8
REPEATS = 3


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit, **extra}), flush=True)


class SyntheticRun:
    """A run-shaped source: a real EventHub recorded by the real trace writer, fed by `produce()`."""

    def __init__(self, store: Any, node_ids: list[str], run_id: str) -> None:
        self.run_id = run_id
        self.hub = EventHub(run_id)
        self.writer = store.writer()
        self.hub.add_batch_sink(self.writer.append_many)
        self.node_ids = node_ids
        self.emitted_at: list[float] = [0.0]  # by seq
        self.cancelled = False
        self.tokens = 0

    # -- RunSource ---------------------------------------------------------------------------------
    def event_batches(self) -> AsyncIterator[list[ev.Event]]:
        return self.hub.subscribe_batches()

    async def wait(self) -> Any:
        await asyncio.get_running_loop().run_in_executor(None, self.writer.close)
        return type("Result", (), {"recording_errors": list(self.writer.errors)})()

    def cancel(self) -> None:
        self.cancelled = True

    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def step(self) -> None: ...
    def set_breakpoint(self, node_id: str, on: bool = True) -> None: ...
    def submit_human_decision(self, node_id: str, decision: Any, edited: Any = None, reason: str = "") -> None: ...

    # -- the stream --------------------------------------------------------------------------------
    def _one(self, cls: type[ev.Event], **fields: Any) -> None:
        self.hub.emit(cls, **fields)
        self.emitted_at.append(time.perf_counter())

    def _execution(self, index: int) -> Iterator[None]:
        hub, node = self.hub, self.node_ids[index % len(self.node_ids)]
        span = hub.new_span("node", node)
        call = hub.new_span("llm", span)
        self._one(ev.NodeStateChanged, node_id=node, state="running", span_id=span, parent_id=self.root)
        yield
        self._one(ev.LLMCallStarted, node_id=node, model="sim/gpt-4o-mini", span_id=call, parent_id=span,
                  request={"messages": [{"role": "user", "content": f"task {index}"}]})
        for k in range(DELTAS):
            yield
            self._one(ev.LLMTokenDelta, text=f"word{k} ", span_id=call, parent_id=span)
        yield
        self.tokens += 160
        self._one(ev.LLMCallFinished, node_id=node, model="sim/gpt-4o-mini", span_id=call, parent_id=span,
                  content="done " * DELTAS, tokens_in=120, tokens_out=40, cost_usd=0.00004, latency_s=0.2,
                  response={"priced": True})
        yield
        self._one(ev.NodeOutput, node_id=node, port="result", value=f"result {index}", span_id=span)
        if index % 3 == 0:
            yield
            self._one(ev.VerdictIssued, node_id=node, subject_node_id=node, decision="approve", score=0.8,
                      reasons=["fine"], span_id=span, artifact_seq=len(self.emitted_at) - 2)
        if index % 4 == 0:
            yield
            self._one(ev.MemoryWritten, node_id=node, memory="notes", scope="run", key=f"k{index % 50}",
                      value=f"v{index}", span_id=span)
        yield
        self._one(ev.NodeStateChanged, node_id=node, state="done", span_id=span, parent_id=self.root)

    async def produce(self, seconds: float, rate: int) -> None:
        self.root = self.hub.new_span("run")
        self._one(ev.RunStarted, span_id=self.root, workflow_id="bench", workflow_name="Live load",
                  workflow_hash="", inputs={}, settings={})
        self._one(ev.RunPlanned, span_id=self.root, nodes=[[n, n, "executor"] for n in self.node_ids])
        running = [self._execution(i) for i in range(CONCURRENT)]
        started = CONCURRENT
        t0 = time.perf_counter()
        while not self.cancelled:
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds:
                break
            due = int(rate * elapsed) - (len(self.emitted_at) - 1)
            while due > 0:
                slot = due % CONCURRENT
                try:
                    next(running[slot])
                except StopIteration:
                    running[slot] = self._execution(started)
                    started += 1
                    continue
                due -= 1
            await asyncio.sleep(0.002)
        self._one(ev.RunFinished, span_id=self.root, status="cancelled" if self.cancelled else "succeeded",
                  tokens_in=self.tokens * 3 // 4, tokens_out=self.tokens // 4, duration_s=time.perf_counter() - t0)
        self.hub.close()


async def one_run(window: Any, store: Any, repeat: int) -> dict[str, float]:
    node_ids = list(window.document.workflow.nodes)[:NODES]
    source = SyntheticRun(store, node_ids, f"bench-live-{repeat}-{os.getpid()}")
    shown: list[tuple[float, int, int]] = []  # (when, last seq, events) per flush
    views = window.runs.views
    apply = views.apply

    def timed_apply(changes: Any) -> None:
        apply(changes)
        shown.append((time.perf_counter(), changes.last_seq, changes.events))

    views.apply = timed_apply
    stalls: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.005)
            stalls.append((time.perf_counter() - start - 0.005) * 1000)

    tick = asyncio.ensure_future(ticker())
    live = window.runs.attach(source, name="Live load")
    await source.produce(SECONDS, RATE)
    await live.task
    await asyncio.sleep(0.1)
    done.set()
    await tick
    views.apply = apply
    emitted = len(source.emitted_at) - 1
    lags: list[float] = []
    previous = 0
    for when, last_seq, _n in shown:
        for seq in range(previous + 1, last_seq + 1):
            lags.append((when - source.emitted_at[seq]) * 1000)
        previous = max(previous, last_seq)
    stored = await asyncio.get_running_loop().run_in_executor(None, store.event_count, source.run_id)
    stalls.sort()
    lags.sort()
    return {"stall_max": stalls[-1], "stall_p99": stalls[int(len(stalls) * 0.99)],
            "lag_max": lags[-1], "lag_p99": lags[int(len(lags) * 0.99)], "lag_median": statistics.median(lags),
            "shown_ratio": sum(n for _w, _s, n in shown) / emitted, "stored_ratio": stored / emitted,
            "emitted": emitted, "flushes": len(shown), "rate": emitted / SECONDS}


def main() -> None:
    folder = tempfile.mkdtemp(prefix="triadic-bench-live-")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, folder)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    from app.document import Document
    from app.event_loop import create_event_loop
    from app.main_window import MainWindow
    from app.run_docks import RUN_DOCKS
    from engine.store.store import TraceStore

    loop = create_event_loop(app)  # type: ignore[arg-type]
    window = MainWindow(Document(generate_workflow(NODES, seed=1)), db=str(Path(folder) / "trace.db"))
    window.resize(1600, 1000)
    window.show()
    for dock in window.docks.values():
        dock.show()
    window.view.fit_to_view()
    store = TraceStore(Path(folder) / "trace.db")
    docks = [spec.name for spec in RUN_DOCKS]

    async def all_runs() -> list[dict[str, float]]:
        await asyncio.sleep(0.2)
        return [await one_run(window, store, i) for i in range(REPEATS)]

    results = loop.run_until_complete(all_runs())
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else []
    common = {"docks": docks, "repeats": REPEATS, "loadavg": " ".join(load),
              "rate_events_s": round(statistics.median(r["rate"] for r in results))}
    for key, name, unit, target in (("stall_max", "live_loop_stall_max_ms", "ms", 50),
                                    ("stall_p99", "live_loop_stall_p99_ms", "ms", 20),
                                    ("lag_max", "live_lag_max_ms", "ms", 100),
                                    ("lag_p99", "live_lag_p99_ms", "ms", 100),
                                    ("lag_median", "live_lag_median_ms", "ms", 100),
                                    ("shown_ratio", "live_events_shown_ratio", "ratio", 1.0),
                                    ("stored_ratio", "live_events_stored_ratio", "ratio", 1.0)):
        values = [r[key] for r in results]
        emit(name, statistics.median(values), unit, target=target, runs=[round(v, 3) for v in values], **common)
    window.runs._runs_stopped = True  # nothing live: close without asking
    window.document.undo_stack.setClean()
    store.close()
    window.close()
    loop.close()


if __name__ == "__main__":
    main()
