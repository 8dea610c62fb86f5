"""Detached copies of a workflow, for validating it on another thread while the editor goes on editing.

`ValidationSnapshots(wf)` keeps a private copy of each node of `wf` (id, role, title, its own
parameter dict), updated as the workflow announces changes — O(what changed), nothing per edit at
5,000 nodes beyond the edited node — and `take()` returns a new listener-less `Workflow` sharing those
node copies and a copy of the edge table, settings, contracts, name and description (~1 ms at 5,000 nodes /
15,000 edges). Validation reads only that copy.

Invariants: later edits of `wf` never show in a taken copy and a copy never changes `wf`; a node copy
is never changed after it is made (a change of the node makes a new copy), so copies taken one after
the other may share them. Parameter values are shared, not copied: the model replaces a value on
every change (`Workflow.set_param`; the undo commands store deep copies), never mutates one in place.
Edges and contracts are frozen and shared. Node positions (`ui`) are shared: validation never reads them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from engine.graph.model import Node, Workflow, WorkflowChange


def _node_copy(node: Node) -> Node:
    return Node(node.id, node.role, node.title, dict(node.params), node.ui)


class ValidationSnapshots:
    def __init__(self, wf: Workflow) -> None:
        self.workflow = wf
        self._nodes = {node_id: _node_copy(n) for node_id, n in wf.nodes.items()}
        self._unsubscribe: Callable[[], None] | None = wf.subscribe(self._on_change)

    def detach(self) -> None:
        """Stop following the workflow (idempotent); `take` must not be called afterwards."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None  # it holds `_on_change`, so `self`: kept, a cycle only the collector frees

    def _on_change(self, change: WorkflowChange) -> None:
        node_id = change.node_id
        if node_id is None or change.kind == "node_moved":
            return  # edges, settings and names are copied whole by `take`
        node = self.workflow.nodes.get(node_id)
        if node is None:
            self._nodes.pop(node_id, None)
        else:
            self._nodes[node_id] = _node_copy(node)

    def take(self) -> Workflow:
        wf = self.workflow
        copied = Workflow(wf.name, id=wf.id, description=wf.description)
        copied.settings = copy.deepcopy(wf.settings)
        copied.nodes = {node_id: self._nodes[node_id] for node_id in wf.nodes}  # the model's order
        copied.edges = dict(wf.edges)
        copied.contracts = wf.contracts  # a tuple of frozen contracts: `set_contracts` replaces it
        copied.ui = dict(wf.ui)
        return copied


def validation_copy(wf: Workflow) -> Workflow:
    """A one-off detached copy of `wf` (see the module's invariants)."""
    snapshots = ValidationSnapshots(wf)
    snapshots.detach()
    return snapshots.take()
