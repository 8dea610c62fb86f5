"""Wiring checks of memory nodes: a gated write needs something on its `gate` input.

A memory node that writes (mode "write" or "append") with `gated` on admits a write only when the
verdict on its `gate` input approves (`engine.memory.gating.admit`); with no edge into `gate` there
is never a verdict, so every write is refused. That is reported as a warning (the run still runs,
it just keeps nothing), naming the node and what to connect. A reading memory node ignores `gated`.

`gate_problem(node, gate_connected)` is the rule for one node (incremental validation asks it for
the nodes whose inputs an edit changed).

Invariants: read-only; one pass over the edges, then over the nodes; at most one problem per node,
in node file order, on the node's `inputs.gate` field (as `missing_input` is on its port).
"""

from __future__ import annotations

from engine.graph.model import Node, Workflow
from engine.graph.naming import describe_node
from engine.graph.problems import Problem, warning

__all__ = ["gate_problem", "memory_problems"]


def memory_problems(wf: Workflow) -> list[Problem]:
    """A warning for each gated, writing memory node with no edge into its `gate` input."""
    gated = {e.target for e in wf.edges.values() if e.target_port == "gate" and e.source in wf.nodes}
    return [p for node in wf.nodes.values() if (p := gate_problem(node, node.id in gated)) is not None]


def gate_problem(node: Node, gate_connected: bool) -> Problem | None:
    """The warning for `node` if it is a gated, writing memory node and nothing feeds its gate."""
    if node.role != "memory" or gate_connected:
        return None
    if node.param("gated") is not True or node.param("mode") not in ("write", "append"):
        return None
    return warning(
        "memory_gate_unconnected",
        f"{describe_node(node)} is gated but nothing is connected to its 'gate' input, so it can "
        "never admit a write: connect the verdict of a Critic, Verifier or Human gate to its gate "
        "input, or turn off 'gated'.",
        node_id=node.id, field="inputs.gate")
