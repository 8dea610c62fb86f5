"""What the Cost & tokens dock shows of a run, built without Qt: the cumulative cost and token step
lines, the breakdown rows and the totals line (`CostView`, made by `cost_view`).

The dock builds it on the GUI thread for a live run and takes it from `CostPanel.prepare` (a worker)
for a stored run or a playback moment, so a re-show only swaps data into the plots and tables.

Invariant: a pure function of the projection (and the node filter); it reads, never changes, it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.projection import ModelUsage, NodeRow, RunProjection
from widgets.cost.usage_models import cost_text, model_rows, node_rows


@dataclass(frozen=True, slots=True)
class CostView:
    run_id: str
    events: int  # how many events the projection had folded (a prepared view fits only that projection)
    now: float  # where the lines end: the run's end when finished, else its last event
    cost: tuple[np.ndarray, np.ndarray] | None  # step line (x, y) of the run's cumulative cost (None: not built)
    tokens: tuple[np.ndarray, np.ndarray] | None
    node_rows: list[NodeRow]
    model_rows: list[ModelUsage]
    total: str  # the line under the tables

    def fits(self, projection: RunProjection) -> bool:
        return self.run_id == projection.run_id and self.events == len(projection.events)


def cost_view(projection: RunProjection, node_id: str | None = None, *, lines: bool = True) -> CostView:
    """What the dock shows of `projection` (under the node filter `node_id`); `lines` False: the rows and
    totals only (a live flush whose plots redraw later)."""
    p = projection
    now = p.duration_s if p.finished and p.duration_s else p.elapsed_s
    usage = p.usage
    models = model_rows(p, node_id)
    cost, tokens = (steps(usage.ts, usage.cost_usd, now), steps(usage.ts, usage.tokens, now)) if lines else (None, None)
    return CostView(p.run_id, len(p.events), now, cost, tokens, node_rows(p, node_id), models,
                    total_text(models, node_id))


def node_series(projection: RunProjection, node_id: str, now: float) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The cost and token step lines of one node's model calls (and the nodes inside it); none: empty lines."""
    calls = sorted((c for c in projection.calls.values() if c.kind == "llm" and c.finished and c.ended_ts is not None
                    and (c.node_id == node_id or c.node_id.startswith(node_id + "/"))), key=lambda c: c.seq)
    if not calls:
        return (np.empty(0), np.empty(0)), (np.empty(0), np.empty(0))
    ts = [c.ended_ts or 0.0 for c in calls]
    cost = np.cumsum([c.cost_usd for c in calls], dtype=np.float64)
    tokens = np.cumsum([c.tokens_in + c.tokens_out for c in calls], dtype=np.float64)
    return steps(ts, cost, now), steps(ts, tokens, now)


def total_text(rows: list[ModelUsage], node_id: str | None) -> str:
    calls = sum(r.calls for r in rows)
    t_in, t_out = sum(r.tokens_in for r in rows), sum(r.tokens_out for r in rows)
    cost = cost_text(sum(r.cost_usd for r in rows), sum(r.unpriced_calls for r in rows)) if calls else "—"
    scope = f"Node {node_id}" if node_id else "Run"
    return f"{scope}: {calls:,} model calls · {t_in:,} tokens in · {t_out:,} out · {cost}"


def steps(ts: object, values: object, now: float) -> tuple[np.ndarray, np.ndarray]:
    """Cumulative samples as a step line from (0, 0), flat until `now`."""
    t = np.asarray(ts, dtype=np.float64)
    v = np.asarray(values, dtype=np.float64)
    n = len(t)
    x = np.empty(2 * n + 2)
    y = np.empty(2 * n + 2)
    x[0], y[0] = 0.0, 0.0
    if n:
        x[1:-1:2], x[2:-1:2] = t, t
        y[1:-1:2] = np.concatenate(([0.0], v[:-1]))
        y[2:-1:2] = v
    x[-1] = max(now, t[-1] if n else 0.0)
    y[-1] = v[-1] if n else 0.0
    return x, y
