"""The sentences of edge and input problems: an edge that cannot connect its two nodes, an input
left unconnected (`engine.graph.edge_checks` decides which edges and inputs to ask about).

Invariant: read-only; an edge's message names it, its ends and the port that is wrong.
"""

from __future__ import annotations

from engine.graph.model import Edge, Node, Workflow
from engine.graph.naming import describe_node, describe_port
from engine.graph.problems import Problem, error
from engine.graph.specs import PortSpec, types_compatible

__all__ = ["describe_ends", "edge_message", "missing_input"]

Ports = dict[str, dict[str, PortSpec]]


def describe_ends(edge: Edge) -> str:
    return f"{edge.source}.{edge.source_port} → {edge.target}.{edge.target_port}"


def edge_message(wf: Workflow, edge: Edge, inputs: Ports, outputs: Ports) -> tuple[str, str] | None:
    source, target = wf.nodes.get(edge.source), wf.nodes.get(edge.target)
    for end, node in (("source", source), ("target", target)):
        if node is None:
            verb = "comes from" if end == "source" else "goes to"
            return ("dangling_edge", f"Edge {edge.id} ({describe_ends(edge)}) {verb} an unknown node "
                    f"{getattr(edge, end)!r}.")
    assert source is not None and target is not None
    if source.id not in outputs or target.id not in inputs:
        return None  # an unknown role is reported once, on its node
    out_port = outputs[source.id].get(edge.source_port)
    in_port = inputs[target.id].get(edge.target_port)
    if out_port is None:
        return "dangling_edge", f"Edge {edge.id}: {describe_node(source)} has no output {edge.source_port!r}."
    if in_port is None:
        return "dangling_edge", f"Edge {edge.id}: {describe_node(target)} has no input {edge.target_port!r}."
    if not types_compatible(out_port.type, in_port.type):
        return "port_type_mismatch", (f"Edge {edge.id}: {describe_port(out_port, output=True)} of "
                                      f"{describe_node(source)} cannot feed {describe_port(in_port, output=False)} "
                                      f"of {describe_node(target)}.")
    return None


def missing_input(node: Node, port: PortSpec) -> Problem:
    if node.role == "critic" and port.name == "subject":
        message = f"{describe_node(node)} has nothing to review: connect its subject input."
    else:
        message = f"{describe_node(node)} needs its {port.name!r} input connected."
    return error("missing_input", message, node_id=node.id, field=f"inputs.{port.name}")
