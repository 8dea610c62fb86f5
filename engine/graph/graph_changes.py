"""What changed in a workflow since it was last validated, found by object identity.

`GraphChanges.between(nodes, edges, wf)` compares the node and edge tables a validation saw with
`wf`'s: a node or edge is changed when its id is new, gone, or holds another object (the validated
copies are `engine.graph.snapshot` copies, whose nodes are never changed in place). `EdgeIndex`
keeps which edges touch each node id — the source or target id an edge names, whether or not a node
of that id exists — so an edit's checks can reach the edges of the nodes it touched.

Invariants: the comparison is one identity test per node and per edge (~1 ms at 5,000 nodes /
15,000 edges) and everything else is proportional to what changed; `in_order` lists findings in the
order of the table they belong to (file order).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from engine.graph.model import Edge, Node, Workflow

__all__ = ["EdgeIndex", "GraphChanges", "in_order"]

T = TypeVar("T")


class GraphChanges:
    """The ids of changed nodes with their previous objects; the edges gone (old objects) and new."""

    __slots__ = ("edges_added", "edges_removed", "nodes", "old_nodes")

    def __init__(self, nodes: set[str], old_nodes: dict[str, Node], edges_added: list[Edge],
                 edges_removed: list[Edge]) -> None:
        self.nodes = nodes  # added, removed or replaced
        self.old_nodes = old_nodes  # the previous object of each replaced or removed node
        self.edges_added = edges_added  # added or replaced (the new objects)
        self.edges_removed = edges_removed  # removed or replaced (the old objects)

    @classmethod
    def between(cls, nodes: Mapping[str, Node], edges: Mapping[str, Edge], wf: Workflow) -> GraphChanges:
        known_node, known_edge = nodes.get, edges.get
        changed = {nid for nid, node in wf.nodes.items() if known_node(nid) is not node}
        changed.update(nodes.keys() - wf.nodes.keys())
        added = [edge for eid, edge in wf.edges.items() if known_edge(eid) is not edge]
        removed = [edges[eid] for eid in edges.keys() - wf.edges.keys()]
        removed.extend(edges[e.id] for e in added if e.id in edges)
        return cls(changed, {nid: nodes[nid] for nid in changed if nid in nodes}, added, removed)

    def added_node(self, node_id: str) -> bool:
        return node_id not in self.old_nodes


class EdgeIndex:
    """The ids of the edges naming each node id as their source or target."""

    def __init__(self) -> None:
        self._touching: dict[str, set[str]] = {}

    def update(self, changes: GraphChanges) -> None:
        for edge in changes.edges_removed:
            for end in {edge.source, edge.target}:
                ids = self._touching[end]
                ids.discard(edge.id)
                if not ids:
                    del self._touching[end]
        touching = self._touching
        for edge in changes.edges_added:
            for end in (edge.source, edge.target):
                if (known := touching.get(end)) is None:
                    touching[end] = {edge.id}
                else:
                    known.add(edge.id)

    def touching(self, node_id: str) -> set[str]:
        return self._touching.get(node_id, set())

    def connected(self, node_id: str) -> bool:
        return node_id in self._touching


def in_order(order: Mapping[str, object], found: Mapping[str, list[T]]) -> list[T]:
    """The findings of `found` (by id) in the order of `order`'s ids."""
    if not found:
        return []
    return [item for key in order if key in found for item in found[key]]
