"""Memory and Verdicts docks benchmark (offscreen): open a big stored run, follow a live one, select.

A synthetic run built with the real event classes: 200 nodes, 5,000 node executions, ~100,000 events
(each execution: state changes, one model call with 14 streamed deltas, an output; the 50 critic nodes
issue a verdict on their subject's latest output, 50 memory nodes write — one in ten refused by its
gate — and read a key). Figures, medians over REPEATS:
- open: `set_projection` of the whole run + first paint of a 1100×700 panel (what "open a past run"
  costs these docks);
- live: the same stream fed as 10,000 events/s would arrive, 300 events per ~30 ms flush, each flush
  `apply_changes` + a repaint: median and worst flush (the GUI loop's stall for this dock);
- select: selecting a verdict (previous round's artifact + inline diff + details) and a memory write
  (value + gate verdict lookup), median over 40 selections;
- big diff: a verdict on a 20,000-line artifact: the GUI thread's share (returns at once) and the time
  until the diff is on screen (computed in a worker thread).
`loadavg_1m` is printed beside each figure (the machine is shared).

Run: `.venv/bin/python -m tests.perf.bench_run_docks` (prints JSON lines).
"""

from __future__ import annotations

import json
import os
import statistics
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QEvent, QItemSelectionModel
from PySide6.QtWidgets import QApplication

from engine import events as ev
from engine.projection import RunProjection
from widgets.memory_view import MemoryPanel
from widgets.run_panel import RunPanel
from widgets.verdicts import VerdictsPanel

REPEATS = 5
FLUSH = 300


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    load = round(os.getloadavg()[0], 2)
    print(json.dumps({"name": name, "value": round(value, 2), "unit": unit, "loadavg_1m": load, **extra}), flush=True)


