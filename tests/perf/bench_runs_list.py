"""Runs dock benchmark (offscreen): a store of 5,000 runs (3 verdicts each) listed, painted and filtered.

Lineage of awkward shape: one run in ten is a replay of the run before it, one in ten a fork of the run
three before (its fork point read from the source's node states), so chains and siblings nest, and a
text filter keeps matches whose sources do not match (shown as their ancestors).

- load: `load_listings(store, 5000)` — the runs and their verdict counts, two queries; this is the
  part that runs in the loop's executor (never on the GUI thread);
- show: `RunsModel.set_listings` (sorted and filtered in Python) + one paint of a 1100×600 `RunsPanel` (the part
  on the GUI thread);
- filter: typing a filter that keeps half the rows, and choosing a status, each with one paint.
Medians over REPEATS; the 1-minute load average is printed beside (the machine is shared).
Target: what runs on the GUI thread stays under one 30 ms flush; the load stays well under a second.

Run: `.venv/bin/python -m tests.perf.bench_runs_list` (prints JSON lines).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync
from PySide6.QtWidgets import QApplication

from engine import events as ev
from engine.store import TraceStore
from widgets.runs import RunsPanel
from widgets.runs.run_rows import load_listings

RUNS = 5000
REPEATS = 7
DECISIONS = ("revise", "revise", "approve")


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    load = os.getloadavg()[0]
    print(json.dumps({"name": name, "value": round(value, 2), "unit": unit, "loadavg_1m": round(load, 2), **extra}),
          flush=True)


def fill(store: TraceStore) -> None:
    with store.writer(batch_size=5000) as writer:
        for index in range(RUNS):
            run_id = f"run-{index:05d}"
            root = f"{run_id}/run"
            status = ("succeeded", "failed", "cancelled", "budget_exceeded")[index % 4]
            name = "Review loop" if index % 2 else "Triad"
            lineage: dict[str, object] = {}
            if index % 10 == 1:
                lineage = {"replay_of": f"run-{index - 1:05d}"}
            elif index % 10 == 5:
                lineage = {"fork_of": f"run-{index - 3:05d}", "fork_at_seq": 2}
            writer.append(ev.RunStarted(run_id=run_id, seq=1, ts=0.0, span_id=root, workflow_id=f"wf-{index % 2}",
                                        workflow_name=name, workflow_hash="h" * 64, **lineage))  # type: ignore[arg-type]
            writer.append(ev.NodeStateChanged(run_id=run_id, seq=2, ts=0.0, span_id=f"{root}/c", parent_id=root,
                                              node_id="critic", state="running"))
            for n, decision in enumerate(DECISIONS):
                writer.append(ev.VerdictIssued(run_id=run_id, seq=3 + n, ts=0.1 * n, span_id=f"{root}/c", parent_id=root,
                                               node_id="critic", subject_node_id="exec", decision=decision, score=0.5,
                                               reasons=[], claims=[], round=n + 1))
            writer.append(ev.RunFinished(run_id=run_id, seq=6, ts=1.0, span_id=root, status=status,
                                         tokens_in=1000, tokens_out=200, cost_usd=0.01, duration_s=3.5))
    assert not writer.errors, writer.errors


def ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def main() -> None:
    app = QApplication.instance() or QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    folder = Path(tempfile.mkdtemp(prefix="bench-runs-"))
    store = TraceStore(folder / "trace.db")
    fill(store)
    loads = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        listings = load_listings(store, RUNS)
        loads.append(ms(start))
    assert len(listings) == RUNS
    panel = RunsPanel(lambda: store, limit=RUNS)
    panel.resize(1100, 600)
    loop.run_until_complete(asyncio.sleep(0.3))  # its own first load, off the thread
    shows, filters, statuses = [], [], []
    for _ in range(REPEATS):
        start = time.perf_counter()
        panel._show(listings)
        panel.grab()
        shows.append(ms(start))
        start = time.perf_counter()
        panel.model.set_filter(text="review")
        panel.grab()
        filters.append(ms(start))
        start = time.perf_counter()
        panel.model.set_filter(status="failed")
        panel.grab()
        statuses.append(ms(start))
        tree = getattr(panel.model, "tree", None)  # the lineage tree (a flat table before it)
        assert (len(tree.matched) if tree is not None else panel.model.rowCount()) == RUNS // 4
        panel.model.set_filter(text="")
        panel.model.set_filter(status="")
    emit("runs_list_first_load_5000", loads[0], "ms", where="executor", forks=RUNS // 10,
         note="the fork points are read from their sources once, then remembered")
    emit("runs_list_load_5000", statistics.median(loads), "ms", where="executor", repeats=REPEATS)
    emit("runs_list_show_5000", statistics.median(shows), "ms", where="GUI thread", repeats=REPEATS)
    emit("runs_list_text_filter_5000", statistics.median(filters), "ms", where="GUI thread", repeats=REPEATS)
    emit("runs_list_status_filter_5000", statistics.median(statuses), "ms", where="GUI thread", repeats=REPEATS)
    store.close()
    loop.close()


if __name__ == "__main__":
    main()
