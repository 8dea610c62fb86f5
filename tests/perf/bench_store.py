"""Benchmark of the trace store writer: sustained events/s, bytes per event, DB size per run.

Realistic mix per run: 24 node executions (queued/running/done states, an output, a budget update),
one LLM call each (request with a system + user prompt, ~60 streamed token deltas, response), a tool
call on a third of them, memory writes, critic verdicts. Figures are medians over repeats; the peer is
the naive way (one INSERT of the full event record and one COMMIT per event, same WAL/NORMAL settings)
measured in the same run on a slice of the same events, reported as a ratio.

Run: `.venv/bin/python -m tests.perf.bench_store`
"""

from __future__ import annotations

import json
import os
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from engine import events as ev
from engine.store import TraceStore

NODES_PER_RUN = 24
DELTAS_PER_CALL = 60
RUNS = 8
REPEATS = 7
NAIVE_EVENTS = 4000


def make_run(run_id: str) -> list[ev.Event]:
    out: list[ev.Event] = []

    def add(cls: type[ev.Event], **fields: object) -> ev.Event:
        event = cls(run_id=run_id, seq=len(out) + 1, ts=len(out) * 0.00731, **fields)  # type: ignore[arg-type]
        out.append(event)
        return event

    root = f"{run_id}:run"
    add(ev.RunStarted, span_id=root, workflow_id="wf-bench", workflow_name="Bench", workflow_hash="ab" * 32,
        inputs={"goal": "summarise the quarterly report"}, settings={"seed": 1, "concurrency": 8})
    system = "You are a careful executor. Answer with the result only. " * 6
    for n in range(NODES_PER_RUN):
        node, span = f"node_{n}", f"{run_id}:n{n}"
        add(ev.NodeStateChanged, span_id=span, parent_id=root, node_id=node, state="queued")
        add(ev.NodeStateChanged, span_id=span, parent_id=root, node_id=node, state="running")
        llm = f"{span}:llm"
        request = {"model": "sim/default", "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": f"Task {n}: extract the figures of section {n} and explain them."}],
            "temperature": 0.0, "max_tokens": 256, "tools": None, "api_base": None, "seed": 1,
            "metadata": {"role": "executor", "node_id": node, "round": 0}}
        add(ev.LLMCallStarted, span_id=llm, parent_id=span, node_id=node, model="sim/default", request=request)
        words = [f"tok{(n * 7 + i) % 50}" for i in range(DELTAS_PER_CALL)]
        for w in words:
            add(ev.LLMTokenDelta, span_id=llm, parent_id=span, text=w + " ")
        text = " ".join(words)
        add(ev.LLMCallFinished, span_id=llm, parent_id=span, node_id=node, model="sim/default", content=text,
            tokens_in=85, tokens_out=DELTAS_PER_CALL, cost_usd=0.00012, latency_s=0.8,
            response={"content": text, "model": "sim/default", "provider": "sim", "tokens_in": 85,
                      "tokens_out": DELTAS_PER_CALL, "cost_usd": 0.00012, "latency_s": 0.8,
                      "finish_reason": "stop", "tool_calls": []})
        if n % 3 == 0:
            tool = f"{span}:tool"
            add(ev.ToolCallStarted, span_id=tool, parent_id=span, node_id=node, tool="sql", arguments={"q": "select 1"})
            add(ev.ToolCallFinished, span_id=tool, parent_id=span, node_id=node, tool="sql", result=[[1]], latency_s=0.002)
            add(ev.MemoryWritten, span_id=span, parent_id=root, node_id=node, memory="facts", scope="run",
                key=f"k{n}", value={"v": n}, admitted=n % 2 == 0)
        output = add(ev.NodeOutput, span_id=span, parent_id=root, node_id=node, port="result", value=text[:80])
        if n % 4 == 3:
            add(ev.VerdictIssued, span_id=span, parent_id=root, node_id=node, subject_node_id=f"node_{n - 1}",
                decision="revise", score=0.6, reasons=["missing figure for Q3"], round=1,
                artifact_seq=output.seq, judge_model="sim/critic")
        add(ev.NodeStateChanged, span_id=span, parent_id=root, node_id=node, state="done")
        add(ev.BudgetUpdated, span_id=root, tokens=145 * (n + 1), cost_usd=0.00012 * (n + 1), elapsed_s=n * 0.9)
    add(ev.RunFinished, span_id=root, status="succeeded", outputs={"result": "done"}, tokens_in=85 * NODES_PER_RUN,
        tokens_out=DELTAS_PER_CALL * NODES_PER_RUN, cost_usd=0.00012 * NODES_PER_RUN, duration_s=30.0)
    return out


