"""The determinism check: run one workflow live N times with the same inputs and say, per node, how
consistent it is — how many runs gave the most common output exactly and after normalisation
(whitespace collapsed, JSON parsed and re-written with sorted keys), and the spread (min / median /
max) of its tokens, cost and duration.

- `consistency(projections)`: the figures from N finished runs' `RunProjection`s (Qt-free, read-only);
- `repeat(plans, ...)`: run each plan once, one after the other, each folded into a projection.
  `plans[i]` is the workflow as run i runs it (the same plan N times, or one seed per run to show a
  simulated provider's seed variation).

Invariant: a node's output in a run is every output it gave, in order (a revised artifact counts with
its revisions); a node that did not run in a run counts as an output of its own ("(did not run)").
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.projection import RunProjection

if TYPE_CHECKING:
    from engine.runtime.plan import RunPlan

_DID_NOT_RUN = "(did not run)"


@dataclass(frozen=True, slots=True)
class Spread:
    low: float
    median: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        return cls(min(values), statistics.median(values), max(values)) if values else cls(0.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class NodeConsistency:
    node_id: str
    runs: int
    exact: int  # runs whose output equals the most common output exactly
    normalised: int  # the same after whitespace / JSON normalisation
    distinct: int  # how many different outputs (exact)
    tokens: Spread
    cost_usd: Spread
    duration_s: Spread

    @property
    def exact_share(self) -> float:
        return self.exact / self.runs if self.runs else 1.0

    @property
    def normalised_share(self) -> float:
        return self.normalised / self.runs if self.runs else 1.0


def normalise(text: str) -> str:
    try:
        return json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))
    except ValueError:
        return " ".join(text.split())


def _output_text(p: RunProjection, node: str) -> str:
    parts = []
    for seq in sorted(p.artifacts):
        e = p.artifacts[seq]
        if e.node_id == node:
            value = e.value if isinstance(e.value, str) else json.dumps(e.value, sort_keys=True, default=str)
            parts.append(f"[{e.port}] {value}")
    return "\n".join(parts) if parts else _DID_NOT_RUN


def consistency(projections: Sequence[RunProjection]) -> list[NodeConsistency]:
    nodes: list[str] = []
    for p in projections:
        nodes += [n for n in p.nodes if n not in nodes]
    out = []
    for node in nodes:
        texts = [_output_text(p, node) for p in projections]
        rows = [p.nodes[node] for p in projections if node in p.nodes and p.nodes[node].executions]
        exact = Counter(texts)
        normal = Counter(normalise(t) for t in texts)
        durations = [r.duration_s for r in rows if r.duration_s is not None]
        out.append(NodeConsistency(
            node, len(projections), exact.most_common(1)[0][1], normal.most_common(1)[0][1], len(exact),
            Spread.of([float(r.tokens) for r in rows]), Spread.of([r.cost_usd for r in rows]), Spread.of(durations)))
    return out


async def repeat(plans: Sequence[RunPlan], *, gateway: Any, store: Any = None,
                 inputs: dict[str, object] | None = None) -> list[RunProjection]:
    """Run each plan once, in turn, live; their projections (with events) in order."""
    from engine.runtime.launch import follow, start_run

    out = []
    for plan in plans:
        projection = RunProjection()
        await follow(start_run(plan, store=store, inputs=inputs, gateway=gateway), projection)
        out.append(projection)
    return out
