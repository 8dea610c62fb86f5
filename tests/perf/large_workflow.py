"""A large workflow with the awkward shapes, for the open / edit benchmarks: every role, ~3 edges per
node, many of them long-range (an executor's context or a reduce's items fed from a column far to the
left), critics looping back to the executors they review.

`large_workflow(n)` starts from `engine.graph.generate.generate_workflow` (valid, layered, mostly short
edges) and adds long-range edges until there are `edges_per_node * n`; the result still validates
without a problem and is the same for the same arguments.
"""

from __future__ import annotations

import random

from engine.graph.generate import generate_workflow
from engine.graph.model import Edge, Workflow
from engine.graph.specs import types_compatible

_COLUMN_WIDTH = 280.0


def large_workflow(n_nodes: int = 5000, *, edges_per_node: float = 3.0, seed: int = 7) -> Workflow:
    wf = generate_workflow(n_nodes, edges_per_node=2.0, seed=seed)
    rng = random.Random(seed)
    columns: dict[int, list[str]] = {}
    for node in wf.nodes.values():
        columns.setdefault(round(node.ui.x / _COLUMN_WIDTH), []).append(node.id)
    sinks = [(n.id, "context" if n.role == "executor" else "items") for n in wf.nodes.values()
             if n.role in ("executor", "reduce")]
    existing = {(e.source, e.source_port, e.target, e.target_port) for e in wf.edges.values()}
    target_total = round(edges_per_node * n_nodes)
    while sinks and len(wf.edges) < target_total:
        target_id, port_name = rng.choice(sinks)
        target = wf.nodes[target_id]
        column = round(target.ui.x / _COLUMN_WIDTH)
        if column < 2:
            continue
        source = wf.nodes[rng.choice(columns[rng.randrange(0, column // 2 + 1)])]
        port = target.port(port_name, output=False)
        outs = [p for p in source.output_ports() if port is not None and types_compatible(p.type, port.type)]
        if not outs:
            continue
        key = (source.id, outs[0].name, target_id, port_name)
        if key not in existing:
            existing.add(key)
            wf.add_edge(Edge(f"e{len(wf.edges) + 1}", *key))
    return wf
