"""Group selected nodes into one embedded sub-graph node, and ungroup (the inverse).

Group: the selected nodes and the edges between them move into a workflow embedded (as a
file-format dict) in the `graph` param of a new sub-graph node placed at their centre. Inside, an
Input node feeds the targets of edges that entered the selection and an Output node collects the
sources of edges that left it; outside, those edges keep their ids and are re-attached to the
sub-graph's `input` / `output` ports. `ui["grouped_from"]` of the embedded workflow records the
exact boundary so that ungroup restores the original wiring.

Ungroup: the embedded nodes come back (renamed on id clashes, shifted by how far the sub-graph node
moved) and the boundary edges are reconnected. Both are macros of primitive commands, so undo
restores the model exactly.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

from app.commands.edge_commands import AddEdgeCommand, RemoveEdgeCommand
from app.commands.macro import MacroCommand
from app.commands.node_commands import AddNodeCommand, RemoveNodeCommand
from engine.graph.convert import workflow_from_dict, workflow_to_dict
from engine.graph.model import Edge, Node, NodeUi, Workflow
from engine.graph.specs import Role

_IN, _OUT = "group_input", "group_output"


def _centre(nodes: list[Node]) -> tuple[float, float]:
    return (sum(n.ui.x for n in nodes) / len(nodes), sum(n.ui.y for n in nodes) / len(nodes))


def group_command(workflow: Workflow, node_ids: list[str], title: str = "Group") -> MacroCommand:
    ids = [n for n in dict.fromkeys(node_ids) if n in workflow.nodes]
    if not ids:
        raise ValueError("select at least one node to group")
    chosen = set(ids)
    nodes = [workflow.nodes[n] for n in ids]
    cx, cy = _centre(nodes)
    inner = Workflow(title)
    for node in nodes:
        inner.nodes[node.id] = copy.deepcopy(node)
    edges_in = [e for e in workflow.edges.values() if e.target in chosen and e.source not in chosen]
    edges_out = [e for e in workflow.edges.values() if e.source in chosen and e.target not in chosen]
    internal = [e for e in workflow.edges.values() if e.source in chosen and e.target in chosen]
    for edge in internal:
        inner.edges[edge.id] = edge
    _add_boundary(inner, edges_in, edges_out, cx, cy)
    inner.ui["grouped_from"] = {
        "centre": [cx, cy],
        "inputs": [{"edge": e.id, "target": e.target, "target_port": e.target_port} for e in edges_in],
        "outputs": [{"edge": e.id, "source": e.source, "source_port": e.source_port} for e in edges_out],
    }
    group_id = workflow.new_node_id(Role.SUBGRAPH.value)
    group = Node(group_id, Role.SUBGRAPH.value, title, {"graph": workflow_to_dict(inner)}, NodeUi(cx, cy))
    macro = MacroCommand(f"Group {len(ids)} node(s)")
    for edge in [*edges_in, *edges_out, *internal]:
        macro.add(RemoveEdgeCommand(workflow, edge.id))
    for node_id in ids:
        macro.add(RemoveNodeCommand(workflow, node_id))
    macro.add(AddNodeCommand(workflow, group))
    for e in edges_in:
        macro.add(AddEdgeCommand(workflow, Edge(e.id, e.source, e.source_port, group_id, "input")))
    for e in edges_out:
        macro.add(AddEdgeCommand(workflow, Edge(e.id, group_id, "output", e.target, e.target_port)))
    return macro


def _add_boundary(inner: Workflow, edges_in: list[Edge], edges_out: list[Edge], cx: float, cy: float) -> None:
    xs = [n.ui.x for n in inner.nodes.values()]
    if edges_in:
        inner.nodes[_IN] = Node(_IN, Role.INPUT.value, "Group input", {"name": "input"}, NodeUi(min(xs) - 250, cy))
        for e in edges_in:
            edge_id = inner.new_edge_id()
            inner.edges[edge_id] = Edge(edge_id, _IN, "value", e.target, e.target_port)
    if edges_out:
        inner.nodes[_OUT] = Node(_OUT, Role.OUTPUT.value, "Group output", {"name": "output"}, NodeUi(max(xs) + 250, cy))
        for e in edges_out:
            edge_id = inner.new_edge_id()
            inner.edges[edge_id] = Edge(edge_id, e.source, e.source_port, _OUT, "value")


def ungroup_command(workflow: Workflow, group_id: str) -> MacroCommand:
    group = workflow.nodes.get(group_id)
    graph = group.params.get("graph") if group else None
    if group is None or group.role != Role.SUBGRAPH.value or not isinstance(graph, dict) or not graph:
        raise ValueError(f"{group_id!r} is not a sub-graph node with an embedded graph")
    inner = workflow_from_dict(graph)
    boundary: dict[str, Any] = inner.ui.get("grouped_from") or {}
    centre = boundary.get("centre") or list(_centre(list(inner.nodes.values())))
    dx, dy = group.ui.x - float(centre[0]), group.ui.y - float(centre[1])
    outer_ids = set(workflow.nodes) - {group_id}
    taken = outer_ids | set(inner.nodes)
    rename: dict[str, str] = {}
    for node_id, node in inner.nodes.items():
        if node_id in (_IN, _OUT):
            continue
        new_id = node_id if node_id not in outer_ids else next(
            f"{node.role}_{i}" for i in itertools.count(1) if f"{node.role}_{i}" not in taken)
        taken.add(new_id)
        rename[node_id] = new_id
    outer_in = [e for e in workflow.incoming(group_id)]
    outer_out = [e for e in workflow.outgoing(group_id)]
    macro = MacroCommand(f"Ungroup {group.title or group_id}")
    for edge in [*outer_in, *outer_out]:
        macro.add(RemoveEdgeCommand(workflow, edge.id))
    macro.add(RemoveNodeCommand(workflow, group_id))
    for old_id, new_id in rename.items():
        node = copy.deepcopy(inner.nodes[old_id])
        node.id = new_id
        node.ui.x, node.ui.y = node.ui.x + dx, node.ui.y + dy
        macro.add(AddNodeCommand(workflow, node))
    used = set(workflow.edges) - {e.id for e in [*outer_in, *outer_out]}

    def edge_id(preferred: str) -> str:
        new = preferred if preferred not in used else next(
            f"e{i}" for i in itertools.count(1) if f"e{i}" not in used)
        used.add(new)
        return new

    for e in inner.edges.values():
        if e.source in rename and e.target in rename:
            edge = Edge(edge_id(e.id), rename[e.source], e.source_port, rename[e.target], e.target_port)
            macro.add(AddEdgeCommand(workflow, edge))
    for outer, (end_id, port) in _reconnections(inner, boundary, outer_in, "inputs"):
        if end_id in rename:
            edge = Edge(edge_id(outer.id), outer.source, outer.source_port, rename[end_id], port)
            macro.add(AddEdgeCommand(workflow, edge))
    for outer, (end_id, port) in _reconnections(inner, boundary, outer_out, "outputs"):
        if end_id in rename:
            edge = Edge(edge_id(outer.id), rename[end_id], port, outer.target, outer.target_port)
            macro.add(AddEdgeCommand(workflow, edge))
    return macro


def _reconnections(inner: Workflow, boundary: dict[str, Any], outer: list[Edge],
                   side: str) -> list[tuple[Edge, tuple[str, str]]]:
    """Pairs (outer edge, inner endpoint) to reconnect: the recorded ones, else every combination."""
    recorded = {r["edge"]: r for r in boundary.get(side, []) if isinstance(r, dict) and "edge" in r}
    key = ("target", "target_port") if side == "inputs" else ("source", "source_port")
    if outer and all(e.id in recorded for e in outer):
        return [(e, (recorded[e.id][key[0]], recorded[e.id][key[1]])) for e in outer]
    if side == "inputs":
        ends = [(e.target, e.target_port) for e in inner.edges.values() if e.source == _IN]
    else:
        ends = [(e.source, e.source_port) for e in inner.edges.values() if e.target == _OUT]
    return [(e, end) for e in outer for end in ends]
