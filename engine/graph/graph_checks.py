"""Whole-graph problems kept from one validation to the next: unbounded loops, shared input/output
names and contracts, each worked out again only when an edit could change it.

- Loops: with none before, only an added edge, an added node or a node that stopped bounding loops
  can make one, and it goes through it: a walk from each over unbounded nodes says whether the
  graph must be searched again; with loops before, they are searched again after any change of the
  edges, of the nodes present or of a loop bound. Otherwise the loops found are described again
  with the nodes' current titles.
- Names: again when a changed node is or was an Input or Output node.
- Contracts: again when the contracts changed, a node they name changed, or (when one names tools)
  a node that may call tools changed.

Invariant: each result equals what a full check of the workflow gives.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

from engine.graph.contract_checks import contract_problems
from engine.graph.contract_form import Contract
from engine.graph.cycles import bounds_loops, reaches_through_unbounded, unbounded_cycles
from engine.graph.graph_changes import EdgeIndex, GraphChanges
from engine.graph.model import Node, Workflow
from engine.graph.problems import Problem
from engine.graph.specs import Role

__all__ = ["GraphChecks"]

_MAX_WALKS = 16
_TOOL_ROLES = frozenset({Role.TOOL, Role.EXECUTOR, Role.MAP})


class GraphChecks:
    def __init__(self) -> None:
        self._cycles: list[list[str]] = []
        self._names: list[Problem] = []
        self._contracts: tuple[Contract, ...] | None = None
        self._named: set[str] = set()
        self._tools = False
        self._contract_problems: list[Problem] = []

    def cycles(self, wf: Workflow, changes: GraphChanges, index: EdgeIndex) -> list[list[str]]:
        if self._cycles:  # any change of the graph may have broken a loop or changed its path
            if changes.edges_added or changes.edges_removed or any(_joins_or_leaves(wf, changes, nid)
                                                                   for nid in changes.nodes):
                self._cycles = unbounded_cycles(wf)
        elif _may_close_loop(wf, changes, index):
            self._cycles = unbounded_cycles(wf)
        return self._cycles

    def names(self, wf: Workflow, changes: GraphChanges, find: Callable[[Workflow], list[Problem]]) -> list[Problem]:
        roles = ("input", "output")
        if any(_was_or_is(wf, changes, nid, lambda n: n.role in roles) for nid in changes.nodes):
            self._names = find(wf)
        return self._names

    def contracts(self, wf: Workflow, changes: GraphChanges) -> list[Problem]:
        if wf.contracts is not self._contracts:
            self._contracts = wf.contracts
            self._named = {nid for c in wf.contracts for nid in (*c.nodes, *c.gates)}
            self._tools = any(c.tools for c in wf.contracts)
            self._contract_problems = contract_problems(wf)
        elif any(nid in self._named or (self._tools and _was_or_is(wf, changes, nid, _may_call_tools))
                 for nid in changes.nodes):
            self._contract_problems = contract_problems(wf)
        return self._contract_problems


def _may_close_loop(wf: Workflow, changes: GraphChanges, index: EdgeIndex) -> bool:
    """With no loop before: whether an added edge, or a node added or no longer bounding loops, now
    lies on a loop of unbounded nodes (a new loop goes through one of them). Many of them (a first
    validation): True, the whole search is cheaper than a walk from each."""
    def successors(node_id: str) -> Iterator[str]:
        for edge_id in index.touching(node_id):
            if (edge := wf.edges[edge_id]).source == node_id:
                yield edge.target

    def free(node_id: str) -> bool:
        return (node := wf.nodes.get(node_id)) is not None and not bounds_loops(node)

    candidates = itertools.chain(
        ((e.target, e.source) for e in changes.edges_added if free(e.source) and free(e.target)),
        ((nid, nid) for nid in changes.nodes if index.connected(nid) and free(nid)
         and _joins_or_leaves(wf, changes, nid)))
    walks = list(itertools.islice(candidates, _MAX_WALKS + 1))
    if len(walks) > _MAX_WALKS:
        return True
    return any(reaches_through_unbounded(wf, successors, start, goal) for start, goal in walks)


def _joins_or_leaves(wf: Workflow, changes: GraphChanges, node_id: str) -> bool:
    """Whether the changed node was added or removed, or started or stopped bounding loops."""
    before, now = _bound_change(wf, changes, node_id)
    return changes.added_node(node_id) or node_id not in wf.nodes or before != now


def _may_call_tools(node: Node) -> bool:
    return node.role in _TOOL_ROLES


def _was_or_is(wf: Workflow, changes: GraphChanges, node_id: str, test: Callable[[Node], bool]) -> bool:
    return any(node is not None and test(node) for node in (changes.old_nodes.get(node_id), wf.nodes.get(node_id)))


def _bound_change(wf: Workflow, changes: GraphChanges, node_id: str) -> tuple[bool, bool]:
    """Whether the node bounded loops before and whether it does now (a node not there: False)."""
    old, new = changes.old_nodes.get(node_id), wf.nodes.get(node_id)
    return (old is not None and bounds_loops(old)), (new is not None and bounds_loops(new))