def db_size(path: Path) -> int:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path.stat().st_size


def measure_writer(workdir: Path, runs: list[list[ev.Event]], batch_size: int) -> tuple[float, int, float]:
    """(events/s wall clock, DB bytes, events per CPU-second of this process)."""
    path = workdir / f"store-{time.monotonic_ns()}.db"
    store = TraceStore(path)
    total = sum(len(r) for r in runs)
    cpu = time.process_time()
    start = time.perf_counter()
    writer = store.writer(batch_size=batch_size)
    for run in runs:
        for event in run:
            writer.append(event)
    writer.close()
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    assert not writer.errors, writer.errors[:3]
    assert writer.events_stored == total
    store.close()
    return total / elapsed, db_size(path), total / cpu


def segment_bytes(workdir: Path, runs: list[list[ev.Event]]) -> float:
    """Bytes the event segments take (their table's pages, from SQLite's dbstat) per event."""
    path = workdir / "dbstat.db"
    with TraceStore(path) as store, store.writer() as writer:
        for run in runs:
            for event in run:
                writer.append(event)
    db_size(path)
    conn = sqlite3.connect(path)
    (pages,) = conn.execute("SELECT sum(pgsize) FROM dbstat WHERE name = 'event_segments'").fetchone()
    conn.close()
    return float(pages) / sum(len(r) for r in runs)


def measure_naive(workdir: Path, events: list[ev.Event]) -> tuple[float, int]:
    path = workdir / f"naive-{time.monotonic_ns()}.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("CREATE TABLE events (run_id TEXT, seq INTEGER, ts REAL, kind TEXT, record TEXT)")
    start = time.perf_counter()
    for e in events:
        conn.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)", (e.run_id, e.seq, e.ts, e.kind, json.dumps(e.to_record())))
        conn.commit()
    elapsed = time.perf_counter() - start
    conn.close()
    return len(events) / elapsed, db_size(path)


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": round(value, 2), "unit": unit, **extra}), flush=True)


def main() -> None:
    runs = [make_run(f"run-{i:04d}-{'x' * 24}") for i in range(RUNS)]
    total = sum(len(r) for r in runs)
    deltas = sum(1 for r in runs for e in r if isinstance(e, ev.LLMTokenDelta))
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        rates, sizes, cpu_rates, naive_rates, naive_sizes = [], [], [], [], []
        for _ in range(REPEATS):
            rate, size, cpu_rate = measure_writer(workdir, runs, 1000)
            rates.append(rate)
            sizes.append(size)
            cpu_rates.append(cpu_rate)
            naive_rate, naive_size = measure_naive(workdir, [e for r in runs for e in r][:NAIVE_EVENTS])
            naive_rates.append(naive_rate)
            naive_sizes.append(naive_size / NAIVE_EVENTS)
        small_sizes = [measure_writer(workdir, runs, 20)[1] for _ in range(2)]
        per_event_segments = segment_bytes(workdir, runs)
        no_deltas = [[e for e in make_run(f'heavy-{i:03d}') if not isinstance(e, ev.LLMTokenDelta)] for i in range(32)]
        heavy = statistics.median(measure_writer(workdir, no_deltas, 1000)[0] for _ in range(3))
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else -1.0
    rate, naive = statistics.median(rates), statistics.median(naive_rates)
    emit("store_writer_events_per_s", rate, "events/s", target=50_000, events=total, delta_share=round(deltas / total, 3),
         peer="naive one-commit-per-event", peer_value=round(naive, 1), ratio=round(rate / naive, 1))
    per_event = statistics.median(sizes) / total
    naive_per_event = statistics.median(naive_sizes)
    emit("store_writer_events_per_cpu_s", statistics.median(cpu_rates), "events/cpu-s", target=50_000,
         note="events per CPU-second of the writing process: robust to other load", loadavg_1m=round(load, 2))
    emit("store_writer_non_delta_events_per_s", heavy, "events/s",
         note="the same runs without token deltas: node states, calls with bodies, verdicts, memory")
    emit("store_bytes_per_event", per_event, "bytes", peer="naive full-record row", peer_value=round(naive_per_event, 1),
         ratio=round(naive_per_event / per_event, 2))
    emit("store_segment_bytes_per_event", per_event_segments, "bytes",
         note="events (token deltas included) packed and compressed per batch in event_segments")
    emit("store_bytes_per_event_live_batches_of_20", statistics.median(small_sizes) / total, "bytes")
    emit("store_db_size_per_run", statistics.median(sizes) / RUNS / 1024, "KiB", events_per_run=total // RUNS)


if __name__ == "__main__":
    main()
