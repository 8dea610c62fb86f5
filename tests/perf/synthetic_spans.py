"""Synthetic run event streams for the timeline / cost benchmarks, made with the real event classes.

`big_run(nodes, executions, calls_per_execution)`: nodes run side by side, each executing its share
of the executions one after the other, every execution making sequential model calls (tokens, cost,
one in 40 priced as unknown, one in 50 retried) — 200 × 25 × 19 gives 5,000 node executions and
95,000 calls: 100,000 spans. `live_stream(seconds, rate)`: a run emitting `rate` events a second —
model calls with streamed deltas, budget updates, verdicts and memory writes across 200 nodes — as
(ts, event) in order.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine import events as ev

RUN = "bench"


class _Seq:
    def __init__(self) -> None:
        self.seq = 0
        self.out: list[ev.Event] = []

    def add(self, cls: type[ev.Event], ts: float, **fields: object) -> None:
        self.seq += 1
        self.out.append(cls(run_id=RUN, seq=self.seq, ts=ts, **fields))  # type: ignore[arg-type]


def _start(s: _Seq, nodes: int) -> None:
    s.add(ev.RunStarted, 0.0, workflow_id="w", workflow_name="Synthetic", workflow_hash="h", span_id="run",
          settings={"budget": {"max_tokens": 50_000_000, "max_cost_usd": 500.0, "deadline_s": 7200.0,
                               "max_model_calls": 200_000}})
    s.add(ev.RunPlanned, 0.0, nodes=[[f"n{i}", f"Node {i:03d}", "executor"] for i in range(nodes)])


def big_run(nodes: int = 200, executions: int = 5_000, calls: int = 19) -> list[ev.Event]:
    timed: list[tuple[float, int, type[ev.Event], dict[str, object]]] = []
    per_node = executions // nodes
    order = 0
    for n in range(nodes):
        t = 0.05 * n
        for e in range(per_node):
            span = f"x{n}.{e}"
            node = f"n{n}"
            timed.append((t, order, ev.NodeStateChanged, dict(span_id=span, parent_id="run", node_id=node,
                                                               state="running", attempt=1 + (e % 17 == 5))))
            order += 1
            c_t = t + 0.01
            for c in range(calls):
                call = f"{span}.c{c}"
                length = 0.2 + ((n * 7 + e * 3 + c) % 11) * 0.05
                timed.append((c_t, order, ev.LLMCallStarted, dict(span_id=call, parent_id=span, node_id=node,
                                                                  model="sim/default", request={})))
                if (n + e + c) % 50 == 0:
                    timed.append((c_t + 0.05, order + 1, ev.LLMCallRetrying,
                                  dict(span_id=call, parent_id=span, attempt=1, error_type="RateLimitError",
                                       error="429", delay_s=0.05)))
                unknown = (n + c) % 40 == 0
                timed.append((c_t + length, order + 2, ev.LLMCallFinished,
                              dict(span_id=call, parent_id=span, node_id=node,
                                   model="sim/unknown" if unknown else "sim/default", tokens_in=120, tokens_out=40,
                                   cost_usd=0.0 if unknown else 0.00004, latency_s=length,
                                   response={"priced": not unknown})))
                order += 3
                c_t += length + 0.005
            state = "failed" if e % 97 == 13 else "done"
            timed.append((c_t, order, ev.NodeStateChanged, dict(span_id=span, parent_id="run", node_id=node,
                                                                 state=state)))
            order += 1
            t = c_t + 0.02
    timed.sort(key=lambda x: (x[0], x[1]))
    s = _Seq()
    _start(s, nodes)
    for ts, _, cls, fields in timed:
        s.add(cls, ts, **fields)
    end = timed[-1][0] + 0.01
    s.add(ev.RunFinished, end, span_id="run", status="succeeded", duration_s=end)
    return s.out


def live_stream(seconds: float, rate: int, nodes: int = 200, deltas: int = 20) -> Iterator[ev.Event]:
    """Events of a live run at `rate` a second (ts spaced 1/rate), open-ended: the caller stops reading."""
    s = _Seq()
    _start(s, nodes)
    yield from s.out
    s.out.clear()
    dt = 1.0 / rate
    t = 0.0
    i = 0
    while t < seconds:
        node = f"n{i % nodes}"
        span, call = f"x{i}", f"x{i}.c"
        s.add(ev.NodeStateChanged, t, span_id=span, parent_id="run", node_id=node, state="running")
        s.add(ev.LLMCallStarted, t, span_id=call, parent_id=span, node_id=node, model="sim/default", request={})
        for _ in range(deltas):
            s.add(ev.LLMTokenDelta, t, span_id=call, text="tok ")
            t += dt
        s.add(ev.LLMCallFinished, t, span_id=call, parent_id=span, node_id=node, model="sim/default",
              tokens_in=100, tokens_out=deltas, cost_usd=0.00003)
        s.add(ev.BudgetUpdated, t, span_id=span, tokens=(i + 1) * (100 + deltas), cost_usd=(i + 1) * 0.00003,
              elapsed_s=t)
        if i % 3 == 0:
            s.add(ev.VerdictIssued, t, node_id=node, subject_node_id=node, decision="approve", score=0.9)
        if i % 5 == 0:
            s.add(ev.MemoryWritten, t, node_id=node, memory="notes", scope="run", key=f"k{i % 50}", value=i)
        s.add(ev.NodeStateChanged, t, span_id=span, parent_id="run", node_id=node, state="done")
        t += dt * 6
        i += 1
        yield from s.out
        s.out.clear()
