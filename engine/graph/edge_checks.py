"""Edge problems, kept from one validation to the next: each edge against its two nodes, repeated
edges, and inputs left unconnected or fed more than once.

`EdgeChecks.update(wf, changes, ...)` re-checks only the edges an edit touched — edges added or
removed, the edges of changed nodes, and the other edges repeating the same ends — and the inputs
of the nodes they feed, and so the gates of memory nodes (`gate_problems`); `EdgeChecks().update` with
every node and edge changed is a full check.

Invariants: the findings equal a full check's, in its order: edges in file order (an edge repeating
the ends of an earlier one is reported as a repeat, and only that), then the inputs of each node in
file order; an edge feeds its target's input when it is not a repeat and its source exists.
"""

from __future__ import annotations

from collections.abc import KeysView

from engine.graph.edge_messages import Ports, describe_ends, edge_message, missing_input
from engine.graph.graph_changes import EdgeIndex, GraphChanges, in_order
from engine.graph.memory_checks import gate_problem
from engine.graph.model import Edge, Workflow
from engine.graph.naming import describe_node
from engine.graph.problems import Problem, error

__all__ = ["EdgeChecks"]

_Ends = tuple[str, str, str, str]


class EdgeChecks:
    def __init__(self) -> None:
        self._repeats: dict[_Ends, list[str]] = {}  # edge ids with the same ends, in file order
        self._edges: dict[str, list[Problem]] = {}  # the problem of each edge that has one
        self._feeding: dict[tuple[str, str], set[str]] = {}  # (target, input) -> the edges feeding it
        self._feeds: dict[str, tuple[str, str]] = {}  # edge id -> the input it feeds
        self._inputs: dict[str, list[Problem]] = {}  # node id -> its inputs' problems
        self._gates: dict[str, list[Problem]] = {}  # node id -> a gated memory's unconnected gate

    def update(self, wf: Workflow, changes: GraphChanges, index: EdgeIndex, inputs: Ports,
               outputs: Ports) -> list[Problem]:
        order = _EdgeOrder(wf)
        regrouped = self._regroup(changes, order)
        recheck: set[str] | KeysView[str]
        targets = set(changes.nodes)
        if len(changes.edges_added) == len(wf.edges):  # every edge is new (a first validation)
            recheck, targets = wf.edges.keys(), targets | wf.nodes.keys()
            for table in (self._edges, self._feeding, self._feeds):
                table.clear()
        else:
            recheck = {edge.id for edge in changes.edges_removed}
            recheck.update(edge.id for edge in changes.edges_added)
            for node_id in changes.nodes:
                recheck.update(index.touching(node_id))
            recheck.update(regrouped)
        edges, feeds, found = wf.edges, self._feeds, self._edges
        for edge_id in recheck:
            fed = feeds.pop(edge_id, None)
            if fed is not None:
                self._unfeed(fed, edge_id)
                targets.add(fed[0])
            found.pop(edge_id, None)
            edge = edges.get(edge_id)
            if edge is not None and (target := self._check(wf, edge, inputs, outputs)) is not None:
                targets.add(target)  # (a set already holding every node when every edge is new)
        for node_id in targets:
            self._check_inputs(wf, node_id, inputs, order)
        return in_order(wf.edges, self._edges) + in_order(wf.nodes, self._inputs)

    def _regroup(self, changes: GraphChanges, order: _EdgeOrder) -> set[str]:
        """Files the changed edges under their ends; the ids of the other edges sharing ends with one."""
        affected: set[_Ends] = set()
        for edge in changes.edges_removed:
            ends = edge.source, edge.source_port, edge.target, edge.target_port
            group = self._repeats[ends]
            group.remove(edge.id)
            if group:
                affected.add(ends)
            else:
                del self._repeats[ends]
        repeats = self._repeats
        for edge in changes.edges_added:
            ends = edge.source, edge.source_port, edge.target, edge.target_port
            if (same := repeats.get(ends)) is None:
                repeats[ends] = [edge.id]
            else:
                same.append(edge.id)
                affected.add(ends)
        regrouped: set[str] = set()
        for ends in affected:
            group = self._repeats.get(ends, [])
            if len(group) > 1:
                group.sort(key=order.position)
            regrouped.update(group)
        return regrouped

    def _check(self, wf: Workflow, edge: Edge, inputs: Ports, outputs: Ports) -> str | None:
        """Checks one edge; the node whose input it feeds, if it feeds one."""
        first = self._repeats[edge.source, edge.source_port, edge.target, edge.target_port][0]
        if first != edge.id:
            self._edges[edge.id] = [error("duplicate_edge", f"Edge {edge.id} repeats edge {first} "
                                          f"({describe_ends(edge)}).", edge_id=edge.id)]
            return None
        message = edge_message(wf, edge, inputs, outputs)
        if message:
            self._edges[edge.id] = [error(message[0], message[1], edge_id=edge.id)]
        if edge.source not in wf.nodes:
            return None
        fed = (edge.target, edge.target_port)
        if (feeding := self._feeding.get(fed)) is None:
            self._feeding[fed] = {edge.id}
        else:
            feeding.add(edge.id)
        self._feeds[edge.id] = fed
        return edge.target

    def _unfeed(self, fed: tuple[str, str], edge_id: str) -> None:
        edges = self._feeding[fed]
        edges.discard(edge_id)
        if not edges:
            del self._feeding[fed]

    def gate_problems(self, wf: Workflow) -> list[Problem]:
        """`memory_checks.memory_problems(wf)` as of the last `update`."""
        return in_order(wf.nodes, self._gates)

    def _check_inputs(self, wf: Workflow, node_id: str, inputs: Ports, order: _EdgeOrder) -> None:
        self._inputs.pop(node_id, None)
        self._gates.pop(node_id, None)
        node = wf.nodes.get(node_id)
        if node is None:
            return
        if (gate := gate_problem(node, (node_id, "gate") in self._feeding)) is not None:
            self._gates[node_id] = [gate]
        if node_id not in inputs:
            return
        found: list[Problem] = []
        for port in inputs[node_id].values():
            edges = self._feeding.get((node_id, port.name), set())
            if port.required and not edges:
                found.append(missing_input(node, port))
            elif len(edges) > 1 and not port.multiple:
                ids = ", ".join(sorted(edges, key=order.position))
                found.append(error("multiple_inputs", f"The {port.name!r} input of {describe_node(node)} takes one "
                                   f"edge but has {len(edges)} ({ids}).", node_id=node_id,
                                   field=f"inputs.{port.name}"))
        if found:
            self._inputs[node_id] = found


class _EdgeOrder:
    """Each edge's place in the file, worked out the first time one is asked for (~1 ms at 15,000)."""

    def __init__(self, wf: Workflow) -> None:
        self._wf = wf
        self._positions: dict[str, int] | None = None

    def position(self, edge_id: str) -> int:
        if self._positions is None:
            self._positions = {eid: i for i, eid in enumerate(self._wf.edges)}
        return self._positions[edge_id]
