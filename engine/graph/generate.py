"""Synthetic workflows for benchmarks and tests: layered, valid, realistic, deterministic per seed.

`generate_workflow(n)` lays out an Input layer, then layers of planners / executors / critics /
verifiers / maps / reduces / votes / memories / routers / human gates / sub-graphs, then Output
nodes, on a grid (layer = column). Every required input is fed from an earlier layer with a
compatible port type; extra edges go to multi-input ports (an executor's context, a reduce's items)
and critics send their verdict back to the executor they review (a loop bounded by max_rounds).

Invariant: `validate(generate_workflow(n, ...))` reports no problem at all; the same arguments give
the same workflow (ids, params, positions, edges).
"""

from __future__ import annotations

import copy
import math
import random

from engine.graph.model import Edge, Node, NodeUi, Workflow
from engine.graph.specs import DEFAULT_MODEL, PortSpec, types_compatible

_MIDDLE_ROLES = ("executor", "critic", "planner", "verifier", "map", "reduce", "vote", "memory", "router",
                 "human_gate", "subgraph")
_WEIGHTS = (40, 16, 8, 6, 5, 5, 5, 6, 3, 3, 3)
_TITLES = {"executor": "Do", "critic": "Review", "planner": "Plan", "verifier": "Check", "map": "Fan out",
           "reduce": "Combine", "vote": "Vote", "memory": "Notes", "router": "Route", "human_gate": "Approve",
           "subgraph": "Sub-flow", "input": "Goal", "output": "Result"}
_EMBEDDED = {"format": "triadic.workflow", "version": 1, "nodes": [
    {"id": "in", "role": "input", "params": {"name": "goal"}},
    {"id": "out", "role": "output", "params": {"name": "result"}}],
    "edges": [{"id": "e1", "source": "in", "source_port": "value", "target": "out", "target_port": "value"}]}
_DX, _DY = 280.0, 140.0


def _params(role: str, index: int) -> dict[str, object]:
    if role == "input":
        return {"name": "goal" if index == 0 else f"goal_{index + 1}", "default": "Write a short report"}
    if role == "output":
        return {"name": "result" if index == 0 else f"result_{index + 1}"}
    if role == "human_gate":
        return {"policy": "approve"}
    if role == "subgraph":
        return {"graph": copy.deepcopy(_EMBEDDED)}
    if role == "memory":
        return {"memory": "notes", "key": f"k{index}"}
    if role in ("executor", "critic", "planner", "map", "reduce", "vote"):
        return {"model": DEFAULT_MODEL}
    return {}


def generate_workflow(n_nodes: int, *, edges_per_node: float = 2, seed: int = 0) -> Workflow:
    """A valid layered workflow of `n_nodes` nodes (at least 2) and about `edges_per_node * n_nodes` edges."""
    if n_nodes < 2:
        raise ValueError("a generated workflow needs at least 2 nodes (an Input and an Output)")
    rng = random.Random(seed)
    wf = Workflow(f"Generated {n_nodes} nodes", id=f"generated-{n_nodes}-{seed}")
    width = max(1, round(math.sqrt(n_nodes)))
    n_io = max(1, n_nodes // 500)
    n_out = min(n_io, n_nodes - n_io) if n_nodes > 2 else 1
    n_in = n_nodes - n_out if n_nodes - n_out < n_io else n_io
    layers: list[list[Node]] = [[_node(wf, "input", i, 0, i) for i in range(n_in)]]
    middle = n_nodes - n_in - n_out
    while middle > 0:
        count = min(width, middle)
        column = len(layers)
        roles = rng.choices(_MIDDLE_ROLES, _WEIGHTS, k=count)
        layers.append([_node(wf, role, len(wf.nodes), column, row) for row, role in enumerate(roles)])
        middle -= count
    layers.append([_node(wf, "output", i, len(layers), i) for i in range(n_out)])
    for column, layer in enumerate(layers[1:], start=1):
        for node in layer:
            _wire_inputs(wf, rng, layers, column, node)
    _add_extra_edges(wf, rng, layers, round(edges_per_node * n_nodes))
    return wf


def _node(wf: Workflow, role: str, index: int, column: int, row: int) -> Node:
    node = Node(f"{role}_{len(wf.nodes) + 1}", role, f"{_TITLES[role]} {len(wf.nodes) + 1}",
                _params(role, index), NodeUi(column * _DX, row * _DY))
    wf.add_node(node)
    return node


def _link(wf: Workflow, source: Node, port: PortSpec, target: Node, target_port: str) -> None:
    wf.add_edge(Edge(f"e{len(wf.edges) + 1}", source.id, port.name, target.id, target_port))


def _feeder(rng: random.Random, layers: list[list[Node]], column: int, want: str) -> tuple[Node, PortSpec]:
    """An earlier node with an output that can feed a `want`-typed input (the Input node always can)."""
    for _ in range(8):
        back = min(column, 1 + int(rng.expovariate(1.0)))
        candidate = rng.choice(layers[column - back])
        ports = [p for p in candidate.output_ports() if types_compatible(p.type, want)]
        if ports:
            return candidate, rng.choice(ports)
    first = layers[0][0]
    return first, first.output_ports()[0]


def _wire_inputs(wf: Workflow, rng: random.Random, layers: list[list[Node]], column: int, node: Node) -> None:
    for port in node.input_ports():
        if port.required or (port.name in ("value", "input", "args") and column > 0):
            source, out = _feeder(rng, layers, column, port.type)
            _link(wf, source, out, node, port.name)
            if node.role == "critic" and source.role == "executor" and not any(
                    e.target == source.id and e.target_port == "feedback" for e in wf.incoming(source.id)):
                _link(wf, node, node.output_ports()[0], source, "feedback")


def _add_extra_edges(wf: Workflow, rng: random.Random, layers: list[list[Node]], target_total: int) -> None:
    sinks = [(column, n, "context" if n.role == "executor" else "items")
             for column, layer in enumerate(layers) for n in layer if n.role in ("executor", "reduce")]
    existing = {(e.source, e.source_port, e.target, e.target_port) for e in wf.edges.values()}
    attempts = 0
    while sinks and len(wf.edges) < target_total and attempts < 4 * target_total:
        attempts += 1
        column, node, port_name = rng.choice(sinks)
        port = node.port(port_name, output=False)
        assert port is not None
        source, out = _feeder(rng, layers, column, port.type)
        key = (source.id, out.name, node.id, port_name)
        if key not in existing:
            existing.add(key)
            _link(wf, source, out, node, port_name)
