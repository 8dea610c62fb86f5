"""Whole-graph problems kept from one validation to the next: unbounded loops, shared input/output
names and contracts, each worked out again only when an edit could change it.

- Loops: the cycles are searched again when an edge or node was added or a node stopped bounding
  loops (only these can make a loop), or when loops were found before and an edge or node was
  removed or started bounding loops; otherwise the loops found are described again with the nodes'
  current titles.
- Names: again when a changed node is or was an Input or Output node.
- Contracts: again when the contracts changed, a node they name changed, or (when one names tools)
  a node that may call tools changed.

Invariant: each result equals what a full check of the workflow gives.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.graph.contract_checks import contract_problems
from engine.graph.contract_form import Contract
from engine.graph.cycles import bounds_loops, unbounded_cycles
from engine.graph.graph_changes import GraphChanges
from engine.graph.model import Node, Workflow
from engine.graph.problems import Problem
from engine.graph.specs import Role

__all__ = ["GraphChecks"]

_TOOL_ROLES = frozenset({Role.TOOL, Role.EXECUTOR, Role.MAP})


class GraphChecks:
    def __init__(self) -> None:
        self._cycles: list[list[str]] = []
        self._names: list[Problem] = []
        self._contracts: tuple[Contract, ...] | None = None
        self._named: set[str] = set()
        self._tools = False
        self._contract_problems: list[Problem] = []

    def cycles(self, wf: Workflow, changes: GraphChanges) -> list[list[str]]:
        grown = bool(changes.edges_added) or any(
            changes.added_node(nid) or _bound_change(wf, changes, nid) == (True, False)
            for nid in changes.nodes if nid in wf.nodes)
        if grown or (self._cycles and (bool(changes.edges_removed) or any(
                nid not in wf.nodes or _bound_change(wf, changes, nid) == (False, True) for nid in changes.nodes))):
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


def _may_call_tools(node: Node) -> bool:
    return node.role in _TOOL_ROLES


def _was_or_is(wf: Workflow, changes: GraphChanges, node_id: str, test: Callable[[Node], bool]) -> bool:
    return any(node is not None and test(node) for node in (changes.old_nodes.get(node_id), wf.nodes.get(node_id)))


def _bound_change(wf: Workflow, changes: GraphChanges, node_id: str) -> tuple[bool, bool]:
    """Whether the node bounded loops before and whether it does now (a node not there: False)."""
    old, new = changes.old_nodes.get(node_id), wf.nodes.get(node_id)
    return (old is not None and bounds_loops(old)), (new is not None and bounds_loops(new))
