"""Benchmark of the OpenTelemetry export of a large run: a synthetic ~100,000-event run (5,000 node
executions on 200 lanes, each with a model call; verdicts, retries, failures).

Figures (JSON lines): time to map the folded run to spans; time from "export" to the last byte taken by
an OTLP/HTTP receiver on 127.0.0.1 (the official exporter: protobuf encoding + POST), with and without
content; time to write the OTLP JSON-lines file; spans per second end to end. In the window all of this
runs on a worker thread when a run ends (the GUI thread only submits it). Medians over repeats; the
machine's load beside each figure.

Run: `.venv/bin/python -m tests.perf.bench_otel`
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from engine.export.otel import Scrubber, run_spans, send_spans, write_json_lines
from engine.projection import project
from tests.app.otlp_receiver import otlp_receiver
from tests.perf.synthetic_run import synthetic_run

REPEATS = 3


def _emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit, "load": os.getloadavg()[0], **extra}),
          flush=True)


def _median(fn: object) -> float:
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    events = synthetic_run("bench-otel")
    projection = project(events)
    scrubber = Scrubber(["not-a-real-key-0123456789"])
    spans = run_spans(projection, started_at=1.7e9, scrubber=scrubber)
    _emit("otel_map_s", _median(lambda: run_spans(projection, started_at=1.7e9, scrubber=scrubber)), "s",
          spans=len(spans), events=len(events))
    with otlp_receiver() as receiver:
        for content in (False, True):
            batch = run_spans(projection, started_at=1.7e9, include_content=content, scrubber=scrubber)
            send = _median(lambda b=batch: send_spans(b, receiver.url, timeout_s=60))
            size = len(receiver.bodies[-1])
            _emit("otel_send_s" + ("_with_content" if content else ""), send, "s", spans=len(batch),
                  request_bytes=size)
            _emit("otel_send_spans_per_s" + ("_with_content" if content else ""), len(batch) / send, "spans/s")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.otlp.jsonl"
        _emit("otel_json_lines_s", _median(lambda: write_json_lines([spans], path)), "s",
              bytes=path.stat().st_size)


if __name__ == "__main__":
    main()