def dispose(panel: RunPanel) -> None:
    """Delete a panel now, on this (the GUI) thread: a parentless widget left to Python's cycle collector
    may be destroyed in whichever thread collects — a worker's — and crash."""
    panel.close()
    panel.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def synthetic_run(executions: int = 5000, nodes: int = 200) -> list[ev.Event]:
    out: list[ev.Event] = []
    seq = 0

    def add(cls: type[ev.Event], **fields: object) -> ev.Event:
        nonlocal seq
        seq += 1
        event = cls(run_id="bench", seq=seq, ts=seq / 10_000, **fields)  # type: ignore[call-arg]
        out.append(event)
        return event

    add(ev.RunStarted, workflow_id="wf", workflow_name="bench", workflow_hash="h")
    add(ev.RunPlanned, nodes=[[f"n{i}", f"Node {i}", "critic" if i < 50 else "executor"] for i in range(nodes)])
    last_output: dict[str, int] = {}
    for k in range(executions):
        node = f"n{k % nodes}"
        span = f"s{k}"
        add(ev.NodeStateChanged, node_id=node, state="running", span_id=span, round=k // nodes)
        call = f"{span}c"
        add(ev.LLMCallStarted, node_id=node, model="sim/default", request={"messages": []}, span_id=call,
            parent_id=span)
        for d in range(14):
            add(ev.LLMTokenDelta, text=f"token{d} ", span_id=call, parent_id=span)
        add(ev.LLMCallFinished, node_id=node, model="sim/default", content="done", tokens_in=30, tokens_out=14,
            cost_usd=0.0001, span_id=call, parent_id=span)
        text = "\n".join(f"line {j} of {node} round {k // nodes}" if j % 7 else f"stable {j}" for j in range(40))
        output = add(ev.NodeOutput, node_id=node, port="result", value=text, round=k // nodes, span_id=span)
        last_output[node] = output.seq
        index = k % nodes
        if index < 50:
            subject = f"n{index + 50}"
            add(ev.VerdictIssued, node_id=node, subject_node_id=subject, decision=("revise", "approve", "reject")[k % 3],
                score=(k % 100) / 100, reasons=["reason one", "reason two"], round=k // nodes,
                claims=[{"claim": "a claim", "supported": k % 2 == 0}], artifact_seq=last_output.get(subject),
                span_id=span)
        elif index >= 150:
            admitted = k % 10 != 0
            reason = "gate approved (score 0.50)" if admitted else "gate verdict was reject (score 0.20): no"
            add(ev.MemoryWritten, node_id=node, memory="notes", scope="run", key=f"key{k % 300}",
                value={"text": text[:200], "k": k}, admitted=admitted, reason=reason, span_id=span)
            add(ev.MemoryRead, node_id=node, memory="notes", scope="run", key=f"key{(k + 7) % 300}", value=k,
                span_id=span)
        add(ev.NodeStateChanged, node_id=node, state="done", span_id=span, round=k // nodes)
    add(ev.RunFinished, status="succeeded")
    return out


def bench_open(app: QApplication, make: type[RunPanel], projection: RunProjection, name: str) -> None:
    times = []
    for _ in range(REPEATS):
        panel = make()
        panel.resize(1100, 700)
        panel.show()
        app.processEvents()
        start = time.perf_counter()
        panel.set_projection(projection)
        panel.grab()
        times.append((time.perf_counter() - start) * 1000)
        dispose(panel)
    emit(f"{name}_open_100k_events", statistics.median(times), "ms", target="< 1000 ms for all docks")


def bench_live(app: QApplication, make: type[RunPanel], events: list[ev.Event], name: str) -> None:
    medians, worst = [], []
    for _ in range(REPEATS):
        panel = make()
        panel.resize(1100, 700)
        panel.show()
        projection = RunProjection()
        panel.set_projection(projection)
        flushes = []
        for start in range(0, len(events), FLUSH):
            projection.apply_many(events[start:start + FLUSH])
            changes = projection.take_changes()
            t = time.perf_counter()
            panel.apply_changes(changes)
            panel.repaint()
            flushes.append((time.perf_counter() - t) * 1000)
        medians.append(statistics.median(flushes))
        worst.append(max(flushes))
        dispose(panel)
    emit(f"{name}_live_flush_median", statistics.median(medians), "ms", flush_events=FLUSH)
    emit(f"{name}_live_flush_worst", statistics.median(worst), "ms", target="≤ 20 ms p99 stall of the GUI loop")


def bench_select(app: QApplication, projection: RunProjection) -> None:
    verdicts = VerdictsPanel()
    verdicts.resize(1100, 700)
    verdicts.show()
    verdicts.set_projection(projection)
    rows = verdicts.model.rowCount()
    times = []
    for i in range(40):
        t = time.perf_counter()
        verdicts.table.selectionModel().setCurrentIndex(
            verdicts.model.index((i * 97) % rows, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        verdicts.repaint()
        times.append((time.perf_counter() - t) * 1000)
    emit("verdicts_select", statistics.median(times), "ms", verdicts=rows)
    dispose(verdicts)
    memory = MemoryPanel()
    memory.resize(1100, 700)
    memory.show()
    memory.set_projection(projection)
    rows = memory.history_model.rowCount()
    times = []
    for i in range(40):
        t = time.perf_counter()
        memory.history.selectRow((i * 131) % rows)
        memory.repaint()
        times.append((time.perf_counter() - t) * 1000)
    emit("memory_select", statistics.median(times), "ms", history_rows=rows)
    dispose(memory)


def bench_big_diff(app: QApplication) -> None:
    old = "\n".join(f"line {i}" for i in range(20_000))
    new = "\n".join(f"line {i}" if i % 1000 else f"changed {i}" for i in range(20_000))
    gui, total = [], []
    for r in range(REPEATS):
        projection = RunProjection()
        projection.apply_many([
            ev.NodeOutput(run_id="b", seq=1, ts=0.1, node_id="w", port="result", value=old + str(r)),
            ev.VerdictIssued(run_id="b", seq=2, ts=0.2, node_id="c", subject_node_id="w", decision="revise",
                             artifact_seq=1),
            ev.NodeOutput(run_id="b", seq=3, ts=0.3, node_id="w", port="result", value=new, round=1),
            ev.VerdictIssued(run_id="b", seq=4, ts=0.4, node_id="c", subject_node_id="w", decision="approve",
                             round=1, artifact_seq=3)])
        panel = VerdictsPanel()
        panel.resize(1100, 700)
        panel.show()
        panel.set_projection(projection)
        done: list[float] = []
        panel.details.diff_shown.connect(lambda _d, into=done: into.append(time.perf_counter()))
        t = time.perf_counter()
        panel.table.selectRow(1)
        gui.append((time.perf_counter() - t) * 1000)
        while not done:
            app.processEvents()
            time.sleep(0.001)
        total.append((done[0] - t) * 1000)
        dispose(panel)
    emit("verdicts_big_diff_gui_thread", statistics.median(gui), "ms", lines=20_000)
    emit("verdicts_big_diff_on_screen", statistics.median(total), "ms", lines=20_000)


def main() -> None:
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    events = synthetic_run()
    projection = RunProjection()
    projection.apply_many(events)
    emit("synthetic_run_events", len(events), "events", verdicts=len(projection.verdicts),
         memory_writes=len(projection.memory_writes), memory_reads=len(projection.memory_reads))
    for make, name in ((VerdictsPanel, "verdicts"), (MemoryPanel, "memory")):
        bench_open(app, make, projection, name)
        bench_live(app, make, events, name)
    bench_select(app, projection)
    bench_big_diff(app)


if __name__ == "__main__":
    main()
