"""A finished run whose spans overlap every way the Timeline draws: `parallel_run()` returns its events in seq order.

Executions on a few planned lanes (and on sub-graph nodes first named half-way through) each make 1–4
model / tool calls at once that end in any order (once 10, more than a lane's sub-rows), some retried (`LLMCallRetrying`); some executions wait
for a person, some fail and run again as the same span (attempt 2, 3); the run is paused now and then.
Times fall on a coarse grid, so events share a timestamp. Deterministic.
"""

from __future__ import annotations

import random
from typing import Any

from engine import events as ev

RUN = "parallel"
ROOT = f"{RUN}:run"


def parallel_run(executions: int = 160, seed: int = 7) -> list[ev.Event]:
    rng = random.Random(seed)
    timed: list[tuple[float, int, type[ev.Event], dict[str, Any]]] = []

    def at(ts: float, cls: type[ev.Event], **fields: Any) -> None:
        timed.append((round(ts, 2), len(timed), cls, fields))

    lanes = [f"n{i}" for i in range(5)]
    for x in range(executions):
        node = lanes[x % 5] if x < executions // 2 or x % 3 else f"sub{x % 2}/inner{x % 4}"
        span, t = f"{RUN}:x{x}", x * 0.35 + rng.random() * 0.2
        attempts = 1 + (x % 9 == 4) + (x % 27 == 13)
        for attempt in range(1, attempts + 1):
            at(t, ev.NodeStateChanged, span_id=span, parent_id=ROOT, node_id=node, state="running", attempt=attempt)
            end = t
            for c in range(10 if x == executions // 3 else rng.randint(1, 4)):  # once more than a lane's sub-rows
                call, start = f"{span}:c{attempt}.{c}", t + rng.random() * 0.3
                stop = start + rng.random() * 1.2 + (2.0 if x == executions // 3 else 0.0)
                if c % 2:
                    at(start, ev.ToolCallStarted, span_id=call, parent_id=span, node_id=node, tool="search")
                    at(stop, ev.ToolCallFinished, span_id=call, parent_id=span, node_id=node, tool="search",
                       error="boom" if x % 11 == 5 else None)
                else:
                    at(start, ev.LLMCallStarted, span_id=call, parent_id=span, node_id=node, model="sim/m", request={})
                    if rng.random() < 0.3:
                        at((start + stop) / 2, ev.LLMCallRetrying, span_id=call, parent_id=span, attempt=2,
                           error_type="RateLimitError", error="429")
                    at(stop, ev.LLMCallFinished, span_id=call, parent_id=span, node_id=node, model="sim/m",
                       tokens_in=10, tokens_out=5, cost_usd=0.0001)
                end = max(end, stop)
            if x % 7 == 3:
                at(end + 0.05, ev.NodeStateChanged, span_id=span, parent_id=ROOT, node_id=node, state="waiting",
                   attempt=attempt)
                end += 0.6
                at(end, ev.NodeStateChanged, span_id=span, parent_id=ROOT, node_id=node, state="running",
                   attempt=attempt)
            last = attempt == attempts
            at(end + 0.05, ev.NodeStateChanged, span_id=span, parent_id=ROOT, node_id=node,
               state="done" if last else "failed", attempt=attempt)
            t = end + 0.3
    for k in range(1, executions // 20):
        at(k * 7.0, ev.RunPaused, span_id=ROOT, reason="user")
        at(k * 7.0 + 0.4, ev.RunResumed, span_id=ROOT, mode="resume")
    timed.sort(key=lambda item: (item[0], item[1]))
    end_ts = timed[-1][0] + 0.1
    out: list[ev.Event] = [ev.RunStarted(run_id=RUN, seq=1, ts=0.0, span_id=ROOT, workflow_id="wf", workflow_name="P",
                                         workflow_hash="ab" * 32),
                           ev.RunPlanned(run_id=RUN, seq=2, ts=0.0, span_id=ROOT,
                                         nodes=[[n, f"Node {n}", "executor"] for n in lanes])]
    for ts, _, cls, fields in timed:
        out.append(cls(run_id=RUN, seq=len(out) + 1, ts=ts, **fields))
    out.append(ev.RunFinished(run_id=RUN, seq=len(out) + 1, ts=end_ts, span_id=ROOT, status="succeeded"))
    return out
