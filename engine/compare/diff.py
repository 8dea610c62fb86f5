"""`compare(a, b)`: how two runs differ, over their two `RunProjection`s (kept with their events).

What it says: per node, its outputs as a unified text diff (every output the node gave, in order),
verdict changes (the same judge, subject and round deciding differently or scoring differently, and
verdicts only one run has), token / cost / duration deltas per node and for the run, the nodes that
ran in one run and not the other, and the first event where the two diverge (`lanes`: the lane whose
first differing event comes earliest in run A, its seq in each run and both events).

Invariants: Qt-free, read-only over the projections; `RunDiff.same` is True exactly when nothing of
the above differs (a run compared with itself or with its replay).
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any

from engine.compare.lanes import LaneEvent, lanes
from engine.projection import RunProjection


@dataclass(frozen=True, slots=True)
class NodeDelta:
    node_id: str
    tokens: int
    cost_usd: float
    duration_s: float | None


@dataclass(frozen=True, slots=True)
class VerdictChange:
    judge: str
    subject: str
    round: int
    before: str  # "approve 0.90" or "-" when only B has it
    after: str


@dataclass(frozen=True, slots=True)
class Divergence:
    lane: str
    seq_a: int | None
    seq_b: int | None
    event_a: str
    event_b: str
    detail: str = ""  # the first field that differs, and its two values


@dataclass(slots=True)
class RunDiff:
    run_a: str
    run_b: str
    output_diffs: dict[str, list[str]] = field(default_factory=dict)  # node → unified diff lines
    verdicts: list[VerdictChange] = field(default_factory=list)
    deltas: list[NodeDelta] = field(default_factory=list)
    only_a: list[str] = field(default_factory=list)
    only_b: list[str] = field(default_factory=list)
    totals: NodeDelta = NodeDelta("run", 0, 0.0, 0.0)
    status: tuple[str, str] = ("", "")
    first_divergence: Divergence | None = None

    @property
    def same(self) -> bool:
        return not (self.output_diffs or self.verdicts or self.only_a or self.only_b or self.first_divergence
                    or self.status[0] != self.status[1])


def compare(a: RunProjection, b: RunProjection) -> RunDiff:
    out = RunDiff(a.run_id, b.run_id, status=(a.status, b.status))
    ran_a = {n for n, row in a.nodes.items() if row.executions}
    ran_b = {n for n, row in b.nodes.items() if row.executions}
    out.only_a, out.only_b = sorted(ran_a - ran_b), sorted(ran_b - ran_a)
    texts_a, texts_b = _outputs(a), _outputs(b)
    for node in sorted(set(texts_a) | set(texts_b), key=lambda n: _order(a, b, n)):
        old, new = texts_a.get(node, []), texts_b.get(node, [])
        if old != new:
            out.output_diffs[node] = list(difflib.unified_diff(old, new, f"{a.run_id[:12]}:{node}",
                                                               f"{b.run_id[:12]}:{node}", lineterm="", n=2))
    out.verdicts = _verdict_changes(a, b)
    for node in sorted(ran_a & ran_b, key=lambda n: _order(a, b, n)):
        ra, rb = a.nodes[node], b.nodes[node]
        da, db = ra.duration_s, rb.duration_s
        out.deltas.append(NodeDelta(node, rb.tokens - ra.tokens, rb.cost_usd - ra.cost_usd,
                                    None if da is None or db is None else db - da))
    out.totals = NodeDelta("run", (b.tokens_in + b.tokens_out) - (a.tokens_in + a.tokens_out),
                           b.cost_usd - a.cost_usd, b.duration_s - a.duration_s)
    out.first_divergence = first_divergence(a, b)
    return out


def first_divergence(a: RunProjection, b: RunProjection) -> Divergence | None:
    la, lb = lanes(a.events), lanes(b.events)
    found: list[tuple[int, Divergence]] = []
    for lane in set(la) | set(lb):
        ea, eb = la.get(lane, []), lb.get(lane, [])
        for index in range(max(len(ea), len(eb))):
            x = ea[index] if index < len(ea) else None
            y = eb[index] if index < len(eb) else None
            if x is None or y is None or (x.kind, x.payload) != (y.kind, y.payload):
                where = x.seq if x is not None else (y.seq if y is not None else 0)
                detail = ("" if x is None or y is None else f"kind {x.kind} → {y.kind}" if x.kind != y.kind
                          else where_differs(x.payload, y.payload))
                found.append((where, Divergence(lane, _seq(x), _seq(y), _said(x), _said(y), detail)))
                break
    return min(found, key=lambda item: item[0])[1] if found else None


def where_differs(x: Any, y: Any, path: str = "") -> str:
    """The first path at which `x` and `y` differ, with both values (shortened)."""
    if isinstance(x, dict) and isinstance(y, dict):
        for key in [*x, *(k for k in y if k not in x)]:
            if x.get(key) != y.get(key):
                return where_differs(x.get(key), y.get(key), f"{path}.{key}" if path else str(key))
    if isinstance(x, list | tuple) and isinstance(y, list | tuple) and len(x) == len(y):
        for index, (xi, yi) in enumerate(zip(x, y, strict=True)):
            if xi != yi:
                return where_differs(xi, yi, f"{path}[{index}]")
    if isinstance(x, str) and isinstance(y, str):
        at = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y)))
        return f"{path or 'value'} at character {at}: {x[at:at + 60]!r} → {y[at:at + 60]!r}"
    return f"{path or 'value'}: {_short(x)} → {_short(y)}"


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _seq(e: LaneEvent | None) -> int | None:
    return None if e is None else e.seq


def _said(e: LaneEvent | None) -> str:
    return "(nothing: the run has no such event)" if e is None else e.summary()


def _outputs(p: RunProjection) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for seq in sorted(p.artifacts):
        e = p.artifacts[seq]
        value = e.value if isinstance(e.value, str) else json.dumps(e.value, indent=1, sort_keys=True, default=str)
        out.setdefault(e.node_id, []).extend([f"[{e.port}]", *value.splitlines()])
    return out


def _verdict_changes(a: RunProjection, b: RunProjection) -> list[VerdictChange]:
    def keyed(p: RunProjection) -> dict[tuple[str, str, int, int], Any]:
        seen: dict[tuple[str, str, int], int] = {}
        out: dict[tuple[str, str, int, int], Any] = {}
        for v in p.verdicts:
            base = (v.node_id, v.subject_node_id, v.round)
            seen[base] = seen.get(base, 0) + 1
            out[(*base, seen[base])] = v
        return out

    va, vb = keyed(a), keyed(b)
    changes = []
    for key in sorted(set(va) | set(vb), key=lambda k: (k[2], k[0], k[1], k[3])):
        x, y = va.get(key), vb.get(key)
        before = "-" if x is None else f"{x.decision} {x.score:.2f}"
        after = "-" if y is None else f"{y.decision} {y.score:.2f}"
        if before != after:
            changes.append(VerdictChange(key[0], key[1], key[2], before, after))
    return changes


def _order(a: RunProjection, b: RunProjection, node: str) -> tuple[int, str]:
    row = a.nodes.get(node) or b.nodes.get(node)
    return (row.seq if row is not None and row.seq else 1 << 60, node)
