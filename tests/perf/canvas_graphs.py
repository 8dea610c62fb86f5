"""Graphs with the awkward shapes a canvas benchmark needs: every role, ~3 edges a node, many long edges.

`generate_workflow` wires mostly neighbouring layers (an edge spans 1–2 columns), which is the
easy case for a canvas: few edges cross any viewport. `long_edge_workflow` adds edges from far
earlier layers (a uniform span over the whole width) into multi-input ports, so that at zoom 1
hundreds of long edges cross the viewport and at fit every part of the picture is connected.

Invariant: deterministic per seed; every added edge joins compatible ports (the workflow stays
valid, so the Problems panel and the marks show what a real file would).
"""

from __future__ import annotations

import random

from engine.graph.generate import generate_workflow
from engine.graph.model import Edge, Node, Workflow
from engine.graph.specs import types_compatible

SINK_PORTS = {"executor": "context", "reduce": "items"}  # multi-input ports: any number of edges


def long_edge_workflow(n_nodes: int, *, edges_per_node: float = 3.0, long_share: float = 0.35,
                       seed: int = 1) -> Workflow:
    """`n_nodes` nodes of every role, about `edges_per_node * n_nodes` edges, `long_share` of them long."""
    short_total = round(edges_per_node * n_nodes * (1 - long_share))
    workflow = generate_workflow(n_nodes, edges_per_node=short_total / n_nodes, seed=seed)
    rng = random.Random(seed)
    column_of = {node.id: round(node.ui.x / 280.0) for node in workflow.nodes.values()}
    by_column: dict[int, list[Node]] = {}
    for node in workflow.nodes.values():
        by_column.setdefault(column_of[node.id], []).append(node)
    sinks = [n for n in workflow.nodes.values() if n.role in SINK_PORTS and column_of[n.id] > 4]
    target_total = round(edges_per_node * n_nodes)
    existing = {(e.source, e.source_port, e.target, e.target_port) for e in workflow.edges.values()}
    attempts = 0
    while sinks and len(workflow.edges) < target_total and attempts < 8 * target_total:
        attempts += 1
        sink = rng.choice(sinks)
        port = sink.port(SINK_PORTS[sink.role], output=False)
        if port is None:
            continue
        source = rng.choice(by_column[rng.randrange(0, column_of[sink.id] - 3)])
        outputs = [p for p in source.output_ports() if types_compatible(p.type, port.type)]
        if outputs:
            out = rng.choice(outputs)
            key = (source.id, out.name, sink.id, port.name)
            if key in existing:
                continue
            existing.add(key)
            workflow.add_edge(Edge(f"long{len(workflow.edges) + 1}", source.id, out.name, sink.id, port.name))
    return workflow
